// Auto-scaling: a traffic profile (24 or 168 hourly requests/s values typed, or a CSV export pasted)
// on the road's deployment for the workload form's model; each policy's replica schedule drawn over
// the profile, its monthly cost, idle GPU-hours and SLO attainment; the recommended autoscaler
// settings with a KEDA ScaledObject to copy; the committed base (docs/api.md, autoscale).
import { h, svg, table, facts, card, selectField, setSelectValue } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { demandControl } from '../demand-fields.js';
import { frame, axis, legend, dataTable, W, SERIES } from '../charts.js';
import { copyText } from '../export.js';
import { requestBlock } from '../parts.js';
import { deployPanel } from '../deploy-panel.js';

/** A synthetic diurnal day (not measured): a trough at 04:00, a peak 5x the trough at 16:00. */
export const EXAMPLE_PROFILE = Array.from({ length: 24 }, (_, hr) => Math.round(40 * (3 - 2 * Math.cos(((hr - 4) * Math.PI) / 12)) * 10) / 10);

/** The profile as typed: numbers separated by commas, spaces or lines, or CSV rows (a line with a
 *  comma after a time) sent as lines. URL: profile=80,63.4,... (values only). */
function profileControl() {
  const id = 'as-profile';
  const input = h('textarea', { id, name: id, rows: 6, spellcheck: false, autocomplete: 'off', testid: id });
  const wrap = h('div', { class: 'field' }, h('label', { for: id }, 'Traffic profile (requests/s per hour, 24 or 168 values; or paste a timestamp,requests CSV)'), input,
    h('small', { class: 'hint' }, 'The example is synthetic: a day with a 5x peak at 16:00. CSV rows are bucketed to UTC hours.'));
  // A row of a CSV: an ISO 8601 date or a Unix time, a comma, then a number.
  const isCsv = (text) => /^\s*"?(\d{4}-\d{2}-\d{2}|\d{9,})[^,\n]*,\s*"?[\d.]/m.test(text);
  return {
    wrap, input, key: 'profile', fields: [{ input, wrap, path: '/profile', label: 'Traffic profile' }],
    fill() { if (!input.value) input.value = EXAMPLE_PROFILE.join(', '); },
    fromParams(p) { input.value = p.has('profile') ? p.get('profile').split(',').join(', ') : EXAMPLE_PROFILE.join(', '); },
    toParams(p) { if (!isCsv(input.value)) p.set('profile', input.value.split(/[\s,;]+/).filter(Boolean).join(',')); },
    value() {
      const text = input.value.trim();
      if (isCsv(text)) return { csv: text.split(/\r?\n/) };
      return { requests_per_s: text.split(/[\s,;]+/).filter(Boolean).map((v) => (Number.isFinite(Number(v)) ? Number(v) : v)) };
    },
  };
}

function choiceControl({ id, key, label, options, def }) {
  const { wrap, input } = selectField({ id, label, options });
  return {
    wrap, input, key,
    fill() { if (!input.value) setSelectValue(input, def, { quiet: true }); },
    fromParams(p) { setSelectValue(input, p.get(key) ?? def, { quiet: true }); },
    toParams(p) { if (input.value && input.value !== def) p.set(key, input.value); },
    value: () => input.value || def,
  };
}

const NAMES = { oracle: 'Oracle (exactly the need)', always_peak: 'Always at the peak', target_tracking: 'Target tracking (HPA/KEDA)', scheduled: 'Daily schedule' };

