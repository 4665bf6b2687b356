// Spot: the workload form's model and demand on spot pools (instance type x region), each with its
// on-demand and spot price, interruption band (an interval, with its source and date), notice and
// how many instance types carry the same accelerator; then, serving, the cheapest plan of an
// on-demand base and spot replicas that meets a target availability, against all on demand and
// all spot; training, each pool's checkpoint interval, interruptions, wall time and cost as
// intervals and the break-even discount (docs/spot.md).
import { h, table, facts, card, selectField, setSelectValue } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { demandControl } from '../demand-fields.js';
import { numberControl } from '../controls.js';
import { providersControl } from '../more-controls.js';
import { requestBlock } from '../parts.js';
import { deployPanel } from '../deploy-panel.js';
import { section } from '../sections.js';
import { drawnLater } from '../in-place.js';
import { longTable } from '../long-table.js';
import { textControl, nameList, pricesWanted, bandCell, interval } from '../region-fields.js';

const usdM = (v) => f.usdMonth(v);
const prob = (v) => (v == null ? f.DASH : `${f.num(100 * v, 3)}%`);

/** The bands' date, flagged past 30 days (the core says how old against the catalog's date). */
function dataNote(data) {
  if (!data?.bands_as_of) return null;
  return h('p', { class: ['note', data.stale ? 'warn' : null], testid: 'spot-data' },
    h('strong', null, `Interruption bands as of ${data.bands_as_of}`),
    data.age_days == null ? '' : ` (${f.num(data.age_days, 0)} days before the catalog's date, ${data.catalog_date})`,
    data.stale ? [' ', h('span', { class: 'pill risk-medium', testid: 'spot-stale' }, 'older than 30 days')] : null,
    data.warning ? h('span', { class: 'small' }, `. ${f.sentence(data.warning)}.`) : null);
}

function poolsTable(pools) {
  return longTable({
    caption: 'Spot pools: each instance type in each region with an on-demand and a spot price', testid: 'spot-pools', className: 'data', exportName: 'spot-pools', records: pools,
    head: ['Instance', 'Region', 'On-demand', 'Spot', 'Interruption band', 'Replicas for the demand', 'Notice', 'Same accelerator'],
  }, { count: pools.length, what: 'pools', row: (i) => poolRow(pools[i], i) });
}

function poolRow(p, i) {
  return h('tr', { testid: `spot-pool-${i}` },
      h('th', { scope: 'row' }, p.instance),
      h('td', null, p.region),
      h('td', { class: 'num', testid: `spot-pool-${i}-od` }, f.usdHour(p.on_demand_usd_per_hour)),
      h('td', { class: 'num', testid: `spot-pool-${i}-spot` }, f.usdHour(p.spot_usd_per_hour), h('span', { class: 'small' }, ` (−${f.pct(p.spot_discount_pct)})`),
        p.spot_zone_median_usd_per_hour == null ? null
          : h('span', { class: 'small', title: p.spot_basis, testid: `spot-pool-${i}-median` }, ` cheapest zone; median ${f.usdHour(p.spot_zone_median_usd_per_hour)}`)),
      bandCell(p.interruption_band, `spot-pool-${i}-band`),
      h('td', { class: 'num' }, f.num(p.replicas_for_demand, 0)),
      h('td', { class: 'num' }, p.notice_s == null ? f.DASH : `${f.num(p.notice_s, 0)} s`),
      h('td', { testid: `spot-pool-${i}-same` }, `${f.num(p.same_accelerator_instance_types, 0)} types`,
        p.below_karpenter_15 ? [' ', h('span', { class: 'pill risk-medium', title: 'Karpenter consolidates spot to spot only with 15 or more instance types to choose from' }, 'below Karpenter\u2019s 15')] : null));
}

