// Embed mode (?embed=1) and the <gpufleet-calculator> custom element.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, linkOf, cli, text, screenshot, ROOT, SITE_DIR } from './helpers.mjs';
import { startServer } from '../../scripts/site-server.mjs';
import { VIEWS, OLD_VIEWS } from '../../web/app/views.js';

// The page's views, and the earlier views' ids that links and embeds still name (each opens the
// view that answers it now).
const IDS = [...VIEWS.map((v) => [v.id, v.id]), ...Object.entries(OLD_VIEWS)];

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

test('?embed=1 shows just the chosen calculator with its preset, without the tab bar', async () => {
  const page = await env.page('index.html?embed=1&view=fit&size=medium&workload=training&precision=bf16&instance=P5&gpus=1', { width: 800, height: 700 });
  assert.equal(await page.locator('[role=tablist]').count(), 0);
  assert.equal(await page.locator('.site-header').isVisible(), false);
  assert.equal(await page.locator('.site-footer').isVisible(), false);
  assert.equal(await page.getByTestId('screen-precisions').count(), 0);
  const r = cli({ question: 'fit', model: { size: 'medium' }, workload: 'training', precision: 'bf16', instance: 'P5', gpus: 1, hours_per_month: 720, use_spot: false }).result;
  assert.equal(await text(page, 'fit-status'), r.status);
  assert.equal(await text(page, 'fit-resolved-instance'), r.placement.instance);
  assert.match(await linkOf(page), /[?&]embed=1\b/);
  await screenshot(page, 'embed-fit');
});

test('the custom element renders an iframe of the page in embed mode that shows an answer', async () => {
  const page = await env.page(undefined, { width: 1280, height: 800 });
  await page.goto(`${env.origin}/embed-demo.html`);
  const iframe = page.locator('gpufleet-calculator iframe');
  await iframe.waitFor();
  const src = new URL(await iframe.getAttribute('src'));
  assert.equal(src.origin, env.origin);
  assert.equal(src.pathname, '/index.html');
  assert.equal(src.searchParams.get('embed'), '1');
  assert.equal(src.searchParams.get('view'), 'fit');
  assert.equal(src.searchParams.get('instance'), 'G6e');
  assert.ok((await iframe.getAttribute('title')).length > 0, 'the iframe has a title');
  await iframe.scrollIntoViewIfNeeded();
  const frame = page.frameLocator('gpufleet-calculator iframe');
  await frame.locator('html[data-ready="1"]').waitFor({ timeout: 15000 });
  const r = cli({ question: 'fit', model: { size: 'small' }, workload: 'inference', precision: 'fp16', instance: 'G6e', gpus: 1, hours_per_month: 720, use_spot: false }).result;
  assert.equal((await frame.getByTestId('fit-status').textContent()).trim(), r.status);
  assert.equal(await frame.locator('[role=tablist]').count(), 0);
  // It grows to its content (the page reports its height).
  await page.waitForFunction(() => document.querySelector('gpufleet-calculator iframe').getBoundingClientRect().height > 400);
  // The plain iframe snippet answers too.
  const plain = page.frameLocator('iframe[data-testid=demo-iframe]');
  await page.locator('iframe[data-testid=demo-iframe]').scrollIntoViewIfNeeded();
  await plain.locator('html[data-ready="1"]').waitFor({ timeout: 15000 });
  assert.equal((await plain.getByTestId('fit-status').textContent()).trim(), 'CANNOT FIT MODEL');
  await screenshot(page, 'embed-demo');
});

