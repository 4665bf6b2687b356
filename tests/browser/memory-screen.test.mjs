// Fit & memory on one GPU alone (the memory question): the per-GPU breakdown, verdict, chart and
// "GPUs that hold it" equal the native CLI's answer to the same memory request; the workload form,
// the memory settings, pasted and uploaded config.json files and the link drive it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openData, linkOf, cli, text, assertNear, afterChange, screenshot, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

// Half a unit of the shown last digit (2 or 3 decimals), and a hair for binary rounding.
const GIB2 = 0.005 + 1e-9;
const GIB3 = 0.0005 + 1e-9;
// The page says the core's GiB (3 decimals) in GB: half a unit of its last digit, in GB, more.
const GB = (gib) => (gib * 2 ** 30) / 1e9;
const GB2 = GIB2 + GB(0.0005);
const GB3 = GIB3 + GB(0.0005);
const rel = async (page) => (await linkOf(page)).slice(env.origin.length + 1);
/** The link of the starting point, and the request the view sends for it. */
const START = 'index.html?view=fit&model=llama-3-8b&precision=bf16&input=8192&instance=gpu:A100-40GB';
const BASE = { question: 'memory', model: { name: 'llama-3-8b' }, mode: 'inference', weight_format: 'bf16', gpu: 'A100-40GB', context: 8192 };
const TINY_LLAMA = {
  architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 2048, intermediate_size: 5632, num_hidden_layers: 22,
  num_attention_heads: 32, num_key_value_heads: 4, vocab_size: 32000, max_position_embeddings: 2048, rms_norm_eps: 1e-5,
  tie_word_embeddings: false, torch_dtype: 'bfloat16',
};