function servingPlan(r) {
  const plan = r.plan;
  const lines = [
    ...(plan.on_demand.replicas ? [[`On demand in ${plan.on_demand.region}`, plan.on_demand.replicas, plan.on_demand.usd_per_hour]] : []),
    ...plan.spot.map((s) => [`Spot in ${s.region}`, s.replicas, s.usd_per_hour]),
  ];
  return [
    section('verdict', h('section', { class: 'card verdict fits', testid: 'spot-plan' },
      h('h3', null, 'Plan'),
      h('p', { class: 'verdict-title' },
        h('span', { testid: 'spot-plan-replicas' }, `${f.num(plan.on_demand.replicas, 0)} on demand + ${f.num(plan.replicas_total - plan.on_demand.replicas, 0)} spot`),
        ` × ${plan.instance} · `, h('span', { testid: 'spot-plan-usd' }, usdM(plan.usd_per_month.point))),
      facts([
        ['Replicas the demand needs', f.num(plan.replicas_for_demand, 0)],
        ['P(capacity met)', `${prob(plan.p_capacity_met)} (target ${prob(plan.target_availability)}; ${prob(plan.p_capacity_met_band?.low)} to ${prob(plan.p_capacity_met_band?.high)} over the band)`, 'spot-plan-p'],
        ['Monthly cost over the band', `${usdM(plan.usd_per_month.low)} to ${usdM(plan.usd_per_month.high)}`, 'spot-plan-band'],
        ['Capacity left if the largest pool is lost', f.pct(plan.capacity_if_largest_pool_lost_pct), 'spot-plan-lost'],
        plan.band ? ['At the measured error of the throughput', plan.band.text, 'spot-plan-throughput-band'] : null,
        ['Hours a month', f.num(plan.hours_per_month, 0)],
      ], 'facts compact'),
      h('p', { class: 'muted small' }, f.sentence(plan.usd_per_month_reading)),
      table({
        caption: 'Replicas of the plan', testid: 'spot-plan-lines', className: 'data', export: false,
        head: ['Where', 'Replicas', 'Per hour'],
        rows: lines.map(([where, n, usd]) => h('tr', null, h('th', { scope: 'row' }, where), h('td', { class: 'num' }, f.num(n, 0)), h('td', { class: 'num' }, f.usdHour(usd)))),
      }))),
    section('baseline', h('section', { class: 'card' },
      h('h3', null, 'Against all on demand and all spot'),
      table({
        caption: 'Monthly cost and the probability that the replicas up cover the demand', testid: 'spot-compare', className: 'data', exportName: 'spot-compare',
        head: ['Deployment', 'Monthly cost (low, point, high)', 'P(capacity met)'],
        rows: [
          h('tr', { testid: 'spot-compare-plan' }, h('th', { scope: 'row' }, `Plan (${plan.instance})`),
            h('td', { class: 'num', testid: 'spot-compare-plan-usd' }, interval(plan.usd_per_month, usdM)), h('td', { class: 'num' }, prob(plan.p_capacity_met))),
          h('tr', { testid: 'spot-compare-on-demand' }, h('th', { scope: 'row' }, `All on demand (${r.all_on_demand.replicas} × ${r.all_on_demand.instance}, ${r.all_on_demand.region})`),
            h('td', { class: 'num', testid: 'spot-compare-on-demand-usd' }, usdM(r.all_on_demand.usd_per_month)), h('td', { class: 'num' }, prob(r.all_on_demand.p_capacity_met))),
          h('tr', { testid: 'spot-compare-spot' }, h('th', { scope: 'row' }, `All spot (${r.all_spot.replicas} × ${r.all_spot.instance}, ${r.all_spot.region})`),
            h('td', { class: 'num', testid: 'spot-compare-spot-usd' }, usdM(r.all_spot.usd_per_month)), h('td', { class: 'num' }, interval(r.all_spot.p_capacity_met, prob))),
        ],
      }))),
  ];
}

