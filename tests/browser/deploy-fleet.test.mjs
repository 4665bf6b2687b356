// The Deploy panel (issue 36) on the views of several deployments: Placement (the packing's node
// group, and the models it leaves out with the reason), Decide inside Deployments (the cheapest
// NVIDIA GPU option when the rules pick another kind) and Regions (one set of files per region).
// Each shows the CLI's deploy files for the request the view sent, and copies and downloads them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setup, cli } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

/** Opens the panel inside `scope`, checks every file against `expected`, copies and downloads one. */
async function assertPanel(page, scope, expected) {
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const files = expected.result.files;
  await scope.getByTestId('deploy-panel').locator('summary').click();
  await scope.getByTestId('deploy-content').waitFor();
  const targets = await scope.getByTestId('deploy-target').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(targets, [...new Set(files.map((f) => f.target))]);
  for (const target of targets) {
    await scope.getByTestId('deploy-target').selectOption(target);
    const names = await scope.getByTestId('deploy-file').locator('option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(names, files.filter((f) => f.target === target).map((f) => f.name));
    for (const name of names) {
      await scope.getByTestId('deploy-file').selectOption(name);
      assert.equal(await scope.getByTestId('deploy-content').textContent(), files.find((f) => f.name === name).content, name);
    }
  }
  const file = files.find((f) => f.name === (files.find((x) => x.target === targets[0])).name);
  await scope.getByTestId('deploy-target').selectOption(file.target);
  await scope.getByTestId('deploy-file').selectOption(file.name);
  await env.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
  await scope.getByTestId('deploy-copy').click();
  await scope.getByTestId('deploy-status').filter({ hasText: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), file.content);
  const [one] = await Promise.all([page.waitForEvent('download'), scope.getByTestId('deploy-download').click()]);
  assert.equal(one.suggestedFilename(), file.name.split('/').pop());
  assert.equal(fs.readFileSync(await one.path(), 'utf8'), file.content);
  return files;
}

test('deploy: Placement\'s panel writes the packing\'s node group and names the models it leaves out', async () => {
  const page = await env.page('index.html?view=placement');
  await page.getByTestId('placement-result').and(page.locator('[data-state=ready]')).waitFor();
  const from = {
    question: 'placement',
    models: [{ name: 'whisper-large-v3', memory_gb: 10 }, { name: 'kokoro-tts', memory_gb: 2 },
      { name: 'custom-7b', model: { params_b: 7 }, workload: 'inference', precision: 'fp16' }],
    instance: 'g5.12xlarge', hours_per_month: 720, pricing: 'on_demand',
  };
  const expected = cli({ question: 'deploy', target: 'all', from });
  const files = await assertPanel(page, page.getByTestId('placement-result'), expected);
  assert.ok(files.some((f) => f.target === 'eksctl' && f.content.includes('g5.12xlarge')));
  // Seed 000's models are given by memory or size: no weights to serve, each named with why.
  const refused = await page.getByTestId('placement-result').getByTestId('deploy-refused').locator('li').allTextContents();
  for (const m of ['whisper-large-v3', 'kokoro-tts', 'custom-7b']) assert.ok(refused.some((t) => t.includes(m)), m);
  env.checkClean();
});

test('deploy: Decide\'s panel writes the cheapest NVIDIA GPU option when the rules pick another kind', async () => {
  const page = await env.page('index.html?view=deployments&model=llama-3.1-8b&rps=5');
  await page.getByTestId('deployments-result').and(page.locator('[data-state=ready]')).waitFor();
  const decide = page.getByTestId('decide-details');
  await decide.locator('summary').first().click();
  const asked = JSON.parse(await decide.getByTestId('decide-request').textContent());
  const r = cli(asked).result;
  const pick = r.options.find((o) => o.recommended);
  const gpu = r.options.findIndex((o) => o.kind === 'gpu' && o.cheapest_instance);
  const extra = pick.kind === 'gpu' ? {} : { candidate: gpu };
  const expected = cli({ question: 'deploy', target: 'all', from: asked, ...extra });
  await assertPanel(page, decide, expected);
  assert.equal(expected.result.deployments[0].instance, r.options[pick.kind === 'gpu' ? r.options.indexOf(pick) : gpu].cheapest_instance.instance);
  if (pick.kind !== 'gpu') assert.match(await decide.getByTestId('deploy-note').textContent(), /NVIDIA GPU/);
  env.checkClean();
});

test('deploy: the Regions view\'s panel writes one set of files per region the answer places', async () => {
  const page = await env.page(`index.html?view=regions&model=llama-3.1-8b&rps=2&type=g5.xlarge&candidates=us-east-1,us-west-2&users=${encodeURIComponent('us-east-1 0.6; us-west-2 0.4')}`);
  await page.getByTestId('regions-result').and(page.locator('[data-state=ready]')).waitFor({ timeout: 20000 });
  const from = JSON.parse(await page.getByTestId('rg-request').textContent());
  const expected = cli({ question: 'deploy', target: 'all', from });
  const files = await assertPanel(page, page.getByTestId('regions-result'), expected);
  const placed = cli(from).result.regions_chosen;
  assert.equal(expected.result.deployments.length, placed.length);
  for (const c of placed) assert.ok(files.some((f) => f.target === 'kubernetes' && f.content.includes(`in ${c.region} (`)), c.region);
  env.checkClean();
});

test('deploy: the Plan view\'s panel writes each workload\'s node group and refuses the serving files', async () => {
  const page = await env.page('index.html?view=plan');
  await page.getByTestId('plan-result').and(page.locator('[data-state=ready]')).waitFor();
  const plan = JSON.parse(await page.getByTestId('plan-json').inputValue());
  const from = { question: 'plan', plan };
  const expected = cli({ question: 'deploy', target: 'all', from });
  const files = await assertPanel(page, page.getByTestId('plan-result'), expected);
  const workloads = plan.environments.flatMap((e) => e.workloads);
  assert.equal(expected.result.deployments.length, workloads.length);
  for (const w of workloads) assert.ok(files.some((f) => f.target === 'eksctl' && f.content.includes(`"${w.instance}"`)), w.name);
  assert.ok(!files.some((f) => f.target === 'kubernetes'), 'a plan names no model: no serving files');
  const refused = expected.result.targets.filter((t) => !t.applies).map((t) => t.target);
  assert.ok(refused.includes('kubernetes') && refused.includes('ecs'), refused.join());
  env.checkClean();
});
