// Batch jobs: the workload form's model and format as a job with its tokens and deadline (and,
// optionally, more jobs pasted as JSON); each job's plans (all on demand, all spot,
// deadline-aware, uniform progress) with the cost's p10 / p50 / p90 and the share of traces on time; the
// earliest-deadline-first schedule drawn as a Gantt chart (docs/batch.md).
import { h, svg, table, facts, selectField, setSelectValue, numberField } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { frame, axis, legend, dataTable, W } from '../charts.js';
import { requestBlock } from '../parts.js';
import { section } from '../sections.js';
import { drawnLater } from '../in-place.js';

const TASKS = [
  { value: 'lora', label: 'LoRA fine-tuning' }, { value: 'qlora', label: 'QLoRA fine-tuning' },
  { value: 'fine_tuning', label: 'Full fine-tuning' }, { value: 'training', label: 'Training' },
  { value: 'batch_inference', label: 'Batch inference' },
];
const PLANS = { all_on_demand: 'All on demand', all_spot: 'All spot', deadline_aware: 'Deadline-aware (spot, then on demand)', uniform_progress: 'Uniform progress (on demand when behind pace)' };

/** A number field of the view; URL key `key`; empty: `def` when given, else left out. */
function numberControl({ id, key, label, unit, def, path, scale = 1, hint }) {
  const { wrap, input } = numberField({ id, label, unit, hint, placeholder: def === undefined ? 'none' : String(def) });
  return {
    wrap, input, key, fields: [{ input, wrap, path, label }],
    fill() {},
    fromParams(p) { input.value = p.get(key) ?? ''; },
    toParams(p) { if (input.value !== '') p.set(key, input.value); },
    value() {
      if (input.value === '') return def === undefined ? undefined : def * scale;
      const v = Number(input.value);
      return Number.isFinite(v) ? v * scale : input.value;
    },
  };
}

function taskControl() {
  const { wrap, input } = selectField({ id: 'bt-task', label: 'Job', options: TASKS });
  return {
    wrap, input, key: 'job', fields: [{ input, wrap, path: '/workload', label: 'Job' }],
    fill() { if (!input.value) setSelectValue(input, 'lora', { quiet: true }); },
    fromParams(p) { setSelectValue(input, p.get('job') ?? 'lora', { quiet: true }); },
    toParams(p) { if (input.value && input.value !== 'lora') p.set('job', input.value); },
    value: () => input.value || 'lora',
  };
}

/** More jobs as a JSON list ({name, model, workload, demand, deadline_hours, ...}); not in the URL. */
function jobsControl() {
  const id = 'bt-jobs';
  const input = h('textarea', { id, name: id, rows: 4, spellcheck: false, autocomplete: 'off', testid: id, placeholder: '[{"name": "eval", "model": {"name": "llama-3.1-8b"}, "workload": "batch_inference", "demand": {"dataset_tokens": 2e8}, "deadline_hours": 24}]' });
  const wrap = h('div', { class: 'field' }, h('label', { for: id }, 'More jobs (a JSON list, optional)'), input,
    h('small', { class: 'hint' }, 'Each job as docs/batch.md writes it; with more jobs the schedule runs them earliest deadline first.'));
  return {
    wrap, input, key: 'jobs', fields: [{ input, wrap, path: '/jobs', label: 'More jobs' }],
    fill() {}, fromParams() {}, toParams() {},
    check() {
      if (!input.value.trim()) return [];
      try {
        if (Array.isArray(JSON.parse(input.value))) return [];
      } catch { /* reported below */ }
      return [{ code: 'wrong_type', file: 'page', path: '/jobs', message: 'More jobs: expected a JSON list of jobs, e.g. [{"model": {...}, "workload": "lora", ...}]' }];
    },
    value() { return input.value.trim() ? JSON.parse(input.value) : []; },
  };
}

/** The schedule: a bar per job from its start to its median end, spot or on demand where it starts,
 *  a tick at the median switch to on demand and one at the deadline. */
