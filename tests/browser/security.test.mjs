// A strict CSP, catalog strings rendered as text (never as markup), no inline styles, offline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setup, open, text, numberIn, SITE_DIR } from './helpers.mjs';
import { VIEWS as PAGE_VIEWS } from '../../web/app/views.js';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

test('every page carries the strict Content-Security-Policy (no unsafe-inline, no unsafe-eval)', async () => {
  for (const file of ['index.html', 'embed-demo.html']) {
    const html = fs.readFileSync(path.join(SITE_DIR, file), 'utf8');
    const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
    assert.ok(csp, `${file} has a CSP`);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'( 'sha256-[A-Za-z0-9+/=]+')*;/);
    assert.match(csp, /object-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'/);
    // An inline script or style sheet runs only where the policy names its exact text's hash
    // (scripts/stage-site.sh writes style.css and prerendered.js into index.html so).
    for (const [, element, text] of html.matchAll(/<(script|style)(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/\1>/g)) {
      const hash = `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
      const directive = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${element}-src `));
      assert.ok(directive?.split(' ').includes(hash), `${file}: an inline ${element} whose hash ${hash} the policy does not name`);
    }
    assert.doesNotMatch(html, /\sstyle="/, `${file} has no style attribute`);
    assert.doesNotMatch(html, /https?:\/\/(?!YOUR-GPUFLEET-SITE)/, `${file} links nothing off its origin`);
  }
});

test("a host's own CSP header that names none of the staged hashes: the page takes style.css and prerendered.js, and answers", async () => {
  const page = await env.context.newPage();
  const refused = [];
  page.on('console', (m) => { if (m.type() === 'error') refused.push(m.text()); });
  // The strictest header a host might add: no hashes, so the inline style sheet and script are refused.
  await page.route((url) => url.pathname === '/' || url.pathname.endsWith('/index.html'), async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:" } });
  });
  await open(page, `${env.origin}/?view=fit&region=eu-west-1&theme=dark`);
  assert.ok(refused.some((m) => /Content Security Policy/i.test(m)), 'the header refused the inline style sheet');
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).display), 'flex', 'the style sheet applies');
  assert.equal(await page.locator('link[rel=stylesheet][href="./style.css"]').count(), 1);
  // prerendered.js from its file: the link's theme.
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.ok(numberIn(await text(page, 'fit-per-gpu-gb')) > 0, 'the page answers');
  await page.close();
});

test('catalog strings with markup render as text', async () => {
  const page = await env.page('index.html?view=catalog');
  const models = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'config/model_config.json'), 'utf8'));
  const evil = '<img src=x onerror="window.__pwned=1"><b>Small</b>';
  models.model_sizes.small.name = evil;
  await page.getByLabel('File to replace').selectOption({ label: 'model_config.json' });
  await page.getByLabel('Or paste JSON for that file').fill(JSON.stringify(models));
  await page.getByTestId('cat-load').click();
  // Loading is asynchronous (the catalog loader is fetched on first use).
  await page.getByTestId('cat-origin').getByText('your own catalog').waitFor();
  // The parts below the window are drawn when the page is next idle (web/app/in-place.js).
  await page.waitForFunction(() => document.querySelector('[data-testid=catalog-result]')?.dataset.drawing === undefined);
  assert.equal(await text(page, 'cat-origin'), 'your own catalog');
  assert.equal(await page.locator('main img, main b').count(), 0);
  assert.ok(await page.getByTestId('cat-models').getByText(evil).count() > 0, 'the name is shown as text');
  await page.getByTestId('tab-fit').click();
  const option = await page.locator('#wf-model option[value=small]').textContent();
  assert.ok(option.startsWith(evil), option);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  // No element carries an inline style attribute on any screen.
  for (const tab of PAGE_VIEWS.map((v) => v.id)) await page.getByTestId(`tab-${tab}`).click();
  assert.equal(await page.locator('[style]').count(), 0);
});

test('the embind core loads and answers under the page\'s CSP: no securitypolicyviolation, no console error', async () => {
  // A page of its own (not env.page): the probe at the end is a violation on purpose.
  const page = await env.context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const wasm = [];
  page.on('response', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r.status()); });
  await open(page, `${env.origin}/index.html?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1`);
  assert.deepEqual(wasm, [200], 'the module was fetched once');
  const fp16 = await text(page, 'fit-per-gpu-gb');
  assert.ok(parseFloat(fp16) > 0, 'the core answered');
  // A recompute goes through the core again: int8 halves the weights.
  await page.locator('#wf-precision').selectOption('int8');
  await page.waitForFunction((b) => document.querySelector('[data-testid=fit-per-gpu-gb]')?.textContent !== b, fp16);
  assert.ok(parseFloat(await text(page, 'fit-per-gpu-gb')) < parseFloat(fp16));
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'CSP violations');
  assert.deepEqual(errors, [], 'console errors');
  // The listener hears violations and the policy is in force: an inline script is refused.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.head.append(script);
  });
  await page.waitForFunction(() => window.__violations.length > 0);
  assert.match((await page.evaluate(() => window.__violations))[0], /^script-src/);
  assert.equal(await page.evaluate(() => window.__inlineRan), undefined);
  await page.close();
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
