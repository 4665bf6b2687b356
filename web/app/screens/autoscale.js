// Auto-scaling: a traffic profile (24 or 168 hourly requests/s values typed, or a CSV export pasted)
// on the road's deployment for the workload form's model; each policy's replica schedule drawn over
// the profile, its monthly cost, idle GPU-hours and SLO attainment; the recommended autoscaler
// settings with a KEDA ScaledObject to copy; the committed base (docs/api.md, autoscale).
import { h, svg, table, facts, card, selectField, numberField, setSelectValue, fillSelect } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { demandControl } from '../demand-fields.js';
import { frame, axis, legend, dataTable, W, SERIES } from '../charts.js';
import { copyText } from '../export.js';
import { requestBlock } from '../parts.js';
import { deployPanel } from '../deploy-panel.js';
import { section } from '../sections.js';
import { drawnLater } from '../in-place.js';

/** A synthetic diurnal day (not measured): a trough at 04:00, a peak 5x the trough at 16:00. */
export const EXAMPLE_PROFILE = Array.from({ length: 24 }, (_, hr) => Math.round(40 * (3 - 2 * Math.cos(((hr - 4) * Math.PI) / 12)) * 10) / 10);

/** The profile: a named shape of the catalog (synthetic, scaled to a peak), or as typed: numbers
 *  separated by commas, spaces or lines, or CSV rows (a line with a comma after a time) sent as
 *  lines. URL: traffic=diurnal_5x&peak=200, or profile=80,63.4,... (values only). */
function profileControl() {
  const id = 'as-profile';
  const input = h('textarea', { id, name: id, rows: 6, spellcheck: false, autocomplete: 'off', testid: id });
  const typed = h('div', { class: 'field' }, h('label', { for: id }, 'Traffic profile (requests/s per hour, 24 or 168 values; or paste a timestamp,requests CSV)'), input,
    h('small', { class: 'hint' }, 'The example is synthetic: a day with a 5x peak at 16:00. CSV rows are bucketed to UTC hours.'));
  const shape = selectField({ id: 'as-shape', label: 'Traffic shape' });
  const peak = numberField({ id: 'as-peak', label: 'Peak requests/s of the shape', unit: 'req/s', min: 0, value: '200', hint: 'The shape\u2019s hourly shares of its peak times this.' });
  const sync = () => { typed.hidden = shape.input.value !== ''; peak.wrap.hidden = !typed.hidden; };
  shape.input.addEventListener('change', sync);
  const wrap = h('div', null, shape.wrap, peak.wrap, typed);
  // A row of a CSV: an ISO 8601 date or a Unix time, a comma, then a number.
  const isCsv = (text) => /^\s*"?(\d{4}-\d{2}-\d{2}|\d{9,})[^,\n]*,\s*"?[\d.]/m.test(text);
  const num = (t) => (t.trim() !== '' && Number.isFinite(Number(t)) ? Number(t) : t);
  return {
    wrap, input, key: 'profile',
    fields: [{ input, wrap: typed, path: '/profile', label: 'Traffic profile' },
      { input: shape.input, wrap: shape.wrap, path: '/profile/shape', label: 'Traffic shape' },
      { input: peak.input, wrap: peak.wrap, path: '/profile/peak_requests_per_s', label: 'Peak requests/s' }],
    fill(store) {
      const keep = shape.input.value;
      // The core's shapes (the field table's values of profile.shape), all synthetic.
      fillSelect(shape.input, [{ value: '', label: 'Typed values or a pasted CSV' },
        ...(store.state?.data?.request?.values?.['autoscale_profile.shape'] ?? []).map((v) => ({ value: v, label: `${v.replaceAll('_', ' ')} (synthetic)` }))]);
      shape.input.value = keep;
      sync();
      if (!input.value) input.value = EXAMPLE_PROFILE.join(', ');
    },
    fromParams(p) {
      setSelectValue(shape.input, p.get('traffic') ?? '');
      if (p.has('peak')) peak.input.value = p.get('peak');
      input.value = p.has('profile') ? p.get('profile').split(',').join(', ') : EXAMPLE_PROFILE.join(', ');
      sync();
    },
    toParams(p) {
      if (shape.input.value) {
        p.set('traffic', shape.input.value);
        p.set('peak', peak.input.value.trim());
      } else if (!isCsv(input.value)) p.set('profile', input.value.split(/[\s,;]+/).filter(Boolean).join(','));
    },
    value() {
      if (shape.input.value) return { shape: shape.input.value, peak_requests_per_s: num(peak.input.value) };
      const text = input.value.trim();
      if (isCsv(text)) return { csv: text.split(/\r?\n/) };
      return { requests_per_s: text.split(/[\s,;]+/).filter(Boolean).map((v) => (Number.isFinite(Number(v)) ? Number(v) : v)) };
    },
  };
}

