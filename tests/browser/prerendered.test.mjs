// The default view's answer in the staged HTML (scripts/prerender.mjs): what a visitor sees in the
// first frame, before the core has loaded. It must say what the live page says, be inert, give way
// to the live page, and never show under a link with inputs of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, cli, assertNear } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

/** Every figure with a test id in the [data-prerendered] copy of the page's HTML and what the
 *  live page shows for the same id: [id, copy, live]. What an element shows: a control's value (a
 *  select's option shown), else its text; left out: what the copy shortens (a container of
 *  selects, disclosures or other figures, or what a closed disclosure holds). */
const figures = (page) => page.evaluate(async () => {
  const shown = (n) => (n.tagName === 'SELECT' ? n.selectedOptions[0]?.textContent.trim() ?? ''
    : n.tagName === 'INPUT' ? (n.type === 'checkbox' ? String(n.checked) : n.value)
      // A group of fields or figures is compared one by one (the first screen may end inside it).
      : n.closest('details:not([open])') || n.querySelector('select, input, details, datalist, [data-testid]') ? null : seen(n));
  // The text on screen: tooltips and screen-reader text are not (and the copy leaves them out).
  const seen = (n) => { const c = n.cloneNode(true); c.querySelectorAll('title, .sr-only').forEach((t) => t.remove()); return c.textContent.trim(); };
  const html = await (await fetch('./index.html')).text();
  const wrapper = new DOMParser().parseFromString(html, 'text/html').querySelector('#main > [data-prerendered]');
  if (!wrapper) return null;
  return [...wrapper.querySelectorAll('[data-testid]')].filter((n) => shown(n) !== null)
    .map((n) => [n.dataset.testid, shown(n), (() => { const live = document.querySelector(`#main [data-testid="${n.dataset.testid}"]`); return live && shown(live); })()]);
});

/** A page whose module never arrives: what the first frames show before the page's script runs. */
async function withoutScript(url) {
  const page = await env.page();
  await page.route('**/app/main.js', (r) => r.abort());
  await page.goto(`${env.origin}/${url}`);
  return page;
}

test('the staged page holds the default answer, and it says what the live page says', async () => {
  const page = await env.page('');
  const copy = await figures(page);
  assert.ok(copy, 'index.html has no [data-prerendered] copy of the default view');
  const ids = copy.map(([id]) => id);
  // The first screen's form asks the traffic: the kind of accelerator and the request rate.
  for (const id of ['fit-per-gpu-gb', 'fit-status', 'fit-utilization', 'fit-layout', 'wf-model', 'fit-kind', 'wf-rps']) assert.ok(ids.includes(id), `the copy lacks ${id}`);
  assert.ok(copy.length >= 12, `only ${copy.length} figures in the copy`);
  // The live page, answered by the core in this browser: every figure of the copy, word for word.
  for (const [id, shown, live] of copy) assert.equal(shown, live, `${id}: the copy says ${JSON.stringify(shown)}, the live page ${JSON.stringify(live)}`);
  // And that is the CLI's answer for the same inputs.
  const answer = cli(JSON.parse(await page.getByTestId('fit-request').textContent()));
  assert.equal(answer.ok, true, JSON.stringify(answer.errors));
  assertNear(copy.find(([id]) => id === 'fit-per-gpu-gb')[1], answer.result.fit.per_gpu_gb, 0.005, 'memory per GPU in the copy');
  assert.equal(await page.locator('[data-prerendered]').count(), 0, 'the copy is still in the document after the live answer');
  env.checkClean();
});

test('before the script runs, the copy is on screen, inert, and the live page hidden', async () => {
  const page = await withoutScript('');
  const figure = page.locator('[data-prerendered] [data-testid="fit-per-gpu-gb"]');
  assert.ok(await figure.isVisible(), 'the default answer is not shown before the script runs');
  assert.match((await figure.textContent()).trim(), /^\d+(\.\d+)? GB$/);
  assert.ok(await page.locator('#main > [data-prerendered]').evaluate((n) => n.inert), 'the copy can be used');
  // Its inputs show the default values the live form starts from.
  const workload = page.locator('[data-prerendered] select').first();
  assert.equal(await workload.locator('option').count(), 1, 'a copied select keeps only the option shown');
  await page.close();
});

