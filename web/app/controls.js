// Inputs shared by several screens. Each control knows how to fill itself from the catalog, how
// to restore itself from URL parameters, how to write itself back, and its part of the request.
import { h, selectField, numberField, checkboxField, fillSelect, setSelectValue } from './dom.js';
import { num, compareNames } from './format.js';

export const WORKLOADS = [
  { value: 'inference', label: 'Inference (serving)' },
  { value: 'batch_inference', label: 'Batch inference' },
  { value: 'fine_tuning', label: 'Fine-tuning (full)' },
  { value: 'lora', label: 'LoRA fine-tuning' },
  { value: 'qlora', label: 'QLoRA fine-tuning' },
  { value: 'training', label: 'Training' },
];
/** The workloads that serve tokens (the others train). */
export const serves = (workload) => workload === 'inference' || workload === 'batch_inference';
/** The month the analyzer assumes when none is given (24 h x 30 days). */
export const SEED_MONTH_HOURS = 720;

const numberOrRaw = (text) => {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : text; // the analyzer names what is wrong
};

/** A select bound to one URL key. */
export function selectControl({ id, key, label, options, def, fill, hint }) {
  const { wrap, input } = selectField({ id, label, options: options ?? [], hint });
  return {
    wrap, input, key,
    fill(store) { if (fill) fillSelect(input, fill(store)); if (!input.value && def) setSelectValue(input, def, { quiet: true }); },
    fromParams(p) { if (p.has(key)) setSelectValue(input, p.get(key)); else if (def) setSelectValue(input, def, { quiet: true }); },
    toParams(p) { if (input.value) p.set(key, input.value); },
    value: () => input.value,
  };
}

/** A number input bound to one URL key. `path`: the request's JSON pointer it fills (errors at
 *  it are shown at the field; default `/key`). `whole`: only whole numbers ('gpus': or a share of
 *  one GPU below 1). `def` is the starting value; `placeholder` the default an empty field means. */
export function numberControl({ id, key, label, def = '', unit, min, max, step, hint, placeholder, optional = false, path, whole = false, emptyValue }) {
  const { wrap, input } = numberField({ id, label, value: def, unit, min, max, step, hint, placeholder });
  return {
    wrap, input, key, label, path: path ?? `/${key}`,
    fill() {},
    fromParams(p) { input.value = p.has(key) ? p.get(key) : def; },
    toParams(p) { if (input.value.trim() !== '') p.set(key, input.value.trim()); },
    /** undefined when empty and optional (the analyzer's default applies). */
    value() {
      const text = input.value;
      if (text.trim() === '') return emptyValue ?? (optional ? undefined : null);
      return numberOrRaw(text);
    },
    /** What the page refuses before asking: a fraction where whole numbers are meant. */
    check() {
      const v = this.value();
      if (!whole || typeof v !== 'number' || Number.isInteger(v)) return [];
      if (whole === 'gpus' && v > 0 && v < 1) return [];
      const near = `${Math.max(1, Math.floor(v))} or ${Math.ceil(v)}`;
      return [{ code: 'not_whole', file: 'page', path: this.path, message: whole === 'gpus'
        ? `${label} counts whole GPUs: enter ${near} (below 1, a share of one GPU such as 0.5).`
        : `${label} takes a whole number: enter ${near}.` }];
    },
  };
}

export function checkboxControl({ id, key, label, def = false }) {
  const { wrap, input } = checkboxField({ id, label, checked: def });
  return {
    wrap, input, key,
    fill() {},
    fromParams(p) { input.checked = p.has(key) ? p.get(key) === '1' || p.get(key) === 'true' : def; },
    toParams(p) { p.set(key, input.checked ? '1' : '0'); },
    value: () => input.checked,
  };
}

/** Model by size class, by parameter count (billions) or a concrete model of the catalog.
 *  URL: size=small | params=13 | model=llama-3.1-8b. */
export function modelControl(prefix) {
  const sel = selectField({ id: `${prefix}-model`, label: 'Model' });
  const params = numberField({ id: `${prefix}-params`, label: 'Parameters', unit: 'billion', min: 0.001, step: 'any', value: '13' });
  params.wrap.classList.add('model-params');
  const sync = () => { params.wrap.hidden = sel.input.value !== 'custom'; };
  sel.input.addEventListener('change', sync);
  const wrap = h('div', { class: 'field-pair' }, sel.wrap, params.wrap);
  sync();
  return {
    wrap, input: sel.input, paramsInput: params.input,
    // Errors at /model/params_b are shown at the parameter count.
    fields: [{ input: params.input, wrap: params.wrap, path: '/model/params_b', label: 'Parameters' }],
    fill(store) {
      fillSelect(sel.input, modelOptions(store));
      if (!sel.input.value) sel.input.value = store.modelSizes[0]?.size ?? 'custom';
      sync();
    },
    fromParams(p) {
      if (p.has('model')) setSelectValue(sel.input, `${NAMED}${p.get('model')}`);
      else if (p.has('params')) {
        sel.input.value = 'custom';
        params.input.value = p.get('params');
      } else if (p.has('size')) setSelectValue(sel.input, p.get('size'));
      else setSelectValue(sel.input, 'small', { quiet: true });
      sync();
    },
    toParams(p) {
      const v = sel.input.value;
      if (v === 'custom') p.set('params', params.input.value.trim());
      else if (v.startsWith(NAMED)) p.set('model', v.slice(NAMED.length));
      else p.set('size', v);
    },
    value() {
      const v = sel.input.value;
      if (v === 'custom') {
        const text = params.input.value;
        return { params_b: text.trim() === '' ? null : numberOrRaw(text) };
      }
      if (v.startsWith(NAMED)) return { name: v.slice(NAMED.length) };
      return { size: v };
    },
  };
}

