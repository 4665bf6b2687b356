// Loading your own catalog: a broken file is reported with file, JSON path and message, the page
// keeps answering from the catalog in use; a valid one is used everywhere; reset restores the
// shipped catalog; the catalog in use can be downloaded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, cli, text, assertNear, afterChange, screen, SITE_DIR } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const shipped = (file) => fs.readFileSync(path.join(SITE_DIR, 'config', file), 'utf8');

/** A config dir with one file replaced, for the CLI's reference answer. */
function configWith(file, textOf) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpufleet-config-'));
  for (const f of ['gpu_instances.json', 'model_config.json', 'workloads.json']) fs.writeFileSync(path.join(dir, f), shipped(f));
  fs.writeFileSync(path.join(dir, file), textOf);
  return dir;
}

function brokenInstances() {
  const doc = JSON.parse(shipped('gpu_instances.json'));
  doc.gpu_instances.P5.spot_cost_per_hour = 'abc';
  return JSON.stringify(doc);
}

async function errorsShown(page) {
  const region = page.getByTestId('cat-load-errors');
  await region.waitFor({ state: 'visible' });
  return region.locator('[data-testid=error]').evaluateAll((items) => items.map((li) => ({
    code: li.querySelector('[data-testid=error-code]').textContent,
    file: li.querySelector('[data-testid=error-file]').textContent,
    path: li.querySelector('[data-testid=error-path]').textContent,
    message: li.querySelector('[data-testid=error-message]').textContent,
  })));
}

const fitUrl = 'index.html?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1';
const fitRequest = { question: 'fit', model: { size: 'small' }, workload: 'inference', precision: 'fp16', instance: 'G6e', gpus: 1, hours_per_month: 720, use_spot: false };

test('a broken gpu_instances.json (pasted) shows file, path and message; the page keeps working', async () => {
  const page = await env.page('index.html?view=catalog');
  const broken = brokenInstances();
  const reference = cli({ question: 'validate' }, configWith('gpu_instances.json', broken));
  assert.equal(reference.ok, false);

  await page.getByLabel('File to replace').selectOption({ label: 'gpu_instances.json' });
  await page.getByLabel('Or paste JSON for that file').fill(broken, { timeout: 20000 });
  await page.getByTestId('cat-load').click();
  const shown = await errorsShown(page);
  assert.ok(shown.some((e) => e.file === 'gpu_instances.json' && e.path === '/gpu_instances/P5/spot_cost_per_hour'), JSON.stringify(shown));
  assert.deepEqual(shown, reference.errors.map(({ code, file, path: p, message }) => ({ code, file, path: p, message })));
  assert.equal(await page.getByTestId('cat-load-errors').getAttribute('role'), 'alert');
  assert.equal(await text(page, 'cat-origin'), 'shipped catalog');

  // Switching screens still answers, from the catalog in use.
  await page.getByTestId('tab-fit').click();
  const fit = cli(fitRequest).result;
  assert.equal(await text(page, 'fit-status'), fit.status);
  await page.getByTestId('tab-deployments').click();
  await page.getByTestId('deployments-result').getByTestId('rec-table').waitFor();
  await page.getByTestId('tab-catalog').click();
  assert.equal(await text(page, 'val-valid'), 'VALID');
});

test('a broken file upload is reported too; a valid upload is used everywhere; reset restores', async () => {
  const page = await env.page('index.html?view=catalog');
  await page.getByTestId('cat-upload').setInputFiles({ name: 'gpu_instances.json', mimeType: 'application/json', buffer: Buffer.from(brokenInstances()) });
  const shown = await errorsShown(page);
  assert.equal(shown[0].file, 'gpu_instances.json');
  assert.equal(shown[0].path, '/gpu_instances/P5/spot_cost_per_hour');
  assert.match(shown[0].message, /abc/);

  // A valid model_config.json with a 20B small class.
  const models = JSON.parse(shipped('model_config.json'));
  models.model_sizes.small.parameter_count_billion = 20;
  const modelsText = JSON.stringify(models, null, 2);
  await page.getByTestId('cat-upload').setInputFiles({ name: 'model_config.json', mimeType: 'application/json', buffer: Buffer.from(modelsText) });
  await page.getByTestId('cat-load-errors').waitFor({ state: 'hidden' });
  assert.match(await text(page, 'cat-status'), /^Loaded model_config\.json/);
  // The view is drawn again from the new catalog's answer, which comes after the status line.
  await page.waitForFunction(() => document.querySelector('[data-testid=cat-origin]')?.textContent === 'your own catalog', null, { timeout: 15000 });

  await page.getByTestId('tab-fit').click();
  await afterChange(page, 'fit', () => screen(page).getByLabel('Model', { exact: true }).selectOption('small'));
  const own = cli(fitRequest, configWith('model_config.json', modelsText)).result;
  assertNear(await text(page, 'fit-memory-weights'), own.memory.weights_gb, 0.005, 'weights with the uploaded catalog');

  // The download offers exactly the catalog in use.
  await page.getByTestId('tab-catalog').click();
  const link = page.getByTestId('cat-download-model_config.json');
  assert.equal(await link.getAttribute('download'), 'model_config.json');
  assert.match(await link.getAttribute('href'), /^blob:/);
  const download = async (testid) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
    return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
  };
  const one = await download('cat-download-model_config.json');
  assert.equal(one.name, 'model_config.json');
  assert.equal(one.text, modelsText);
  const all = await download('cat-download-bundle');
  const bundle = JSON.parse(all.text);
  assert.deepEqual(Object.keys(bundle), ['gpu_instances.json', 'model_config.json', 'workloads.json']);
  assert.equal(bundle['model_config.json'].model_sizes.small.parameter_count_billion, 20);

  await page.getByTestId('cat-reset').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=cat-origin]')?.textContent === 'shipped catalog', null, { timeout: 15000 });
  await page.getByTestId('tab-fit').click();
  const back = cli(fitRequest).result;
  assertNear(await text(page, 'fit-memory-weights'), back.memory.weights_gb, 0.005, 'weights after reset');
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