/** The replicas of each policy per hour (steps), over the profile's requests/s (bars, right axis). */
function scheduleChart(r) {
  const rps = r.profile.requests_per_s;
  const n = rps.length;
  const left = 56, right = 56, top = 10, plotH = 200, width = W;
  const plotW = width - left - right;
  const maxReplicas = Math.max(1, ...r.policies.flatMap((p) => p.replicas));
  const { top: yMax, ticks } = axis(maxReplicas, 4);
  const { top: rMax } = axis(Math.max(...rps, 1e-9), 4);
  const X = (i) => left + (i / n) * plotW;
  const Y = (v) => top + plotH - (v / yMax) * plotH;
  const R = (v) => top + plotH - (v / rMax) * plotH;
  const nodes = [];
  for (const t of ticks) {
    nodes.push(svg('line', { class: 'chart-grid', x1: left, x2: left + plotW, y1: Y(t), y2: Y(t) }));
    nodes.push(svg('text', { class: 'chart-tick', x: left - 6, y: Y(t) + 4, 'text-anchor': 'end' }, f.num(t, 0)));
  }
  nodes.push(svg('text', { class: 'chart-tick', x: left + plotW + 6, y: R(rMax) + 4 }, `${f.num(rMax, 0)} req/s`));
  rps.forEach((v, i) => nodes.push(svg('rect', { class: 'chart-track', x: X(i), y: R(v), width: Math.max(0.5, plotW / n), height: top + plotH - R(v) },
    svg('title', null, `hour ${i}: ${f.num(v, 1)} requests/s`))));
  r.policies.forEach((p, k) => {
    const pts = p.replicas.flatMap((v, i) => [`${X(i).toFixed(1)},${Y(v).toFixed(1)}`, `${X(i + 1).toFixed(1)},${Y(v).toFixed(1)}`]);
    nodes.push(svg('polyline', { class: `chart-step ${SERIES[k]}`, points: pts.join(' '), 'data-policy': p.name },
      svg('title', null, `${NAMES[p.name] ?? p.name}: ${f.usd(p.usd_per_month)} a month`)));
  });
  nodes.push(svg('line', { class: 'chart-axis', x1: left, x2: left, y1: top, y2: top + plotH }));
  for (let i = 0; i <= n; i += n > 24 ? 24 : 6) nodes.push(svg('text', { class: 'chart-tick', x: X(i), y: top + plotH + 16, 'text-anchor': 'middle' }, String(i)));
  nodes.push(svg('text', { class: 'chart-axis-label', x: left + plotW / 2, y: top + plotH + 36, 'text-anchor': 'middle' }, 'Hour of the profile (UTC)'));
  nodes.push(svg('text', { class: 'chart-axis-label', x: 14, y: top + plotH / 2, transform: `rotate(-90 14 ${top + plotH / 2})`, 'text-anchor': 'middle' }, 'Replicas'));
  const title = 'Replicas of each policy over the profile';
  return h('figure', { class: 'chart', testid: 'as-chart-figure' },
    h('figcaption', null, title),
    h('div', { class: 'chart-scroll', tabindex: '0', role: 'region', 'aria-label': `Chart: ${title}` },
      frame({ title, summary: r.policies.map((p) => `${NAMES[p.name] ?? p.name}: peak ${f.num(Math.max(...p.replicas), 1)} replicas`).join(', '), width, height: top + plotH + 44, testid: 'as-chart', children: nodes })),
    legend([...r.policies.map((p, k) => ({ cls: SERIES[k], name: NAMES[p.name] ?? p.name })), { cls: 'marker', name: 'Requests/s (bars)' }]),
    dataTable({
      caption: 'Replicas per hour of each policy, and the requests/s', testid: 'as-chart-data',
      head: ['Hour', 'Requests/s', ...r.policies.map((p) => NAMES[p.name] ?? p.name)],
      rows: rps.map((v, i) => [String(i), f.num(v, 1), ...r.policies.map((p) => f.num(p.replicas[i], 2))]),
    }));
}

