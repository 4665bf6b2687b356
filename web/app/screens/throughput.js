// Speed & cost per token: the `estimate` question (a roofline of prefill and decode, or of a
// training step) for a concrete model in a weight format on a GPU or instance; the same estimate
// for every GPU of the catalog, as cost per million output tokens against tokens/s with the
// Pareto frontier, and as a table.
import { h, facts, card, table } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { selectControl, numberControl, concreteModels } from '../controls.js';
import { catalogGpus, weightFormatGroups } from '../more-controls.js';
import { scatterChart, paretoFrontier } from '../scatter-chart.js';
import { expectedError } from '../parts.js';

const DEFAULT_MODEL = 'llama-3.1-8b';
const DEFAULT_GPU = 'H100-SXM-80GB';
const PHASES = [
  { value: 'inference', label: 'Inference (serving)' },
  { value: 'training', label: 'Training' },
];

const upper = (s) => String(s ?? '').toUpperCase();
const ms = (v, d) => (Number.isFinite(v) ? `${f.num(v, d)} ms` : f.DASH);
const tps = (v) => (Number.isFinite(v) ? `${f.num(v, 1)} tokens/s` : f.DASH);
const perM = (v) => (Number.isFinite(v) ? `$${f.num(v, 4)}` : f.DASH);
/** GPUs whose speed can be estimated: NVIDIA and AMD with bandwidth and TFLOPS in the catalog. */
const speedGpus = (store) => catalogGpus(store).filter((g) => g.estimable && (g.vendor === 'nvidia' || g.vendor === 'amd'));

/** Instance types with GPUs, by family; '' = the cheapest instance with the chosen GPU. */
function instanceOptions(store) {
  const byFamily = new Map();
  for (const i of store.instances) {
    if (i.accelerator_kind !== 'gpu' || !(i.gpus > 0)) continue;
    if (!byFamily.has(i.family)) byFamily.set(i.family, []);
    byFamily.get(i.family).push(i);
  }
  return [
    { value: '', label: 'Cheapest instance with the GPU above' },
    ...[...byFamily].map(([family, list]) => ({
      group: `${family} (${store.providerOf(family).toUpperCase()})`,
      options: list.map((i) => ({ value: i.instance, label: `${i.instance} — ${f.num(i.gpus, 3)} × ${i.gpu_type}` })),
    })),
  ];
}

