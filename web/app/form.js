// The one workload form: every view reads the workload from it, so that what is typed in one view
// is there in the next and a link says it with the same keys in every view. The form sits in the
// inputs card of the view shown, which shows only the groups of fields it uses.
import { h } from './dom.js';
import { modelControl, workloadControl, precisionControl, placeControl, gpusControl, gpusOf, hoursControl, serves } from './controls.js';
import { shapeControl } from './demand.js';
import { pricingControl, scheduleControl } from './billing.js';

/** The way to pay's and schedule's link keys: the form's, and, after `pack_`, the Fleet plan's
 *  placement's (an earlier version's plan links name the placement's without `pack_`). */
export const PLACEMENT_PAY_KEYS = ['pricing', 'spot', 'share', 'sched', 'ha', 'hb', 'hours'];

/** The groups of fields, in the form's order; a view names those it uses. The demand comes
 *  before the sequence and where it runs: the landing view's first screen asks the traffic. */
export const GROUPS = ['model', 'task', 'format', 'demand', 'shape', 'place', 'pay'];

const DEMAND_ORDER = ['requests_per_s', 'input_tokens', 'output_tokens', 'max_ttft_ms', 'max_tpot_ms', 'dataset_tokens', 'epochs', 'deadline_days'];

export function createForm(onLoaded) {
  const model = modelControl('wf', onLoaded);
  const workload = workloadControl('wf');
  const precision = precisionControl('wf');
  const shape = shapeControl('wf');
  let demand = null; // made by the first view that uses it (addDemand)
  let saved = new URLSearchParams();
  const place = placeControl('wf');
  const gpus = gpusControl('wf');
  const hours = hoursControl('wf');
  const pricing = pricingControl('wf');
  const schedule = scheduleControl('wf', hours);
  const members = { model: [model], task: [workload], format: [precision], shape: [shape], demand: [], place: [place, gpus], pay: [pricing, schedule, hours] };
  const boxes = Object.fromEntries(GROUPS.map((g) => [g, h('div', { class: 'form-group', testid: `form-${g}` }, members[g].map((c) => c.wrap))]));
  const node = h('form', { class: 'inputs workload-form', 'aria-label': 'Workload', novalidate: true, testid: 'workload-form' }, Object.values(boxes));
  node.addEventListener('submit', (e) => e.preventDefault());
  let used = GROUPS;
  // The sequence shape is a serving question's; training sizes its own sequences.
  const shown = (g) => used.includes(g) && (g !== 'shape' || serves(workload.value()));
  const sync = () => { for (const g of GROUPS) boxes[g].hidden = !shown(g); };
  workload.input.addEventListener('change', sync);
  const of = (groups) => groups.flatMap((g) => members[g]);

  return {
    node,
    /** Shows the groups a view uses. */
    use(groups) { used = groups; sync(); },
    /** The controls of the groups shown (checked before asking, marked when refused). */
    controls: () => of(GROUPS.filter(shown)),
    fill(store) { for (const c of of(GROUPS)) c.fill(store); sync(); },
    fromParams(p) {
      // A Fleet plan link writes none of the form's keys: its `instance` and way to pay are an
      // earlier version's keys of the placement under it (now `pack`, `pack_pricing`...).
      if (p.get('view') === 'plan') { p = new URLSearchParams(p); for (const k of ['instance', ...PLACEMENT_PAY_KEYS]) p.delete(k); }
      saved = p;
      for (const c of of(GROUPS)) c.fromParams(p);
      sync();
    },
    toParams(p) { for (const c of of(GROUPS.filter(shown))) c.toParams(p); },
    /** model, workload and weight format; a serving question's demand with its sequence shape. */
    workload() {
      const r = { model: model.value(), workload: workload.value(), precision: precision.value() };
      const d = shown('shape') ? shape.value() : {};
      if (used.includes('demand')) demand?.value(d);
      // In the order the CLI writes them, so that the page's request reads as the CLI's.
      const keys = DEMAND_ORDER.filter((k) => k in d);
      if (keys.length) r.demand = Object.fromEntries(keys.map((k) => [k, d[k]]));
      return r;
    },
    /** The demand fields (demand-fields.js demandControl), made once, from the link's values. */
    addDemand(make) {
      if (demand) return;
      demand = make('wf', workload);
      members.demand.push(demand);
      boxes.demand.append(demand.wrap);
      demand.fromParams(saved);
      demand.fill();
    },
    model, task: () => workload.value(),
    /** {instance}, {any: GPU type} or {gpu: key}, with the GPUs given (empty: every GPU of an
     *  instance type, else none said). */
    place(store) {
      const where = place.place();
      const n = gpus.value();
      const all = where.instance ? gpusOf(store, where.instance) : 0;
      return { ...where, gpus: n ?? (all || undefined) };
    },
    /** The way to pay and the schedule, into a request. */
    pay(request) {
      const hpm = hours.value();
      if (hpm !== undefined) request.hours_per_month = hpm;
      pricing.apply(request);
      schedule.apply(request);
      return request;
    },
  };
}
