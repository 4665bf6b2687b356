// Memory, line by line (the `memory` question): on one GPU alone (Fit & memory with a GPU as
// where it runs), and which GPUs of the catalog hold a concrete model, under Fit's answer. Sizes
// are in GB; beside the total and the weights, the figure nvidia-smi, PyTorch or vLLM prints.
import { h, facts, card, table } from '../dom.js';
import { selectControl, numberControl, serves } from '../controls.js';
import * as f from '../format.js';
import { usageBar, statusBadge, requestBlock } from '../parts.js';
import { barChart } from '../charts.js';
import { GROUPS, groupOf } from '../memory-groups.js';
import { renderPrecisions } from './precisions.js';
import { renderFit, fitMore as more } from './fit.js';
import { memoryText } from '../deployment.js';
import { workloadBlock } from '../workload-block.js';
import { own } from '../link.js';
import { MODE_NAMES, SHARDING_NAMES } from '../names.js';

/** The memory question's mode for a task of the workload form: the core's menus say it (each of
 *  `tasks` names its `memory_mode`); another task is passed as it is, for the core to refuse. */
const modeOf = (store, task) => (store?.state?.data?.tasks ?? []).find((t) => t.key === task)?.memory_mode ?? task;

/** A figure as a tool prints it (format.js toolSize), beside the GB one. */
const tool = (bytes, unit, name, testid) => h('span', { class: 'tool-size', testid }, f.toolSize(bytes, unit, name));
const tokens = (v) => (Number.isFinite(v) ? `${f.num(v, 0)} tokens` : f.DASH);
const upper = (s) => String(s ?? '').toUpperCase();

/** The memory question for the form's workload: the prompt is the context, the output the new
 *  tokens; tensor parallelism follows the GPU count (a copy over N GPUs is split N ways). */
export function memoryRequest(w, extra, store) {
  const r = { question: 'memory', model: w.model, mode: modeOf(store, w.workload), weight_format: w.precision, ...extra };
  if (w.demand?.input_tokens !== undefined) r.context = w.demand.input_tokens;
  if (w.demand?.output_tokens !== undefined) r.new_tokens = w.demand.output_tokens;
  if (r.gpus) r.tensor_parallel = r.gpus;
  return r;
}

/** The sharding choices: the core's (memory's "sharding" values), by name. */
const shardings = (store) => (store.state?.data?.request?.values?.['memory.sharding'] ?? [])
  .map((v) => ({ value: v === 'none' ? '' : v, label: own(SHARDING_NAMES, v) ?? v }));
const menus = (store) => store.state?.data?.memory_menus ?? {};

function checkboxControl({ id, key, label }) {
  const input = h('input', { id, name: id, type: 'checkbox', testid: id });
  return {
    wrap: h('div', { class: 'field check' }, input, h('label', { for: id }, label)), input, key,
    fill() {},
    fromParams(p) { input.checked = p.get(key) === '1' || p.get(key) === 'true'; },
    toParams(p) { if (input.checked) p.set(key, '1'); },
    value: () => input.checked,
  };
}

/** The memory model's own settings on one GPU alone, each empty for its default: engine and batch;
 *  serving, the KV-cache format; training, the sequence length, optimizer, LoRA rank, sharding,
 *  gradient checkpointing and CPU offload. URL: engine, batch, kv | seq, optimizer, rank, sharding,
 *  gc, offload (1). */
