// The Deploy panel (issue 36): on Fit, the files equal the CLI's deploy answer for the request the
// view sent; Copy puts the file on the clipboard, Download saves it, and the zip holds every file
// (read back with fflate's unzipSync, the library the page bundles, here from npm directly).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { unzipSync, strFromU8 } from 'fflate';
import { setup, cli, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

test('deploy: the Fit view\'s Deploy panel shows, copies, downloads and zips the CLI\'s files', async () => {
  const page = await env.page('index.html?view=fit&model=llama-3.1-8b&instance=g6e.xlarge');
  await page.getByTestId('fit-result').and(page.locator('[data-state=ready]')).waitFor();
  const from = JSON.parse(await page.getByTestId('fit-request').textContent());
  const expected = cli({ question: 'deploy', target: 'all', from });
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const files = expected.result.files;
  await page.getByTestId('deploy-panel').locator('summary').click();
  await page.getByTestId('deploy-content').waitFor();
  const targets = await page.getByTestId('deploy-target').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(targets, [...new Set(files.map((f) => f.target))]);
  for (const target of ['kubernetes', 'terraform', 'ecs']) {
    await page.getByTestId('deploy-target').selectOption(target);
    const name = await page.getByTestId('deploy-file').inputValue();
    const file = files.find((f) => f.name === name);
    assert.equal(file.target, target);
    assert.equal(await page.getByTestId('deploy-content').textContent(), file.content);
  }
  // Copy.
  await env.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
  await page.getByTestId('deploy-target').selectOption('kubernetes');
  await page.getByTestId('deploy-copy').click();
  await page.getByTestId('deploy-status').filter({ hasText: 'Copied' }).waitFor();
  const k8s = files.find((f) => f.target === 'kubernetes');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), k8s.content);
  // Download.
  const [one] = await Promise.all([page.waitForEvent('download'), page.getByTestId('deploy-download').click()]);
  assert.equal(one.suggestedFilename(), k8s.name.split('/').pop());
  assert.equal(fs.readFileSync(await one.path(), 'utf8'), k8s.content);
  // Zip of every target.
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('deploy-zip').click()]);
  assert.equal(zip.suggestedFilename(), 'gpufleet-deploy.zip');
  const entries = unzipSync(new Uint8Array(fs.readFileSync(await zip.path())));
  assert.deepEqual(Object.keys(entries).sort(), files.map((f) => `gpufleet-deploy/${f.name}`).sort());
  for (const f of files) assert.equal(strFromU8(entries[`gpufleet-deploy/${f.name}`]), f.content, f.name);
  await screenshot(page, 'deploy-panel');
  env.checkClean();
});

test('deploy: the Auto-scaling view\'s panel writes KEDA and HPA from the recommended settings', async () => {
  const page = await env.page('index.html?view=autoscale&model=llama-3.1-8b&instance=p5.4xlarge&ttft=500');
  await page.getByTestId('autoscale-result').and(page.locator('[data-state=ready]')).waitFor();
  const from = JSON.parse(await page.getByTestId('as-request').textContent());
  const expected = cli({ question: 'deploy', target: 'all', from });
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  await page.getByTestId('deploy-panel').locator('summary').click();
  await page.getByTestId('deploy-content').waitFor();
  for (const target of ['keda', 'hpa']) {
    await page.getByTestId('deploy-target').selectOption(target);
    const file = expected.result.files.find((f) => f.target === target);
    assert.equal(await page.getByTestId('deploy-content').textContent(), file.content);
  }
  // The view's own KEDA block and the panel's file come from one writer.
  const keda = expected.result.files.find((f) => f.target === 'keda').content;
  assert.equal(cli(from).result.recommended.keda_scaled_object, keda);
  env.checkClean();
});
