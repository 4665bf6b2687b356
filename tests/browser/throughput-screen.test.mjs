// Speed & cost per token: the estimate card equals the native CLI's `estimate` answer; the chart's
// Pareto frontier equals one recomputed here from per-GPU CLI answers; inputs, training mode and
// the link drive it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { setup, cli, text, assertNear, afterChange, screenshot, screen, CLI, SITE_DIR } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const half = (digits) => 0.5 * 10 ** -digits + 1e-9;
const rel = (page) => page.url().slice(env.origin.length + 1);
/** The request the screen sends for llama-3.1-8b fp8 on an H100, 1000/1000 tokens, 64 at once. */
const BASE = {
  question: 'estimate', model: { name: 'llama-3.1-8b' }, weight_format: 'fp8', gpu: 'H100-SXM-80GB', tensor_parallel: 1,
  input_tokens: 1000, output_tokens: 1000, concurrency: 64,
};
const BASE_URL = 'index.html?view=throughput&model=llama-3.1-8b&format=fp8&phase=inference&gpu=H100-SXM-80GB&tp=1&in=1000&out=1000&conc=64';

/** A shown figure against the CLI's: a dash where the CLI has none, else the number to its digits. */
async function near(s, testid, expected, digits) {
  if (expected === null || expected === undefined) assert.equal(await text(s, testid), '—', `${testid} shows no figure`);
  else assertNear(await text(s, testid), expected, half(digits), testid);
}

/** Every figure of the inference card against the CLI's answer to `request`; returns it. */
async function assertInference(page, request) {
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const r = expected.result;
  const x = r.inference;
  const s = screen(page);
  assert.equal(await s.getByTestId('throughput-result').getAttribute('data-state'), 'ready');
  await near(s, 'thr-ttft', x.time_to_first_token_ms, 2);
  await near(s, 'thr-tpot', x.time_per_output_token_ms, 3);
  await near(s, 'thr-e2e', x.end_to_end_latency_ms, 1);
  await near(s, 'thr-tps', x.output_tokens_per_s, 1);
  await near(s, 'thr-tps-gpu', x.output_tokens_per_s_per_gpu, 1);
  await near(s, 'thr-single', x.single_stream_tokens_per_s, 1);
  await near(s, 'thr-usd-out', x.usd_per_million_output_tokens, 4);
  await near(s, 'thr-usd-out-spot', x.usd_per_million_output_tokens_spot, 4);
  await near(s, 'thr-usd-in', x.usd_per_million_input_tokens, 4);
  await near(s, 'thr-concurrency', x.concurrency, 0);
  await near(s, 'thr-max-concurrency', x.max_concurrency_by_kv_cache, 0);
  for (const phase of ['prefill', 'decode']) {
    assert.equal(await text(s, `thr-${phase}-bound`), x[phase].bound);
    assert.equal(await text(s, `thr-${phase}-basis`), x[phase].basis);
  }
  assert.equal(await text(s, 'thr-cost-basis'), x.cost_basis);
  assert.equal(await text(s, 'thr-basis'), r.basis);
  assert.equal(await text(s, 'thr-expected-error'), r.expected_error.text);
  if (r.instance) assert.ok((await text(s, 'thr-priced-on')).startsWith(`${r.instance.instance} (`), 'the instance it was priced on');
  assert.match(await text(s, 'thr-setup'), new RegExp(`on ${r.device.gpu}`));
  return r;
}

/** The GPUs of the catalog file the page loads (vendor nvidia or amd). */
function catalogGpus() {
  const doc = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'config/gpu_instances.json'), 'utf8'));
  return Object.entries(doc.gpus).filter(([, g]) => g.vendor === 'nvidia' || g.vendor === 'amd').map(([k]) => k);
}

/** The Pareto set of the per-GPU CLI answers, recomputed here. */
function paretoFromCli(request) {
  const points = [];
  for (const gpu of catalogGpus()) {
    const a = cli({ ...request, gpu });
    if (!a.ok) continue;
    const x = a.result.inference;
    if (!(x.usd_per_million_output_tokens > 0) || !(x.output_tokens_per_s > 0)) continue;
    points.push({ gpu, cost: x.usd_per_million_output_tokens, speed: x.output_tokens_per_s });
  }
  const front = points.filter((a) => !points.some((b) => b !== a && b.cost <= a.cost && b.speed >= a.speed && (b.cost < a.cost || b.speed > a.speed)));
  return { points, front: front.map((p) => p.gpu).sort() };
}