for (const url of ['?view=deployments', '?view=fit&model=llama-3.1-8b', '?embed=1', '#main']) {
  test(`a link with inputs of its own never shows the copy: ${url}`, async () => {
    const page = await withoutScript(url);
    await page.waitForLoadState('load');
    assert.equal(await page.locator('[data-prerendered]').first().isVisible(), false, 'the default answer is shown under another link');
    assert.equal(await page.locator('[data-testid="fit-per-gpu-gb"]').first().isVisible(), false);
    await page.close();
    const live = await env.page();
    await open(live, `${env.origin}/${url}`);
    assert.equal(await live.locator('[data-prerendered]').count(), 0);
    await live.close();
  });
}

/** When the core and the live page's module were requested, and by what, against the page's first
 *  paint and the live page's start (ms after navigation). */
const requests = (page) => page.evaluate(() => {
  const find = (re) => performance.getEntriesByType('resource').find((r) => re.test(new URL(r.name).pathname));
  const core = find(/\/gpufleet\/gpufleet_core\.wasm$/);
  return {
    paint: performance.getEntriesByName('first-paint')[0]?.startTime,
    start: performance.getEntriesByName('gpufleet:start')[0]?.startTime,
    core: core && { at: core.startTime, by: core.initiatorType },
    pageChunkAt: Math.min(...performance.getEntriesByType('resource').filter((r) => /\/app\/chunk-/.test(r.name)).map((r) => r.startTime)),
  };
});

test('the plain address paints its copy before the live page is requested; a link requests it at once', async () => {
  const plain = await env.page();
  await open(plain, `${env.origin}/`);
  const first = await requests(plain);
  assert.ok(Number.isFinite(first.paint), 'no first paint recorded');
  assert.ok(Number.isFinite(first.pageChunkAt), 'no chunk of the live page was requested');
  assert.ok(first.start >= first.paint, `the live page started at ${first.start} ms, before the first paint at ${first.paint} ms`);
  assert.ok(first.core.at >= first.paint, `the core was requested at ${first.core.at} ms, before the first paint at ${first.paint} ms`);
  assert.ok(first.pageChunkAt >= first.paint, `the live page's module was requested at ${first.pageChunkAt} ms, before the first paint at ${first.paint} ms`);
  assert.equal(first.core.by, 'link', 'the core was not requested by prerendered.js');
  await plain.close();
  const linked = await env.page();
  await open(linked, `${env.origin}/?view=fit&region=eu-west-1`);
  const link = await requests(linked);
  assert.equal(link.core.by, 'link', 'under a link the core was not requested by prerendered.js');
  assert.ok(link.core.at < link.start, `under a link the core was requested at ${link.core.at} ms, after the live page started at ${link.start} ms`);
  await linked.close();
});

test('a page whose first paint is reported late (opened in the background) starts after a second, and fetches each file once', async () => {
  const page = await env.page();
  await page.addInitScript(() => {
    const Real = PerformanceObserver;
    window.PerformanceObserver = class extends Real {
      constructor(callback) { super((...args) => setTimeout(() => callback(...args), 1500)); }
    };
  });
  await open(page, `${env.origin}/`);
  assert.equal(await page.locator('[data-prerendered]').count(), 0, 'the live page did not replace the copy');
  await page.waitForTimeout(1000);  // past the late paint
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname));
  for (const file of ['/gpufleet/gpufleet_core.wasm', '/config/page/catalog.pack']) {
    assert.equal(fetched.filter((p) => p === file).length, 1, `${file} fetched ${fetched.filter((p) => p === file).length} times`);
  }
  await page.close();
});
