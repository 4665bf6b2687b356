// Answers drawn in place (web/app/in-place.js): after several changes of an input, every figure a
// view shows is the CLI's for the request the page sent last, on screen and below it (the parts
// outside the window, drawn when the page is next idle), and what an answer's controls do (Show all,
// a download, a folded disclosure) is the last answer's, not one an earlier answer left behind.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, text, numberIn, assertNear, afterChange, showAll, downloadOf, parseCsv, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const FORMATS = ['int8', 'fp16', 'fp8', 'bf16', 'int8'];

/** The request the view sent last, from its request block. */
const sent = async (page, testid) => JSON.parse(await page.getByTestId(testid).textContent());

test('deployments: the top pick, every drawn candidate, Show all and the CSV follow each change', async () => {
  const page = await env.page('index.html?view=deployments&model=llama-3.1-8b&workload=inference&precision=fp16');
  const s = screen(page);
  for (const format of FORMATS) {
    await afterChange(page, 'deployments', () => s.locator('#wf-precision').selectOption(format));
    const request = await sent(page, 'rec-request');
    assert.equal(request.precision, format);
    const r = cli(request).result;
    assert.equal(await text(page, 'rec-top-instance'), r.candidates[0].instance, `${format}: top pick`);
    assertNear(await text(page, 'rec-top-monthly'), r.candidates[0].cost.usd_per_month, 0.005, `${format}: top pick monthly`);
    const drawn = await page.locator('[data-testid^=rec-row-]').count();
    assert.equal(drawn, Math.min(10, r.candidates.length), `${format}: the first rows drawn`);
    for (let i = 0; i < drawn; i++) {
      const c = r.candidates[i];
      assert.equal(await text(page, `rec-instance-${i}`), c.instance, `${format}: row ${i}`);
      assert.equal(numberIn(await text(page, `rec-count-${i}`)), c.instance_count, `${format}: row ${i} instances`);
      if (c.cost.usd_per_month !== null) assertNear(await text(page, `rec-monthly-${i}`), c.cost.usd_per_month, 0.005, `${format}: row ${i} monthly`);
    }
  }
  // The rows drawn on request and the download are the last answer's.
  const r = cli(await sent(page, 'rec-request')).result;
  await showAll(page, 'rec-table');
  assert.equal(await page.locator('[data-testid^=rec-row-]').count(), r.candidates.length);
  for (const [i, c] of r.candidates.entries()) {
    assert.equal(await text(page, `rec-instance-${i}`), c.instance, `row ${i} after Show all`);
    if (c.cost.usd_per_month !== null) assertNear(await text(page, `rec-monthly-${i}`), c.cost.usd_per_month, 0.005, `row ${i} monthly after Show all`);
  }
  const csv = parseCsv((await downloadOf(page, () => page.getByTestId('rec-table-csv').click())).text);
  const instance = csv[0].indexOf('instance');
  assert.deepEqual(csv.slice(1).map((row) => row[instance]), r.candidates.map((c) => c.instance));
});

test('compare: the recommendation and every alternative follow each change; the CSV is the table on screen', async () => {
  const page = await env.page('index.html?view=compare&model=llama-3.1-8b&workload=inference&precision=fp16&instance=G6e');
  const s = screen(page);
  for (const format of FORMATS) {
    await afterChange(page, 'compare', () => s.locator('#wf-precision').selectOption(format));
    const r = cli(await sent(page, 'mig-request')).result;
    assert.equal(await text(page, 'mig-assessment'), r.assessment, `${format}: assessment`);
    assert.equal(await page.locator('[data-testid^=mig-alt-instance-]').count(), r.alternatives.length, `${format}: alternatives`);
    for (const [i, a] of r.alternatives.entries()) {
      assert.equal(await text(page, `mig-alt-instance-${i}`), a.instance, `${format}: alternative ${i}`);
      assertNear(await text(page, `mig-alt-monthly-${i}`), a.cost.usd_per_month, 0.005, `${format}: alternative ${i} monthly`);
      assertNear(await text(page, `mig-alt-savings-${i}`), a.savings_pct, 0.05, `${format}: alternative ${i} savings`);
    }
  }
  const r = cli(await sent(page, 'mig-request')).result;
  const csv = parseCsv((await downloadOf(page, () => page.getByTestId('mig-alternatives-csv').click())).text);
  assert.equal(csv.length - 1, r.alternatives.length);
  assert.deepEqual(csv.slice(1).map((row) => row[1].split(' ')[0]), r.alternatives.map((a) => a.instance));
});

test('fit: the verdict, the memory and the cost below the screen follow each change; a folded basis is the last answer\'s', async () => {
  const page = await env.page('index.html?view=fit&model=llama-3.1-8b&workload=inference&precision=fp16&instance=G6e');
  const s = screen(page);
  for (const format of FORMATS) {
    await afterChange(page, 'fit', () => s.locator('#wf-precision').selectOption(format));
    const r = cli(await sent(page, 'fit-request')).result;
    assert.equal(await text(page, 'fit-status'), r.status, `${format}: status`);
    assertNear(await text(page, 'fit-per-gpu-gb'), r.fit.per_gpu_gb, 0.005, `${format}: per GPU`);
    assertNear(await text(page, 'fit-memory-weights'), r.memory.weights_gb, 0.005, `${format}: weights`);
    assertNear(await text(page, 'fit-cost-monthly'), r.cost.usd_per_month, 0.005, `${format}: monthly`);
  }
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