async function assertPareto(page, request) {
  const { points, front } = paretoFromCli(request);
  const s = screen(page);
  const shown = await s.getByTestId('thr-chart').locator('circle.chart-point').evaluateAll((cs) => cs.map((c) => ({ label: c.dataset.label, front: c.dataset.frontier === '1' })));
  assert.equal(shown.length, points.length, 'one point per priced GPU');
  const gpuOf = (label) => label.replace(/ \(.*\)$/, '');
  assert.deepEqual(shown.filter((p) => p.front).map((p) => gpuOf(p.label)).sort(), front, 'the Pareto frontier');
  // The table marks the same set; the data table lists every point.
  const marked = [];
  for (const gpu of catalogGpus()) {
    const cell = s.getByTestId(`thr-row-${gpu}-pareto`);
    if (await cell.count() && (await cell.textContent()) === 'yes') marked.push(gpu);
  }
  assert.deepEqual(marked.sort(), front, 'the table marks the frontier');
  const data = await s.getByTestId('thr-chart-data').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(data.length, points.length);
  for (const p of points) {
    const row = data.find((d) => gpuOf(d[0]) === p.gpu);
    assert.ok(row, `${p.gpu} in the data table`);
    assert.ok(Math.abs(Number(row[1].replace(/,/g, '')) - p.cost) <= half(4), `${p.gpu} cost`);
    assert.ok(Math.abs(Number(row[2].replace(/,/g, '')) - p.speed) <= half(1), `${p.gpu} speed`);
    assert.equal(row[3], front.includes(p.gpu) ? 'yes' : 'no');
  }
  return front;
}

test('speed: llama-3.1-8b fp8 on an H100, 1000/1000 tokens, 64 at once equals the CLI', async () => {
  const page = await env.page(BASE_URL);
  const r = await assertInference(page, BASE);
  // The CLI's own subcommand, with the GPU's short name, gives the same answer.
  const sub = JSON.parse(execFileSync(CLI, ['--config', `${SITE_DIR}/config`, '--json', 'estimate', '--model', 'llama-3.1-8b', '--precision', 'fp8',
    '--gpu', 'H100', '--input', '1000', '--output', '1000', '--concurrency', '64'], { encoding: 'utf8' }));
  assert.deepEqual(sub.result.inference, r.inference, 'gpufleet estimate gives the same figures');
  assert.equal(await text(page, 'thr-ttft'), '11.87 ms');
  assert.equal(await text(page, 'thr-usd-out'), '$0.2802');
  const front = await assertPareto(page, BASE);
  assert.ok(front.length >= 1);
  // The chart is an accessible SVG with its title.
  const svgTitle = await screen(page).getByTestId('thr-chart').locator(':scope > title').textContent();
  assert.match(svgTitle, /Pareto frontier: /);
  // The default inputs are these very settings.
  const plain = await env.page('index.html?view=throughput');
  await assertInference(plain, BASE);
  await plain.close();
  await screenshot(page, 'throughput', { fullPage: true });
});

test('speed: the GPU, concurrency, KV cache, tensor parallelism and instance drive the answer', async () => {
  const page = await env.page(BASE_URL);
  const s = screen(page);
  const req = structuredClone(BASE);
  await afterChange(page, 'throughput', () => s.getByTestId('thr-gpu').selectOption('A100-80GB'));
  req.gpu = 'A100-80GB';
  await assertInference(page, req);
  await afterChange(page, 'throughput', () => s.getByTestId('thr-conc').fill(''));
  delete req.concurrency;
  let r = await assertInference(page, req);
  assert.equal(r.inference.concurrency, Math.min(512, r.inference.max_concurrency_by_kv_cache), 'empty: as many as the KV cache holds');
  await afterChange(page, 'throughput', () => s.getByTestId('thr-kv').selectOption('fp8'));
  req.kv_cache_format = 'fp8';
  await assertInference(page, req);
  await afterChange(page, 'throughput', () => s.getByTestId('thr-in').fill('4000'));
  await afterChange(page, 'throughput', () => s.getByTestId('thr-out').fill('250'));
  Object.assign(req, { input_tokens: 4000, output_tokens: 250 });
  await assertInference(page, req);
  await assertPareto(page, req);
  await afterChange(page, 'throughput', () => s.getByTestId('thr-model').selectOption('llama-3.1-70b'));
  await afterChange(page, 'throughput', () => s.getByTestId('thr-tp').fill('4'));
  Object.assign(req, { model: { name: 'llama-3.1-70b' }, tensor_parallel: 4 });
  r = await assertInference(page, req);
  assert.equal(r.device.tensor_parallel, 4);
  await assertPareto(page, req);
  // An instance instead of a GPU: the GPU select hides and the estimate is priced on it.
  await afterChange(page, 'throughput', () => s.getByTestId('thr-instance').selectOption('p5.48xlarge'));
  assert.equal(await s.getByTestId('thr-gpu').isVisible(), false);
  const onInstance = { ...req, instance: 'p5.48xlarge' };
  delete onInstance.gpu;
  r = await assertInference(page, onInstance);
  assert.equal(r.instance.instance, 'p5.48xlarge');
  assert.equal(new URL(page.url()).searchParams.has('gpu'), false, 'the hidden GPU leaves the link');
  // A bad number: the analyzer's error with its path; the inputs stay usable.
  await afterChange(page, 'throughput', () => s.getByTestId('thr-out').fill('0'));
  const bad = cli({ ...onInstance, output_tokens: 0 });
  if (!bad.ok) {
    assert.equal(await page.getByTestId('throughput-errors').getByTestId('error-path').first().textContent(), bad.errors[0].path);
    assert.equal(await s.getByTestId('throughput-result').getAttribute('data-state'), 'error');
  }
  await afterChange(page, 'throughput', () => s.getByTestId('thr-out').fill('500'));
  await assertInference(page, { ...onInstance, output_tokens: 500 });
  await page.close();
});

