// A hostile catalog: every free-text string of the three catalog files holds script and HTML
// payloads. Uploaded into the page, nothing executes (no dialog, no injected element), no request
// leaves the origin, the payloads show as literal text, and the page still answers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, text, screen, SITE_DIR } from './helpers.mjs';
import { VIEWS as PAGE_VIEWS } from '../../web/app/views.js';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const PAYLOAD = '<img src=x onerror="alert(1)"><script>alert(2)</script>"><svg onload=alert(3)>' +
  '<a href="javascript:alert(4)">x</a><iframe src="https://evil.example/"></iframe>{{7*7}}';
const FAMILY = '<img src=https://evil.example/f.png onerror=alert(5)>';

// Values that other fields refer to by name, or that are enums, keep their meaning.
const REFERENCES = new Set(['gpu_model', 'provider', 'accelerator_kind', 'current_instance', 'model_size',
  'workload_type', 'precision', 'priority', 'region', 'model_type', 'kv_cache', 'upfront', 'reserved_1y', 'reserved_3y',
  'kv_cache_share_of', 'pool_sizing', 'pool', 'network_fabric', 'tied_head_apart_engines', 'compute_capability',
  'cudnn_preferred_on']);

function poison(value, key) {
  if (typeof value === 'string') return REFERENCES.has(key) ? value : `${value} ${PAYLOAD}`;
  if (Array.isArray(value)) return key === 'native_architectures' ? value : value.map((v) => poison(v, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
  }
  return value;
}

function hostileCatalog() {
  const read = (f) => JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'config', f), 'utf8'));
  const instances = poison(read('gpu_instances.json'));
  // A family key and an instance name that are payloads too (nothing refers to them).
  instances.gpu_instances[FAMILY] = instances.gpu_instances['GCP-G2'];
  delete instances.gpu_instances['GCP-G2'];
  instances.gpu_instances[FAMILY].instance_type = `g2-${PAYLOAD}`;
  const workloads = read('workloads.json');
  const sets = workloads.workload_sets;  // ids are references
  const poisoned = poison(workloads);
  poisoned.workload_sets = sets;
  return {
    'gpu_instances.json': JSON.stringify(instances),
    'model_config.json': JSON.stringify(poison(read('model_config.json'))),
    'workloads.json': JSON.stringify(poisoned),
  };
}

test('a catalog full of script and HTML payloads executes nothing and the page still answers', async () => {
  const page = await env.page('index.html?view=catalog');
  const dialogs = [];
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  const files = Object.entries(hostileCatalog()).map(([name, body]) => ({ name, mimeType: 'application/json', buffer: Buffer.from(body) }));
  await page.getByTestId('cat-upload').setInputFiles(files);
  await page.waitForFunction(() => document.querySelector('[data-testid=cat-origin]')?.textContent === 'your own catalog', null, { timeout: 15000 });

  const injected = () => page.evaluate(() => ({
    images: document.querySelectorAll('img').length,
    inlineScripts: document.querySelectorAll('script:not([src])').length,
    iframes: document.querySelectorAll('iframe').length,
    svgsWithHandlers: document.querySelectorAll('svg[onload]').length,
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
    javascriptLinks: document.querySelectorAll('a[href^="javascript:"]').length,
  }));
  // The page's own inline script (prerendered.js, under its hash in the policy) is the one expected.
  const none = { images: 0, inlineScripts: 1, iframes: 0, svgsWithHandlers: 0, handlers: 0, javascriptLinks: 0 };

  // The payloads are on the page, as text.
  assert.ok(await page.getByText(FAMILY).count() > 0, 'the payload family name is shown as text');
  assert.deepEqual(await injected(), none);

  // Every screen still answers with the hostile catalog in use.
  for (const view of PAGE_VIEWS.map((v) => v.id)) {
    await page.getByTestId(`tab-${view}`).click();
    await page.waitForTimeout(150);
    assert.deepEqual(await injected(), none, `after opening ${view}`);
  }
  // A model of the catalog on one GPU alone: its name, with its payload, is shown as text.
  await page.getByRole('tab', { name: /Fit/ }).click();
  const model = await page.locator('#wf-model option[value^="model:"]').first().getAttribute('value');
  const gpu = await page.locator('#wf-instance option[value^="gpu:"]').first().getAttribute('value');
  await page.locator('#wf-model').selectOption(model);
  await page.locator('#wf-instance').selectOption(gpu);
  await page.waitForFunction(() => document.querySelector('[data-testid=mem-model-name]'));
  assert.ok((await text(page, 'mem-model-name')).includes(PAYLOAD), 'the model name with its payload is shown as text');
  assert.deepEqual(await injected(), none, 'after the memory answer');
  await page.locator('#wf-instance').selectOption(await page.locator('#wf-instance option:not([value^="gpu:"]):not([value^="any:"])').first().getAttribute('value'));
  const status = await screen(page).getByTestId('fit-status').first().textContent().catch(() => '');
  assert.match(status ?? '', /FITS|CANNOT FIT/);
  assert.deepEqual(dialogs, [], 'a dialog opened');
  assert.equal(await text(page, 'cat-origin').catch(() => 'your own catalog'), 'your own catalog');
  env.checkClean();
});