test('embed.js from another origin: <gpufleet-calculator> shows every view of the page\'s list, and the earlier views\' ids', async () => {
  // A host page on its own origin (a second server on another port) that loads embed.js from the
  // calculator's origin, as a docs site would; it serves its own strict CSP naming that origin.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpufleet-host-'));
  const csp = `default-src 'self'; script-src ${env.origin}; frame-src ${env.origin}; style-src 'self'; img-src data:`;
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>host</title>');
  for (const [id] of IDS) {
    fs.writeFileSync(path.join(dir, `${id}.html`), `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}"><title>host</title><link rel="icon" href="data:,">
<script type="module" src="${env.origin}/embed.js"></script></head>
<body><gpufleet-calculator view="${id}" height="600"></gpufleet-calculator></body></html>`);
  }
  const host = await startServer(dir);
  try {
    assert.notEqual(host.origin, env.origin);
    // A page of its own: the host's requests are on another origin by design.
    const page = await env.context.newPage();
    page.setDefaultTimeout(8000);
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    for (const [id, view] of IDS) {
      await page.goto(`${host.origin}/${id}.html`);
      const iframe = page.locator('gpufleet-calculator iframe');
      await iframe.waitFor();
      const src = new URL(await iframe.getAttribute('src'));
      assert.equal(src.origin, env.origin);
      assert.equal(src.searchParams.get('view'), id, `${id}: the element asks for its own view`);
      const frame = page.frameLocator('gpufleet-calculator iframe');
      await frame.locator('html[data-ready="1"]').waitFor({ timeout: 15000 });
      assert.equal(await frame.getByTestId(`screen-${view}`).count(), 1, `${id}: the frame shows the ${view} view`);
      await frame.locator(`[data-testid="${view}-result"][data-state="ready"]`).waitFor({ timeout: 15000 });
    }
    assert.deepEqual(errors, [], 'no CORS or CSP errors on the host page');
    await page.close();
  } finally {
    await host.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('from another origin, a source opened in the embedded view shows it; the catalog store fetches sources and prices from the base it was given', async () => {
  // The second origin serves a host page embedding Fit & memory, and, under paths of its own,
  // the staged site (calc/) and the page's modules (lib/): a page there that builds the store over
  // calc/config/ must fetch the full catalogs and other regions' prices from there, not ./config/.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpufleet-host-'));
  fs.symlinkSync(SITE_DIR, path.join(dir, 'calc'));
  fs.symlinkSync(path.join(ROOT, 'web/app'), path.join(dir, 'lib'));
  fs.mkdirSync(path.join(dir, 'docs'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>host</title>');
  const preset = 'model=llama-3-8b&precision=bf16&input=8192&instance=gpu:A100-40GB';
  fs.writeFileSync(path.join(dir, 'docs/fit.html'), `<!doctype html><html><head><meta charset="utf-8"><title>host</title>
<link rel="icon" href="data:,"><script type="module" src="${env.origin}/embed.js"></script></head>
<body><gpufleet-calculator view="fit" preset="${preset}" height="900"></gpufleet-calculator></body></html>`);
  fs.writeFileSync(path.join(dir, 'docs/store.html'), `<!doctype html><html><head><meta charset="utf-8"><title>host</title>
<link rel="icon" href="data:,"><script type="module">
import { loadGpufleet } from '../calc/gpufleet/gpufleet.js';
import { CatalogStore, fetchShippedTexts, LEFT_OUT } from '../lib/catalog-store.js';
try {
  const store = new CatalogStore(await loadGpufleet(), await fetchShippedTexts('../calc/config/'));
  await store.loadShipped();
  const lean = store.lean;
  await store.withSources();
  const memory = await store.ask(${JSON.stringify({ question: 'memory', model: { name: 'llama-3-8b' }, gpu: 'A100-40GB' })});
  await store.setRegion('eu-west-1');
  const fit = await store.ask(${JSON.stringify({ question: 'fit', model: { size: 'small' }, workload: 'inference', precision: 'fp16', instance: 'g6e.xlarge' })});
  window.answer = { lean, leanAfter: store.lean, leftOut: store.texts.modelConfig.includes(LEFT_OUT), source: memory.result?.model?.source, region: fit.result?.cost?.region };
} catch (e) { window.answer = { error: String(e?.message ?? e) }; }
</script></head><body></body></html>`);
  const host = await startServer(dir);
  try {
    assert.notEqual(host.origin, env.origin);
    const page = await env.context.newPage();
    page.setDefaultTimeout(8000);
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const fetched = [];
    page.on('request', (r) => fetched.push(r.url()));

    await page.goto(`${host.origin}/docs/fit.html`);
    const frame = page.frameLocator('gpufleet-calculator iframe');
    await frame.locator('[data-testid="fit-result"][data-state="ready"]').waitFor({ timeout: 15000 });
    const details = frame.locator('details', { hasText: 'Where the architecture comes from' });
    assert.match(await details.textContent(), /left out of the page's copy/);
    await details.locator('summary').click();
    const expected = cli({ question: 'memory', model: { name: 'llama-3-8b' }, gpu: 'A100-40GB' }).result.model.source;
    await frame.locator('details[open]', { hasText: expected.slice(0, 60) }).waitFor({ timeout: 15000 });
    assert.doesNotMatch(await details.textContent(), /left out of the page's copy/);
    assert.ok(fetched.includes(`${env.origin}/config/model_config.json`), 'the frame fetched the full catalog from the calculator\'s origin');

    fetched.length = 0;
    await page.goto(`${host.origin}/docs/store.html`);
    await page.waitForFunction(() => window.answer, null, { timeout: 15000 });
    const answer = await page.evaluate(() => window.answer);
    assert.deepEqual(answer, { lean: true, leanAfter: false, leftOut: false, source: expected, region: 'eu-west-1' });
    const config = fetched.filter((u) => u.includes('/config/')).map((u) => new URL(u).pathname);
    assert.ok(config.length >= 4, config.join(' '));
    for (const p of config) assert.ok(p.startsWith('/calc/config/'), `${p}: fetched from the store's base`);
    assert.deepEqual(errors, [], 'no console errors');
    await page.close();
  } finally {
    await host.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