/** A select of the core's allowed values of one request field (its menus' `request.values`). */
function choiceControl({ id, key, label, field, names, def }) {
  const { wrap, input } = selectField({ id, label });
  return {
    wrap, input, key,
    fill(store) {
      const keep = input.value;
      fillSelect(input, (store.state?.data?.request?.values?.[field] ?? []).map((v) => ({ value: v, label: names[v] ?? v.replaceAll('_', ' ') })));
      setSelectValue(input, keep || def, { quiet: true });
    },
    fromParams(p) { setSelectValue(input, p.get(key) ?? def, { quiet: true }); },
    toParams(p) { if (input.value && input.value !== def) p.set(key, input.value); },
    value: () => input.value || def,
  };
}

/** The policy's settings and the cold start (docs/api.md, autoscale): empty fields are the core's
 *  defaults, shown as placeholders. URL: as_<field> for the policy's, cs_<field> for the cold start's. */
const SETTINGS = [
  ['policy', 'target', 'Target per replica', 'of the metric', 'the road\u2019s'],
  ['policy', 'min_replicas', 'Fewest replicas', 'replicas', 'the fewest needed'],
  ['policy', 'max_replicas', 'Most replicas', 'replicas', 'the most needed'],
  ['policy', 'control_period_s', 'Control period', 's', '30'],
  ['policy', 'scale_up_delay_s', 'Scale-up window', 's', '0'],
  ['policy', 'scale_down_delay_s', 'Scale-down window', 's', '300'],
  ['policy', 'tolerance', 'Tolerance', 'share of the target', '0.1'],
  ['cold_start', 'provisioning_s', 'Node provisioning', 's', '180 (estimate)'],
  ['cold_start', 'image_pull_s', 'Image pull', 's', '60 (estimate)'],
  ['cold_start', 'weights_gb_per_s', 'Weights loaded at', 'GB/s', '1 (estimate)'],
  ['cold_start', 'warmup_s', 'Engine warm-up', 's', '60 (estimate)'],
];
function settingsControl() {
  const fields = SETTINGS.map(([group, name, label, unit, placeholder]) => {
    const key = `${group === 'policy' ? 'as' : 'cs'}_${name}`;
    const { wrap, input } = numberField({ id: `as-${key}`, label, unit, placeholder, min: 0 });
    return { group, name, key, wrap, input, path: `/${group}/${name}`, label };
  });
  const wrap = h('details', { class: 'why-details', testid: 'as-settings' }, h('summary', null, 'Policy settings and cold start'),
    h('div', { class: 'demand-fields' }, fields.map((x) => x.wrap)));
  return {
    wrap, fields,
    fill() {},
    fromParams(p) {
      for (const x of fields) x.input.value = p.get(x.key) ?? '';
      if (fields.some((x) => x.input.value !== '')) wrap.open = true;
    },
    toParams(p) { for (const x of fields) if (x.input.value.trim() !== '') p.set(x.key, x.input.value.trim()); },
    /** {policy: {...}, cold_start: {...}} of the fields given. */
    value() {
      const out = { policy: {}, cold_start: {} };
      for (const x of fields) {
        const t = x.input.value.trim();
        if (t !== '') out[x.group][x.name] = Number.isFinite(Number(t)) ? Number(t) : t;
      }
      return out;
    },
  };
}