function memorySettings(form) {
  const opt = (list, none) => [{ value: '', label: none }, ...list];
  const engine = selectControl({ id: 'mem-engine', key: 'engine', label: 'Engine', fill: (s) => opt((menus(s).engines ?? []).map((e) => ({ value: e.key, label: e.name })), 'The default (transformers)') });
  const batch = numberControl({ id: 'mem-batch', key: 'batch', label: 'Batch', unit: 'sequences', min: 1, step: 1, optional: true, whole: true, placeholder: '1' });
  const kv = selectControl({ id: 'mem-kv', key: 'kv', label: 'KV-cache format', fill: (s) => opt((menus(s).kv_cache_formats ?? []).map((k) => ({ value: k, label: upper(k) })), 'Compute precision (default)') });
  const seq = numberControl({ id: 'mem-seq', key: 'seq', path: '/context', label: 'Sequence length', unit: 'tokens', min: 1, step: 1, optional: true, whole: true, placeholder: 'the default' });
  const optimizer = selectControl({ id: 'mem-optimizer', key: 'optimizer', label: 'Optimizer', fill: (s) => opt((menus(s).optimizers ?? []).map((k) => ({ value: k, label: k.replaceAll('_', ' ') })), 'AdamW (default)') });
  const rank = numberControl({ id: 'mem-rank', key: 'rank', path: '/lora/rank', label: 'LoRA rank', min: 1, step: 1, optional: true, whole: true, placeholder: '16' });
  const sharding = selectControl({ id: 'mem-sharding', key: 'sharding', label: 'Sharding', fill: shardings });
  const gc = checkboxControl({ id: 'mem-gc', key: 'gc', label: 'Gradient checkpointing' });
  const offload = checkboxControl({ id: 'mem-offload', key: 'offload', label: 'CPU offload (optimizer states)' });
  const training = h('fieldset', { class: 'field mem-training', testid: 'mem-training' }, h('legend', null, 'Training'), seq.wrap, optimizer.wrap, rank.wrap, sharding.wrap, gc.wrap, offload.wrap);
  const all = [engine, batch, kv, seq, optimizer, rank, sharding, gc, offload];
  const isLora = () => form.task() === 'lora' || form.task() === 'qlora';
  const shown = (c) => (c === kv ? serves(form.task()) : [engine, batch].includes(c) || (!serves(form.task()) && (c !== rank || isLora())));
  const sync = () => {
    training.hidden = serves(form.task());
    kv.wrap.hidden = !serves(form.task());
    rank.wrap.hidden = !isLora();
  };
  form.node.addEventListener('change', sync);
  const node = h('form', { class: 'inputs', 'aria-label': 'Memory settings', novalidate: true, testid: 'mem-settings' },
    h('fieldset', { class: 'field' }, h('legend', null, 'Memory settings (one GPU alone)'), engine.wrap, batch.wrap, kv.wrap), training);
  node.addEventListener('submit', (e) => e.preventDefault());
  return {
    node,
    get controls() { return all.filter(shown); },
    fill(s) { for (const c of all) c.fill(s); sync(); },
    fromParams(p) { for (const c of all) c.fromParams(p); sync(); },
    toParams(p) { for (const c of all.filter(shown)) c.toParams(p); },
    /** The settings given, into a memory request. */
    apply(r) {
      const given = (c) => shown(c) && c.value() !== undefined && c.value() !== '' && c.value() !== false;
      if (given(engine)) r.engine = engine.value();
      if (given(batch)) r.batch = batch.value();
      if (given(kv)) r.kv_cache_format = kv.value();
      if (given(seq)) r.context = seq.value();
      if (given(optimizer)) r.optimizer = optimizer.value();
      if (given(rank)) r.lora = { rank: rank.value() };
      if (given(sharding)) r.sharding = sharding.value();
      if (given(gc)) r.gradient_checkpointing = true;
      if (given(offload)) r.cpu_offload = true;
      return r;
    },
  };
}

/** Fit & memory on one GPU alone: its memory, line by line, against that GPU, with the memory
 *  model's own settings (added to the screen's inputs once, shown only here). */
export async function memoryOnGpu(ask, form, where, screen, store) {
  if (!screen.memorySettings) {
    const settings = memorySettings(form);
    screen.extend(settings);
    screen.memorySettings = (on) => { settings.node.hidden = !on; };
    screen.memorySettings.apply = settings.apply;
  }
  screen.memorySettings(true);
  if (!form.model.concrete()) {
    return { errors: [{ code: 'not_concrete', file: 'page', path: '/model', message: 'One GPU alone is sized from the model\u2019s layers: choose a model of the catalog or paste its config.json (or choose an instance to size a size class).' }] };
  }
  const r = screen.memorySettings.apply(memoryRequest(form.workload(), { gpu: where.gpu, ...(where.gpus ? { gpus: where.gpus } : {}) }, store));
  const { response, errors } = await ask(r);
  if (errors) return { errors };
  return { nodes: [...renderMemory(response.result), requestBlock(r, 'fit-request')] };
}

/** Fit & memory on the cheapest instance with a GPU: each family's smallest size with the GPUs
 *  given (1 when empty) is asked; the cheapest that holds the model answers, the others are listed. */