function ganttChart(r) {
  const rows = r.schedule;
  const left = 120, right = 24, top = 10, barH = 18, gap = 12, width = W;
  const plotW = width - left - right;
  const plotH = rows.length * (barH + gap);
  const { top: xMax, ticks } = axis(Math.max(1e-9, ...rows.flatMap((x) => [x.end_p90_hours ?? 0, x.end_hours ?? 0, x.deadline_hours])), 5);
  const X = (v) => left + (v / xMax) * plotW;
  const nodes = [];
  for (const t of ticks) {
    nodes.push(svg('line', { class: 'chart-grid', x1: X(t), x2: X(t), y1: top, y2: top + plotH }));
    nodes.push(svg('text', { class: 'chart-tick', x: X(t), y: top + plotH + 14, 'text-anchor': 'middle' }, f.num(t, 0)));
  }
  rows.forEach((x, i) => {
    const y = top + i * (barH + gap);
    const end = x.end_hours ?? xMax;
    nodes.push(svg('text', { class: 'chart-tick', x: left - 6, y: y + barH - 5, 'text-anchor': 'end' }, x.job.length > 18 ? `${x.job.slice(0, 17)}…` : x.job));
    nodes.push(svg('rect', { class: x.pool.kind === 'spot' ? 'c1' : 'c2', x: X(x.start_hours), y, width: Math.max(1, X(end) - X(x.start_hours)), height: barH, 'data-job': x.job },
      svg('title', null, `${x.job}: ${f.hours(x.start_hours)} to ${f.hours(x.end_hours)} (median), ${f.label(x.pool.kind)} ${x.pool.instance} in ${x.pool.region}`)));
    if (x.switch_to_on_demand_hours !== null) {
      nodes.push(svg('line', { class: 'chart-marker', x1: X(x.switch_to_on_demand_hours), x2: X(x.switch_to_on_demand_hours), y1: y, y2: y + barH },
        svg('title', null, `${x.job}: median switch to on demand at ${f.hours(x.switch_to_on_demand_hours)}`)));
    }
    nodes.push(svg('line', { class: 'chart-axis', x1: X(x.deadline_hours), x2: X(x.deadline_hours), y1: y - 3, y2: y + barH + 3, 'stroke-dasharray': '3 2' },
      svg('title', null, `${x.job}: deadline ${f.hours(x.deadline_hours)}`)));
  });
  nodes.push(svg('line', { class: 'chart-axis', x1: left, x2: left, y1: top, y2: top + plotH }));
  nodes.push(svg('text', { class: 'chart-axis-label', x: left + plotW / 2, y: top + plotH + 34, 'text-anchor': 'middle' }, 'Hours from now'));
  const title = 'Schedule, earliest deadline first';
  return h('figure', { class: 'chart', testid: 'bt-gantt-figure' },
    h('figcaption', null, title),
    h('div', { class: 'chart-scroll', tabindex: '0', role: 'region', 'aria-label': `Chart: ${title}` },
      frame({ title, summary: rows.map((x) => `${x.job}: ${f.hours(x.start_hours)} to ${f.hours(x.end_hours)}, deadline ${f.hours(x.deadline_hours)}`).join('; '), width, height: top + plotH + 44, testid: 'bt-gantt', children: nodes })),
    legend([{ cls: 'c1', name: 'Starts on spot' }, { cls: 'c2', name: 'On demand from the start' }, { cls: 'marker', name: 'Median switch to on demand; dashed: the deadline' }]),
    dataTable({
      caption: 'Each job\'s start, median end, 90th percentile end and deadline, hours from now', testid: 'bt-gantt-data',
      head: ['Job', 'Start (h)', 'End, median (h)', 'End, p90 (h)', 'Deadline (h)', 'Pool'],
      rows: rows.map((x) => [x.job, f.num(x.start_hours, 2), f.num(x.end_hours, 2), f.num(x.end_p90_hours, 2), f.num(x.deadline_hours, 2), `${f.label(x.pool.kind)} ${x.pool.instance} ${x.pool.region}`]),
    }));
}

/** A batch-inference job's tokens at each provider's batch API: a hosted model's price, or why not. */
function batchApiText(j, apis) {
  return j.batch_api.offers.map((o) => {
    const api = apis.find((a) => a.provider === o.provider);
    const off = api ? ` (${f.num(api.discount_pct, 0)} % off list)` : '';
    return `${o.service}${off}: ${o.cost_usd !== null ? f.usd(o.cost_usd) : 'not priced, no token price of this model in the catalog'}`;
  }).join('; ');
}