/** Select values of the catalog's concrete models (sizes and "custom" have no prefix). */
const NAMED = 'model:';

function modelOptions(store) {
  const named = [...concreteModels(store)].sort((a, b) => compareNames(a.name, b.name));
  return [
    { group: 'Size classes', options: store.modelSizes.map((m) => ({ value: m.size, label: `${m.name} (${num(m.parameter_count_billion, 1)}B parameters)` })) },
    { group: 'Catalog models', options: named.map((m) => ({ value: `${NAMED}${m.key}`, label: `${m.name} (${num(m.parameters_billion, 1)}B)` })) },
    { group: 'Your model', options: [{ value: 'custom', label: 'Custom parameter count…' }] },
  ].filter((g) => g.options.length);
}

export const workloadControl = (prefix, def = 'inference') =>
  selectControl({ id: `${prefix}-workload`, key: 'workload', label: 'Workload type', options: WORKLOADS, def });

export const precisionControl = (prefix, def = 'fp16') => selectControl({
  id: `${prefix}-precision`, key: 'precision', label: 'Precision', def,
  fill: (store) => store.precisions.map((p) => ({ value: p.key, label: `${p.name} (${num(p.bytes_per_parameter, 2)} bytes/parameter)` })),
});

/** Families resolve to their smallest size with enough GPUs; instance types are used as they are. */
export function instanceOptions(store) {
  const byFamily = new Map();
  for (const i of store.instances) {
    if (!byFamily.has(i.family)) byFamily.set(i.family, []);
    byFamily.get(i.family).push(i);
  }
  const gpuOf = (f) => byFamily.get(f)?.[0]?.gpu_type ?? '';
  const groups = [];
  for (const provider of store.providers) {
    const fams = store.families.filter((f) => store.providerOf(f) === provider);
    groups.push({ group: `${provider.toUpperCase()} families (smallest size with enough GPUs)`, options: fams.map((f) => ({ value: f, label: `${f} — ${gpuOf(f) || 'no accelerator'}` })) });
  }
  for (const [family, list] of byFamily) {
    groups.push({
      group: `${family} instance types`,
      options: list.map((i) => ({ value: i.instance, label: i.gpus ? `${i.instance} — ${num(i.gpus, 3)} × ${i.gpu_type}` : `${i.instance} — ${i.gpu_type || 'CPU only'}` })),
    });
  }
  return groups;
}

export const instanceControl = (prefix, { key = 'instance', label = 'Instance (family or type)', def = 'G6e' } = {}) =>
  selectControl({ id: `${prefix}-${key}`, key, label, def, fill: instanceOptions });

export const gpusControl = (prefix, def = '1') => numberControl({
  id: `${prefix}-gpus`, key: 'gpus', label: 'GPUs', unit: 'GPUs', def, min: 1, step: 1, whole: 'gpus',
});

/** Empty means the analyzer's month, shown as the placeholder. */
export const hoursControl = (prefix) => numberControl({
  id: `${prefix}-hours`, key: 'hours', label: 'Hours per month', unit: 'h/month', def: '', placeholder: String(SEED_MONTH_HOURS),
  emptyValue: SEED_MONTH_HOURS, min: 1, max: 744, step: 1, path: '/hours_per_month',
  hint: `Empty means ${SEED_MONTH_HOURS} h (24 h × 30 days); 730 h is 24/7 all year.`,
});

export const spotControl = (prefix) => checkboxControl({ id: `${prefix}-spot`, key: 'spot', label: 'Use spot prices where known' });

/** Wires a screen's controls: restore from / write to URL params, fill from the catalog. */
export function controlSet(controls) {
  return {
    controls,
    fill(store) { for (const c of controls) c.fill(store); },
    fromParams(p) { for (const c of controls) c.fromParams(p); },
    toParams(p) { for (const c of controls) c.toParams(p); },
  };
}

/** The catalog's concrete models (model_config.json "models"). */
export const concreteModels = (store) => store.state?.data?.concrete_models ?? [];
