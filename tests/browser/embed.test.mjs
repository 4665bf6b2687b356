// Embed mode (?embed=1) and the <gpufleet-calculator> custom element.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, cli, text, screenshot } from './helpers.mjs';
import { startServer } from './server.mjs';
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
  assert.match(page.url(), /[?&]embed=1\b/);
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

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
