// Recommend with a catalog model and a serving demand, filled in through the page's inputs: the page
// sends the CLI's request and shows what the WebAssembly core answers through its facade (and the
// native CLI answers the same); a training run's demand gives run times.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { setup, showAll, linkOf, cli, text, numberIn, assertNear, afterChange, screenshot, screen, SITE_DIR } from './helpers.mjs';
import { load, catalogTexts } from '../wasm/support.mjs';

let env;
let analyzer;
before(async () => {
  env = await setup();
  const { gpufleet } = await load();
  analyzer = gpufleet.createAnalyzer(catalogTexts(path.join(SITE_DIR, 'config')));
});
after(async () => {
  analyzer?.dispose();
  await env?.close();
});

/** What `gpufleet recommend --model llama-3.1-8b --requests-per-s 50 --input 500 --output 200
 *  --max-ttft-ms 500` sends. */
const REQUEST = {
  question: 'recommend', model: { name: 'llama-3.1-8b' }, workload: 'inference', precision: 'fp16', priority: 'cost',
  demand: { requests_per_s: 50, input_tokens: 500, output_tokens: 200, max_ttft_ms: 500 },
};

const layoutOf = (l) => `TP ${l.tensor_parallel} · PP ${l.pipeline_parallel} · ${l.replicas} replica${l.replicas === 1 ? '' : 's'}`;
const sentRequest = async (page) => text(page, 'rec-request');

async function fillDemand(page, fields) {
  const s = screen(page);
  for (const [label, value] of fields) await afterChange(page, 'deployments', () => s.getByLabel(label, { exact: true }).fill(value));
}

/** Every figure of a candidate row against the core's candidate. */
async function assertRow(page, i, c) {
  assert.equal(await text(page, `rec-instance-${i}`), c.instance, `row ${i} instance`);
  assert.equal(numberIn(await text(page, `rec-count-${i}`)), c.instance_count, `row ${i} instance count`);
  assertNear(await text(page, `rec-monthly-${i}`), c.usd_per_month, 0.005, `row ${i} monthly cost`);
  assertNear(await text(page, `rec-memory-${i}`), c.memory_per_gpu_gb, 0.005, `row ${i} GB per GPU`);
  assert.equal(await text(page, `rec-layout-${i}`), layoutOf(c.layout), `row ${i} layout`);
  assertNear(await text(page, `rec-tps-${i}`), c.output_tokens_per_s, 0.05 + 1e-9, `row ${i} output tokens/s`);
  assertNear(await text(page, `rec-ttft-${i}`), c.p95_time_to_first_token_ms, 0.05 + 1e-9, `row ${i} p95 TTFT`);
  assertNear(await text(page, `rec-tpot-${i}`), c.time_per_output_token_ms, 0.05 + 1e-9, `row ${i} TPOT`);
  assertNear(await text(page, `rec-util-${i}`), c.utilization_pct, 0.05 + 1e-9, `row ${i} utilization`);
  assertNear(await text(page, `rec-per-token-${i}`), c.usd_per_million_output_tokens, 0.00005, `row ${i} $ per 1M output tokens`);
  assert.equal(await text(page, `rec-band-count-${i}`), `${range(c.band.instance_count)} at the measured error`, `row ${i} instances at the measured error`);
}

/** "7–14" (or "7" when both ends agree) as the page writes a band's range of whole numbers. */
const range = ({ low, high }) => (low === null ? `up to ${high}` : low === high ? `${low}` : `${low}–${high}`);

