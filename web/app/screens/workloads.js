// Workloads: a seed scenario (or a set of them), its expected outcome beside the analyzer's
// migration report.
import { h, selectField, fillSelect, setSelectValue, facts } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { renderReport } from '../report.js';
import { tags } from './precisions.js';

/** One select for scenarios and sets. URL: id=inference_small_p5 | set=basic_demos */
function workloadPicker() {
  const { wrap, input } = selectField({ id: 'wl-pick', label: 'Scenario or workload set' });
  return {
    wrap, input,
    fill(store) {
      fillSelect(input, [
        { group: 'Scenarios', options: store.workloads.map((w) => ({ value: `id:${w.id}`, label: w.name })) },
        { group: 'Workload sets', options: Object.entries(store.workloadSets).map(([id, members]) => ({ value: `set:${id}`, label: `${f.label(id)} (${members.length} scenarios)` })) },
      ]);
      if (!input.value && store.workloads[0]) input.value = `id:${store.workloads[0].id}`;
    },
    fromParams(p) {
      if (p.has('set')) setSelectValue(input, `set:${p.get('set')}`);
      else if (p.has('id')) setSelectValue(input, `id:${p.get('id')}`);
    },
    toParams(p) {
      const [kind, id] = splitPick(input.value);
      if (id) p.set(kind === 'set' ? 'set' : 'id', id);
    },
    value: () => splitPick(input.value),
  };
}

const splitPick = (v) => {
  const i = (v ?? '').indexOf(':');
  return i < 0 ? ['id', v] : [v.slice(0, i), v.slice(i + 1)];
};

export function createWorkloadsScreen(store) {
  const pick = workloadPicker();
  return createScreen(store, {
    id: 'workloads',
    title: 'Workloads',
    intro: 'Worked examples: a current deployment, what was expected, and what the analyzer recommends.',
    inputsTitle: 'Scenario',
    stacked: true,
    controls: { controls: [pick], fill: (s) => pick.fill(s), fromParams: (p) => pick.fromParams(p), toParams: (p) => pick.toParams(p) },
    async render({ ask }) {
      const [kind, id] = pick.value();
      if (!id) return { nodes: [h('p', { class: 'muted' }, 'The catalog has no workloads.')] };
      const request = kind === 'set' ? { question: 'workload_set', id } : { question: 'workload', id };
      const { response, errors } = await ask(request);
      if (errors) return { errors };
      if (kind === 'set') {
        const reports = response.result.reports;
        return {
          nodes: [
            h('p', { class: 'muted' }, `Workload set ${f.label(response.result.id)}: ${reports.length} scenarios.`),
            reports.map((w, i) => h('section', { class: 'member', testid: `wl-member-${i}` },
              h('h3', { class: 'member-title' }, w.name),
              scenarioCards(w, `wl${i}`),
              h('details', { class: 'report-details' }, h('summary', null, `Full migration report for ${w.name}`), renderReport(w.report, `wl${i}`)))),
          ],
        };
      }
      const w = response.result;
      return { nodes: [h('h3', { class: 'member-title' }, w.name), scenarioCards(w, 'wl'), renderReport(w.report, 'wl')] };
    },
  });
}

function scenarioCards(w, prefix) {
  const s = w.scenario;
  return h('div', { class: 'grid-2 compare' },
    h('section', { class: 'card' },
      h('h4', null, 'Scenario'),
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
      h('p', { class: 'verdict-title', testid: `${prefix}-analyzer` }, w.report.recommendation?.summary ?? 'no recommendation'),
      h('p', { class: 'muted small' }, w.report.assessment)));
}
