// Plan: a fleet plan of environments and workloads (instance, count, schedule, way to pay), edited
// in a form or pasted as JSON; costs per workload, per environment and in total, each workload on
// the other providers, the whole plan per provider and the cheapest provider mix.
import { h, table, facts, card, selectField, numberField, fillSelect, setSelectValue } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { instanceOptions } from '../controls.js';
import { pricingOptions, SCHEDULES, scheduleObject } from '../billing.js';
import { barChart, SERIES } from '../charts.js';
import { DEFAULT_PLAN } from '../default-plan.js';
import { own } from '../link.js';
import { deployPanel } from '../deploy-panel.js';
import { section } from '../sections.js';

const clone = (v) => JSON.parse(JSON.stringify(v));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** The form can show it: environments of workloads, all objects. */
const editable = (p) => isObj(p) && Array.isArray(p.environments)
  && p.environments.every((e) => isObj(e) && Array.isArray(e.workloads) && e.workloads.every(isObj));

const numberOrRaw = (text) => {
  const t = String(text ?? '').trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};
const setOrDelete = (obj, key, value) => { if (value === undefined) delete obj[key]; else obj[key] = value; };

/** The A/B fields of each schedule form in a plan row: [label, unit, placeholder]. */
const FIELDS = {
  hpm: [['Hours a month', 'h/month', '720']],
  day: [['Hours a day', 'h/day'], ['Days a month', 'days', '30.4']],
  week: [['Hours a week', 'h/week'], ['Weeks a month', 'weeks', '4.35']],
  always: [['Hours a month', 'h/month', '730']],
  s2z: [['Hours a day off', 'h/day']],
};
const STARTS = { day: ['8', '22'], week: ['40', ''], s2z: ['12', ''], hpm: ['720', ''], always: ['', ''] };

/** Reads a schedule object back into [kind, a, b]. */
function scheduleForm(schedule, hoursPerMonth) {
  if (!schedule || typeof schedule !== 'object') return ['hpm', hoursPerMonth ?? '', ''];
  if (schedule.always_on) return ['always', schedule.hours_per_month ?? '', ''];
  for (const s of SCHEDULES) {
    if (s.a && schedule[s.a[0]] !== undefined) return [s.value, schedule[s.a[0]], s.b ? schedule[s.b[0]] ?? '' : ''];
  }
  return ['hpm', schedule.hours_per_month ?? '', ''];
}

function textField({ id, label, value }) {
  const input = h('input', { id, name: id, type: 'text', autocomplete: 'off', spellcheck: false, testid: id });
  input.value = value ?? '';
  return { wrap: h('div', { class: 'field' }, h('label', { for: id }, label), input), input };
}