export function renderAutoscale(r) {
  const rec = r.recommended;
  const base = r.committed_base;
  const d = r.deployment;
  const copy = h('button', { type: 'button', testid: 'as-copy-keda' }, 'Copy');
  copy.addEventListener('click', () => copyText(rec.keda_scaled_object));
  return [
    h('section', { class: 'card', testid: 'as-deployment' },
      h('h3', null, 'Replica'),
      facts([
        ['Runs on', `${d.instance} (${d.provider}, ${d.region})`, 'as-instance'],
        ['Per replica', `${f.num(d.gpus_per_replica, 0)} GPU, ${f.num(d.concurrency_per_replica, 0)} sequences, ${f.num(d.requests_per_s_per_replica, 2)} requests/s (${f.num(d.target_requests_per_s_per_replica, 2)} at the target)`],
        ['Price', `${f.usd(d.usd_per_replica_hour)} per replica-hour (${f.label(d.pricing)})`],
        ['Cold start', `${f.num(r.cold_start.total_s, 0)} s (estimates: ${r.cold_start.basis.split(': ').slice(1).join(': ')})`, 'as-cold-start'],
        ['Month', r.profile.month],
      ], 'facts compact')),
    card('Replica schedule', scheduleChart(r)),
    h('section', { class: 'card' },
      h('h3', null, 'Each policy'),
      table({
        caption: 'Each policy over the profile: monthly cost, idle GPU-hours and the share of requests within the p95 TTFT target', testid: 'as-policies', className: 'data', exportName: 'autoscale-policies',
        head: ['Policy', 'Monthly cost', 'Replica-hours a month', 'Idle GPU-hours a month', 'SLO attainment'],
        rows: r.policies.map((p) => h('tr', { testid: `as-policy-${p.name}` },
          h('th', { scope: 'row' }, NAMES[p.name] ?? p.name),
          h('td', { class: 'num', testid: `as-${p.name}-usd` }, f.usdMonth(p.usd_per_month)),
          h('td', { class: 'num' }, f.num(p.replica_hours_per_month, 0)),
          h('td', { class: 'num' }, f.num(p.gpu_hours_idle, 0)),
          h('td', { class: 'num', testid: `as-${p.name}-slo` }, f.pct(100 * p.slo_attainment)))),
      })),
    h('div', { class: 'grid-2' },
      h('section', { class: 'card', testid: 'as-recommended' },
        h('h3', null, 'Recommended autoscaler settings'),
        facts([
          ['Replicas', `${rec.min_replicas} to ${rec.max_replicas}`, 'as-rec-replicas'],
          ['Metric', `${f.label(rec.metric)}, target ${f.num(rec.threshold, 2)} per replica`, 'as-rec-metric'],
          ['Scale up after', `${f.num(rec.scale_up_delay_s, 0)} s`],
          ['Scale down after', `${f.num(rec.scale_down_delay_s, 0)} s`],
        ], 'facts compact'),
        h('p', { class: 'muted small' }, rec.basis),
        h('details', { class: 'why-details', open: true },
          h('summary', null, 'Copy as a KEDA ScaledObject'),
          h('pre', { class: 'request', testid: 'as-keda', tabindex: '0', 'aria-label': 'KEDA ScaledObject' }, rec.keda_scaled_object), copy)),
      h('section', { class: 'card', testid: 'as-base' },
        h('h3', null, 'Committed base'),
        facts([
          ['Commit', `${base.replicas} replicas (${f.label(base.commitment)})`, 'as-base-replicas'],
          ['Monthly cost', base.usd_per_month === null ? f.DASH : f.usdMonth(base.usd_per_month), 'as-base-usd'],
          ['Break-even utilization', base.break_even_utilization === null ? f.DASH : f.pct(100 * base.break_even_utilization)],
        ], 'facts compact'),
        h('p', { class: 'muted small' }, base.basis))),
    h('p', { class: 'muted small' }, r.basis),
  ];
}

export function createAutoscaleScreen(store, form) {
  form.addDemand(demandControl);
  const profile = profileControl();
  const policy = choiceControl({ id: 'as-policy', key: 'policy', label: 'Policy to evaluate', def: 'target_tracking',
    options: [{ value: 'target_tracking', label: 'Target tracking (HPA/KEDA)' }, { value: 'scheduled', label: 'Daily schedule' }, { value: 'oracle', label: 'Oracle only' }] });
  const metric = choiceControl({ id: 'as-metric', key: 'metric', label: 'Target tracking metric', def: 'concurrency',
    options: [{ value: 'concurrency', label: 'Requests in flight per replica' }, { value: 'queue_length', label: 'Queue length per replica' }, { value: 'requests_per_s', label: 'Requests/s per replica' }] });
  const own = [profile, policy, metric];
  const request = () => {
    const { demand, workload: _task, ...w } = form.workload();
    const r = { question: 'autoscale', ...w };
    if (demand) {
      const { requests_per_s: _rps, ...rest } = demand;
      if (Object.keys(rest).length) r.demand = rest;
    }
    const where = form.place(store);
    if (where.instance) r.instance = where.instance;
    r.profile = profile.value();
    r.policy = { kind: policy.value(), metric: metric.value() };
    const paid = form.pay({});
    for (const k of ['pricing', 'use_spot', 'spot_share']) if (paid[k] !== undefined) r[k] = paid[k];
    return r;
  };
  return createScreen(store, {
    id: 'autoscale',
    title: 'Auto-scaling',
    intro: 'A day or a week of traffic on the road\'s deployment: what each scaling policy runs, costs and serves within the p95 target, the autoscaler settings to use and the base worth committing to.',
    form,
    uses: ['model', 'format', 'shape', 'demand', 'place', 'pay'],
    controls: { controls: own, fill: (s) => own.forEach((c) => c.fill(s)), fromParams: (p) => own.forEach((c) => c.fromParams(p)), toParams: (p) => own.forEach((c) => c.toParams(p)) },
    async render({ ask }) {
      const req = request();
      const { response, errors } = await ask(req);
      if (errors) return { errors };
      return { nodes: [renderAutoscale(response.result), deployPanel(ask, req), requestBlock(req, 'as-request')] };
    },
  });
}
