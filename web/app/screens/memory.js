// Model memory: a concrete model (or your own Hugging Face config.json) in a weight format, mode
// and engine; the per-GPU breakdown the memory model gives (what nvidia-smi shows), against a
// chosen GPU, the largest batch and context that fit, and which GPUs of the catalog hold it.
import { h, facts, card, table, basis, selectField, fillSelect, setSelectValue } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { controlSet, selectControl, numberControl, checkboxControl, concreteModels } from '../controls.js';
import { catalogGpus, weightFormatGroups } from '../more-controls.js';
import { usageBar, statusBadge, expectedError } from '../parts.js';
import { barChart } from '../charts.js';
import { GROUPS, groupOf } from '../memory-groups.js';

const CONFIG = 'config'; // the model select's "your own config.json" (URL: model=config)
const DEFAULT_MODEL = 'llama-3-8b';
const DEFAULT_GPU = 'A100-40GB';

export const MODES = [
  { value: 'load_only', label: 'Load only (weights, no forward pass)' },
  { value: 'inference', label: 'Inference' },
  { value: 'full_finetune', label: 'Full fine-tuning' },
  { value: 'lora', label: 'LoRA fine-tuning' },
  { value: 'qlora', label: 'QLoRA fine-tuning' },
  { value: 'pretraining', label: 'Pre-training' },
];
const TRAINING = new Set(['full_finetune', 'lora', 'qlora', 'pretraining']);
const SHARDING = [
  { value: 'none', label: 'None' },
  { value: 'zero1', label: 'ZeRO-1 (optimizer)' },
  { value: 'zero2', label: 'ZeRO-2 (+ gradients)' },
  { value: 'zero3', label: 'ZeRO-3 (+ weights)' },
  { value: 'fsdp', label: 'FSDP (full shard)' },
];


const gib = (v) => (Number.isFinite(v) ? `${f.num(v, Math.abs(v) > 0 && Math.abs(v) < 0.1 ? 3 : 2)} GiB` : f.DASH);
const tokens = (v) => (Number.isFinite(v) ? `${f.num(v, 0)} tokens` : f.DASH);
const upper = (s) => String(s ?? '').toUpperCase();

const menus = (store) => store.state?.data?.memory_menus ?? {};

/** The catalog's GPUs with their usable memory, smallest first. */
const gpuOptions = (store) => catalogGpus(store).map((g) => ({ value: g.key, label: `${g.key} (${f.num(g.capacity_gib, 1)} GiB usable)` }));

const EXAMPLE = '{"model_type": "llama", "hidden_size": 2048, "intermediate_size": 5632, "num_hidden_layers": 22, "num_attention_heads": 32, "num_key_value_heads": 4, "vocab_size": 32000, "max_position_embeddings": 2048}';

/** A model of the catalog, or your own config.json (pasted or uploaded; never put in the URL). */
function memoryModelControl(prefix, onLoaded) {
  const sel = selectField({ id: `${prefix}-model`, label: 'Model' });
  const text = h('textarea', {
    id: `${prefix}-config`, name: `${prefix}-config`, rows: 8, spellcheck: false, autocomplete: 'off', testid: `${prefix}-config`,
    placeholder: EXAMPLE, 'aria-describedby': `${prefix}-config-hint`,
  });
  const file = h('input', { id: `${prefix}-config-file`, type: 'file', accept: '.json,application/json', testid: `${prefix}-config-file` });
  const block = h('div', { class: 'mem-config' },
    h('div', { class: 'field' }, h('label', { for: text.id }, 'Your config.json'), text,
      h('small', { class: 'hint', id: `${prefix}-config-hint` }, 'Paste a Hugging Face config.json (or upload it below). It stays in this page and is not put in links.')),
    h('div', { class: 'field' }, h('label', { for: file.id }, 'Upload config.json'), file));
  const sync = () => { block.hidden = sel.input.value !== CONFIG; };
  sel.input.addEventListener('change', sync);
  // The file is read first; the screen answers once its text is in the editor.
  file.addEventListener('input', (e) => e.stopPropagation());
  file.addEventListener('change', async (e) => {
    e.stopPropagation();
    const chosen = file.files?.[0];
    if (!chosen) return;
    text.value = await chosen.text();
    file.value = '';
    onLoaded();
  });
  sync();
  return {
    wrap: h('div', { class: 'field-pair mem-model' }, sel.wrap, block), input: sel.input, text, key: 'model',
    fill(store) {
      const models = [...concreteModels(store)].sort((a, b) => f.compareNames(a.name, b.name));
      fillSelect(sel.input, [
        { group: 'Models of the catalog', options: models.map((m) => ({ value: m.key, label: `${m.name} (${f.num(m.parameters_billion, 2)}B)` })) },
        { group: 'Your own', options: [{ value: CONFIG, label: 'Your own config.json (paste or upload)…' }] },
      ]);
      if (!sel.input.value) setSelectValue(sel.input, DEFAULT_MODEL, { quiet: true });
      sync();
    },
    fromParams(p) {
      if (p.has('model')) setSelectValue(sel.input, p.get('model'));
      else setSelectValue(sel.input, DEFAULT_MODEL, { quiet: true });
      sync();
    },
    toParams(p) { if (sel.input.value) p.set('model', sel.input.value); },
    /** {model} for the request, {error}, or {empty: true} when no config has been given yet. */
    value() {
      if (sel.input.value !== CONFIG) return { model: { name: sel.input.value } };
      if (text.value.trim() === '') return { empty: true };
      try {
        return { model: { hf_config: JSON.parse(text.value) } };
      } catch (e) {
        return { error: { code: 'invalid_json', file: 'config.json', path: '', message: `your config.json does not parse: ${e.message}` } };
      }
    },
  };
}