function trainingJobs(r) {
  const hoursOf = (v) => f.hours(v);
  return section('jobs', h('section', { class: 'card' },
    h('h3', null, 'The run on each pool'),
    table({
      caption: 'Each pool: checkpoint interval, interruptions, wall time and cost on spot (point, then low to high over the band), and the break-even discount',
      testid: 'spot-jobs', className: 'data', exportName: 'spot-jobs', records: r.jobs,
      head: ['Instance', 'Region', 'Spot cost', 'On-demand cost', 'Break-even discount', 'Checkpoint every', 'Expected interruptions', 'Wall time', 'Spot pays'],
      rows: r.jobs.map((j, i) => h('tr', { testid: `spot-job-${i}` },
        h('th', { scope: 'row' }, `${f.num(j.instances, 0)} × ${j.instance}`),
        h('td', null, j.region),
        h('td', { class: 'num', testid: `spot-job-${i}-usd` }, interval(j.spot_usd, f.usd)),
        h('td', { class: 'num', testid: `spot-job-${i}-od` }, f.usd(j.on_demand_usd)),
        h('td', { class: 'num', testid: `spot-job-${i}-breakeven` }, interval(j.break_even_discount_pct, f.pct), h('span', { class: 'small' }, ` (spot is ${f.pct(j.spot_discount_pct)} off)`)),
        h('td', { class: 'num', testid: `spot-job-${i}-ckpt` }, interval(j.checkpoint_interval_s, (s) => (s == null ? f.DASH : `${f.num(s, 1)} s`))),
        h('td', { class: 'num' }, interval(j.expected_interruptions, (v) => f.num(v, 2))),
        h('td', { class: 'num', testid: `spot-job-${i}-wall` }, interval(j.wall_hours, hoursOf)),
        h('td', null, j.spot_pays ? 'yes' : 'no'))),
    }),
    r.jobs[0]?.band ? h('p', { class: 'why' }, h('span', { class: 'why-label' }, `At the measured error (${r.jobs[0].instance}, ${r.jobs[0].region}): `), h('span', { testid: 'spot-job-band' }, r.jobs[0].band.text)) : null,
    r.checkpoint ? h('p', { class: 'muted small', testid: 'spot-checkpoint' }, `A checkpoint is written in ${f.num(r.checkpoint.write_s, 0)} s; ${f.num(r.checkpoint.restart_s, 0)} s pass from an interruption to training again. Interval: sqrt(2 × write time × mean time between interruptions) (Young/Daly).`) : null));
}

/** The core's assumptions, each said as it reads (the band's reading by its formula). */
function assumptionRows(a) {
  return [
    a.band_reading_formula ? ['A band read as', a.band_reading_formula] : null,
    a.band_point ? ['A band\u2019s point', a.band_point] : null,
    a.replacement_minutes == null ? null : ['Replacement', `${f.num(a.replacement_minutes, 1)} min from a reclaim to a replacement serving`],
    a.p_replica_up ? ['A spot replica up', a.p_replica_up] : null,
    a.independence ? ['Independence', a.independence] : null,
    a.billing ? ['Billing', a.billing] : null,
  ].map((row) => row && [row[0], f.sentence(row[1])]);
}

export function renderSpot(r) {
  return [
    dataNote(r.data),
    r.plan ? servingPlan(r) : null,
    r.jobs ? trainingJobs(r) : null,
    drawnLater(() => section('table', card(`Pools (${r.pools.length})`, poolsTable(r.pools)))),
    h('details', { class: 'why-details', testid: 'spot-assumptions' },
      h('summary', null, 'Assumptions and method'),
      facts(assumptionRows(r.assumptions ?? {}), 'facts compact'),
      h('p', { class: 'small' }, f.sentence(r.method))),
  ];
}

