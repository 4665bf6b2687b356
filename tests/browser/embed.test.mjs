// Embed mode (?embed=1) and the <gpufleet-calculator> custom element.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, text, screenshot } from './helpers.mjs';

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

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