test('speed: training mode shows tokens/s, MFU, and the time and cost of the run', async () => {
  const page = await env.page(BASE_URL);
  const s = screen(page);
  assert.equal(await s.getByTestId('thr-training').isVisible(), false);
  await afterChange(page, 'throughput', () => s.getByTestId('thr-phase').selectOption('training'));
  assert.equal(await s.getByTestId('thr-training').isVisible(), true);
  assert.equal(await s.getByTestId('thr-conc').isVisible(), false);
  await afterChange(page, 'throughput', () => s.getByTestId('thr-tokens').fill('2000000000'));
  await afterChange(page, 'throughput', () => s.getByTestId('thr-epochs').fill('2'));
  await afterChange(page, 'throughput', () => s.getByTestId('thr-seq').fill('2048'));
  const req = {
    question: 'estimate', model: { name: 'llama-3.1-8b' }, weight_format: 'fp8', gpu: 'H100-SXM-80GB', tensor_parallel: 1,
    phase: 'training', dataset_tokens: 2e9, epochs: 2, context: 2048,
  };
  // One H100 cannot hold the unsharded training state: the page shows the CLI's refusal.
  const refused = cli(req);
  assert.equal(refused.ok, false);
  assert.equal(await page.getByTestId('throughput-errors').getByTestId('error-message').first().textContent(), refused.errors[0].message);
  await afterChange(page, 'throughput', () => s.getByTestId('thr-tp').fill('2'));
  req.tensor_parallel = 2;
  const expected = cli(req);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const t = expected.result.training;
  await near(s, 'thr-train-tps-gpu', t.tokens_per_s_per_gpu, 1);
  await near(s, 'thr-train-tps', t.tokens_per_s, 1);
  await near(s, 'thr-train-tflops', t.tflops_per_gpu, 1);
  await near(s, 'thr-train-mfu', t.mfu * 100, 1);
  await near(s, 'thr-train-hours', t.hours, 1);
  await near(s, 'thr-train-gpu-hours', t.gpu_hours, 1);
  await near(s, 'thr-train-usd', t.usd_on_demand, 2);
  await near(s, 'thr-train-usd-spot', t.usd_spot, 2);
  assert.ok(t.hours > 0 && t.usd_on_demand > 0, 'the run has a time and a cost');
  assert.equal(await text(s, 'thr-train-bound'), t.bound);
  assert.equal(await text(s, 'thr-train-basis'), t.basis);
  // Every GPU's run, as the CLI answers it.
  for (const gpu of catalogGpus()) {
    const a = cli({ ...req, gpu });
    const row = s.getByTestId(`thr-train-row-${gpu}`);
    assert.equal(await row.count(), a.ok ? 1 : 0, `${gpu} listed when the CLI answers`);
  }
  const link = new URL(page.url()).searchParams;
  assert.equal(link.get('phase'), 'training');
  assert.equal(link.get('tokens'), '2000000000');
  assert.equal(link.has('conc'), false, 'inference-only keys leave the link in training');
  const copy = await env.page(rel(page));
  assert.equal(await copy.getByTestId('throughput-result').innerText(), await page.getByTestId('throughput-result').innerText());
  await screenshot(page, 'throughput-training', { fullPage: true });
  await copy.close();
  await page.close();
});

test('speed: the link restores every input', async () => {
  const url = 'index.html?view=throughput&model=mistral-7b-v0.1&format=bf16&phase=inference&gpu=L40S&tp=1&in=2000&out=500&conc=16&kv=fp8';
  const page = await env.page(url);
  const s = screen(page);
  const req = {
    question: 'estimate', model: { name: 'mistral-7b-v0.1' }, weight_format: 'bf16', gpu: 'L40S', tensor_parallel: 1,
    input_tokens: 2000, output_tokens: 500, concurrency: 16, kv_cache_format: 'fp8',
  };
  await assertInference(page, req);
  const back = new URL(page.url()).searchParams;
  for (const [k, v] of new URL(`${env.origin}/${url}`).searchParams) assert.equal(back.get(k), v, `${k} kept`);
  assert.equal(await s.getByTestId('thr-model').inputValue(), 'mistral-7b-v0.1');
  assert.equal(await s.getByTestId('thr-kv').inputValue(), 'fp8');
  const copy = await env.page(rel(page));
  assert.equal(await copy.getByTestId('throughput-result').innerText(), await page.getByTestId('throughput-result').innerText());
  await copy.close();
  // An unknown GPU in a link: the analyzer's error names the field.
  const odd = await env.page('index.html?view=throughput&gpu=Z9000');
  assert.equal(await odd.getByTestId('throughput-errors').getByTestId('error-path').first().textContent(), '/gpu');
  await odd.close();
  await page.close();
});

test('speed: 360 px wide, no sideways scroll', async () => {
  const page = await env.page('index.html?view=throughput', { width: 360, height: 740 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `scrolls sideways by ${overflow}px`);
  await screenshot(page, 'throughput-360', { fullPage: true });
  await page.close();
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
