// Inputs shared by several screens. Each control knows how to fill itself from the catalog, how
// to restore itself from URL parameters, how to write itself back, and its part of the request.
import { h, selectField, numberField, fillSelect, setSelectValue } from './dom.js';
import { num, compareNames, gbOfGib, provider as providerName } from './format.js';
import { modelFind } from './model-find.js';

/** The tasks (the core's menus). */
export const taskOptions = (store) => (store.state?.data?.tasks ?? []).map((t) => ({ value: t.key, label: t.name }));
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

/** Model: a size class, a parameter count (billions), a concrete model of the catalog (found by
 *  name in the search field) or your own config.json (pasted or uploaded; never put in a link).
 *  URL: size=small | params=13 | model=llama-3.1-8b | model=config. */
export function modelControl(prefix, onLoaded) {
  const sel = selectField({ id: `${prefix}-model`, label: 'Model' });
  const params = numberField({ id: `${prefix}-params`, label: 'Parameters', unit: 'billion', min: 0.001, step: 'any', value: '13' });
  const text = h('textarea', { id: `${prefix}-config`, rows: 6, spellcheck: false, autocomplete: 'off', testid: `${prefix}-config`, 'aria-describedby': `${prefix}-config-hint` });
  const file = h('input', { id: `${prefix}-config-file`, type: 'file', accept: '.json,application/json', testid: `${prefix}-config-file` });
  const config = h('div', { class: 'mem-config' },
    h('div', { class: 'field' }, h('label', { for: text.id }, 'Your config.json'), text,
      h('small', { class: 'hint', id: `${prefix}-config-hint` }, 'A Hugging Face config.json; it stays in this page, out of links.')),
    h('div', { class: 'field' }, h('label', { for: file.id }, 'Upload config.json'), file));
  const sync = () => {
    params.wrap.hidden = sel.input.value !== 'custom';
    config.hidden = sel.input.value !== CONFIG;
  };
  sel.input.addEventListener('change', sync);
  let given = false; // chosen by the link or by hand, not the form's example
  let models = [];
  // A name typed in the find box is resolved by the core; a catalog model's chooses it.
  const pick = (value) => { sel.input.value = value; sync(); sel.input.dispatchEvent(new Event('change', { bubbles: true })); };
  const find = modelFind(prefix, { choose: (key) => pick(`${NAMED}${key}`), useConfig: () => { pick(CONFIG); text.focus(); } });
  // The file is read first; the form answers once its text is in the editor.
  file.addEventListener('input', (e) => e.stopPropagation());
  file.addEventListener('change', async (e) => {
    e.stopPropagation();
    const chosen = file.files?.[0];
    if (!chosen) return;
    text.value = await chosen.text();
    file.value = '';
    onLoaded?.();
  });
  const wrap = h('div', { class: 'field-pair' },
    find.wrap, sel.wrap, params.wrap, config);
  wrap.addEventListener('change', () => { given = true; });
  sync();
  return {
    wrap, input: sel.input, paramsInput: params.input, text, path: '/model', label: 'Model',
    // Errors at /model/params_b are shown at the parameter count, those of your config.json at it.
    fields: [{ input: params.input, wrap: params.wrap, path: '/model/params_b', label: 'Parameters' },
      { input: text, wrap: config, path: '/model/hf_config', label: 'Your config.json' }],
    fill(store) {
      models = [...concreteModels(store)].sort((a, b) => compareNames(a.name, b.name));
      find.fill(models, (request) => store.ask(request));
      fillSelect(sel.input, [
        { group: 'Size classes', options: store.modelSizes.map((m) => ({ value: m.size, label: `${m.name} (${num(m.parameter_count_billion, 1)}B parameters)` })) },
        { group: 'Catalog models', options: models.map((m) => ({ value: `${NAMED}${m.key}`, label: `${m.name} (${num(m.parameters_billion, 1)}B)` })) },
        { group: 'Your model', options: [{ value: 'custom', label: 'Custom parameter count…' }, { value: CONFIG, label: 'Your own config.json (paste or upload)…' }] },
      ].filter((g) => g.options.length));
      if (!sel.input.value) sel.input.value = store.modelSizes[0]?.size ?? 'custom';
      sync();
    },
    fromParams(p) {
      given = ['model', 'params', 'size'].some((k) => p.has(k));
      const m = p.get('model');
      if (m === CONFIG) sel.input.value = CONFIG;
      else if (m) setSelectValue(sel.input, `${NAMED}${m}`);
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
      else if (v === CONFIG) p.set('model', CONFIG);
      else if (v.startsWith(NAMED)) p.set('model', v.slice(NAMED.length));
      else p.set('size', v);
    },
    /** Whether the model was chosen (by the link or by hand), not the form's example. */
    given: () => given,
    /** A concrete model (a name or a config.json): the memory model can read its layers. */
    concrete: () => sel.input.value === CONFIG || sel.input.value.startsWith(NAMED),
    value() {
      const v = sel.input.value;
      if (v === 'custom') {
        const t = params.input.value;
        return { params_b: t.trim() === '' ? null : numberOrRaw(t) };
      }
      if (v === CONFIG) {
        try { return { hf_config: JSON.parse(text.value) }; } catch { return { hf_config: null }; }
      }
      if (v.startsWith(NAMED)) return { name: v.slice(NAMED.length) };
      return { size: v };
    },
    /** An empty or unreadable config.json is refused here, at its field. */
    check() {
      if (sel.input.value !== CONFIG) return [];
      if (text.value.trim() === '') return [{ code: 'missing_field', file: 'page', path: '/model/hf_config', message: 'Paste or upload a Hugging Face config.json to size your own model (pasted configs are not kept in links).' }];
      try { JSON.parse(text.value); return []; } catch (e) {
        return [{ code: 'invalid_json', file: 'page', path: '/model/hf_config', message: `Your config.json does not parse: ${e.message}` }];
      }
    },
  };
}