/** Every figure of the screen against the CLI's answer to `request`; returns that answer. */
async function assertMemory(page, request) {
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const r = expected.result;
  const s = screen(page);
  assert.equal(await s.getByTestId('fit-result').getAttribute('data-state'), 'ready');
  // The breakdown: every line, its GB and its basis, and the total.
  assert.deepEqual(await s.locator('tr[data-testid^=mem-line-]').evaluateAll((trs) => trs.map((tr) => tr.dataset.testid.slice(9))),
    r.per_gpu.map((l) => l.key), 'breakdown lines');
  for (const l of r.per_gpu) {
    assertNear(await text(s, `mem-line-${l.key}-gb`), GB(l.gib), GB(l.gib) < 0.1 ? GB3 : GB2, `${l.key} GB`);
    assert.equal(await text(s, `mem-line-${l.key}-basis`), l.basis);
  }
  assertNear(await text(s, 'mem-total'), GB(r.total_gib), GB2, 'total');
  assert.equal(await text(s, 'mem-basis'), r.basis);
  // The measured error of this kind of figure, as the CLI's answer has it.
  assert.equal(await text(s, 'mem-expected-error'), r.expected_error.text);
  assertNear(await text(s, 'mem-weights'), GB(r.weights_gib), GB2, 'weights');
  // Beside the GB figures, what the tools print: weights in GiB (vLLM, PyTorch), the total in MiB.
  assertNear(await text(s, 'mem-weights-tool'), r.weights_gib, GIB2, 'weights GiB');
  assert.match(await text(s, 'mem-weights-tool'), / GiB in vLLM’s and PyTorch’s logs$/);
  assertNear(await text(s, 'mem-mib'), Math.round(r.total_bytes / 2 ** 20), 0.5, 'MiB');
  assert.match(await text(s, 'mem-mib'), / MiB in nvidia-smi$/);
  // The verdict against the chosen GPU.
  const g = r.gpu;
  assert.equal(await text(s, 'mem-fits'), g.fits ? 'FITS' : 'DOES NOT FIT');
  assert.equal(await text(s, 'mem-verdict-gpu'), g.gpu);
  assertNear(await text(s, 'mem-used'), GB(g.used_gib), GB2, 'used');
  assertNear(await text(s, 'mem-capacity'), GB(g.capacity_gib), GB2, 'capacity');
  assertNear(await text(s, 'mem-utilization'), g.utilization_pct, 0.05 + 1e-9, 'utilization');
  assertNear(await text(s, 'mem-headroom'), GB(Math.abs(g.headroom_gib)), GB2, 'headroom');
  for (const [key, id] of [['largest_batch', 'mem-largest-batch'], ['largest_context', 'mem-largest-context'],
    ['kv_cache_tokens_that_fit', 'mem-kv-tokens'], ['concurrent_sequences_at_context', 'mem-concurrent']]) {
    if (g[key] === undefined) assert.equal(await s.getByTestId(id).count(), 0, `${key} absent`);
    else if (g[key] === 0) assert.match(await text(s, id), /^none/);
    else assertNear(await text(s, id), g[key], 0, key);
  }
  if (r.kv_cache_capacity) {
    assertNear(await text(s, 'mem-pool'), r.kv_cache_capacity.tokens, 0, 'vLLM pool tokens');
    assertNear(await text(s, 'mem-pool-sequences'), r.kv_cache_capacity.concurrent_sequences, 0, 'vLLM sequences');
  } else assert.equal(await s.getByTestId('mem-pool').count(), 0);
  // Model facts.
  assert.equal(await text(s, 'mem-model-name'), r.model.name);
  assertNear(await text(s, 'mem-params'), r.model.parameters_billion, GIB3, 'parameters');
  assertNear(await text(s, 'mem-kv-per-token'), r.model.kv_cache_kib_per_token, GIB3, 'KV KiB per token');
  if (r.model.hf_id) assert.equal(await text(s, 'mem-hf-id'), r.model.hf_id);
  if (r.model.active_parameters_billion !== undefined) assertNear(await text(s, 'mem-active-params'), r.model.active_parameters_billion, GIB3, 'active');
  // The chart: one bar, a segment per non-zero line, the capacity marker; its data table.
  const chart = s.getByTestId('mem-chart');
  assert.equal(await chart.locator('rect.chart-bar').count(), r.per_gpu.filter((l) => l.gib > 0).length, 'a segment per line');
  assert.equal(await chart.locator('.chart-marker').count(), 1, 'the capacity marker');
  await openData(page, 'mem-chart-data');
  const data = await s.getByTestId('mem-chart-data').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(data.map((row) => row[0]), [...r.per_gpu.map((l) => l.label), 'Total', 'Usable memory of the GPU']);
  for (const [i, l] of r.per_gpu.entries()) assert.ok(Math.abs(Number(data[i][1].replace(/,/g, '')) - GB(l.gib)) < GB3, `chart data ${l.key}`);
  // GPUs that hold it: every GPU of the catalog, with the CLI's verdict.
  const rows = await s.getByTestId('mem-gpu-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const byName = new Map(rows.map((row) => [row[0].replace(' (chosen)', ''), row]));
  assert.equal(rows.length, r.gpus.length);
  for (const x of r.gpus) {
    const row = byName.get(x.gpu);
    assert.ok(row, `${x.gpu} listed`);
    assert.equal(row[4], x.fits ? 'yes' : 'no', `${x.gpu} fits`);
    assertNear(row[2], GB(x.used_gib), GB2, `${x.gpu} needs`);
    assertNear(row[1], GB(x.capacity_gib), GB2, `${x.gpu} capacity`);
  }
  return r;
}

test('memory: llama-3-8b bf16, 8192 tokens, batch 1 on an A100-40GB equals the CLI', async () => {
  const page = await env.page(START);
  const r = await assertMemory(page, BASE);
  // vLLM logs 14.96 GiB of weights for Llama 3 8B: 16.06 GB, with the GiB beside it.
  assert.equal(await text(page, 'mem-weights'), '16.06 GB');
  assert.equal(await text(page, 'mem-weights-tool'), '14.96 GiB in vLLM’s and PyTorch’s logs');
  assert.equal(await text(page, 'mem-line-weights-gb'), '16.06 GB');
  assert.equal(await text(page, 'mem-kv-per-token'), '128 KiB');
  assert.equal(await text(page, 'mem-fits'), 'FITS');
  assert.equal(r.gpu.fits, true);
  // The same request through the CLI's own subcommand.
  const { execFileSync } = await import('node:child_process');
  const { CLI, SITE_DIR } = await import('./helpers.mjs');
  const sub = JSON.parse(execFileSync(CLI, ['--config', `${SITE_DIR}/config`, '--json', 'fit', '--model', 'llama-3-8b', '--precision', 'bf16',
    '--context', '8192', '--batch', '1', '--gpu', 'A100-40GB'], { encoding: 'utf8' }));
  assert.equal(sub.result.total_gib, r.total_gib, 'gpufleet fit --model gives the same total');
  assert.deepEqual(new URL(await linkOf(page)).searchParams.get('view'), 'fit');
  assert.deepEqual(JSON.parse(await text(page, 'fit-request')), BASE);
  await screenshot(page, 'memory', { fullPage: true });
});

test('memory: the GPU, context, format, engine and task drive the answer', async () => {
  const page = await env.page(START);
  const s = screen(page);
  const req = structuredClone(BASE);
  await afterChange(page, 'fit', () => s.getByTestId('wf-instance').selectOption('gpu:H100-SXM-80GB'));
  req.gpu = 'H100-SXM-80GB';
  let r = await assertMemory(page, req);
  assert.equal(r.gpu.capacity_gib, 80);
  await afterChange(page, 'fit', () => s.getByTestId('wf-input').fill('32768'));
  req.context = 32768;
  r = await assertMemory(page, req);
  assert.ok(r.per_gpu.find((l) => l.key === 'kv_cache').gib === 4, 'KV cache grows with the context');
  // A 70B model on one A100-40GB does not fit; 8 GPUs with tensor parallelism do.
  await afterChange(page, 'fit', () => s.getByTestId('wf-model').selectOption('model:llama-3-70b'));
  await afterChange(page, 'fit', () => s.getByTestId('wf-instance').selectOption('gpu:A100-40GB'));
  Object.assign(req, { model: { name: 'llama-3-70b' }, gpu: 'A100-40GB' });
  r = await assertMemory(page, req);
  assert.equal(await text(page, 'mem-fits'), 'DOES NOT FIT');
  await afterChange(page, 'fit', () => s.getByTestId('wf-gpus').fill('8'));
  Object.assign(req, { gpus: 8, tensor_parallel: 8 });
  r = await assertMemory(page, req);
  assert.equal(r.gpu.fits, true);
  // vLLM: the KV-cache pool; a quantized format; an fp8 KV cache.
  await afterChange(page, 'fit', () => s.getByTestId('mem-engine').selectOption('vllm'));
  await afterChange(page, 'fit', () => s.getByTestId('wf-precision').selectOption('awq_int4'));
  await afterChange(page, 'fit', () => s.getByTestId('mem-kv').selectOption('fp8'));
  Object.assign(req, { engine: 'vllm', weight_format: 'awq_int4', kv_cache_format: 'fp8' });
  r = await assertMemory(page, req);
  assert.ok(r.kv_cache_capacity, 'vLLM reports its pool');
  // Training: QLoRA of the 8B model on one GPU; the training fields appear, inference ones go.
  assert.equal(await s.getByTestId('mem-training').isVisible(), false);
  await afterChange(page, 'fit', () => s.getByTestId('wf-model').selectOption('model:llama-3-8b'));
  await afterChange(page, 'fit', () => s.getByTestId('mem-engine').selectOption(''));
  await afterChange(page, 'fit', () => s.getByTestId('wf-gpus').fill(''));
  await afterChange(page, 'fit', () => s.getByTestId('wf-precision').selectOption('nf4'));
  await afterChange(page, 'fit', () => s.getByTestId('wf-workload').selectOption('qlora'));
  await afterChange(page, 'fit', () => s.getByTestId('mem-seq').fill('2048'));
  assert.equal(await s.getByTestId('mem-training').isVisible(), true);
  assert.equal(await s.getByTestId('mem-rank').isVisible(), true);
  assert.equal(await s.getByTestId('mem-kv').isVisible(), false);
  await afterChange(page, 'fit', () => s.getByTestId('mem-gc').check());
  await afterChange(page, 'fit', () => s.getByTestId('mem-rank').fill('64'));
  const train = { question: 'memory', model: { name: 'llama-3-8b' }, mode: 'qlora', weight_format: 'nf4', gpu: 'A100-40GB', context: 2048, gradient_checkpointing: true, lora: { rank: 64 } };
  assert.deepEqual(JSON.parse(await text(page, 'fit-request')), train);
  r = await assertMemory(page, train);
  assert.ok(r.per_gpu.some((l) => l.key === 'optimizer'), 'optimizer states shown');
  assert.ok(Number((await text(page, 'mem-trainable')).replace(/[^\d.]/g, '')) > 0);
  await screenshot(page, 'memory-qlora', { fullPage: true });
  // A bad number is the analyzer's error with its path; the inputs stay usable.
  await afterChange(page, 'fit', () => s.getByTestId('mem-batch').fill('0'));
  const bad = cli({ ...train, batch: 0 });
  assert.equal(await page.getByTestId('fit-errors').getByTestId('error-path').first().textContent(), bad.errors[0].path);
  await afterChange(page, 'fit', () => s.getByTestId('mem-batch').fill('2'));
  await assertMemory(page, { ...train, batch: 2 });
});

test('memory: your own config.json, pasted or uploaded; broken JSON is reported and the page stays usable', async () => {
  const page = await env.page(START);
  const s = screen(page);
  await afterChange(page, 'fit', () => s.getByTestId('wf-model').selectOption('config'));
  assert.equal(await s.getByTestId('wf-config').isVisible(), true);
  assert.match(await text(page, 'wf-config-error'), /Paste or upload a Hugging Face config\.json/, 'asks for a config, at its field');
  await afterChange(page, 'fit', () => s.getByTestId('wf-config').fill(JSON.stringify(TINY_LLAMA, null, 2)));
  const req = { ...structuredClone(BASE), model: { hf_config: TINY_LLAMA } };
  let r = await assertMemory(page, req);
  assert.match(r.model.name, /your model/);
  // Broken JSON: the alert names it; the inputs still answer once it is fixed.
  await afterChange(page, 'fit', () => s.getByTestId('wf-config').fill('{"model_type": "llama", "hidden_size": '));
  assert.equal(await page.getByTestId('fit-errors').isVisible(), true);
  assert.equal(await page.getByTestId('fit-errors').getByTestId('error-code').first().textContent(), 'invalid_json');
  assert.match(await page.getByTestId('fit-errors').getByTestId('error-message').first().textContent(), /does not parse/);
  assert.equal(await s.getByTestId('fit-result').getAttribute('data-state'), 'error');
  await afterChange(page, 'fit', () => s.getByTestId('wf-instance').selectOption('gpu:L4'));
  assert.equal(await s.getByTestId('fit-result').getAttribute('data-state'), 'error', 'still the parse error');
  // A config the analyzer refuses: its error, with the JSON path.
  const noLayers = { ...TINY_LLAMA };
  delete noLayers.num_hidden_layers;
  await afterChange(page, 'fit', () => s.getByTestId('wf-config').fill(JSON.stringify(noLayers)));
  const refused = cli({ ...req, gpu: 'L4', model: { hf_config: noLayers } });
  assert.equal(refused.ok, false);
  assert.equal(await page.getByTestId('fit-errors').getByTestId('error-path').first().textContent(), refused.errors[0].path);
  // Upload: the file's text replaces the editor's.
  const [result] = await Promise.all([
    page.waitForFunction(() => document.querySelector('[data-testid="fit-result"]')?.dataset.state === 'ready'),
    s.getByTestId('wf-config-file').setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(TINY_LLAMA)) }),
  ]);
  assert.ok(result);
  assert.equal(await page.getByTestId('fit-errors').isVisible(), false);
  assert.deepEqual(JSON.parse(await s.getByTestId('wf-config').inputValue()), TINY_LLAMA);
  r = await assertMemory(page, { ...req, gpu: 'L4' });
  // The link names "config" but never the pasted text.
  const params = new URL(await linkOf(page)).searchParams;
  assert.equal(params.get('model'), 'config');
  assert.ok(![...params.values()].some((v) => v.includes('hidden_size')), 'the config is not in the URL');
  await screenshot(page, 'memory-config', { fullPage: true });
  // Back to a catalog model: the config block hides and the answer follows.
  await afterChange(page, 'fit', () => s.getByTestId('wf-model').selectOption('model:mistral-7b-v0.1'));
  assert.equal(await s.getByTestId('wf-config').isVisible(), false);
  await assertMemory(page, { ...BASE, gpu: 'L4', model: { name: 'mistral-7b-v0.1' } });
});

