// The sequence shape of a request (docs/api.md `demand`: prompt and output tokens per request) and
// the helpers of demand fields (demand-fields.js has the others). Empty fields are the analyzer's
// defaults. URL: input, output.
import { h } from './dom.js';
import { numberControl } from './controls.js';

const SHAPE = [
  { id: 'input', key: 'input_tokens', label: 'Prompt tokens', unit: 'per request', placeholder: '500' },
  { id: 'output', key: 'output_tokens', label: 'Output tokens', unit: 'per request', placeholder: '200' },
];

export function fieldsOf(prefix, specs) {
  return specs.map((spec) => ({
    spec,
    control: numberControl({ id: `${prefix}-${spec.id}`, key: spec.id, label: spec.label, unit: spec.unit, min: 0, step: 'any', optional: true, placeholder: spec.placeholder }),
  }));
}

export const group = (legend, fields, testid) => h('fieldset', { class: 'field demand', testid },
  h('legend', null, legend), h('div', { class: 'demand-fields' }, fields.map((x) => x.control.wrap)));

/** Reads the fields given into `out` (a request's demand). */
export function read(fields, out) {
  for (const { spec, control } of fields) {
    const v = control.value();
    if (v !== undefined) out[spec.key] = typeof v === 'number' && spec.scale ? v * spec.scale : v;
  }
  return out;
}
export const pathsOf = (fields) => fields.map(({ spec, control }) => ({ input: control.input, wrap: control.wrap, path: `/demand/${spec.key}`, label: spec.label }));

/** Prompt and output tokens per request (serving). */
export function shapeControl(prefix) {
  const fields = fieldsOf(prefix, SHAPE);
  return {
    wrap: group('Sequence', fields, `${prefix}-shape`), key: 'shape',
    fields: pathsOf(fields),
    fill() {},
    fromParams(p) { for (const x of fields) x.control.fromParams(p); },
    toParams(p) { for (const x of fields) x.control.toParams(p); },
    value: (out = {}) => read(fields, out),
  };
}