export function createThroughputScreen(store) {
  const model = selectControl({
    id: 'thr-model', key: 'model', label: 'Model', def: DEFAULT_MODEL,
    fill: (s) => [...concreteModels(s)].sort((a, b) => f.compareNames(a.name, b.name))
      .map((m) => ({ value: m.key, label: `${m.name} (${f.num(m.parameters_billion, 2)}B)` })),
  });
  const format = selectControl({
    id: 'thr-format', key: 'format', label: 'Weight format', def: 'fp8',
    fill: weightFormatGroups,
  });
  const phase = selectControl({ id: 'thr-phase', key: 'phase', label: 'Mode', options: PHASES, def: 'inference' });
  const gpu = selectControl({
    id: 'thr-gpu', key: 'gpu', label: 'GPU', def: DEFAULT_GPU,
    fill: (s) => speedGpus(s).map((g) => ({ value: g.key, label: `${g.key} (${f.num(g.capacity_gib, 1)} GiB usable)` })),
  });
  const instance = selectControl({
    id: 'thr-instance', key: 'instance', label: 'Priced on', fill: instanceOptions,
    hint: 'An instance type instead of a GPU: the estimate uses its GPU and its price.',
  });
  const tp = numberControl({ id: 'thr-tp', key: 'tp', path: '/tensor_parallel', whole: true, label: 'Tensor parallel', unit: 'GPUs', def: '1', min: 1, step: 1, optional: true, hint: 'GPUs per model copy.' });
  const input = numberControl({ id: 'thr-in', key: 'in', path: '/input_tokens', label: 'Input tokens', unit: 'tokens', def: '1000', min: 1, step: 1, optional: true });
  const output = numberControl({ id: 'thr-out', key: 'out', path: '/output_tokens', label: 'Output tokens', unit: 'tokens', def: '1000', min: 1, step: 1, optional: true });
  const concurrency = numberControl({
    id: 'thr-conc', key: 'conc', label: 'Concurrency', unit: 'sequences', def: '64', min: 1, step: 1, optional: true,
    placeholder: 'as many as fit', hint: 'Empty: as many as the KV cache holds (at most 512).',
  });
  const kv = selectControl({
    id: 'thr-kv', key: 'kv', label: 'KV-cache format',
    fill: (s) => [{ value: '', label: 'Compute precision (default)' }, ...(s.state?.data?.memory_menus?.kv_cache_formats ?? []).map((k) => ({ value: k, label: upper(k) }))],
  });
  const tokens = numberControl({ id: 'thr-tokens', key: 'tokens', path: '/dataset_tokens', label: 'Dataset tokens', unit: 'tokens', def: '1000000000', min: 1, step: 1, optional: true });
  const epochs = numberControl({ id: 'thr-epochs', key: 'epochs', label: 'Epochs', def: '1', min: 0, step: 'any', optional: true });
  const seq = numberControl({ id: 'thr-seq', key: 'seq', path: '/context', label: 'Sequence length', unit: 'tokens', def: '4096', min: 1, step: 1, optional: true });

  const isTraining = () => phase.value() === 'training';
  const inferenceOnly = [input, output, concurrency, kv];
  const trainingOnly = [tokens, epochs, seq];
  const training = h('fieldset', { class: 'field thr-training', testid: 'thr-training' }, h('legend', null, 'Training run'), tokens.wrap, epochs.wrap, seq.wrap);
  const sync = () => {
    training.hidden = !isTraining();
    for (const c of inferenceOnly) c.wrap.hidden = isTraining();
    gpu.wrap.hidden = instance.value() !== '';
  };
  phase.input.addEventListener('change', sync);
  instance.input.addEventListener('change', sync);

  const all = [model, format, phase, gpu, instance, tp, input, output, concurrency, kv, tokens, epochs, seq];
  const visible = (c) => (trainingOnly.includes(c) ? isTraining() : inferenceOnly.includes(c) ? !isTraining() : c === gpu ? instance.value() === '' : true);
  const controls = {
    controls: [model, format, phase, gpu, instance, tp, input, output, concurrency, kv, { wrap: training }],
    fill(s) { for (const c of all) c.fill(s); sync(); },
    fromParams(p) { for (const c of all) c.fromParams(p); sync(); },
    toParams(p) { for (const c of all) if (visible(c)) c.toParams(p); },
  };

  /** The request the inputs describe; `on` = {gpu} or {instance}. */
  const request = (on) => {
    const r = { question: 'estimate', model: { name: model.value() }, weight_format: format.value(), ...on, tensor_parallel: tp.value() };
    if (isTraining()) Object.assign(r, { phase: 'training', dataset_tokens: tokens.value(), epochs: epochs.value(), context: seq.value() });
    else {
      Object.assign(r, { input_tokens: input.value(), output_tokens: output.value(), concurrency: concurrency.value() });
      if (kv.value()) r.kv_cache_format = kv.value();
    }
    for (const k of Object.keys(r)) if (r[k] === undefined || r[k] === '') delete r[k];
    return r;
  };

  return createScreen(store, {
    id: 'throughput',
    title: 'Speed & cost per token',
    intro: 'How fast does this model answer (or train) on a GPU, what does a million tokens cost, and which GPUs give the most tokens per dollar?',
    controls,
    async render({ ask }) {
      const on = instance.value() ? { instance: instance.value() } : { gpu: gpu.value() };
      const { response, errors } = await ask(request(on));
      if (errors) return { errors };
      const r = response.result;
      // The same settings on every GPU of the catalog; answers with ok:false are left out.
      const gpus = speedGpus(store);
      const answers = await Promise.all(gpus.map((g) => ask(request({ gpu: g.key }))));
      const candidates = answers.map((a, i) => (a.response ? { gpu: gpus[i].key, r: a.response.result } : null)).filter(Boolean);
      return { nodes: isTraining() ? renderTraining(r, candidates) : renderInference(r, candidates) };
    },
  });
}

function setupLine(r) {
  const d = r.device;
  return `${r.model.name}, ${upper(d.precision)} on ${d.gpu}${d.tensor_parallel > 1 ? ` × ${f.num(d.tensor_parallel, 0)} (tensor parallel)` : ''}`
    + ` · ${f.num(d.bandwidth_gb_per_s, 0)} GB/s, ${f.num(d.peak_tflops, 1)} TFLOPS peak`;
}

function instanceFacts(r) {
  const i = r.instance;
  if (!i) return [['Priced on', 'no instance in the catalog has this GPU: no cost', 'thr-priced-on']];
  return [
    ['Priced on', `${i.instance} (${i.provider.toUpperCase()}, ${f.gpus(i.gpus)}, ${f.num(i.model_copies, 0)} model ${i.model_copies === 1 ? 'copy' : 'copies'})`, 'thr-priced-on'],
    ['Instance price', `${f.usdHour(i.usd_per_hour)} on demand${i.spot_usd_per_hour > 0 ? `, ${f.usdHour(i.spot_usd_per_hour)} spot` : ', no spot price'}`, 'thr-instance-price'],
  ];
}

