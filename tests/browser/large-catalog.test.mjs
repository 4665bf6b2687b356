// A large catalog of your own answers in a Web Worker: the page takes input within 200 ms while a
// long answer computes, a newer question supersedes an older one, and the answer shown is the one
// the same facade gives on the page's thread for the same request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { setup, open, text, SITE_DIR, sentence } from './helpers.mjs';
import { largeCatalog as largeCatalogOf } from '../bench/large-catalog.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const shipped = (file) => fs.readFileSync(path.join(SITE_DIR, 'config', file), 'utf8');

const largeCatalog = () => largeCatalogOf(shipped);

/** Types `keys` into the focused input, one at a time; resolves each key's delay from being sent
 *  to reaching the page's input handler (which records globalThis.__keys). */
async function typeTimed(page, keys) {
  const sent = [];
  for (const key of keys) {
    sent.push(Date.now());
    await page.keyboard.press(key);
    await sleep(20);
  }
  const arrived = await page.evaluate(() => globalThis.__keys);
  assert.equal(arrived.length, keys.length, 'one input event per key');
  return arrived.map((k, i) => ({ ...k, delayMs: k.at - sent[i] }));
}

test('a large catalog answers in a worker: input is taken within 200 ms while it computes', async () => {
  const catalog = largeCatalog();
  const page = await env.page();
  // Counts the answers that come back from the core's worker, as they arrive (before the page
  // reads them): a key typed before the long answer arrived was typed while it computed.
  await page.addInitScript(() => {
    globalThis.__answers = 0;
    globalThis.Worker = class extends globalThis.Worker {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', () => { globalThis.__answers += 1; });
      }
    };
  });
  await open(page, `${env.origin}/index.html?view=catalog`);
  const workerScripts = [];
  page.on('worker', (w) => workerScripts.push(w.url()));
  await page.getByTestId('cat-upload').setInputFiles([
    { name: 'gpu_instances.json', mimeType: 'application/json', buffer: Buffer.from(catalog.gpuInstances) },
    { name: 'workloads.json', mimeType: 'application/json', buffer: Buffer.from(catalog.workloads) },
  ]);
  await page.getByTestId('cat-status').getByText('Loaded').waitFor({ timeout: 30000 });
  await page.getByTestId('cat-origin').getByText('your own catalog').waitFor({ timeout: 30000 });
  assert.equal(await text(page, 'val-count-instance_types'), catalog.types.toLocaleString('en-US'));
  assert.deepEqual(workerScripts.map((u) => new URL(u).pathname), ['/app/core-worker.js']);

  // Fit answers from the worker too; its prompt tokens are the input typed into.
  await page.getByTestId('tab-fit').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=fit-result]')?.dataset.state === 'ready', null, { timeout: 30000 });
  await page.getByTestId('tab-compare').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-result]')?.dataset.state === 'ready', null, { timeout: 30000 });
  // Each key's arrival at the input's handler (the page's clock, as wall-clock time), and whether
  // the long answer was still being computed then (it is the worker's next answer: the keys'
  // questions wait behind it).
  await page.evaluate(() => {
    globalThis.__keys = [];
    globalThis.__seq = document.querySelector('[data-testid=compare-result]').dataset.seq;
    globalThis.__answered = globalThis.__answers;
    document.querySelector('#wf-input').addEventListener('input', () => {
      globalThis.__keys.push({ at: performance.timeOrigin + performance.now(), computing: globalThis.__answers === globalThis.__answered });
    });
  });
  const seq = await page.evaluate(() => globalThis.__seq);
  // On Fit, Compare & migrate (behind its tab) asks the slowest question of this catalog (a set
  // of 14 scenarios against 4,010 instance types); at once, keys go to Fit's input, each a newer
  // Fit question that supersedes the last.
  await page.getByTestId('tab-fit').click();
  await page.locator('#wf-input').focus();
  await page.evaluate(() => {
    const pick = document.querySelector('#mig-preset');
    pick.value = 'set:every_scenario';
    pick.dispatchEvent(new Event('input', { bubbles: true }));
    pick.dispatchEvent(new Event('change', { bubbles: true }));
  });
  const keys = await typeTimed(page, '2500');
  assert.equal(await page.locator('#wf-input').inputValue(), '2500', 'every key reached the input');
  const during = keys.filter((k) => k.computing);
  assert.ok(during.length >= 2, `keys typed while the answer computed: ${JSON.stringify(keys)}`);
  const worst = Math.max(...during.map((k) => k.delayMs));
  console.log(`input delay while the worker computes: worst ${worst.toFixed(1)} ms over ${during.length} keys (${keys.map((k) => `${k.delayMs.toFixed(1)}${k.computing ? "" : " after"}`).join(", ")})`);
  assert.ok(worst < 200, `an input waited ${worst.toFixed(1)} ms: ${JSON.stringify(keys)}`);
  // Fit answers the last key's question.
  await page.waitForFunction(() => /"input_tokens":2500/.test(document.querySelector('[data-testid=fit-request]')?.textContent ?? '')
    && !document.querySelector('[data-testid=fit-result]').hasAttribute('aria-busy'), null, { timeout: 60000 });

  // The set's answer arrives; it is what the facade answers on the page's thread.
  await page.getByTestId('tab-compare').click();
  await page.waitForFunction((seq) => document.querySelector('[data-testid=compare-result]').dataset.seq !== seq
    && document.querySelector('[data-testid=compare-result]').dataset.state === 'ready', seq, { timeout: 60000 });
  const shown = await page.locator('[data-testid^=wl-member-]').evaluateAll((members) => members.map((m) => m.querySelector('.verdict-title').textContent));

  // The same question through the facade on the page's thread: the same answer, and keys typed
  // meanwhile wait for it (what the worker spares the page).
  await page.evaluate(async (texts) => {
    // The module the worker runs (the page's own leaves workload_set to it).
    const { loadGpufleet } = await import('./gpufleet/all/gpufleet.js');
    // With the usual regions' prices, as the page loads them.
    const get = async (f) => (await fetch(`./config/${f}`)).text();
    const index = JSON.parse(await get('prices/index.json'));
    const priceFiles = await Promise.all(Object.values(index.providers)
      .map(async (p) => ({ name: `prices/${p.regions[p.default_region].file}`, text: await get(`prices/${p.regions[p.default_region].file}`) })));
    globalThis.__analyzer = (await loadGpufleet()).createAnalyzer({ ...texts, priceFiles });
  }, catalog);
  await page.getByTestId('tab-fit').click();
  await page.locator('#wf-input').fill('');
  await page.locator('#wf-input').focus();
  await page.evaluate(() => {
    globalThis.__keys = [];
    globalThis.__sync = new Promise((resolve) => setTimeout(() => {
      const t = performance.now();
      const answer = globalThis.__analyzer.ask({ question: 'workload_set', id: 'every_scenario' });
      resolve({ ms: performance.now() - t, summaries: answer.result.reports.map((r) => r.report.recommendation?.summary ?? 'no recommendation') });
    }, 50));
  });
  await sleep(60);
  const blocked = Math.max(...(await typeTimed(page, '2500')).map((k) => k.delayMs));
  const sync = await page.evaluate(() => globalThis.__sync);
  console.log(`the same question on the page's thread: ${sync.ms.toFixed(0)} ms; a key typed meanwhile waited ${blocked.toFixed(1)} ms`);
  assert.equal(shown.length, Object.keys(JSON.parse(catalog.workloads).workloads).length);
  assert.deepEqual(shown, sync.summaries.map(sentence));
});