/** What the page refuses before asking: a place or a month the question does not take. */
function askedOnly(form, store) {
  return {
    wrap: null, fill() {}, fromParams() {}, toParams() {},
    check() {
      const where = form.place(store);
      const paid = form.pay({});
      const out = [];
      const gpus = form.controls().find((c) => c.key === 'gpus');
      if (gpus?.value() !== undefined) out.push({ code: 'not_taken', file: 'page', path: '/gpus', message: 'A replica is the road\u2019s deployment on the instance: leave the GPUs empty.' });
      if (!where.instance) out.push({ code: 'not_taken', file: 'page', path: '/instance', message: 'Auto-scaling runs on an instance type or family: choose one (or a family to take its cheapest type).' });
      for (const [key, path] of [['hours_per_month', '/hours_per_month'], ['schedule', '/schedule']]) {
        if (paid[key] !== undefined) out.push({ code: 'not_taken', file: 'page', path, message: 'The profile sets the month (24 h x 30.4 days, or 168 h x 4.345 weeks): leave the hours and the schedule empty.' });
      }
      return out;
    },
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
    section('deployment', h('section', { class: 'card', testid: 'as-deployment' },
      h('h3', null, 'Replica'),
      facts([
        ['Runs on', `${d.instance} (${d.provider}, ${d.region})`, 'as-instance'],
        ['Per replica', `${f.num(d.gpus_per_replica, 0)} GPU, ${f.num(d.concurrency_per_replica, 0)} sequences, ${f.num(d.requests_per_s_per_replica, 2)} requests/s (${f.num(d.target_requests_per_s_per_replica, 2)} at the target)`],
        ['Price', `${f.usd(d.usd_per_instance_hour)} per instance-hour (${f.label(d.pricing)}), ${f.num(d.replicas_per_instance, 0)} replica${d.replicas_per_instance === 1 ? '' : 's'} per instance, billed whole`],
        ['Cold start', `${f.num(r.cold_start.total_s, 0)} s (estimates: ${r.cold_start.basis.split(': ').slice(1).join(': ')})`, 'as-cold-start'],
        r.profile.shape ? ['Traffic shape', `${r.profile.shape.replaceAll('_', ' ')} (${r.profile.shape_source})`, 'as-shape-source'] : null,
        ['Month', r.profile.month],
      ], 'facts compact'))),
    section('chart', card('Replica schedule', scheduleChart(r))),
    drawnLater(() => section('table', h('section', { class: 'card' },
      h('h3', null, 'Each policy'),
      table({
        caption: 'Each policy over the profile: monthly cost, idle GPU-hours and the share of requests within the p95 TTFT target', testid: 'as-policies', className: 'data', exportName: 'autoscale-policies', records: r.policies,
        head: ['Policy', 'Monthly cost', 'Replica-hours a month', 'Idle GPU-hours a month', 'SLO attainment'],
        rows: r.policies.map((p) => h('tr', { testid: `as-policy-${p.name}` },
          h('th', { scope: 'row' }, NAMES[p.name] ?? p.name),
          h('td', { class: 'num', testid: `as-${p.name}-usd` }, f.usdMonth(p.usd_per_month)),
          h('td', { class: 'num' }, f.num(p.replica_hours_per_month, 0)),
          h('td', { class: 'num' }, f.num(p.gpu_hours_idle, 0)),
          h('td', { class: 'num', testid: `as-${p.name}-slo` }, f.pct(100 * p.slo_attainment)))),
      }),
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'At the measured error: '), h('span', { testid: 'as-band' }, r.band.text))))),
    drawnLater(() => h('div', { class: 'grid-2' },
      section('recommended', h('section', { class: 'card', testid: 'as-recommended' },
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
          h('pre', { class: 'request', testid: 'as-keda', tabindex: '0', 'aria-label': 'KEDA ScaledObject' }, rec.keda_scaled_object), copy))),
      section('base', h('section', { class: 'card', testid: 'as-base' },
        h('h3', null, 'Committed base'),
        facts([
          ['Commit', `${base.instances} instance${base.instances === 1 ? '' : 's'} holding ${base.replicas} replicas (${f.label(base.commitment)})`, 'as-base-replicas'],
          ['Monthly cost', base.usd_per_month === null ? f.DASH : f.usdMonth(base.usd_per_month), 'as-base-usd'],
          ['Break-even utilization', base.break_even_utilization === null ? f.DASH : f.pct(100 * base.break_even_utilization)],
        ], 'facts compact'),
        h('p', { class: 'muted small' }, base.basis))))),
    h('p', { class: 'muted small' }, r.basis),
  ];
}

export function createAutoscaleScreen(store, form) {
  form.addDemand(demandControl);
  const profile = profileControl();
  const policy = choiceControl({ id: 'as-policy', key: 'policy', label: 'Policy to evaluate', def: 'target_tracking', field: 'autoscale_policy.kind',
    names: { target_tracking: 'Target tracking (HPA/KEDA)', scheduled: 'Daily schedule', oracle: 'Oracle only' } });
  const metric = choiceControl({ id: 'as-metric', key: 'metric', label: 'Target tracking metric', def: 'concurrency', field: 'autoscale_policy.metric',
    names: { concurrency: 'Requests in flight per replica', queue_length: 'Queue length per replica', requests_per_s: 'Requests/s per replica' } });
  const commitment = choiceControl({ id: 'as-commitment', key: 'commit', label: 'Committed base paid as', def: 'reserved_1y', field: 'autoscale.commitment',
    names: { reserved_1y: '1-year commitment', reserved_3y: '3-year commitment' } });
  const settings = settingsControl();
  const own = [profile, policy, metric, commitment, settings, askedOnly(form, store)];
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
    const given = settings.value();
    r.policy = { kind: policy.value(), metric: metric.value(), ...given.policy };
    if (Object.keys(given.cold_start).length) r.cold_start = given.cold_start;
    if (commitment.value() !== 'reserved_1y') r.commitment = commitment.value();
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
      // The form's requests/s is the other views' (a steady rate): said, not used, here.
      const steady = form.workload().demand?.requests_per_s;
      const unused = steady === undefined ? null
        : h('p', { class: 'note', testid: 'as-rps-unused' }, `The form's ${f.num(Number(steady), 4)} requests/s is not used here: the profile gives the rate of each hour.`);
      return { nodes: [unused, renderAutoscale(response.result), deployPanel(ask, req), requestBlock(req, 'as-request')] };
    },
  });
}