test('memory: an earlier version\'s link restores its inputs in the form and the memory settings', async () => {
  const url = 'index.html?view=memory&model=mixtral-8x7b-v0.1&mode=inference&format=fp8&context=4096&batch=4&new=512&engine=vllm&kv=fp8&gpu=H100-SXM-80GB&gpus=2&tp=2';
  const page = await env.page(url);
  const s = screen(page);
  const req = {
    question: 'memory', model: { name: 'mixtral-8x7b-v0.1' }, mode: 'inference', weight_format: 'fp8', gpu: 'H100-SXM-80GB', gpus: 2, tensor_parallel: 2,
    context: 4096, new_tokens: 512, engine: 'vllm', batch: 4, kv_cache_format: 'fp8',
  };
  const r = await assertMemory(page, req);
  assert.ok(r.model.active_parameters_billion < r.model.parameters_billion, 'MoE: active parameters shown');
  // Change some inputs; the link follows and a new page restores them.
  await afterChange(page, 'fit', () => s.getByTestId('wf-workload').selectOption('fine_tuning'));
  await afterChange(page, 'fit', () => s.getByTestId('mem-sharding').selectOption('zero3'));
  await afterChange(page, 'fit', () => s.getByTestId('mem-offload').check());
  await afterChange(page, 'fit', () => s.getByTestId('mem-optimizer').selectOption('adamw_8bit'));
  await afterChange(page, 'fit', () => s.getByTestId('mem-engine').selectOption('transformers'));
  const link = new URL(await linkOf(page)).searchParams;
  assert.equal(link.get('workload'), 'fine_tuning');
  assert.equal(link.get('sharding'), 'zero3');
  assert.equal(link.get('offload'), '1');
  assert.equal(link.has('kv'), false, 'serving-only keys leave the link in training tasks');
  const train = {
    question: 'memory', model: { name: 'mixtral-8x7b-v0.1' }, mode: 'full_finetune', weight_format: 'fp8', gpu: 'H100-SXM-80GB', gpus: 2, tensor_parallel: 2,
    engine: 'transformers', batch: 4, optimizer: 'adamw_8bit', sharding: 'zero3', cpu_offload: true,
  };
  await assertMemory(page, train);
  const copy = await env.page(await rel(page));
  await assertMemory(copy, train);
  assert.equal(await screen(copy).getByTestId('mem-optimizer').inputValue(), 'adamw_8bit');
  assert.equal(await screen(copy).getByTestId('mem-offload').isChecked(), true);
  assert.equal(await copy.getByTestId('fit-result').innerText(), await page.getByTestId('fit-result').innerText());
  // An unknown GPU in a link: the analyzer's error names the field.
  const odd = await env.page('index.html?view=fit&model=llama-3-8b&instance=gpu:Z9000');
  assert.equal(await odd.getByTestId('fit-errors').getByTestId('error-path').first().textContent(), '/gpu');
  await odd.close();
});

test('memory: 360 px wide, no sideways scroll', async () => {
  const page = await env.page(START, { width: 360, height: 740 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `scrolls sideways by ${overflow}px`);
  await screenshot(page, 'memory-360', { fullPage: true });
  await page.close();
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
