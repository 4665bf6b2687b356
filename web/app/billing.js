// Ways to pay and schedules (docs/api.md: `pricing`, `spot_share`, `schedule`), shared by every
// screen that prices something. Each control knows its URL keys and its part of the request.
import { h, selectField, numberField, setSelectValue, fillSelect } from './dom.js';
import { provider } from './format.js';

/** The ways to pay of the catalog in use (the core's menus): its own ways, then each provider's
 *  ways with a commitment, a way without a public discount said so. */
export function pricingOptions(store) {
  const data = store.state?.data ?? {};
  const groups = [{ group: 'Any provider', options: (data.pricing_modes ?? []).map((m) => ({ value: m.key, label: m.name })) }];
  for (const w of data.ways_to_pay ?? []) {
    const group = `${provider(w.provider)} commitments`;
    let g = groups.find((x) => x.group === group);
    if (!g) groups.push(g = { group, options: [] });
    const unpriced = w.priced_for ? ` (priced for ${w.priced_for.join(', ')} only; on-demand price elsewhere)`
      : w.priced ? '' : ' (no public discount: on-demand price)';
    g.options.push({ value: w.key, label: `${w.name}${unpriced}` });
  }
  return groups.filter((g) => g.options.length);
}

/** Schedule forms: [value, label, first field, second field (optional)]. */
export const SCHEDULES = [
  { value: 'hpm', label: 'Hours per month' },
  { value: 'day', label: 'Hours a day × days a month', a: ['hours_per_day', 'Hours a day', 'h/day', 24], b: ['days_per_month', 'Days a month', 'days', 31, '30.4'] },
  { value: 'week', label: 'Hours a week × weeks a month', a: ['hours_per_week', 'Hours a week', 'h/week', 168], b: ['weeks_per_month', 'Weeks a month', 'weeks', 5, '4.35'] },
  { value: 'always', label: '24/7 (730 h a month)' },
  { value: 's2z', label: 'Scale to zero off-hours', a: ['off_hours_per_day', 'Hours a day scaled to zero', 'h/day off', 24] },
];

const numberOrRaw = (text) => {
  const t = String(text ?? '').trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t; // the analyzer names what is wrong
};

/** The schedule object of a form and its two values (undefined = the analyzer's default). */
export function scheduleObject(kind, a, b) {
  const spec = SCHEDULES.find((s) => s.value === kind);
  if (!spec || kind === 'hpm') return a === undefined ? undefined : { hours_per_month: a };
  if (kind === 'always') return a === undefined ? { always_on: true } : { always_on: true, hours_per_month: a };
  const out = { [spec.a[0]]: a ?? null };
  if (spec.b && b !== undefined) out[spec.b[0]] = b;
  return out;
}

/** Way to pay. URL: pricing (an old link's spot=1 is spot), share; each after `ns` (a view's own
 *  way to pay beside the workload form's). */
export function pricingControl(prefix, ns = '') {
  const sel = selectField({ id: `${prefix}-pricing`, label: 'Way to pay' });
  const share = numberField({ id: `${prefix}-share`, label: 'Spot share', unit: '0 to 1', min: 0, max: 1, step: 0.05, placeholder: '0.5', hint: 'Share of hours on spot; empty means 0.5.' });
  const wrap = h('div', { class: 'field-pair' }, sel.wrap, share.wrap);
  const sync = () => { share.wrap.hidden = sel.input.value !== 'mixed'; };
  sel.input.addEventListener('change', sync);
  sync();
  return {
    wrap, input: sel.input, shareInput: share.input, key: `${ns}pricing`,
    fields: [{ input: share.input, wrap: share.wrap, path: '/spot_share', label: 'Spot share' }],
    fill(store) { fillSelect(sel.input, pricingOptions(store)); },
    fromParams(p) {
      sel.input.value = 'on_demand';
      const spot = p.get(`${ns}spot`);
      setSelectValue(sel.input, p.get(`${ns}pricing`) ?? (spot === '1' || spot === 'true' ? 'spot' : 'on_demand'));
      share.input.value = p.get(`${ns}share`) ?? '';
      sync();
    },
    toParams(p) {
      const v = sel.input.value;
      if (v !== 'on_demand') p.set(`${ns}pricing`, v);
      if (v === 'mixed' && share.input.value.trim() !== '') p.set(`${ns}share`, share.input.value.trim());
    },
    value: () => sel.input.value,
    /** Writes the way to pay into a request (on-demand, the default, is left out). */
    apply(request) {
      const v = sel.input.value;
      if (v === 'on_demand') return request;
      request.pricing = v;
      if (v === 'mixed') {
        const s = numberOrRaw(share.input.value);
        if (s !== undefined) request.spot_share = s;
      }
      return request;
    },
  };
}