export function createPlanScreen(store) {
  const state = { plan: clone(DEFAULT_PLAN), error: null };
  const editor = h('div', { class: 'plan-editor', testid: 'plan-editor' });
  const json = h('textarea', { id: 'plan-json', rows: 12, spellcheck: false, autocomplete: 'off', testid: 'plan-json' });
  const useJson = h('button', { type: 'button', class: 'primary', testid: 'plan-use-json' }, 'Use this JSON');
  const reset = h('button', { type: 'button', testid: 'plan-reset' }, 'Back to the example plan');
  const jsonBlock = h('details', { class: 'plan-json' },
    h('summary', null, 'Plan as JSON (paste your own)'),
    h('div', { class: 'field' }, h('label', { for: 'plan-json' }, 'Plan JSON'), json,
      h('small', { class: 'hint' }, '{"name", "environments": [{"name", "workloads": [{"name", "instance", "count", "schedule", "pricing", "spot_share", "notes"}]}]}, as docs/api.md describes.')),
    h('div', { class: 'buttons' }, useJson, reset));
  const wrap = h('div', { class: 'plan-inputs' }, editor, jsonBlock);

  let screen;
  // Each field of the form with the JSON path of its value in the request, so that an error the
  // core gives inside a row (/plan/environments/0/workloads/1/count) is marked at that field.
  let fields = [];
  const field = (control, path, label, paths) => fields.push({ input: control.input, wrap: control.wrap, path, paths,
    get label() { return label ?? control.wrap.querySelector('label')?.textContent; } });
  // Inputs re-render through the form's own input/change events; buttons call changed().
  const synced = () => { if (document.activeElement !== json) json.value = JSON.stringify(state.plan, null, 2); };
  const changed = () => { synced(); screen?.onChange(screen); };
  const setPlan = (plan) => {
    state.plan = plan;
    state.error = null;
    build();
    json.value = JSON.stringify(plan, null, 2);
  };

  function build() {
    const plan = state.plan;
    fields = [];
    if (!editable(plan)) {
      editor.replaceChildren(h('p', { class: 'note', testid: 'plan-raw' }, 'This plan is not a list of environments of workloads, so it is edited as JSON only; the analyzer says what is wrong with it.'));
      return;
    }
    const name = textField({ id: 'plan-name', label: 'Plan name', value: plan.name });
    name.input.addEventListener('input', () => { setOrDelete(plan, 'name', name.input.value === '' ? undefined : name.input.value); synced(); });
    field(name, '/plan/name');
    const envs = plan.environments.map((env, i) => envEditor(env, i));
    const addEnv = h('button', { type: 'button', testid: 'plan-add-env' }, 'Add environment');
    addEnv.addEventListener('click', () => {
      plan.environments.push({ name: `Environment ${plan.environments.length + 1}`, workloads: [newWorkload()] });
      build();
      changed();
      editor.querySelector('.plan-env:last-of-type input')?.focus();
    });
    editor.replaceChildren(name.wrap, ...envs, h('div', { class: 'buttons' }, addEnv));
  }

  const newWorkload = () => ({ name: 'New workload', instance: 'g6e.xlarge', count: 1, schedule: { hours_per_day: 8, days_per_month: 22 }, pricing: 'on_demand' });

  function envEditor(env, i) {
    const plan = state.plan;
    const name = textField({ id: `plan-env-${i}-name`, label: 'Environment name', value: env.name });
    name.input.addEventListener('input', () => { env.name = name.input.value; synced(); });
    field(name, `/plan/environments/${i}/name`);
    const remove = h('button', { type: 'button', class: 'small-button', testid: `plan-env-${i}-remove`, 'aria-label': `Remove environment ${i + 1}` }, 'Remove environment');
    remove.addEventListener('click', () => { plan.environments.splice(i, 1); build(); changed(); });
    const add = h('button', { type: 'button', class: 'small-button', testid: `plan-env-${i}-add`, 'aria-label': `Add workload to environment ${i + 1}` }, 'Add workload');
    add.addEventListener('click', () => { env.workloads.push(newWorkload()); build(); changed(); });
    return h('fieldset', { class: 'plan-env', testid: `plan-env-${i}` },
      h('legend', null, `Environment ${i + 1}`),
      h('div', { class: 'plan-env-head' }, name.wrap, remove),
      env.workloads.map((w, j) => workloadEditor(env, w, i, j)),
      h('div', { class: 'buttons' }, add));
  }

  function workloadEditor(env, w, i, j) {
    const pre = `plan-w-${i}-${j}`;
    const name = textField({ id: `${pre}-name`, label: 'Workload', value: w.name });
    name.input.addEventListener('input', () => { w.name = name.input.value; synced(); });
    const inst = selectField({ id: `${pre}-instance`, label: 'Instance' });
    fillSelect(inst.input, instanceOptions(store));
    inst.input.value = '';
    setSelectValue(inst.input, String(w.instance ?? ''));
    inst.input.addEventListener('change', () => { w.instance = inst.input.value; synced(); });
    const count = numberField({ id: `${pre}-count`, label: 'Count', unit: 'instances', min: 1, step: 1, value: w.count ?? '' });
    count.input.addEventListener('input', () => { setOrDelete(w, 'count', numberOrRaw(count.input.value)); synced(); });

    const [kind0, a0, b0] = scheduleForm(w.schedule, w.hours_per_month);
    const sched = selectField({ id: `${pre}-schedule`, label: 'Schedule', options: SCHEDULES });
    sched.input.value = kind0;
    const a = numberField({ id: `${pre}-a`, label: 'Hours', unit: 'h', min: 0, step: 'any', value: a0 });
    const b = numberField({ id: `${pre}-b`, label: 'Days', unit: 'days', min: 0, step: 'any', value: b0 });
    const label = () => {
      const spec = own(FIELDS, sched.input.value) ?? FIELDS.hpm;
      for (const [field, s] of [[a, spec[0]], [b, spec[1]]]) {
        field.wrap.hidden = !s;
        if (!s) continue;
        field.wrap.querySelector('label').textContent = s[0];
        field.wrap.querySelector('.unit').textContent = s[1];
        field.input.placeholder = s[2] ?? '';
      }
    };
    const writeSchedule = () => {
      const kind = sched.input.value;
      const av = numberOrRaw(a.input.value);
      const bv = own(FIELDS, kind)?.[1] ? numberOrRaw(b.input.value) : undefined;
      delete w.hours_per_month;
      setOrDelete(w, 'schedule', scheduleObject(kind, av, bv));
      synced();
    };
    sched.input.addEventListener('change', () => {
      [a.input.value, b.input.value] = own(STARTS, sched.input.value) ?? ['', ''];
      label();
      writeSchedule();
    });
    a.input.addEventListener('input', writeSchedule);
    b.input.addEventListener('input', writeSchedule);
    label();

    const pricing = selectField({ id: `${pre}-pricing`, label: 'Way to pay', options: pricingOptions(store) });
    pricing.input.value = w.pricing ?? (w.use_spot ? 'spot' : 'on_demand');
    if (w.pricing) setSelectValue(pricing.input, String(w.pricing));
    const share = numberField({ id: `${pre}-share`, label: 'Spot share', unit: '0 to 1', min: 0, max: 1, step: 0.05, placeholder: '0.5', value: w.spot_share ?? '' });
    const syncShare = () => { share.wrap.hidden = pricing.input.value !== 'mixed'; };
    const writePricing = () => {
      w.pricing = pricing.input.value;
      delete w.use_spot;
      setOrDelete(w, 'spot_share', pricing.input.value === 'mixed' ? numberOrRaw(share.input.value) : undefined);
      syncShare();
      synced();
    };
    pricing.input.addEventListener('change', writePricing);
    share.input.addEventListener('input', writePricing);
    syncShare();

    const remove = h('button', { type: 'button', class: 'small-button', testid: `${pre}-remove`, 'aria-label': `Remove workload ${j + 1} of environment ${i + 1}` }, 'Remove');
    remove.addEventListener('click', () => { env.workloads.splice(j, 1); build(); changed(); });
    const at = `/plan/environments/${i}/workloads/${j}`;
    field(name, `${at}/name`);
    field(inst, `${at}/instance`);
    field(count, `${at}/count`);
    // A schedule's first number, or the hours a month a pasted plan gives beside its schedule.
    for (const [control, k] of [[a, 0], [b, 1]]) {
      const path = () => {
        const kind = sched.input.value;
        const key = kind === 'hpm' || kind === 'always' ? 'hours_per_month' : SCHEDULES.find((s) => s.value === kind)?.[k ? 'b' : 'a']?.[0];
        return key ? `${at}/schedule/${key}` : `${at}/schedule/-`;
      };
      fields.push({ input: control.input, wrap: control.wrap, get path() { return path(); },
        get paths() { return k === 0 && ['hpm', 'always'].includes(sched.input.value) ? [path(), `${at}/hours_per_month`] : [path()]; },
        get label() { return control.wrap.querySelector('label')?.textContent; } });
    }
    field(pricing, `${at}/pricing`, 'Way to pay');
    field(share, `${at}/spot_share`, 'Spot share');
    return h('fieldset', { class: 'plan-wl', testid: pre },
      h('legend', { class: 'sr-only' }, `Workload ${j + 1} of environment ${i + 1}`),
      name.wrap, inst.wrap, count.wrap, sched.wrap, a.wrap, b.wrap, pricing.wrap, share.wrap,
      h('div', { class: 'field plan-wl-remove' }, remove));
  }

  useJson.addEventListener('click', () => {
    try {
      setPlan(JSON.parse(json.value));
    } catch (e) {
      state.error = { code: 'invalid_json', file: 'plan', path: '', message: `the plan JSON does not parse: ${e.message}` };
    }
    screen.onChange(screen);
  });
  reset.addEventListener('click', () => { setPlan(clone(DEFAULT_PLAN)); screen.onChange(screen); });

  const controls = {
    controls: [{ wrap, get fields() { return fields; } }],
    fill() { build(); },
    fromParams(p) {
      if (!p.has('plan')) { setPlan(clone(DEFAULT_PLAN)); return; }
      try {
        setPlan(JSON.parse(p.get('plan')));
      } catch (e) {
        setPlan(clone(DEFAULT_PLAN));
        state.error = { code: 'invalid_json', file: 'request', path: '/plan', message: `the plan in the link does not parse: ${e.message}` };
      }
    },
    toParams(p) { if (!same(state.plan, DEFAULT_PLAN)) p.set('plan', JSON.stringify(state.plan)); },
  };

  const printButton = h('button', { type: 'button', class: 'print-button', testid: 'plan-print' }, 'Print this plan');
  printButton.addEventListener('click', () => window.print());
  screen = createScreen(store, {
    id: 'plan',
    title: 'Plan',
    intro: 'A fleet plan of environments and workloads: what each costs, on each provider, and the cheapest mix.',
    inputsTitle: 'Fleet plan',
    stacked: true,
    before: h('div', { class: 'screen-actions' }, printButton),
    controls,
    async render({ ask }) {
      if (state.error) {
        const e = state.error;
        state.error = null;
        return { errors: [e] };
      }
      const request = { question: 'plan', plan: state.plan };
      const { response, errors } = await ask(request);
      if (errors) return { errors };
      return { nodes: [...renderPlan(response.result), deployPanel(ask, clone(request))] };
    },
  });
  return screen;
}