function jobCard(j, index, apis = []) {
  const od = j.pools.on_demand;
  const sp = j.pools.spot;
  return h('section', { class: 'card', testid: `bt-job-${index}` },
    h('h3', null, j.name),
    facts([
      ['Work', `${f.hours(j.work_hours)} on ${j.deployment.instances} x ${j.deployment.instance} (${f.num(j.work_gpu_hours, 1)} GPU-hours)`, `bt-job-${index}-work`],
      ...(j.band ? [['At the measured error', j.band.text, `bt-job-${index}-band`]] : []),
      ['Deadline', `${f.hours(j.deadline_hours)} from now; at least ${f.hours(j.minimum_deadline_hours.hours)} on ${j.minimum_deadline_hours.instance}`],
      ['Spot', `${sp.instance} in ${sp.region}, ${f.usdHour(sp.usd_per_hour)}; band ${sp.interruption_band.label} (as of ${sp.interruption_band.as_of})`],
      ['On demand', `${od.instance} in ${od.region}, ${f.usdHour(od.usd_per_hour)}`],
      ...(j.batch_api ? [['Batch API, same tokens', batchApiText(j, apis), `bt-job-${index}-batch-api`]] : []),
    ], 'facts compact'),
    table({
      caption: `${j.name}: each plan's cost over the simulated traces and its odds of finishing by the deadline`, testid: `bt-job-${index}-plans`, className: 'data', exportName: 'batch-plans',
      head: ['Plan', 'Cost p10', 'Cost p50', 'Cost p90', 'On time', 'Interruptions', 'On-demand hours', 'Checkpoint every', 'Moved to on demand'],
      rows: j.plans.map((p) => h('tr', { testid: `bt-${index}-${p.name}` },
        h('th', { scope: 'row' }, PLANS[p.name] ?? p.name),
        h('td', { class: 'num' }, f.usd(p.cost_usd.p10)),
        h('td', { class: 'num', testid: `bt-${index}-${p.name}-p50` }, f.usd(p.cost_usd.p50)),
        h('td', { class: 'num' }, f.usd(p.cost_usd.p90)),
        h('td', { class: 'num', testid: `bt-${index}-${p.name}-on-time` }, f.pct(100 * p.p_meet_deadline)),
        h('td', { class: 'num' }, f.num(p.expected_interruptions, 3)),
        h('td', { class: 'num' }, f.hours(p.expected_on_demand_hours)),
        h('td', { class: 'num' }, p.checkpoint_interval_s ? `${f.num(p.checkpoint_interval_s / 60, 1)} min` : f.DASH),
        h('td', { class: 'num' }, f.pct(100 * p.switch_to_on_demand.p_switched)))),
    }));
}

export function renderBatch(r) {
  const t = r.total;
  return [
    ...r.jobs.map((j, i) => drawnLater(() => section('jobs', jobCard(j, i, r.batch_apis)))),
    drawnLater(() => section('chart', h('section', { class: 'card' }, ganttChart(r),
      facts([
        ['Total, deadline-aware', `${f.usd(t.cost_usd.p50)} (p10 ${f.usd(t.cost_usd.p10)}, p90 ${f.usd(t.cost_usd.p90)})`, 'bt-total'],
        ['All done by', f.hours(t.makespan_hours)],
        ...(t.p_within_budget !== undefined ? [['Within the budget', `${f.pct(100 * t.p_within_budget)} of the traces`]] : []),
        ['At risk', r.jobs_at_risk.length ? r.jobs_at_risk.map((a) => `${a.job}: ${a.reason}`).join('; ') : 'none', 'bt-at-risk'],
      ], 'facts compact')))),
    h('p', { class: 'muted small' }, `${r.simulation.traces} spot traces drawn from the request's seed (${r.simulation.seed}) by ${r.simulation.generator}. ${r.assumptions.availability}; ${r.assumptions.band_reading_formula}.`),
  ];
}

export function createBatchScreen(store, form) {
  const task = taskControl();
  const tokens = numberControl({ id: 'bt-tokens', key: 'job_tokens', label: 'Tokens (training: the dataset; batch inference: the outputs)', unit: 'million', def: 50, scale: 1e6, path: '/demand/dataset_tokens' });
  const deadline = numberControl({ id: 'bt-deadline', key: 'job_deadline', label: 'Deadline', unit: 'hours', def: 48, path: '/deadline_hours' });
  const seed = numberControl({ id: 'bt-seed', key: 'trace_seed', label: 'Seed of the spot traces', def: 1, path: '/seed' });
  const traces = numberControl({ id: 'bt-traces', key: 'traces', label: 'Traces', def: 1000, path: '/traces', hint: '1 to 10,000' });
  const jobs = jobsControl();
  const own = [task, tokens, deadline, seed, traces, jobs];
  const request = () => {
    const { model, precision } = form.workload();
    const job = { model, workload: task.value(), precision, demand: { dataset_tokens: tokens.value() }, deadline_hours: deadline.value() };
    const more = jobs.value();
    const r = { question: 'batch', ...(more.length ? { jobs: [{ name: 'this job', ...job }, ...more] } : job) };
    if (seed.value() !== 1) r.seed = seed.value();
    if (traces.value() !== 1000) r.traces = traces.value();
    return r;
  };
  return createScreen(store, {
    id: 'batch',
    title: 'Batch jobs',
    intro: 'A training or batch-inference job with a deadline, on spot and on demand: what each plan costs over simulated spot traces, how often it finishes on time, and the schedule of several jobs.',
    form,
    uses: ['model', 'format'],
    controls: { controls: own, fill: (s) => own.forEach((c) => c.fill(s)), fromParams: (p) => own.forEach((c) => c.fromParams(p)), toParams: (p) => own.forEach((c) => c.toParams(p)) },
    async render({ ask }) {
      const req = request();
      const { response, errors } = await ask(req);
      if (errors) return { errors };
      return { nodes: [renderBatch(response.result), requestBlock(req, 'bt-request')] };
    },
  });
}