/** Schedule form; "hours per month" uses the screen's hours control. URL: sched, ha, hb, each
 *  after `ns` (as pricingControl's). */
export function scheduleControl(prefix, hours, ns = '') {
  const sel = selectField({ id: `${prefix}-schedule`, label: 'Schedule', options: SCHEDULES });
  const a = numberField({ id: `${prefix}-sched-a`, label: 'Hours a day', unit: 'h/day', min: 0, step: 'any' });
  const b = numberField({ id: `${prefix}-sched-b`, label: 'Days a month', unit: 'days', min: 0, step: 'any' });
  const wrap = h('div', { class: 'field-pair schedule' }, sel.wrap, h('div', { class: 'field-pair sched-values' }, a.wrap, b.wrap));
  const setLabel = (field, spec) => {
    field.wrap.querySelector('label').textContent = spec[1];
    field.wrap.querySelector('.unit').textContent = spec[2];
    field.input.max = spec[3];
    field.input.placeholder = spec[4] ?? '';
  };
  const sync = () => {
    const spec = SCHEDULES.find((s) => s.value === sel.input.value) ?? SCHEDULES[0];
    if (hours) hours.wrap.hidden = spec.value !== 'hpm';
    a.wrap.hidden = !spec.a;
    b.wrap.hidden = !spec.b;
    if (spec.a) setLabel(a, spec.a);
    if (spec.b) setLabel(b, spec.b);
  };
  sel.input.addEventListener('change', () => {
    const spec = SCHEDULES.find((s) => s.value === sel.input.value);
    // Seed 001's 8 h x 22 days and seed 000's 12 h off as starting values.
    a.input.value = { day: '8', week: '40', s2z: '12' }[spec?.value] ?? '';
    b.input.value = { day: '22' }[spec?.value] ?? '';
    sync();
  });
  sync();
  return {
    wrap, input: sel.input, aInput: a.input, bInput: b.input, key: `${ns}sched`,
    /** The two numbers, each at the path of the schedule chosen (marked when the core refuses it). */
    get fields() {
      const spec = SCHEDULES.find((s) => s.value === sel.input.value) ?? SCHEDULES[0];
      return [[a, spec.a], [b, spec.b]].map(([field, name]) => ({ input: field.input, wrap: field.wrap,
        path: name ? `/schedule/${name[0]}` : '/schedule/-', label: name?.[1] }));
    },
    fill() {},
    fromParams(p) {
      sel.input.value = 'hpm';
      setSelectValue(sel.input, p.get(`${ns}sched`) ?? 'hpm');
      a.input.value = p.get(`${ns}ha`) ?? '';
      b.input.value = p.get(`${ns}hb`) ?? '';
      sync();
    },
    toParams(p) {
      const v = sel.input.value;
      if (v === 'hpm') return;
      p.set(`${ns}sched`, v);
      if (!a.wrap.hidden && a.input.value.trim() !== '') p.set(`${ns}ha`, a.input.value.trim());
      if (!b.wrap.hidden && b.input.value.trim() !== '') p.set(`${ns}hb`, b.input.value.trim());
    },
    value: () => sel.input.value,
    /** Replaces hours_per_month with a schedule when another form is chosen. */
    apply(request) {
      const v = sel.input.value;
      if (v === 'hpm') return request;
      delete request.hours_per_month;
      request.schedule = scheduleObject(v, numberOrRaw(a.input.value), numberOrRaw(b.input.value));
      return request;
    },
  };
}
