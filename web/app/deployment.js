// A deployment of the road (a Recommend candidate, a migration's current setup and alternatives,
// Decide's cheapest instance, Fit's deployment): instances x count, layout, memory per GPU, speed,
// latency, utilization and cost, as facts (the table cells of the later screens are
// deployment-table.js).
import { h, facts } from './dom.js';
import * as f from './format.js';

/** Serving deployments carry output tokens/s; training ones tokens/s and run time. */
export const servesTokens = (d) => d.output_tokens_per_s !== undefined;

export const plural = (n, one, many) => `${f.num(n, 3)} ${n === 1 ? one : many}`;

/** "TP 2 · PP 1 · 4 replicas". */
export function layoutText(l) {
  if (!l) return f.DASH;
  return `TP ${f.num(l.tensor_parallel, 0)} · PP ${f.num(l.pipeline_parallel, 0)} · ${plural(l.replicas, 'replica', 'replicas')}`;
}

export const memoryText = (d) => `${f.gb(d.memory_per_gpu_gb)} of ${f.gb(d.capacity_per_gpu_gb)}`;

export const countText = (d) => `${f.num(d.instance_count, 0)} × ${d.instance}`;

export const small = (...text) => h('span', { class: 'muted small' }, ...text);

/** A band's range ("7–14", "up to 25" when it has no lower end); null without one. */
function span(range, fmt) {
  if (!range || (range.low == null && range.high == null)) return null;
  if (range.low == null) return `up to ${fmt(range.high)}`;
  if (range.high == null) return `at least ${fmt(range.low)}`;
  const lo = fmt(range.low), hi = fmt(range.high);
  return lo === hi ? lo : `${lo}–${hi}`;
}
/** "7–14 at the measured error": the instances a candidate needs at its throughput's measured error. */
export function bandCount(d) {
  const n = span(d.band?.instance_count, (v) => f.num(v, 0));
  return n ? `${n} at the measured error` : null;
}
/** The monthly cost (or a job's cost) at the measured error, or null. */
export function bandCost(d) {
  const month = span(d.band?.usd_per_month, f.usd);
  if (month) return `${month} a month at the measured error`;
  const run = span(d.band?.usd_per_run, f.usd);
  return run ? `${run} a run at the measured error` : null;
}

function servingFacts(d, prefix) {
  return [
    ['Concurrency', `${plural(d.concurrency_per_replica, 'sequence', 'sequences')} per replica (the KV cache holds ${f.num(d.max_concurrency_by_kv_cache, 0)})`],
    ['Time to first token', `${f.ms(d.time_to_first_token_ms)}, p95 ${f.ms(d.p95_time_to_first_token_ms)} with queueing`, `${prefix}-ttft`],
    ['Time per output token', f.ms(d.time_per_output_token_ms), `${prefix}-tpot`],
    ['Output tokens/s', f.num(d.output_tokens_per_s, 1), `${prefix}-tps`],
    ['Utilization', d.utilization_pct == null ? 'no request rate given' : f.pct(d.utilization_pct), `${prefix}-util`],
    ['Per 1M output tokens', f.usdFine(d.usd_per_million_output_tokens), `${prefix}-per-token`],
  ];
}

function trainingFacts(d, prefix) {
  return [
    ['Tokens/s', `${f.num(d.tokens_per_s, 1)} (${f.num(d.tokens_per_s_per_gpu, 1)} per ${f.device(d.accelerator_kind)})`, `${prefix}-tps`],
    ['MFU', f.pct(d.mfu * 100), `${prefix}-mfu`],
    ['Run', d.run_days == null ? 'no dataset given' : `${f.num(d.run_days, 2)} days (${f.hours(d.run_hours)}), ${f.usd(d.usd_per_run)}`, `${prefix}-run-days`],
  ];
}

/** What a deployment holds and does, as facts (its cost is the cost block's); a refused one says
 *  why and the way out. */
export function deploymentFacts(d, prefix) {
  const runs = d.runs !== false;
  return facts([
    ['Deployment', h('span', null, h('span', { testid: `${prefix}-count` }, `${f.num(d.instance_count, 0)} ×`), ' ', d.instance, ` (${f.gpus(d.gpus, d.accelerator_kind)}, ${d.gpu_type})`)],
    ['Layout', layoutText(d.layout), `${prefix}-layout`],
    [`Memory per ${f.device(d.accelerator_kind)}`, `${memoryText(d)} (${f.pct(d.memory_utilization_pct)})`, `${prefix}-memory`],
    ...(runs ? (servesTokens(d) ? servingFacts(d, prefix) : trainingFacts(d, prefix)) : []),
    runs ? ['Bound', `${d.bound}${d.uncalibrated ? ' (uncalibrated)' : ''}`] : ['Refused', d.refusal, `${prefix}-refusal`],
    !runs && d.way_out ? ['Way out', d.way_out] : null,
  ], 'facts compact');
}

/** The arithmetic behind a deployment's speed: a string (training) or {prefill, decode, queueing}. */
export function speedBasis(basis) {
  if (!basis) return null;
  const lines = typeof basis === 'string' ? [basis] : Object.entries(basis).map(([k, v]) => `${f.sentence(f.label(k))}: ${v}`);
  return h('ul', { class: 'basis' }, lines.map((l) => h('li', null, l)));
}
