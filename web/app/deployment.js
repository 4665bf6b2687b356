// A deployment of the road (a Recommend candidate, a migration's current setup and alternatives,
// Decide's cheapest instance, Fit's deployment): instances x count, layout, memory per GPU, speed,
// latency, utilization and cost, as table cells or as facts.
import { h, facts } from './dom.js';
import * as f from './format.js';

/** Serving deployments carry output tokens/s; training ones tokens/s and run time. */
export const servesTokens = (d) => d.output_tokens_per_s !== undefined;

const plural = (n, one, many) => `${f.num(n, 3)} ${n === 1 ? one : many}`;

/** "TP 2 · PP 1 · 4 replicas". */
export function layoutText(l) {
  if (!l) return f.DASH;
  return `TP ${f.num(l.tensor_parallel, 0)} · PP ${f.num(l.pipeline_parallel, 0)} · ${plural(l.replicas, 'replica', 'replicas')}`;
}

export const memoryText = (d) => `${f.gib(d.memory_per_gpu_gib)} of ${f.gib(d.capacity_per_gpu_gib)}`;

export const countText = (d) => `${f.num(d.instance_count, 0)} × ${d.instance}`;

const small = (...text) => h('span', { class: 'muted small' }, ...text);

/** The speed columns' headings. */
export const speedHead = (serving) => (serving
  ? ['Output tokens/s', 'p95 TTFT / TPOT', 'Utilization']
  : ['Training tokens/s', 'Run time', 'MFU']);

/** Headings of deploymentCells(): the key columns (instance, monthly cost, $ per 1M) first, so
 *  that they stay inside a 1280 px page's table box. */
export const deploymentHead = (serving) => ['Instance', 'Monthly cost', serving ? '$ per 1M output tokens' : '$ per 1M tokens',
  'Layout', 'Memory per GPU', ...speedHead(serving)];
/** How many of deploymentHead()'s columns are key (a table may put its own key columns after them). */
export const DEPLOYMENT_KEY_COLUMNS = 3;

/** A cell's figure (with its testid) over a smaller line. */
const cell = (testid, value, below, cls = 'num') => h('td', { class: cls }, h('span', { class: 'nowrap', testid }, value), below ? [h('br'), below] : null);

function servingCells(d, i, id) {
  return [
    cell(`${id}-tps-${i}`, f.num(d.output_tokens_per_s, 1), small(`${plural(d.concurrency_per_replica, 'sequence', 'sequences')} per replica`)),
    cell(`${id}-ttft-${i}`, f.ms(d.p95_time_to_first_token_ms), h('span', { testid: `${id}-tpot-${i}` }, f.ms(d.time_per_output_token_ms))),
    cell(`${id}-util-${i}`, f.pct(d.utilization_pct)),
  ];
}

function trainingCells(d, i, id) {
  return [
    cell(`${id}-tps-${i}`, f.num(d.tokens_per_s, 1), small(`${f.num(d.tokens_per_s_per_gpu, 1)} per GPU`)),
    cell(`${id}-run-days-${i}`, d.run_days == null ? f.DASH : `${f.num(d.run_days, 2)} days`, d.usd_per_run == null ? null : small(`${f.usd(d.usd_per_run)} a run`)),
    cell(`${id}-util-${i}`, f.pct(d.mfu * 100)),
  ];
}

/** The cells of deploymentHead(), testids `${id}-instance-${i}`, `${id}-count-${i}`, ... */
export function deploymentCells(d, i, id) {
  const perMillion = d.usd_per_million_output_tokens ?? d.performance?.usd_per_million_tokens;
  return [
    h('th', { scope: 'row' },
      h('span', { testid: `${id}-instance-${i}` }, d.instance), ' ',
      h('span', { class: 'count', testid: `${id}-count-${i}` }, `× ${f.num(d.instance_count, 0)}`), h('br'),
      small(d.sizing ? `${d.gpu_type} · ${f.label(d.sizing)}` : d.gpu_type)),
    cell(`${id}-monthly-${i}`, f.usdMonth(d.cost.usd_per_month), small(`${f.usdHour(d.cost.usd_per_hour)} ${f.label(d.cost.pricing)}`)),
    cell(`${id}-per-token-${i}`, f.usdFine(perMillion)),
    cell(`${id}-layout-${i}`, layoutText(d.layout), small(f.gpus(d.gpus)), null),
    cell(`${id}-memory-${i}`, memoryText(d), small(f.pct(d.memory_utilization_pct))),
    ...(servesTokens(d) ? servingCells(d, i, id) : trainingCells(d, i, id)),
  ];
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
    ['Tokens/s', `${f.num(d.tokens_per_s, 1)} (${f.num(d.tokens_per_s_per_gpu, 1)} per GPU)`, `${prefix}-tps`],
    ['MFU', f.pct(d.mfu * 100), `${prefix}-mfu`],
    ['Run', d.run_days == null ? 'no dataset given' : `${f.num(d.run_days, 2)} days (${f.hours(d.run_hours)}), ${f.usd(d.usd_per_run)}`, `${prefix}-run-days`],
  ];
}

/** What a deployment holds and does, as facts (its cost is the cost block's); a refused one says
 *  why and the way out. */
export function deploymentFacts(d, prefix) {
  const runs = d.runs !== false;
  return facts([
    ['Deployment', h('span', null, h('span', { testid: `${prefix}-count` }, `${f.num(d.instance_count, 0)} ×`), ' ', d.instance, ` (${f.gpus(d.gpus)}, ${d.gpu_type})`)],
    ['Layout', layoutText(d.layout), `${prefix}-layout`],
    ['Memory per GPU', `${memoryText(d)} (${f.pct(d.memory_utilization_pct)})`, `${prefix}-memory`],
    ...(runs ? (servesTokens(d) ? servingFacts(d, prefix) : trainingFacts(d, prefix)) : []),
    runs ? ['Bound', `${d.bound}${d.uncalibrated ? ' (uncalibrated)' : ''}`] : ['Refused', d.refusal, `${prefix}-refusal`],
    !runs && d.way_out ? ['Way out', d.way_out] : null,
  ], 'facts compact');
}

/** The arithmetic behind a deployment's speed: a string (training) or {prefill, decode, queueing}. */
export function speedBasis(basis) {
  if (!basis) return null;
  const lines = typeof basis === 'string' ? [basis] : Object.entries(basis).map(([k, v]) => `${f.label(k)}: ${v}`);
  return h('ul', { class: 'basis' }, lines.map((l) => h('li', null, l)));
}