const PROVIDER_LABEL = f.provider;

/** What an alternative's host lacks against the plan's (vCPUs, RAM), where the provider has no
 *  host with at least as much; RAM in GB, as every size on the page ("RAM 30 of 61 GiB" ->
 *  "RAM 32.2 of 65.5 GB"). */
const gbOf = (gib) => f.num(f.gibToGb(Number(gib)), 1);
const hostShort = (a, testid) => (a?.host_short_of?.length
  ? [h('br'), h('span', { class: 'muted small', testid }, `smaller host: ${a.host_short_of
    .map((s) => s.replace(/([\d.]+) of ([\d.]+) GiB\b/, (_, x, y) => `${gbOf(x)} of ${gbOf(y)} GB`)).join(', ')}`)] : null);

export function renderPlan(r) {
  const total = r.total_usd_per_month;
  const mix = r.cheapest_mix;
  const all = [];
  r.environments.forEach((env, i) => env.workloads.forEach((w) => all.push({ env, envIndex: i, w })));
  const money = (v) => (v >= 1000 ? `$${f.num(v / 1000, v >= 10000 ? 0 : 1)}k` : `$${f.num(v, 0)}`);
  const providers = Object.entries(r.by_provider_usd_per_month ?? {});
  const alternativeOf = (c) => all.find(({ env, w }) => env.name === c.environment && w.name === c.workload)
    ?.w.alternatives?.find((a) => a.provider === c.provider && a.instance === c.instance);

  return [
    section('verdict', h('section', { class: 'card verdict accent' },
      h('h3', null, r.name || 'Fleet plan'),
      facts([
        ['Plan total', h('strong', { testid: 'plan-total' }, f.usdMonth(total))],
        ['Environments', `${r.environments.length} · ${all.length} workloads`],
        mix ? ['Cheapest provider mix', h('span', null, h('span', { testid: 'plan-mix-total' }, f.usdMonth(mix.usd_per_month)), ' · saves ',
          h('span', { testid: 'plan-mix-savings' }, f.pct(mix.savings_pct)))] : null,
      ], 'facts compact'))),
    section('chart', h('div', { class: 'grid-2 charts' },
      card('By environment', barChart({
        title: 'Monthly cost by environment', summary: r.environments.map((e) => `${e.name} ${f.usdMonth(e.usd_per_month)}`).join(', '),
        xLabel: 'Monthly cost (USD/month)', format: money, testid: 'plan-env-chart', width: 480,
        rows: r.environments.map((e, i) => ({ label: e.name, parts: [{ value: e.usd_per_month, cls: SERIES[i % SERIES.length], name: 'monthly cost' }], valueText: f.usd(e.usd_per_month) })),
        data: {
          caption: 'Monthly cost by environment (USD/month)', records: r.environments, head: ['Environment', 'Monthly cost (USD)', 'Share of the plan (%)'],
          rows: r.environments.map((e) => [e.name, f.num(e.usd_per_month, 2), f.num(total > 0 ? (e.usd_per_month / total) * 100 : 0, 1)]),
        },
      })),
      card('By provider', barChart({
        title: 'The whole plan per provider, against the plan and the cheapest mix',
        summary: providers.map(([p, v]) => `${PROVIDER_LABEL(p)} ${v == null ? 'no equivalent' : f.usdMonth(v)}`).join(', '),
        xLabel: 'Monthly cost (USD/month)', format: money, testid: 'plan-provider-chart', width: 480,
        rows: [
          { label: 'This plan', parts: [{ value: total, cls: 'c2', name: 'as planned' }], valueText: f.usd(total) },
          ...providers.map(([p, v]) => ({ label: `All on ${PROVIDER_LABEL(p)}`, parts: v == null ? [] : [{ value: v, cls: 'c1', name: PROVIDER_LABEL(p) }], valueText: v == null ? 'no equivalent' : f.usd(v) })),
          mix ? { label: 'Cheapest mix', parts: [{ value: mix.usd_per_month, cls: 'c3', name: 'cheapest mix' }], valueText: f.usd(mix.usd_per_month) } : null,
        ].filter(Boolean),
        data: {
          caption: 'The plan per provider (USD/month)', head: ['Setup', 'Monthly cost (USD)', 'Against the plan (%)'],
          rows: [
            ['This plan', f.num(total, 2), '0'],
            ...providers.map(([p, v]) => [`All on ${PROVIDER_LABEL(p)}`, v == null ? 'no equivalent' : f.num(v, 2), v == null ? f.DASH : f.num(((v - total) / total) * 100, 1)]),
            mix ? ['Cheapest mix', f.num(mix.usd_per_month, 2), f.num(((mix.usd_per_month - total) / total) * 100, 1)] : null,
          ].filter(Boolean),
        },
      })))),
    section('table', h('section', { class: 'card' },
      h('h3', null, 'Workloads'),
      table({
        caption: 'Cost per workload, with its basis', testid: 'plan-workloads', className: 'data',
        head: ['Environment', 'Workload', 'Instance', 'Count', 'Schedule', 'Way to pay', 'Monthly cost', 'Basis'],
        rows: all.map(({ env, w }, k) => h('tr', { testid: `plan-wl-${k}` },
          h('td', null, env.name),
          h('th', { scope: 'row' }, w.name),
          h('td', null, w.instance, h('br'), h('span', { class: 'muted small' }, `${PROVIDER_LABEL(w.provider)} ${w.region}`)),
          h('td', { class: 'num' }, f.num(w.count, 3)),
          h('td', null, w.cost.schedule),
          h('td', null, f.pay(w.cost)),
          h('td', { class: 'num', testid: `plan-wl-cost-${k}` }, f.usdMonth(w.cost.usd_per_month)),
          h('td', { class: 'basis-cell' }, h('span', { testid: `plan-wl-basis-${k}` }, w.cost.basis),
            w.cost.note ? [h('br'), h('span', { class: 'muted small' }, w.cost.note)] : null))),
      }),
      table({
        caption: 'Totals per environment', testid: 'plan-envs', className: 'data',
        head: ['Environment', 'Workloads', 'Monthly cost', 'Share of the plan'],
        rows: [
          ...r.environments.map((e, i) => h('tr', { testid: `plan-env-row-${i}` },
            h('th', { scope: 'row' }, e.name),
            h('td', { class: 'num' }, String(e.workloads.length)),
            h('td', { class: 'num', testid: `plan-env-total-${i}` }, f.usdMonth(e.usd_per_month)),
            h('td', { class: 'num' }, f.pct(total > 0 ? (e.usd_per_month / total) * 100 : 0)))),
          h('tr', { class: 'total-row' }, h('th', { scope: 'row' }, 'Total'), h('td', { class: 'num' }, String(all.length)),
            h('td', { class: 'num', testid: 'plan-grand-total' }, f.usdMonth(total)), h('td', { class: 'num' }, '100%')),
        ],
      }))),
    section('alternatives', h('section', { class: 'card' },
      h('h3', null, 'Each workload on the other providers'),
      h('p', { class: 'muted small' }, 'Re-priced on each provider’s equivalent instance: the same accelerator and its memory, at least as many per instance, at least the vCPUs and RAM where the provider has such a host (else its nearest, and what it lacks is said), the cheapest such on demand, with the same schedule and way to pay.'),
      table({
        caption: 'Alternatives per workload', testid: 'plan-alternatives', className: 'data',
        head: ['Workload', 'Provider', 'Instance', 'Monthly cost', 'Against the plan'],
        rows: all.flatMap(({ w }, k) => (w.alternatives ?? []).map((a, j) => {
          const d = a.usd_per_month - w.cost.usd_per_month;
          return h('tr', { testid: `plan-alt-${k}-${j}`, class: j === 0 ? 'group-start' : null },
            h('th', { scope: 'row' }, w.name),
            h('td', null, `${PROVIDER_LABEL(a.provider)} ${a.region}`),
            h('td', null, h('span', { testid: `plan-alt-instance-${k}-${j}` }, a.instance), hostShort(a, `plan-alt-short-${k}-${j}`)),
            h('td', { class: 'num', testid: `plan-alt-cost-${k}-${j}` }, f.usdMonth(a.usd_per_month)),
            h('td', { class: ['num', d < 0 ? 'good' : d > 0 ? 'bad' : null] }, `${d > 0 ? '+' : d < 0 ? '-' : ''}${f.usd(Math.abs(d))}`));
        })),
      }))),
    h('div', { class: 'grid-2' },
      section('providers', h('section', { class: 'card' },
        h('h3', null, 'The whole plan per provider'),
        table({
          caption: 'Every workload on one provider', testid: 'plan-providers', className: 'data',
          head: ['Provider', 'Monthly cost', 'Against the plan'],
          rows: providers.map(([p, v]) => h('tr', { testid: `plan-provider-${p}` },
            h('th', { scope: 'row' }, PROVIDER_LABEL(p)),
            h('td', { class: 'num', testid: `plan-provider-cost-${p}` }, v == null ? 'no equivalent' : f.usdMonth(v)),
            h('td', { class: 'num' }, v == null ? f.DASH : f.signedPct(((v - total) / total) * 100)))),
        }),
        h('p', { class: 'muted small' }, 'Every workload on that provider’s equivalent instance, as in the table above; no equivalent where a workload has none there.'))),
      mix ? section('mix', h('section', { class: 'card' },
        h('h3', null, 'Cheapest provider mix'),
        table({
          caption: `Each workload where it costs least: ${f.usdMonth(mix.usd_per_month)}, ${f.pct(mix.savings_pct)} below the plan`, testid: 'plan-mix', className: 'data',
          head: ['Workload', 'Monthly cost', 'Instance', 'Provider', 'Environment'],
          rows: mix.choices.map((c, i) => h('tr', { testid: `plan-mix-${i}` },
            h('th', { scope: 'row' }, c.workload),
            h('td', { class: 'num' }, f.usdMonth(c.usd_per_month)),
            h('td', null, h('span', { testid: `plan-mix-instance-${i}` }, c.instance), hostShort(alternativeOf(c), `plan-mix-short-${i}`)),
            h('td', null, PROVIDER_LABEL(c.provider)),
            h('td', null, c.environment))),
        }))) : null),
  ];
}
