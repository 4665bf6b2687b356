// Demand (docs/api.md `demand`): what a serving deployment must carry, or what a training run must
// get through. Only the fields of the workload's kind are shown and sent; empty fields are the
// analyzer's defaults. URL: rps, input, output, ttft, tpot | tokens, epochs, deadline.
import { h } from './dom.js';
import { numberControl, serves } from './controls.js';

const SERVING = [
  { id: 'rps', key: 'requests_per_s', label: 'Requests per second', unit: 'req/s', placeholder: 'none' },
  { id: 'input', key: 'input_tokens', label: 'Prompt tokens', unit: 'per request', placeholder: '500' },
  { id: 'output', key: 'output_tokens', label: 'Output tokens', unit: 'per request', placeholder: '200' },
  { id: 'ttft', key: 'max_ttft_ms', label: 'Max p95 time to first token', unit: 'ms', placeholder: 'none' },
  { id: 'tpot', key: 'max_tpot_ms', label: 'Max time per output token', unit: 'ms', placeholder: 'none' },
];
const TRAINING = [
  { id: 'tokens', key: 'dataset_tokens', label: 'Dataset tokens', unit: 'billion', placeholder: 'none', scale: 1e9 },
  { id: 'epochs', key: 'epochs', label: 'Epochs', unit: 'passes', placeholder: '1' },
  { id: 'deadline', key: 'deadline_days', label: 'Deadline', unit: 'days', placeholder: 'none' },
];

function fieldsOf(prefix, specs) {
  return specs.map((spec) => ({
    spec,
    control: numberControl({ id: `${prefix}-${spec.id}`, key: spec.id, label: spec.label, unit: spec.unit, min: 0, step: 'any', optional: true, placeholder: spec.placeholder }),
  }));
}

const group = (legend, fields, testid) => h('fieldset', { class: 'field demand', testid },
  h('legend', null, legend), h('div', { class: 'demand-fields' }, fields.map((x) => x.control.wrap)));

/** The demand fields of both kinds; `workload` (a select control) picks the kind shown. */
export function demandControl(prefix, workload) {
  const serving = fieldsOf(prefix, SERVING);
  const training = fieldsOf(prefix, TRAINING);
  const servingSet = group('Demand', serving, `${prefix}-demand-serving`);
  const trainingSet = group('Training run', training, `${prefix}-demand-training`);
  const all = [...serving, ...training];
  const shown = () => (serves(workload.value()) ? serving : training);
  const sync = () => {
    servingSet.hidden = !serves(workload.value());
    trainingSet.hidden = !servingSet.hidden;
  };
  workload.input.addEventListener('change', sync);
  return {
    wrap: h('div', { class: 'demand-sets' }, servingSet, trainingSet), key: 'demand',
    // Errors at /demand/<field> are shown at that field.
    fields: all.map(({ spec, control }) => ({ input: control.input, wrap: control.wrap, path: `/demand/${spec.key}`, label: spec.label })),
    fill() { sync(); },
    fromParams(p) { for (const x of all) x.control.fromParams(p); sync(); },
    toParams(p) { for (const x of all) x.control.toParams(p); },
    /** The request's `demand`, or undefined when every shown field is empty. */
    value() {
      const out = {};
      for (const { spec, control } of shown()) {
        const v = control.value();
        if (v !== undefined) out[spec.key] = typeof v === 'number' && spec.scale ? v * spec.scale : v;
      }
      return Object.keys(out).length ? out : undefined;
    },
  };
}
