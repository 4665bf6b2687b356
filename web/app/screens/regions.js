// Regions: the workload form's model, demand and way to pay placed over the regions priced, each
// with its prices, spot band, offers, round trip from the users and egress price; the placement
// (replicas per region for its share of the demand, the round trip added to the p95 TTFT against
// the target, compute + egress + one-time costs, the N+1 premium), or a refusal with its way out
// when the residency leaves no region (docs/spot.md, `regions`).
import { h, table, facts, card, selectField, setSelectValue, fillSelect } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { demandControl } from '../demand-fields.js';
import { numberControl } from '../controls.js';
import { requestBlock } from '../parts.js';
import { deployPanel } from '../deploy-panel.js';
import { section } from '../sections.js';
import { drawnLater } from '../in-place.js';
import { longTable } from '../long-table.js';
import { textControl, checkControl, nameList, pricesWanted, bandCell } from '../region-fields.js';

/** Users: groups separated by ";" or lines, each a region or "lat lon", then its share:
 *  "us-east-1 0.6; us-west-2 0.4" or "48.14 11.58 1". */
export function parseUsers(text) {
  return text.split(/[;\n]+/).map((s) => s.trim()).filter(Boolean).map((group) => {
    const parts = group.split(/[\s,]+/).filter(Boolean);
    const number = (t) => (Number.isFinite(Number(t)) ? Number(t) : t);
    const out = Number.isFinite(Number(parts[0])) ? { lat: number(parts[0]), lon: number(parts[1]) } : { region: parts[0] };
    const share = parts[out.region === undefined ? 2 : 1];
    if (share !== undefined) out.share = number(share);
    return out;
  });
}

/** The instance type to place: one of the catalog's types, or the road's cheapest. */
function instanceTypeControl() {
  const { wrap, input } = selectField({ id: 'rg-instance', label: 'Instance type to place' });
  return {
    wrap, input, key: 'type', path: '/instance', label: 'Instance type to place',
    fill(store) {
      fillSelect(input, [{ value: '', label: 'The cheapest that runs the workload' },
        ...store.providers.map((p) => ({ group: f.provider(p), options: store.instances.filter((i) => i.provider === p && i.accelerator_kind === 'gpu').map((i) => ({ value: i.instance, label: `${i.instance} — ${f.num(i.gpus, 3)} × ${i.gpu_type}` })) }))]);
    },
    fromParams(p) { input.value = ''; if (p.has('type')) setSelectValue(input, p.get('type')); },
    toParams(p) { if (input.value) p.set('type', input.value); },
    value: () => input.value || undefined,
  };
}

const rttOf = (row) => (row.rtt_from_users?.length ? row.rtt_from_users.map((u) => `${f.ms(u.rtt_ms_estimate)} from ${u.users} (${f.num(u.km, 0)} km)`).join('; ') : f.DASH);

function regionsTable(rows) {
  return longTable({
    caption: 'Each candidate region: prices of the instance type, spot band, offers, round trip from the users (an estimate) and egress price',
    testid: 'rg-regions', className: 'data', exportName: 'regions', records: rows,
    head: ['Region', 'On-demand', 'Spot', 'Interruption band', 'Round trip from the users', 'Egress', 'Offers in the region'],
  }, { count: rows.length, what: 'regions', row: (i) => regionRow(rows[i]) });
}

function regionRow(r) {
  return h('tr', { testid: `rg-region-${r.region}` },
      h('th', { scope: 'row' }, r.region, r.location ? h('span', { class: 'small muted' }, ` ${r.location}`) : null),
      h('td', { class: 'num', testid: `rg-region-${r.region}-od` }, f.usdHour(r.usd_per_hour?.on_demand)),
      h('td', { class: 'num' }, r.usd_per_hour?.spot == null ? 'no spot price' : f.usdHour(r.usd_per_hour.spot)),
      bandCell(r.interruption_band),
      h('td', { class: 'small', testid: `rg-region-${r.region}-rtt` }, rttOf(r)),
      h('td', { class: 'num' }, r.egress_usd_per_gb == null ? f.DASH : `${f.usdFine(r.egress_usd_per_gb)}/GB`),
      h('td', { class: 'num' }, f.num(r.offers_in_region, 0)));
}