export function createMemoryScreen(store) {
  let screen;
  const model = memoryModelControl('mem', () => screen?.onChange(screen));
  const mode = selectControl({ id: 'mem-mode', key: 'mode', label: 'Mode', options: MODES, def: 'inference' });
  const format = selectControl({
    id: 'mem-format', key: 'format', label: 'Weight format', def: 'bf16',
    fill: weightFormatGroups,
  });
  const context = numberControl({ id: 'mem-context', key: 'context', label: 'Context', unit: 'tokens', def: '8192', min: 1, step: 1, optional: true });
  const batch = numberControl({ id: 'mem-batch', key: 'batch', label: 'Batch', unit: 'sequences', def: '1', min: 1, step: 1, optional: true });
  const newTokens = numberControl({ id: 'mem-new', key: 'new', path: '/new_tokens', label: 'New tokens', unit: 'tokens', def: '0', min: 0, step: 1, optional: true, hint: 'Generated after the prompt; the KV cache holds context + new tokens.' });
  const engine = selectControl({
    id: 'mem-engine', key: 'engine', label: 'Engine', def: 'transformers',
    fill: (s) => (menus(s).engines ?? []).map((e) => ({ value: e.key, label: e.name })),
  });
  const kv = selectControl({
    id: 'mem-kv', key: 'kv', label: 'KV-cache format',
    fill: (s) => [{ value: '', label: 'Compute precision (default)' }, ...(menus(s).kv_cache_formats ?? []).map((k) => ({ value: k, label: upper(k) }))],
  });
  const gpu = selectControl({ id: 'mem-gpu', key: 'gpu', label: 'GPU', def: DEFAULT_GPU, fill: gpuOptions });
  const gpus = numberControl({ id: 'mem-gpus', key: 'gpus', label: 'GPUs per model copy', unit: 'GPUs', def: '1', min: 1, step: 1, optional: true, whole: true });
  const tp = numberControl({ id: 'mem-tp', key: 'tp', label: 'Tensor parallel', unit: 'GPUs', def: '1', min: 1, step: 1, optional: true, whole: true, path: '/tensor_parallel', hint: 'Weights and KV cache split over this many GPUs.' });
  const optimizer = selectControl({
    id: 'mem-optimizer', key: 'optimizer', label: 'Optimizer', def: 'adamw',
    fill: (s) => (menus(s).optimizers ?? []).map((k) => ({ value: k, label: k.replaceAll('_', ' ') })),
  });
  const checkpointing = checkboxControl({ id: 'mem-gc', key: 'gc', label: 'Gradient checkpointing' });
  const rank = numberControl({ id: 'mem-rank', key: 'rank', path: '/lora/rank', whole: true, label: 'LoRA rank', def: '16', min: 1, step: 1, optional: true });
  const sharding = selectControl({ id: 'mem-sharding', key: 'sharding', label: 'Sharding', options: SHARDING, def: 'none' });
  const offload = checkboxControl({ id: 'mem-offload', key: 'offload', label: 'CPU offload (optimizer states)' });

  // Inference-only and training-only fields show (and go into the request and URL) only in
  // their modes.
  const inferenceOnly = [newTokens, kv];
  const trainingOnly = [optimizer, checkpointing, sharding, offload];
  const training = h('fieldset', { class: 'field mem-training', testid: 'mem-training' },
    h('legend', null, 'Training'), optimizer.wrap, rank.wrap, sharding.wrap, checkpointing.wrap, offload.wrap);
  const isTraining = () => TRAINING.has(mode.value());
  const isLora = () => mode.value() === 'lora' || mode.value() === 'qlora';
  const isInference = () => mode.value() === 'inference';
  const sync = () => {
    training.hidden = !isTraining();
    rank.wrap.hidden = !isLora();
    for (const c of inferenceOnly) c.wrap.hidden = !isInference();
  };
  mode.input.addEventListener('change', sync);

  const all = [model, mode, format, context, batch, newTokens, engine, kv, gpu, gpus, tp, optimizer, rank, sharding, checkpointing, offload];
  const visible = (c) => (trainingOnly.includes(c) ? isTraining() : c === rank ? isLora() : inferenceOnly.includes(c) ? isInference() : true);
  const controls = {
    controls: [model, mode, format, context, batch, newTokens, engine, kv, gpu, gpus, tp, { wrap: training }],
    fill(s) { for (const c of all) c.fill(s); sync(); },
    fromParams(p) { for (const c of all) c.fromParams(p); sync(); },
    toParams(p) { for (const c of all) if (visible(c)) c.toParams(p); },
  };

  /** The request the inputs describe (undefined numbers are left to the analyzer's defaults). */
  const request = (m) => {
    const r = {
      question: 'memory', model: m, mode: mode.value(), weight_format: format.value(),
      context: context.value(), batch: batch.value(), engine: engine.value(),
      gpu: gpu.value() || undefined, gpus: gpus.value(), tensor_parallel: tp.value(),
    };
    if (isInference()) {
      r.new_tokens = newTokens.value();
      if (kv.value()) r.kv_cache_format = kv.value();
    }
    if (isTraining()) {
      Object.assign(r, { optimizer: optimizer.value(), gradient_checkpointing: checkpointing.value(), sharding: sharding.value(), cpu_offload: offload.value() });
      if (isLora() && rank.value() !== undefined) r.lora = { rank: rank.value() };
    }
    for (const k of Object.keys(r)) if (r[k] === undefined || r[k] === '') delete r[k];
    return r;
  };

  screen = createScreen(store, {
    id: 'memory',
    title: 'Model memory',
    intro: 'How much GPU memory does this model take, as nvidia-smi will show it, and on which GPUs does it fit?',
    controls,
    async render({ ask }) {
      const m = model.value();
      if (m.error) return { errors: [m.error] };
      if (m.empty) {
        return { nodes: [h('p', { class: 'note', testid: 'mem-config-empty' }, 'Paste or upload a Hugging Face config.json to size your own model (pasted configs are not kept in links).')] };
      }
      const { response, errors } = await ask(request(m.model));
      if (errors) return { errors };
      return { nodes: renderMemory(response.result) };
    },
  });
  return screen;
}