test('recommend: llama-3.1-8b at 50 requests/s through the inputs sends the CLI request and shows the core answer', async () => {
  const page = await env.page('index.html?view=recommend');
  const s = screen(page);
  await afterChange(page, 'deployments', () => s.getByLabel('Model', { exact: true }).selectOption('model:llama-3.1-8b'));
  await fillDemand(page, [['Requests per second', '50'], ['Prompt tokens', '500'], ['Output tokens', '200'], ['Max p95 time to first token', '500']]);
  assert.equal(await sentRequest(page), JSON.stringify(REQUEST), 'exactly the CLI request, keys in its order');

  const r = analyzer.analyze(REQUEST);
  assert.ok(r.candidates.length > 0);
  assert.deepEqual(cli(REQUEST).result, r, 'the native CLI answers what the WebAssembly core answers');
  const top = r.candidates[0];
  assert.equal(await text(page, 'rec-top-instance'), top.instance);
  assert.equal(numberIn(await text(page, 'rec-top-count')), top.instance_count);
  assertNear(await text(page, 'rec-top-monthly'), top.cost.usd_per_month, 0.005, 'top monthly cost');
  // The first line says how many instances the demand needs at the measured error of the speed.
  assert.ok(top.band.instance_count.low <= top.instance_count && top.instance_count <= top.band.instance_count.high);
  assert.equal(await text(page, 'rec-top-band'), `(${range(top.band.instance_count)} at the measured error)`);
  assert.match(await text(page, 'rec-top-band-text'), /leave one source out/i);
  await showAll(page, 'rec-table');
  assert.equal(await page.locator('[data-testid^=rec-row-]').count(), r.candidates.length);
  for (const [i, c] of r.candidates.slice(0, 5).entries()) await assertRow(page, i, c);
  assert.ok(r.candidates.every((c) => c.p95_time_to_first_token_ms <= 500), 'every candidate meets the TTFT target');
  assert.equal(await text(page, 'rec-workload-model'), r.request.model.label);
  assertNear(await text(page, 'rec-workload-params'), r.request.model.parameters_billion, 0.0005, 'parameters (billion)');
  await screenshot(page, 'recommend-demand', { fullPage: true });

  // The link restores the model and the demand, and the same answer.
  const params = new URL(await linkOf(page)).searchParams;
  assert.equal(params.get('model'), 'llama-3.1-8b');
  assert.equal(params.get('rps'), '50');
  const copy = await env.page((await linkOf(page)).slice(env.origin.length + 1));
  assert.equal(await sentRequest(copy), JSON.stringify(REQUEST));
  await showAll(copy, 'rec-table');
  assert.equal(await copy.getByTestId('rec-table').innerText(), await page.getByTestId('rec-table').innerText());

  // A TPOT target, then a size class again: the demand stays, the model follows the select.
  await fillDemand(page, [['Max time per output token', '40']]);
  const tight = { ...REQUEST, demand: { ...REQUEST.demand, max_tpot_ms: 40 } };
  assert.equal(await sentRequest(page), JSON.stringify(tight));
  const rt = analyzer.analyze(tight);
  if (rt.candidates.length) await assertRow(page, 0, rt.candidates[0]);
  else assert.equal(await page.getByTestId('rec-none').count(), 1);
  await afterChange(page, 'deployments', () => s.getByLabel('Model', { exact: true }).selectOption('small'));
  assert.deepEqual(JSON.parse(await sentRequest(page)).model, { size: 'small' });
});

test('recommend: a training run of 2B tokens shows tokens/s and run days as the core says', async () => {
  const page = await env.page('index.html?view=recommend&model=llama-3.1-8b&workload=lora&precision=bf16');
  const s = screen(page);
  assert.equal(await page.getByTestId('wf-demand-serving').isVisible(), false, 'serving demand hidden for training');
  await afterChange(page, 'deployments', () => s.getByLabel('Dataset tokens', { exact: true }).fill('2'));
  const request = { question: 'recommend', model: { name: 'llama-3.1-8b' }, workload: 'lora', precision: 'bf16', priority: 'cost', demand: { dataset_tokens: 2e9 } };
  assert.deepEqual(JSON.parse(await sentRequest(page)), request);
  const r = analyzer.analyze(request);
  for (const [i, c] of r.candidates.slice(0, 5).entries()) {
    assert.equal(await text(page, `rec-instance-${i}`), c.instance);
    assert.equal(numberIn(await text(page, `rec-count-${i}`)), c.instance_count);
    // A training run is a job: its cost is the run's, not a month's (usd_per_month null).
    assert.equal(c.usd_per_month, null);
    assertNear(await text(page, `rec-monthly-${i}`), c.usd_per_run, 0.005, `row ${i} cost of the run`);
    assertNear(await text(page, `rec-tps-${i}`), c.tokens_per_s, 0.05, `row ${i} tokens/s`);
    assertNear(await text(page, `rec-run-days-${i}`), c.run_days, 0.005, `row ${i} run days`);
  }
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