function placementTable(chosen, ttft) {
  return table({
    caption: `Regions chosen: replicas for each region's share of the demand, the round trip added to the p95 TTFT${ttft == null ? '' : ` against the ${f.ms(ttft)} target`}, and monthly costs`,
    testid: 'rg-chosen', className: 'data', exportName: 'regions-chosen', records: chosen,
    head: ['Region', 'Compute', 'Replicas', 'Share (sized for)', 'Users', 'Round trip', 'p95 TTFT + round trip', 'Egress', 'Dataset copy (once)'],
    rows: chosen.map((c) => h('tr', { testid: `rg-chosen-${c.region}` },
      h('th', { scope: 'row' }, c.region),
      h('td', { class: 'num', testid: `rg-chosen-${c.region}-usd` }, f.usdMonth(c.usd_per_month)),
      h('td', { class: 'num', testid: `rg-chosen-${c.region}-replicas` }, `${f.num(c.replicas, 0)} (${f.num(c.instances, 0)} instances)`),
      h('td', { class: 'num' }, `${f.pct(100 * c.share)} (${f.pct(100 * c.sized_for_share)})`),
      h('td', { class: 'small' }, c.users?.join(', ') || f.DASH),
      h('td', { class: 'num' }, f.ms(c.rtt_ms_estimate)),
      h('td', { class: 'num', testid: `rg-chosen-${c.region}-ttft` }, c.rtt_ms_estimate == null ? `${f.ms(c.p95_ttft_ms)} (no users routed here)` : `${f.ms(c.p95_ttft_with_rtt_ms)} (${f.ms(c.p95_ttft_ms)} + round trip)`,
        c.meets_ttft === false ? [' ', h('span', { class: 'pill risk-medium' }, 'misses the target')] : null),
      h('td', { class: 'num' }, `${f.usdMonth(c.egress_usd_per_month)} (${f.num(c.egress_gb_per_month, 1)} GB)`),
      h('td', { class: 'num' }, f.usd(c.dataset_copy_usd)))),
  });
}

const METHOD_NAMES = { rtt: 'Round trip', placement: 'Placement', egress: 'Egress', regions_source: 'Region locations', egress_source: 'Egress prices' };

/** Where the users are and where the workload may run, as asked (the answer does not repeat them). */
function askedFacts(req) {
  const users = (req.users ?? []).map((u) => `${u.region ?? `${u.lat}, ${u.lon}`}${u.share === undefined ? '' : ` (${f.pct(100 * u.share)})`}`).join('; ');
  const residency = [req.residency?.geo, ...(req.residency?.regions ?? [])].filter(Boolean).join(', ');
  return [
    ['Users', users || 'not given: no round trips', 'rg-users-asked'],
    ['Residency', residency || 'none', 'rg-residency-asked'],
    ['Failover', req.failover ? 'N+1: any one region can be lost' : 'none'],
  ];
}

export function renderRegions(r, req = {}) {
  const placed = r.status === 'PLACED';
  const t = r.totals;
  return [
    section('verdict', placed ? h('section', { class: 'card verdict fits', testid: 'rg-verdict' },
      h('h3', null, 'Placement'),
      h('p', { class: 'verdict-title' }, h('span', { testid: 'rg-status' }, r.status), ' · ', r.instance, ' in ',
        h('span', { testid: 'rg-where' }, r.regions_chosen.map((c) => c.region).join(', ')), ' · ', h('span', { testid: 'rg-total' }, f.usdMonth(t.usd_per_month))),
      facts([
        ['Compute', f.usdMonth(t.compute_usd_per_month), 'rg-compute'],
        ['Egress', f.usdMonth(t.egress_usd_per_month), 'rg-egress'],
        ['One-time (dataset copies)', f.usd(t.one_time_usd), 'rg-one-time'],
        r.band ? ['At the measured error', r.band.text, 'rg-band'] : null,
        r.failover ? ['Surviving a region\u2019s loss (N+1)', `${f.usdMonth(r.failover.premium_usd_per_month)} more than ${f.usdMonth(r.failover.compute_without_failover_usd_per_month)} without`, 'rg-failover-premium'] : null,
        ...askedFacts(req),
      ], 'facts compact'),
      r.failover ? h('p', { class: 'muted small' }, f.sentence(r.failover.rule)) : null)
      : h('section', { class: 'card verdict nofit', testid: 'rg-verdict' },
        h('h3', null, 'Cannot place'),
        h('p', { class: 'verdict-title', testid: 'rg-status' }, r.status),
        h('p', { testid: 'rg-refusal' }, f.sentence(r.refusal)),
        h('p', { testid: 'rg-way-out' }, h('strong', null, 'Way out: '), f.sentence(r.way_out)),
        facts(askedFacts(req), 'facts compact'))),
    placed ? section('chosen', card('Regions chosen', placementTable(r.regions_chosen, r.request?.demand?.max_ttft_ms))) : null,
    drawnLater(() => section('table', card(`Candidate regions (${r.regions.length})`, regionsTable(r.regions)))),
    h('details', { class: 'why-details', testid: 'rg-method' },
      h('summary', null, 'Method and sources'),
      facts(Object.entries(r.method ?? {}).map(([k, v]) => [METHOD_NAMES[k] ?? f.sentence(f.label(k)), f.sentence(String(v))]), 'facts compact')),
  ];
}

