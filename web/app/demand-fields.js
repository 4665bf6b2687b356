// Demand (docs/api.md `demand`): what a serving deployment must carry, or what a training run must
// get through. Only the fields of the workload's kind are shown and sent; empty fields are the
// analyzer's defaults. Made by the first view that uses them (the workload form's addDemand).
// URL: rps, ttft, tpot | tokens, epochs, deadline.
import { h } from './dom.js';
import { serves } from './controls.js';
import { fieldsOf, group, read, pathsOf } from './demand.js';

const SERVING = [
  { id: 'rps', key: 'requests_per_s', label: 'Requests per second', unit: 'req/s', placeholder: 'none' },
  { id: 'ttft', key: 'max_ttft_ms', label: 'Max p95 time to first token', unit: 'ms', placeholder: 'none' },
  { id: 'tpot', key: 'max_tpot_ms', label: 'Max time per output token', unit: 'ms', placeholder: 'none' },
];
const TRAINING = [
  { id: 'tokens', key: 'dataset_tokens', label: 'Dataset tokens', unit: 'billion', placeholder: 'none', scale: 1e9 },
  { id: 'epochs', key: 'epochs', label: 'Epochs', unit: 'passes', placeholder: '1' },
  { id: 'deadline', key: 'deadline_days', label: 'Deadline', unit: 'days', placeholder: 'none' },
];

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
    fields: pathsOf(all),
    fill() { sync(); },
    fromParams(p) { for (const x of all) x.control.fromParams(p); sync(); },
    toParams(p) { for (const x of all) x.control.toParams(p); },
    /** The shown fields given, into `out` (a request's demand). */
    value: (out = {}) => read(shown(), out),
  };
}
