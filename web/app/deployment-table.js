// A deployment as a table row (Recommend's candidates, a migration's alternatives): used by later
// screens only, so a module of its own beside deployment.js (the Fit screen's facts), fetched with
// the later screens' chunk.
import { h } from './dom.js';
import * as f from './format.js';
import { servesTokens, plural, small, layoutText, memoryText, bandCount, bandCost } from './deployment.js';

export function riskBadge(level) {
  return h('span', { class: ['pill', `risk-${level}`] }, f.label(level ?? '—'));
}

export function reasons(list) {
  if (!list?.length) return null;
  return h('ul', { class: 'reasons' }, list.map((r) => h('li', null, r)));
}


/** The speed columns' headings. */
export const speedHead = (serving) => (serving
  ? ['Output tokens/s', 'p95 TTFT / TPOT', 'Utilization']
  : ['Training tokens/s', 'Run time', 'MFU']);

/** Headings of deploymentCells(): the key columns (instance, monthly cost, $ per 1M) first, so
 *  that they stay inside a 1280 px page's table box. `rows`: the deployments, whose kinds of
 *  accelerator name the memory column. */
export const deploymentHead = (serving, rows = []) => ['Instance', 'Monthly cost', serving ? '$ per 1M output tokens' : '$ per 1M tokens',
  'Layout', `Memory per ${f.deviceOf(rows)}`, ...speedHead(serving)];
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
    cell(`${id}-tps-${i}`, f.num(d.tokens_per_s, 1), small(`${f.num(d.tokens_per_s_per_gpu, 1)} per ${f.device(d.accelerator_kind)}`)),
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
      small(d.sizing ? `${d.gpu_type} · ${f.label(d.sizing)}` : d.gpu_type),
      bandCount(d) ? [h('br'), small(h('span', { testid: `${id}-band-count-${i}` }, bandCount(d)))] : null),
    // A one-off job (a dataset to process or train on) costs its run, not a month.
    cell(`${id}-monthly-${i}`, d.usd_per_month == null && d.usd_per_run != null ? `${f.usd(d.usd_per_run)} per run` : f.usdMonth(d.cost.usd_per_month),
      [small(h('span', { testid: `${id}-rate-${i}` }, `${f.usdHour(d.cost.usd_per_hour)} ${f.pay(d.cost)}`)),
        bandCost(d) ? [h('br'), small(h('span', { testid: `${id}-band-cost-${i}` }, bandCost(d)))] : null]),
    cell(`${id}-per-token-${i}`, f.usdFine(perMillion)),
    cell(`${id}-layout-${i}`, layoutText(d.layout), small(f.gpus(d.gpus, d.accelerator_kind)), null),
    cell(`${id}-memory-${i}`, memoryText(d), small(f.pct(d.memory_utilization_pct))),
    ...(servesTokens(d) ? servingCells(d, i, id) : trainingCells(d, i, id)),
  ];
}