export function createRegionsScreen(store, form) {
  form.addDemand(demandControl);
  const instance = instanceTypeControl();
  const candidates = textControl({ id: 'rg-candidates', key: 'candidates', label: 'Candidate regions', path: '/regions', parse: nameList,
    placeholder: 'every region priced', hint: 'Comma separated; empty: every region with prices (their files are fetched once).' });
  const users = textControl({ id: 'rg-users', key: 'users', label: 'Where the users are', path: '/users', parse: parseUsers,
    placeholder: 'us-east-1 0.6; us-west-2 0.4', hint: 'Groups separated by ";": a region or "latitude longitude", then its share of the demand.' });
  const geo = textControl({ id: 'rg-geo', key: 'geo', label: 'Residency: geography', path: '/residency/geo',
    placeholder: 'none', hint: 'eu, europe, north_america, asia_pacific, ... or a country code (us, de).' });
  const allowed = textControl({ id: 'rg-allowed', key: 'allowed', label: 'Residency: regions allowed', path: '/residency/regions', parse: nameList, placeholder: 'any' });
  const failover = checkControl({ id: 'rg-failover', key: 'failover', label: 'Survive the loss of a region (N+1)' });
  const dataset = numberControl({ id: 'rg-dataset', key: 'dataset', label: 'Dataset copied to each region', path: '/dataset_gb', unit: 'GB', optional: true, placeholder: 'none', min: 0 });
  const from = textControl({ id: 'rg-dataset-region', key: 'dataset_from', label: 'The dataset is now in', path: '/dataset_region', placeholder: 'region' });
  const own = [instance, candidates, users, geo, allowed, failover, dataset, from];
  const request = () => {
    const r = { question: 'regions', ...form.workload() };
    form.pay(r);
    const put = (key, v) => { if (v !== undefined && v !== false) r[key] = v; };
    put('instance', instance.value());
    put('regions', candidates.value());
    put('users', users.value());
    const residency = {};
    if (geo.value() !== undefined) residency.geo = geo.value();
    if (allowed.value() !== undefined) residency.regions = allowed.value();
    if (Object.keys(residency).length) r.residency = residency;
    put('failover', failover.value());
    put('dataset_gb', dataset.value());
    put('dataset_region', from.value());
    return r;
  };
  return createScreen(store, {
    id: 'regions',
    title: 'Regions',
    intro: 'Where to run: each region\u2019s prices, spot band and round trip from your users, and the placement that meets the latency target and the residency at the lowest compute, egress and data-copy cost.',
    form,
    uses: ['model', 'task', 'format', 'shape', 'demand', 'pay'],
    controls: { controls: own, fill: (s) => own.forEach((c) => c.fill(s)), fromParams: (p) => own.forEach((c) => c.fromParams(p)), toParams: (p) => own.forEach((c) => c.toParams(p)) },
    async render({ ask }) {
      const req = request();
      // Every region is a candidate: their price files are fetched the first time.
      const wanted = pricesWanted(store.priceIndex, req.regions ?? 'all');
      if (!store.hasPrices(wanted)) await store.loadPrices(wanted);
      const { response, errors } = await ask(req);
      if (errors) return { errors };
      const placed = response.result.regions_chosen?.length > 0;
      return { nodes: [renderRegions(response.result, req), placed ? deployPanel(ask, req) : null, requestBlock(req, 'rg-request')] };
    },
  });
}