export async function fitOnAny(ask, form, store, where) {
  const n = where.gpus ?? 1;
  const families = [...new Set(store.instances.filter((i) => i.gpu_type === where.any && i.gpus >= n).map((i) => i.family))];
  if (!families.length) return { errors: [{ code: 'no_instance', file: 'page', path: '/instance', message: `No instance of the catalog has ${n} × ${where.any}: choose fewer GPUs or another GPU.` }] };
  const asked = families.map((family) => form.pay({ question: 'fit', ...form.workload(), instance: family, gpus: n }));
  const answers = await Promise.all(asked.map(ask));
  const failed = answers.find((a) => a.errors);
  if (failed) return { errors: failed.errors };
  const fits = (i) => answers[i].response.result.status === 'FITS';
  const cost = (i) => answers[i].response.result.cost?.usd_per_month ?? Infinity;
  // A flagged price goes last, as rankings leave it out: "the cheapest" never rests on it.
  const flagged = (i) => (answers[i].response.result.price_flags ? 1 : 0);
  const order = families.map((_, i) => i).sort((i, j) => fits(j) - fits(i) || flagged(i) - flagged(j) || cost(i) - cost(j));
  const list = order.map((i) => answers[i].response.result);
  return {
    nodes: [renderFit(list[0]), card(`Every instance with ${n} × ${where.any}`, table({
      caption: 'Instances with the GPU, cheapest that holds the model first', testid: 'fit-any-table', exportName: 'fit-instances', records: list,
      head: ['Instance', 'Monthly cost', 'Fits', 'Memory per GPU'],
      rows: list.map((r, i) => h('tr', { testid: `fit-any-row-${i}` },
        h('th', { scope: 'row' }, r.placement.instance),
        h('td', { class: 'num' }, f.usdMonth(r.cost?.usd_per_month)),
        h('td', null, r.status),
        h('td', { class: 'num' }, memoryText(r.deployment)))),
    })), more(ask, form, list[0]), requestBlock(asked[order[0]], 'fit-request')],
  };
}

/** Under Fit's answer: the workload sized, the weights in every format and, for a concrete model,
 *  every GPU that holds it with the same engine, sequence and GPUs per copy. */
export async function fitMore(ask, form, fit, store) {
  const w = form.workload();
  const prec = await ask({ question: 'precisions', model: w.model });
  const nodes = prec.response ? renderPrecisions(prec.response.result) : [];
  if (form.model.concrete()) {
    const copy = fit.deployment?.layout?.tensor_parallel ?? 1;
    const mem = await ask(memoryRequest(w, { engine: fit.request.engine, gpus: copy }, store));
    if (mem.response) nodes.unshift(card('GPUs that hold it', gpusTable(mem.response.result)));
  }
  return [card('Workload sized', workloadBlock(fit.request, 'fit-workload')), ...nodes];
}

export function renderMemory(r) {
  const g = r.gpu;
  const s = r.settings;
  const setup = `${own(MODE_NAMES, s.mode) ?? f.label(s.mode)}, ${upper(s.weight_format)} weights, ${upper(s.compute_precision)} compute, batch ${f.num(s.batch, 0)}, `
    + `context ${f.num(s.context, 0)} tokens${s.new_tokens ? ` + ${f.num(s.new_tokens, 0)} new` : ''}, ${s.engine}`
    + `${s.gpus > 1 ? `, ${f.num(s.gpus, 0)} GPUs per copy (tensor parallel ${f.num(s.tensor_parallel, 0)}, sharding ${s.sharding})` : ''}`;
  const verdict = g ? h('section', { class: ['card', 'verdict', g.fits ? 'fits' : 'nofit'], testid: 'mem-verdict' },
    h('h3', { class: 'sr-only' }, 'Verdict'),
    h('div', { class: 'verdict-head' },
      statusBadge(g.fits ? 'FITS' : 'DOES NOT FIT', 'mem-fits'),
      h('div', null,
        h('p', { class: 'verdict-title' }, h('span', { testid: 'mem-model-label' }, r.model.name), ' on ', h('span', { testid: 'mem-verdict-gpu' }, g.gpu)),
        h('p', { class: 'muted', testid: 'mem-setup' }, setup))),
    h('p', { class: 'per-gpu-line' },
      h('strong', { testid: 'mem-used' }, f.gbOfGib(g.used_gib)), ' per GPU (', tool(r.total_bytes, 'MiB', 'nvidia-smi', 'mem-mib'), ') of ',
      h('strong', { testid: 'mem-capacity' }, f.gbOfGib(g.capacity_gib)), ' usable'),
    usageBar(g.utilization_pct, { testid: 'mem-bar', label: `Memory used on the ${g.gpu}` }),
    facts([
      ['Use', f.pct(g.utilization_pct), 'mem-utilization'],
      [g.headroom_gib >= 0 ? 'Headroom' : 'Short by', f.gbOfGib(Math.abs(g.headroom_gib)), 'mem-headroom'],
      g.fit_band ? ['At the measured error', f.sentence(g.fit_band.text), 'mem-fit-band'] : null,
      g.largest_batch !== undefined ? ['Largest batch that fits', g.largest_batch > 0 ? `${f.num(g.largest_batch, 0)} sequences at this context` : 'none: even 1 sequence is too much', 'mem-largest-batch'] : null,
      g.largest_context !== undefined ? ['Largest context that fits', g.largest_context > 0 ? `${tokens(g.largest_context)} at this batch` : 'none', 'mem-largest-context'] : null,
      g.kv_cache_tokens_that_fit !== undefined ? ['KV-cache tokens that fit', tokens(g.kv_cache_tokens_that_fit), 'mem-kv-tokens'] : null,
      g.concurrent_sequences_at_context !== undefined ? ['Sequences at this context at once', f.num(g.concurrent_sequences_at_context, 0), 'mem-concurrent'] : null,
      r.kv_cache_capacity ? ['vLLM KV-cache pool', `${tokens(r.kv_cache_capacity.tokens)} in ${f.gbOfGib(r.kv_cache_capacity.gib)}`, 'mem-pool'] : null,
      r.kv_cache_capacity ? ['Sequences at this context at once', f.num(r.kv_cache_capacity.concurrent_sequences, 0), 'mem-pool-sequences'] : null,
    ], 'facts compact'))
    : card('Memory per GPU', h('p', { class: 'note' }, 'No GPU chosen: the breakdown below is per GPU.'));

  return [
    verdict,
    card('What takes the memory', breakdownTable(r), memoryChart(r),
      r.notes?.length ? h('ul', { class: 'reasons', testid: 'mem-notes' }, r.notes.map((n) => h('li', null, n))) : null,
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Basis: '), h('span', { testid: 'mem-basis' }, r.basis)),
      expectedError(r.expected_error, 'mem-expected-error')),
    card('Model', modelFacts(r.model, r)),
    card('GPUs that hold it', gpusTable(r)),
  ];
}