function phaseRow(name, p, key) {
  return h('tr', { testid: `thr-${key}` },
    h('th', { scope: 'row' }, name),
    h('td', { testid: `thr-${key}-bound` }, p.bound),
    h('td', { class: 'num' }, ms(p.compute_ms, 3)),
    h('td', { class: 'num' }, ms(p.memory_ms, 3)),
    h('td', { class: 'num' }, ms(p.interconnect_ms, 3)),
    h('td', { class: 'basis-cell', testid: `thr-${key}-basis` }, p.basis));
}

function renderInference(r, candidates) {
  const x = r.inference;
  return [
    h('section', { class: 'card verdict', testid: 'thr-card' },
      h('h3', { class: 'sr-only' }, 'Estimate'),
      h('p', { class: 'verdict-title', testid: 'thr-setup' }, setupLine(r)),
      h('p', { class: 'muted' }, `Limited by ${x.limit}, `, h('span', { testid: 'thr-concurrency' }, f.num(x.concurrency, 0)), ' sequences at once (the KV cache holds ',
        h('span', { testid: 'thr-max-concurrency' }, f.num(x.max_concurrency_by_kv_cache, 0)), ').'),
      facts([
        ['Time to first token', ms(x.time_to_first_token_ms, 2), 'thr-ttft'],
        ['Time per output token', ms(x.time_per_output_token_ms, 3), 'thr-tpot'],
        ['End-to-end latency', ms(x.end_to_end_latency_ms, 1), 'thr-e2e'],
        ['Output tokens/s (model copy)', tps(x.output_tokens_per_s), 'thr-tps'],
        ['Output tokens/s per GPU', tps(x.output_tokens_per_s_per_gpu), 'thr-tps-gpu'],
        ['Single stream', tps(x.single_stream_tokens_per_s), 'thr-single'],
        ['Per 1M output tokens, on demand', perM(x.usd_per_million_output_tokens), 'thr-usd-out'],
        ['Per 1M output tokens, spot', perM(x.usd_per_million_output_tokens_spot), 'thr-usd-out-spot'],
        ['Per 1M input tokens', perM(x.usd_per_million_input_tokens), 'thr-usd-in'],
        ...instanceFacts(r),
      ]),
      x.cost_basis ? h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Cost: '), h('span', { testid: 'thr-cost-basis' }, x.cost_basis)) : null),
    card('What limits each phase',
      table({
        caption: 'Prefill and decode: the longest of compute, memory and interconnect time', testid: 'thr-phases', exportName: 'speed-phases',
        head: ['Phase', 'Bound', 'Compute', 'Memory', 'Interconnect', 'How'],
        rows: [phaseRow('Prefill (one prompt)', x.prefill, 'prefill'), phaseRow('Decode (one step)', x.decode, 'decode')],
      }),
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Basis: '), h('span', { testid: 'thr-basis' }, r.basis)),
      expectedError(r.expected_error, 'thr-expected-error')),
    card('Cost against speed on every GPU', candidatesChart(candidates, r.device.gpu), candidatesTable(candidates, r.device.gpu)),
  ];
}

const plottable = (c) => Number.isFinite(c.r.inference?.usd_per_million_output_tokens) && c.r.inference.usd_per_million_output_tokens > 0
  && c.r.inference.output_tokens_per_s > 0;
const candidateLabel = (c) => `${c.gpu}${c.r.instance ? ` (${c.r.instance.instance})` : ''}`;

/** $ per 1M output tokens (x) against output tokens/s per model copy (y); the Pareto frontier
 *  (no other GPU is at most as costly and at least as fast, and better in one) is joined. */
function candidatesChart(candidates, chosen) {
  const usable = candidates.filter(plottable);
  if (!usable.length) return h('p', { class: 'note', testid: 'thr-chart-none' }, 'No GPU has both a price and a speed at these settings.');
  const cost = (c) => c.r.inference.usd_per_million_output_tokens;
  const speed = (c) => c.r.inference.output_tokens_per_s;
  const onFront = paretoFrontier(usable, cost, speed);
  const points = usable.map((c, i) => ({ x: cost(c), y: speed(c), label: candidateLabel(c), highlight: onFront[i] }));
  const left = candidates.length - usable.length;
  return scatterChart({
    title: `Cost per million output tokens against output tokens/s, ${usable.length} GPUs`,
    summary: `Pareto frontier: ${points.filter((p) => p.highlight).map((p) => p.label).join(', ')}${chosen ? `. Chosen: ${chosen}` : ''}`,
    xLabel: 'Cost (USD per 1M output tokens)', yLabel: 'Output tokens/s per model copy (tokens/s)',
    points, xFormat: (v) => `$${f.num(v, v < 0.1 ? 3 : 2)}`, yFormat: (v) => f.num(v, v >= 100 ? 0 : 1), testid: 'thr-chart',
    legendItems: [{ cls: 'point', name: 'GPU (cheapest instance with it)' }, { cls: 'frontier', name: 'Pareto frontier: no other is both cheaper and faster' }],
    data: {
      caption: `GPUs by cost and speed${left ? ` (${left} without a price or a speed left out)` : ''}`,
      head: ['GPU (instance)', 'USD per 1M output tokens', 'Output tokens/s per model copy', 'On the Pareto frontier'],
      rows: usable.map((c, i) => [candidateLabel(c), f.num(cost(c), 4), f.num(speed(c), 1), onFront[i] ? 'yes' : 'no']),
    },
  });
}

function candidatesTable(candidates, chosen) {
  const usable = candidates.filter(plottable);
  const front = new Set(usable.filter((_, i) => paretoFrontier(usable, (c) => c.r.inference.usd_per_million_output_tokens, (c) => c.r.inference.output_tokens_per_s)[i]).map((c) => c.gpu));
  return table({
    caption: 'Every GPU of the catalog at these settings', testid: 'thr-table', exportName: 'speed-and-cost',
    head: ['GPU', 'Instance', 'USD per 1M output', 'Output tokens/s', 'TTFT (ms)', 'TPOT (ms)', 'Bound', 'Pareto'],
    rows: candidates.map((c) => {
      const x = c.r.inference;
      return h('tr', { testid: `thr-row-${c.gpu}`, class: c.gpu === chosen ? 'thr-chosen' : null },
        h('th', { scope: 'row' }, c.gpu, c.gpu === chosen ? h('span', { class: 'muted' }, ' (chosen)') : null),
        h('td', null, c.r.instance?.instance ?? f.DASH),
        h('td', { class: 'num' }, perM(x.usd_per_million_output_tokens)),
        h('td', { class: 'num' }, f.num(x.output_tokens_per_s, 1)),
        h('td', { class: 'num' }, f.num(x.time_to_first_token_ms, 2)),
        h('td', { class: 'num' }, f.num(x.time_per_output_token_ms, 3)),
        h('td', null, x.limit),
        h('td', { testid: `thr-row-${c.gpu}-pareto` }, front.has(c.gpu) ? 'yes' : plottable(c) ? 'no' : f.DASH));
    }),
  });
}

function renderTraining(r, candidates) {
  const t = r.training;
  return [
    h('section', { class: 'card verdict', testid: 'thr-card' },
      h('h3', { class: 'sr-only' }, 'Estimate'),
      h('p', { class: 'verdict-title', testid: 'thr-setup' }, setupLine(r)),
      facts([
        ['Tokens/s per GPU', tps(t.tokens_per_s_per_gpu), 'thr-train-tps-gpu'],
        ['Tokens/s in all', tps(t.tokens_per_s), 'thr-train-tps'],
        ['TFLOPS per GPU', `${f.num(t.tflops_per_gpu, 1)} TFLOPS`, 'thr-train-tflops'],
        ['MFU', f.pct(t.mfu * 100), 'thr-train-mfu'],
        ['Compute per token', `${f.num(t.gflop_per_token, 3)} GFLOP`, 'thr-train-gflop'],
        ['Bound', t.bound, 'thr-train-bound'],
        ['Time of the run', f.hours(t.hours), 'thr-train-hours'],
        ['GPU hours', f.hours(t.gpu_hours), 'thr-train-gpu-hours'],
        ['Cost, on demand', f.usd(t.usd_on_demand), 'thr-train-usd'],
        ['Cost, spot', f.usd(t.usd_spot), 'thr-train-usd-spot'],
        ...instanceFacts(r),
      ]),
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Basis: '), h('span', { testid: 'thr-train-basis' }, t.basis)),
      expectedError(r.expected_error, 'thr-expected-error')),
    card('The run on every GPU',
      table({
        caption: 'Every GPU of the catalog at these settings', testid: 'thr-train-table', exportName: 'training-speed-and-cost',
        head: ['GPU', 'Instance', 'Tokens/s per GPU', 'MFU', 'Time', 'Cost on demand', 'Bound'],
        rows: candidates.map((c) => {
          const x = c.r.training;
          return h('tr', { testid: `thr-train-row-${c.gpu}` },
            h('th', { scope: 'row' }, c.gpu),
            h('td', null, c.r.instance?.instance ?? f.DASH),
            h('td', { class: 'num' }, f.num(x.tokens_per_s_per_gpu, 1)),
            h('td', { class: 'num' }, f.pct(x.mfu * 100)),
            h('td', { class: 'num' }, f.hours(x.hours)),
            h('td', { class: 'num' }, f.usd(x.usd_on_demand)),
            h('td', null, x.bound));
        }),
      })),
  ];
}
