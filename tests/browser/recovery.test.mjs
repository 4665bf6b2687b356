// The page survives its core: when the WebAssembly module dies (an abort or a trap), the page
// loads a fresh one with the catalog in use, says so, and answers again; Reset still works. A
// link with thousands of placement models builds a bounded form instead of freezing the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, open, text } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

/** The facade as served, each call into the module going through globalThis.__gpufleetHook when
 *  a test sets one: (core, name, args) => result, free to throw as a dying module does. */
async function withHook(page) {
  await page.route('**/gpufleet/gpufleet.js', async (route) => {
    const response = await route.fetch();
    const text = await response.text();
    // The facade calls the core's embind functions as core.create(), core.request(door, size) and
    // core.analyze(door) on a local variable (one name after minification).
    const body = text.replace(/\b(\w+)\.(analyze|create|request)\(/g, (_, core, fn) =>
      `((...a)=>globalThis.__gpufleetHook?globalThis.__gpufleetHook(${core},"${fn}",a):${core}.${fn}(...a))(`);
    assert.notEqual(body, text, 'the facade has the calls to wrap');
    await route.fulfill({ response, body });
  });
}

test('a module that dies is replaced: the page says so, answers again, and Reset works', async () => {
  const page = await env.page();
  await withHook(page);
  await open(page, `${env.origin}/index.html?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1`);
  const before = await text(page, 'fit-per-gpu-gb');
  // The module in use dies at its next call, as an abort leaves it: every later call traps too.
  await page.evaluate(() => {
    let dead = null;
    globalThis.__gpufleetHook = (core, fn, args) => {
      if (dead === null) dead = core;
      if (core === dead) throw new WebAssembly.RuntimeError('unreachable');
      return core[fn](...args);
    };
  });
  await page.locator('#fit-precision').selectOption('int8');
  await page.getByTestId('app-errors').getByText('restarted its core').waitFor();
  assert.match(await page.getByTestId('app-errors').innerText(), /core_restarted/);
  // The restarted core answers the inputs on screen: int8 halves the weights.
  await page.waitForFunction((b) => document.querySelector('[data-testid=fit-per-gpu-gb]')?.textContent !== b, before);
  assert.ok(parseFloat(await text(page, 'fit-per-gpu-gb')) < parseFloat(before));
  // Reset builds the shipped catalog on the new module.
  await page.getByTestId('tab-catalog').click();
  await page.getByTestId('cat-reset').click();
  await page.getByTestId('catalog-name').waitFor();
  assert.equal(await page.getByTestId('app-errors').isHidden(), true);
  await page.getByTestId('tab-fit').click();
  assert.ok(parseFloat(await text(page, 'fit-per-gpu-gb')) > 0);
});

test('a core that dies on every question is restarted, but not asked again in a loop', async () => {
  const page = await env.page();
  await withHook(page);
  const modules = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) modules.push(r.url()); });
  await open(page, `${env.origin}/index.html?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1`);
  // Every module traps on the fit question (a request that always kills the core); other
  // questions, such as the catalog's menus a restart asks, still answer.
  await page.evaluate(() => {
    const decoder = new TextDecoder();
    let request = null;  // the view the facade wrote the next request into
    globalThis.__gpufleetHook = (core, fn, args) => {
      if (fn === 'analyze' && decoder.decode(request).includes('"question":"fit"')) {
        throw new WebAssembly.RuntimeError('unreachable');
      }
      const result = core[fn](...args);
      if (fn === 'request') request = result;
      return result;
    };
  });
  await page.locator('#fit-precision').selectOption('int8');
  await page.getByTestId('app-errors').getByText('stopped again').waitFor();
  await page.waitForTimeout(1500);
  // The first module, one restart that re-asked, one restart that waits for the user.
  assert.ok(modules.length <= 3, `${modules.length} modules loaded`);
  await page.evaluate(() => { globalThis.__gpufleetHook = null; });
  await page.locator('#fit-precision').selectOption('fp16');
  await page.waitForFunction(() => Number.parseFloat(document.querySelector('[data-testid=fit-per-gpu-gb]')?.textContent) > 0);
});

test('a placement link with 3,000 models opens at once, with a bounded form and the limit named', async () => {
  // (3,000: the test server's 16 KB request-line limit; the page reads at most 65 models of any link)
  const models = Array.from({ length: 3000 }, () => 'a=1').join(',');
  const t0 = Date.now();
  const page = await env.page(`index.html?view=placement&models=${models}`);
  const elapsed = Date.now() - t0;
  assert.ok(elapsed < 5000, `the page took ${elapsed} ms to answer`);
  assert.ok(await page.locator('.place-models input').count() <= 65 * 3, 'a bounded form');
  assert.match(await page.locator('#panel-placement').innerText(), /1 to 64 models/);
});