function breakdownTable(r) {
  const rows = r.per_gpu.map((l) => h('tr', { testid: `mem-line-${l.key}` },
    h('th', { scope: 'row' }, h('span', { class: ['swatch', groupOf(l.key).cls], 'aria-hidden': 'true' }), ' ', l.label),
    h('td', { class: 'num', testid: `mem-line-${l.key}-gb` }, f.gbOfGib(l.gib)),
    h('td', { class: 'basis-cell', testid: `mem-line-${l.key}-basis` }, l.basis)));
  rows.push(h('tr', { class: 'total-row' },
    h('th', { scope: 'row' }, 'Total per GPU (nvidia-smi)'),
    h('td', { class: 'num', testid: 'mem-total' }, f.gbOfGib(r.total_gib)),
    h('td', { class: 'basis-cell' }, `tensors ${f.gbOfGib(r.tensors_gib)} (`, tool(r.tensors_gib * 2 ** 30, 'GiB', 'torch.cuda.max_memory_allocated()'), ') + runtime')));
  return table({ caption: 'Memory per GPU', head: ['Part', 'GB', 'How'], rows, testid: 'mem-breakdown', exportName: 'model-memory', records: r.per_gpu });
}

/** One stacked bar: every breakdown line, against the chosen GPU's usable memory. */
function memoryChart(r) {
  const g = r.gpu;
  const cap = g?.capacity_gib;
  const label = g ? `${r.settings.gpus > 1 ? 'Each ' : ''}${g.gpu}` : 'Per GPU';
  const row = {
    label,
    parts: r.per_gpu.map((l) => ({ value: f.gibToGb(l.gib), cls: groupOf(l.key).cls, name: l.label })),
    marker: f.gibToGb(cap), markerLabel: cap === undefined ? undefined : `usable memory ${f.gbOfGib(cap)}`,
  };
  const present = GROUPS.filter((grp) => r.per_gpu.some((l) => groupOf(l.key) === grp));
  const pctOf = (v) => (cap > 0 ? f.num((v / cap) * 100, 1) : f.DASH);
  return h('div', { class: 'mem-chart' }, barChart({
    title: g ? `Memory on the ${g.gpu}: ${f.gbOfGib(r.total_gib)} of ${f.gbOfGib(cap)} usable` : `Memory per GPU: ${f.gbOfGib(r.total_gib)}`,
    summary: r.per_gpu.map((l) => `${l.label} ${f.gbOfGib(l.gib)}`).join(', '),
    xLabel: 'Memory per GPU (GB)', rows: [row], format: f.gbTick, testid: 'mem-chart',
    legendItems: [...present.map((grp) => ({ cls: grp.cls, name: grp.name })), cap === undefined ? null : { cls: 'marker', name: 'Usable memory of the GPU' }].filter(Boolean),
    data: {
      caption: 'Memory per GPU (GB)', records: r.per_gpu,
      head: ['Part', 'GB', 'Share of the GPU (%)'],
      rows: [
        ...r.per_gpu.map((l) => [l.label, f.num(f.gibToGb(l.gib), 3), pctOf(l.gib)]),
        ['Total', f.num(f.gibToGb(r.total_gib), 3), pctOf(r.total_gib)],
        ...(cap === undefined ? [] : [['Usable memory of the GPU', f.num(f.gibToGb(cap), 3), '100']]),
      ],
    },
  }));
}

