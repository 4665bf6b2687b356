// Compare & migrate: the deployment of today (where it runs in the workload form) against the best
// per priority: what to move to, the savings, speed, risk and complexity (report.js). The catalog's
// scenarios are presets: one fills the form and shows what was expected beside the answer; a set of
// them shows each one's report.
import { h, selectField, fillSelect, setSelectValue, facts } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { demandControl } from '../demand-fields.js';
import { renderReport } from '../report.js';
import { requestBlock } from '../parts.js';
import { deployPanel } from '../deploy-panel.js';
import { priorityControl, providersControl } from '../more-controls.js';
import { tags } from './precisions.js';

/** Scenarios and sets of the catalog. URL: preset=inference_small_p5 | preset=set:basic_demos */
function presetControl(store, apply) {
  const { wrap, input } = selectField({ id: 'mig-preset', label: 'Start from a scenario' });
  input.addEventListener('change', () => apply(input.value));
  return {
    wrap, input, key: 'preset',
    fill(s) {
      fillSelect(input, [
        { value: '', label: 'Your own (the form above)' },
        { group: 'Scenarios', options: s.workloads.map((w) => ({ value: w.id, label: w.name })) },
        { group: 'Sets of scenarios', options: Object.entries(s.workloadSets).map(([id, members]) => ({ value: `set:${id}`, label: `${f.label(id)} (${members.length} scenarios)` })) },
      ]);
    },
    fromParams(p) { input.value = ''; if (p.get('preset')) setSelectValue(input, p.get('preset')); },
    toParams(p) { if (input.value) p.set('preset', input.value); },
    value: () => input.value,
    scenario: () => store.workloads.find((w) => w.id === input.value),
  };
}

/** A scenario as the workload form's link keys. */
function scenarioParams(s) {
  const p = new URLSearchParams({ instance: s.current_instance, gpus: String(s.current_gpu_count), size: s.model_size, workload: s.workload_type, precision: s.precision });
  if (s.monthly_hours) p.set('hours', String(s.monthly_hours));
  if (s.use_spot) p.set('pricing', 'spot');
  if (s.priority) p.set('priority', s.priority);
  return p;
}

export function createCompareScreen(store, form) {
  form.addDemand(demandControl);
  let screen;
  let applying = false;
  const priority = priorityControl('mig');
  const providers = providersControl('mig', 'Providers (none checked = the current one)');
  const preset = presetControl(store, (id) => {
    const s = store.workloads.find((w) => w.id === id)?.scenario;
    if (!s) return;
    applying = true;
    const p = scenarioParams(s);
    form.fromParams(p);
    priority.fromParams(p);
    form.node.dispatchEvent(new Event('change'));
    applying = false;
  });
  // A change of the form after a scenario was applied makes the inputs your own.
  form.node.addEventListener('change', () => { if (!applying && screen.panel.contains(form.node) && !preset.value().startsWith('set:')) preset.input.value = ''; }, true);
  screen = createScreen(store, {
    id: 'compare',
    title: 'Compare & migrate',
    intro: 'Where it runs today against the best for your priority: what to move to, what it saves, and the risk.',
    form,
    uses: ['model', 'task', 'format', 'shape', 'demand', 'place', 'pay'],
    inputsTitle: 'Workload (where it runs today)',
    controls: { controls: [preset, priority, providers], fill: (s) => { preset.fill(s); priority.fill(s); providers.fill(s); },
      // A link to a scenario alone (an earlier version's ?view=workloads&id=...) fills the form from it.
      fromParams: (p) => {
        preset.fromParams(p);
        priority.fromParams(p);
        providers.fromParams(p);
        const s = preset.scenario()?.scenario;
        if (s && !p.has('instance')) { form.fromParams(scenarioParams(s)); priority.fromParams(scenarioParams(s)); }
      },
      toParams: (p) => { preset.toParams(p); priority.toParams(p); providers.toParams(p); } },
    async render({ ask }) {
      const pick = preset.value();
      if (pick.startsWith('set:')) return renderSet(ask, pick.slice(4));
      const where = form.place(store);
      if (!where.instance) {
        return { errors: [{ code: 'no_current', file: 'page', path: '/instance', message: 'Compare & migrate starts from the instance it runs on today: choose an instance family or type.' }] };
      }
      const request = form.pay({ question: 'migrate', current: { instance: where.instance, gpus: where.gpus ?? 1 }, ...form.workload(), priority: priority.value() });
      if (providers.value().length) request.providers = providers.value();
      const { response, errors } = await ask(request);
      if (errors) return { errors };
      const w = preset.scenario();
      return { nodes: [w ? scenarioCards(w, 'wl', response.result) : null, renderReport(response.result, 'mig'), deployPanel(ask, request), requestBlock(request, 'mig-request')] };
    },
  });
  return screen;
}

/** Every scenario of a set, each with its expected outcome and the analyzer's report. */
async function renderSet(ask, id) {
  const { response, errors } = await ask({ question: 'workload_set', id });
  if (errors) return { errors };
  const reports = response.result.reports;
  return {
    nodes: [
      h('p', { class: 'muted' }, `Set of scenarios ${f.label(response.result.id)}: ${reports.length} scenarios.`),
      reports.map((w, i) => h('section', { class: 'member', testid: `wl-member-${i}` },
        h('h3', { class: 'member-title' }, w.name),
        scenarioCards(w, `wl${i}`, w.report),
        h('details', { class: 'report-details' }, h('summary', null, `Full migration report for ${w.name}`), renderReport(w.report, `wl${i}`)))),
    ],
  };
}

function scenarioCards(w, prefix, report) {
  const s = w.scenario;
  return h('div', { class: 'grid-2 compare' },
    h('section', { class: 'card' },
      h('h4', null, `Scenario: ${w.name}`),
      h('p', null, w.description),
      facts([
        ['Current', `${f.gpus(s.current_gpu_count)} on ${s.current_instance}`],
        ['Model', f.label(s.model_size)],
        ['Workload', f.label(s.workload_type)],
        ['Precision', String(s.precision ?? '').toUpperCase()],
        ['Hours', `${f.hours(s.monthly_hours)} per month${s.use_spot ? ', spot' : ''}`],
        ['Priority', f.label(s.priority)],
      ], 'facts compact'),
      tags(w.tags)),
    h('section', { class: 'card compare-card' },
      h('h4', null, 'Expected outcome'),
      h('p', { class: 'expected', testid: `${prefix}-expected` }, w.expected_outcome),
      h('h4', null, 'The analyzer says'),
      h('p', { class: 'verdict-title', testid: `${prefix}-analyzer` }, f.sentence(report.recommendation?.summary ?? 'no recommendation')),
      h('p', { class: 'muted small' }, f.sentence(report.assessment))));
}