function readingControl() {
  const { wrap, input } = selectField({ id: 'spot-reading', label: 'A band read as' });
  const names = { reclaimed_fraction: 'share of instances reclaimed a month', events_per_month: 'interruptions per instance-month' };
  return {
    wrap, input, key: 'reading', path: '/band_reading', label: 'A band read as',
    fill(store) {
      const keep = input.value;
      const values = store.state?.data?.request?.values?.['spot.band_reading'] ?? [];
      input.replaceChildren(...values.map((v) => h('option', { value: v }, names[v] ?? f.label(v))));
      if (keep) setSelectValue(input, keep, { quiet: true });
    },
    fromParams(p) { if (p.has('reading')) setSelectValue(input, p.get('reading')); },
    toParams(p) { if (input.selectedIndex > 0) p.set('reading', input.value); },
    value: () => (input.selectedIndex > 0 ? input.value : undefined),
  };
}

export function createSpotScreen(store, form) {
  form.addDemand(demandControl);
  const types = textControl({ id: 'spot-types', key: 'types', label: 'Instance types', path: '/instance_types', parse: nameList,
    placeholder: 'the cheapest 8', hint: 'Comma separated, e.g. g5.xlarge, g6.xlarge; empty: the cheapest that run the workload.' });
  const regions = textControl({ id: 'spot-regions', key: 'regions', label: 'Regions of the pools', path: '/regions', parse: nameList,
    placeholder: 'the header\u2019s region', hint: 'Comma separated, or all; empty: the region chosen in the header (each provider\u2019s usual one).' });
  const providers = providersControl('spot', 'Providers (none checked = all)');
  const target = numberControl({ id: 'spot-target', key: 'target', label: 'Target availability', path: '/target_availability', unit: '0 to 1', optional: true, placeholder: '0.999', min: 0, max: 1, step: 0.001,
    hint: 'Serving: the probability that the replicas up cover the demand.' });
  const replacement = numberControl({ id: 'spot-replacement', key: 'replace', label: 'Replacement time', path: '/replacement_minutes', unit: 'min', optional: true, placeholder: '10', min: 0 });
  const reading = readingControl();
  const ckpt = numberControl({ id: 'spot-ckpt', key: 'ckpt', label: 'Checkpoint write', path: '/checkpoint_write_s', unit: 's', optional: true, placeholder: '60', min: 0 });
  const restart = numberControl({ id: 'spot-restart', key: 'restart', label: 'Restart after an interruption', path: '/restart_s', unit: 's', optional: true, placeholder: '600', min: 0 });
  const own = [types, regions, providers, target, replacement, reading, ckpt, restart];
  const request = () => {
    const r = { question: 'spot', ...form.workload() };
    const put = (key, v) => { if (v !== undefined && !(Array.isArray(v) && !v.length)) r[key] = v; };
    put('instance_types', types.value());
    put('regions', regions.value());
    put('providers', providers.value());
    put('target_availability', target.value());
    put('replacement_minutes', replacement.value());
    put('band_reading', reading.value());
    put('checkpoint_write_s', ckpt.value());
    put('restart_s', restart.value());
    return r;
  };
  return createScreen(store, {
    id: 'spot',
    title: 'Spot',
    intro: 'Where spot capacity is worth it: each pool\u2019s price and interruption band, then for serving the cheapest mix of on-demand and spot replicas that meets a target availability, and for training the checkpoint interval, interruptions, run time and cost.',
    form,
    uses: ['model', 'task', 'format', 'shape', 'demand'],
    controls: { controls: own, fill: (s) => own.forEach((c) => c.fill(s)), fromParams: (p) => own.forEach((c) => c.fromParams(p)), toParams: (p) => own.forEach((c) => c.toParams(p)) },
    async render({ ask }) {
      const req = request();
      // Pools in regions whose prices the page has not loaded yet: fetched first.
      const wanted = pricesWanted(store.priceIndex, req.regions);
      if (!store.hasPrices(wanted)) await store.loadPrices(wanted);
      const { response, errors } = await ask(req);
      if (errors) return { errors };
      return { nodes: [renderSpot(response.result), response.result.plan ? deployPanel(ask, req) : null, requestBlock(req, 'spot-request')] };
    },
  });
}