function gpusTable(r) {
  const list = [...(r.gpus ?? [])].sort((a, b) => a.capacity_gib - b.capacity_gib || a.gpu.localeCompare(b.gpu));
  const holding = list.filter((x) => x.fits);
  const chosen = r.gpu?.gpu;
  const per = r.settings.gpus > 1 ? ` with ${f.num(r.settings.gpus, 0)} GPUs per copy` : '';
  return [
    h('p', { testid: 'mem-gpus-summary' }, holding.length
      ? `${holding.length} of ${list.length} GPUs hold it${per}; the smallest is the ${holding[0].gpu} (${f.gbOfGib(holding[0].capacity_gib)} usable).`
      : `None of the ${list.length} GPUs holds it${per}: use more GPUs per copy, a smaller weight format or a shorter context.`),
    table({
      caption: 'Every GPU of the catalog', head: ['GPU', 'Usable (GB)', 'Needs (GB)', 'Use (%)', 'Fits'], testid: 'mem-gpu-table', exportName: 'model-memory-gpus', records: list,
      rows: list.map((x, i) => h('tr', { class: x.gpu === chosen ? 'mem-chosen' : null, testid: `mem-gpu-row-${i}` },
        h('th', { scope: 'row', testid: `mem-gpu-name-${i}` }, x.gpu, x.gpu === chosen ? h('span', { class: 'muted' }, ' (chosen)') : null),
        h('td', { class: 'num' }, f.num(f.gibToGb(x.capacity_gib), 2)),
        h('td', { class: 'num' }, f.num(f.gibToGb(x.used_gib), 2)),
        h('td', { class: 'num' }, x.capacity_gib > 0 ? f.num((x.used_gib / x.capacity_gib) * 100, 1) : f.DASH),
        h('td', { testid: `mem-gpu-fits-${i}` }, x.fits ? 'yes' : 'no'))),
    }),
  ];
}

function modelFacts(m, r) {
  return [
    facts([
      ['Model', m.name, 'mem-model-name'],
      m.hf_id ? ['Hugging Face id', m.hf_id, 'mem-hf-id'] : null,
      ['Architecture', m.model_type, 'mem-model-type'],
      ['Parameters', `${f.num(m.parameters_billion, 3)} billion`, 'mem-params'],
      m.active_parameters_billion !== undefined ? ['Active per token (MoE)', `${f.num(m.active_parameters_billion, 3)} billion`, 'mem-active-params'] : null,
      r.trainable_parameters !== undefined ? ['Trainable', `${f.num(r.trainable_parameters / 1e6, 2)} million`, 'mem-trainable'] : null,
      ['KV cache per token', `${f.num(m.kv_cache_kib_per_token, 3)} KiB`, 'mem-kv-per-token'],
      ['Weights', [h('span', { testid: 'mem-weights' }, f.gbOfGib(r.weights_gib)), ' (', tool(r.weights_gib * 2 ** 30, 'GiB', 'vLLM\u2019s and PyTorch\u2019s logs', 'mem-weights-tool'), ')']],
    ]),
    m.source ? h('details', { class: 'why-details' }, h('summary', null, 'Where the architecture comes from'), basis(m.source)) : null,
  ];
}

/** How far a figure of this kind was off on the measured cases (the core's expected_error). */
function expectedError(e, testid) {
  if (!e) return null;
  return h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Expected error: '), h('span', { testid }, e.text));
}

/** "Why": the basis strings the API returns, shown as they are. */
function basis(...lines) {
  const items = lines.flat().filter(Boolean);
  if (!items.length) return null;
  return h('ul', { class: 'basis' }, items.map((l) => h('li', null, l)));
}