/** Select values of the catalog's concrete models (sizes and "custom" have no prefix). */
const NAMED = 'model:';
const CONFIG = 'config';

export const workloadControl = (prefix, def = 'inference') =>
  selectControl({ id: `${prefix}-workload`, key: 'workload', label: 'Workload type', fill: taskOptions, def });

/** Weight formats: the core's menu, GGUF types in their own group. */
export function weightFormatGroups(store) {
  const all = store.state?.data?.memory_menus?.weight_formats ?? [];
  const label = (k) => k.toUpperCase().replaceAll('_', ' ');
  return [
    { group: 'Floating point and quantized', options: all.filter((k) => !k.startsWith('gguf_')).map((k) => ({ value: k, label: label(k) })) },
    { group: 'GGUF (llama.cpp)', options: all.filter((k) => k.startsWith('gguf_')).map((k) => ({ value: k, label: label(k.slice(5)) })) },
  ].filter((g) => g.options.length);
}

export const precisionControl = (prefix, def = 'fp16') => selectControl({
  id: `${prefix}-precision`, key: 'precision', label: 'Weight format', def, fill: weightFormatGroups,
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
    groups.push({ group: `${providerName(provider)} families (smallest size with enough GPUs)`, options: fams.map((f) => ({ value: f, label: `${f} — ${gpuOf(f) || 'no accelerator'}` })) });
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

/** Where the model runs: the cheapest instance with a GPU (any:NAME), an instance family or type,
 *  or one GPU alone (gpu:KEY: its memory, line by line, without a price). URL: instance=... */
export function placeControl(prefix) {
  const c = instanceControl(prefix, { label: 'Where it runs' });
  const fill = (store) => {
    const types = [...new Set(store.instances.filter((i) => i.accelerator_kind === 'gpu' && i.gpus >= 1).map((i) => i.gpu_type))].sort(compareNames);
    return [
      { group: 'The cheapest instance with this GPU', options: types.map((t) => ({ value: `${ANY}${t}`, label: `Any instance with ${t}` })) },
      ...instanceOptions(store),
      { group: 'One GPU alone (memory only, no price)', options: (store.state?.data?.gpus ?? []).map((g) => ({ value: `${GPU}${g.key}`, label: `${g.key} (${gbOfGib(g.capacity_gib)} usable)` })) },
    ];
  };
  c.fill = (store) => { fillSelect(c.input, fill(store)); if (!c.input.value) setSelectValue(c.input, 'G6e', { quiet: true }); };
  // Marked where the core refuses it: a place by each form (place()), or a migration's current one.
  Object.assign(c, { label: 'Where it runs', path: '/instance', paths: ['/instance', '/any', '/gpu', '/current/instance'] });
  /** {instance} (a family or type), {any: gpu type} or {gpu: key}. */
  c.place = () => {
    const v = c.input.value;
    return v.startsWith(ANY) ? { any: v.slice(ANY.length) } : v.startsWith(GPU) ? { gpu: v.slice(GPU.length) } : { instance: v };
  };
  return c;
}
const ANY = 'any:';
const GPU = 'gpu:';

/** GPUs of one instance of this type (0 for a family or an unknown name). */
export const gpusOf = (store, instance) => store.instances.find((i) => i.instance === instance)?.gpus ?? 0;

export const gpusControl = (prefix) => ({
  ...numberControl({
    id: `${prefix}-gpus`, key: 'gpus', label: 'GPUs', unit: 'GPUs', def: '', min: 1, step: 1, whole: 'gpus', optional: true,
    placeholder: 'all of one', hint: 'Empty: all of an instance type\u2019s GPUs, 1 on a family or a GPU.',
  }),
  paths: ['/gpus', '/current/gpus'],  // a migration's current deployment
});

/** Empty means the analyzer's month, shown as the placeholder. URL: hours (`key`). */
export const hoursControl = (prefix, key = 'hours') => numberControl({
  id: `${prefix}-hours`, key, label: 'Hours per month', unit: 'h/month', def: '', placeholder: String(SEED_MONTH_HOURS),
  optional: true, min: 1, max: 744, step: 1, path: '/hours_per_month',
  hint: `Empty means ${SEED_MONTH_HOURS} h (24 h × 30 days); 730 h is 24/7 all year.`,
});

/** The catalog's concrete models (model_config.json "models"). */
export const concreteModels = (store) => store.state?.data?.concrete_models ?? [];