export function renderMemory(r) {
  const g = r.gpu;
  const s = r.settings;
  const setup = `${MODES.find((x) => x.value === s.mode)?.label ?? f.label(s.mode)}, ${upper(s.weight_format)} weights, ${upper(s.compute_precision)} compute, batch ${f.num(s.batch, 0)}, `
    + `context ${f.num(s.context, 0)} tokens${s.new_tokens ? ` + ${f.num(s.new_tokens, 0)} new` : ''}, ${s.engine}`
    + `${s.gpus > 1 ? `, ${f.num(s.gpus, 0)} GPUs per copy (tensor parallel ${f.num(s.tensor_parallel, 0)}, sharding ${s.sharding})` : ''}`;
  const mib = Number.isFinite(r.total_bytes) ? `${f.num(r.total_bytes / 2 ** 20, 0)} MiB` : f.DASH;
  const verdict = g ? h('section', { class: ['card', 'verdict', g.fits ? 'fits' : 'nofit'], testid: 'mem-verdict' },
    h('h3', { class: 'sr-only' }, 'Verdict'),
    h('div', { class: 'verdict-head' },
      statusBadge(g.fits ? 'FITS' : 'DOES NOT FIT', 'mem-fits'),
      h('div', null,
        h('p', { class: 'verdict-title' }, h('span', { testid: 'mem-model-label' }, r.model.name), ' on ', h('span', { testid: 'mem-verdict-gpu' }, g.gpu)),
        h('p', { class: 'muted', testid: 'mem-setup' }, setup))),
    h('p', { class: 'per-gpu-line' },
      h('strong', { testid: 'mem-used' }, gib(g.used_gib)), ' per GPU (', h('span', { testid: 'mem-mib' }, mib), ' in nvidia-smi) of ',
      h('strong', { testid: 'mem-capacity' }, gib(g.capacity_gib)), ' usable'),
    usageBar(g.utilization_pct, { testid: 'mem-bar', label: `Memory used on the ${g.gpu}` }),
    facts([
      ['Use', f.pct(g.utilization_pct), 'mem-utilization'],
      [g.headroom_gib >= 0 ? 'Headroom' : 'Short by', gib(Math.abs(g.headroom_gib)), 'mem-headroom'],
      g.largest_batch !== undefined ? ['Largest batch that fits', g.largest_batch > 0 ? `${f.num(g.largest_batch, 0)} sequences at this context` : 'none: even 1 sequence is too much', 'mem-largest-batch'] : null,
      g.largest_context !== undefined ? ['Largest context that fits', g.largest_context > 0 ? `${tokens(g.largest_context)} at this batch` : 'none', 'mem-largest-context'] : null,
      g.kv_cache_tokens_that_fit !== undefined ? ['KV-cache tokens that fit', tokens(g.kv_cache_tokens_that_fit), 'mem-kv-tokens'] : null,
      g.concurrent_sequences_at_context !== undefined ? ['Sequences at this context at once', f.num(g.concurrent_sequences_at_context, 0), 'mem-concurrent'] : null,
      r.kv_cache_capacity ? ['vLLM KV-cache pool', `${tokens(r.kv_cache_capacity.tokens)} in ${gib(r.kv_cache_capacity.gib)}`, 'mem-pool'] : null,
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
    h('td', { class: 'num', testid: `mem-line-${l.key}-gib` }, gib(l.gib)),
    h('td', { class: 'basis-cell', testid: `mem-line-${l.key}-basis` }, l.basis)));
  rows.push(h('tr', { class: 'total-row' },
    h('th', { scope: 'row' }, 'Total per GPU (nvidia-smi)'),
    h('td', { class: 'num', testid: 'mem-total' }, gib(r.total_gib)),
    h('td', { class: 'basis-cell' }, `tensors ${gib(r.tensors_gib)} (torch.cuda.max_memory_allocated) + runtime`)));
  return table({ caption: 'Memory per GPU', head: ['Part', 'GiB', 'How'], rows, testid: 'mem-breakdown', exportName: 'model-memory' });
}

/** One stacked bar: every breakdown line, against the chosen GPU's usable memory. */
function memoryChart(r) {
  const g = r.gpu;
  const cap = g?.capacity_gib;
  const label = g ? `${r.settings.gpus > 1 ? 'Each ' : ''}${g.gpu}` : 'Per GPU';
  const row = {
    label,
    parts: r.per_gpu.map((l) => ({ value: l.gib, cls: groupOf(l.key).cls, name: l.label })),
    marker: cap, markerLabel: cap === undefined ? undefined : `usable memory ${gib(cap)}`,
  };
  const present = GROUPS.filter((grp) => r.per_gpu.some((l) => groupOf(l.key) === grp));
  const pctOf = (v) => (cap > 0 ? f.num((v / cap) * 100, 1) : f.DASH);
  return h('div', { class: 'mem-chart' }, barChart({
    title: g ? `Memory on the ${g.gpu}: ${gib(r.total_gib)} of ${gib(cap)} usable` : `Memory per GPU: ${gib(r.total_gib)}`,
    summary: r.per_gpu.map((l) => `${l.label} ${gib(l.gib)}`).join(', '),
    xLabel: 'Memory per GPU (GiB)', rows: [row], format: (v) => `${f.num(v, v >= 100 ? 0 : 1)} GiB`, testid: 'mem-chart',
    legendItems: [...present.map((grp) => ({ cls: grp.cls, name: grp.name })), cap === undefined ? null : { cls: 'marker', name: 'Usable memory of the GPU' }].filter(Boolean),
    data: {
      caption: 'Memory per GPU (GiB)',
      head: ['Part', 'GiB', 'Share of the GPU (%)'],
      rows: [
        ...r.per_gpu.map((l) => [l.label, f.num(l.gib, 3), pctOf(l.gib)]),
        ['Total', f.num(r.total_gib, 3), pctOf(r.total_gib)],
        ...(cap === undefined ? [] : [['Usable memory of the GPU', f.num(cap, 3), '100']]),
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
      ? `${holding.length} of ${list.length} GPUs hold it${per}; the smallest is the ${holding[0].gpu} (${gib(holding[0].capacity_gib)} usable).`
      : `None of the ${list.length} GPUs holds it${per}: use more GPUs per copy, a smaller weight format or a shorter context.`),
    table({
      caption: 'Every GPU of the catalog', head: ['GPU', 'Usable (GiB)', 'Needs (GiB)', 'Use (%)', 'Fits'], testid: 'mem-gpu-table', exportName: 'model-memory-gpus',
      rows: list.map((x, i) => h('tr', { class: x.gpu === chosen ? 'mem-chosen' : null, testid: `mem-gpu-row-${i}` },
        h('th', { scope: 'row', testid: `mem-gpu-name-${i}` }, x.gpu, x.gpu === chosen ? h('span', { class: 'muted' }, ' (chosen)') : null),
        h('td', { class: 'num' }, f.num(x.capacity_gib, 2)),
        h('td', { class: 'num' }, f.num(x.used_gib, 2)),
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
      ['Weights', gib(r.weights_gib), 'mem-weights'],
    ]),
    m.source ? h('details', { class: 'why-details' }, h('summary', null, 'Where the architecture comes from'), basis(m.source)) : null,
  ];
}
