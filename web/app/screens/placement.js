// Placement: several models on the GPUs of one instance (largest first, first fit), on a chosen
// instance, on the cheapest single instance and on the cheapest split over several of one type.
import { h, table, facts, card, selectField, numberField, fillSelect, setSelectValue } from '../dom.js';
import * as f from '../format.js';
import { createScreen } from '../screen.js';
import { selectControl, instanceOptions, hoursControl, taskOptions } from '../controls.js';
import { controlSet, providersControl } from '../more-controls.js';
import { pricingControl, scheduleControl } from '../billing.js';
import { barChart, SERIES } from '../charts.js';
import { statusBadge } from '../parts.js';
import { PLACEMENT_PAY_KEYS } from '../form.js';
import { readItem, linkNotes } from '../link.js';
import { deployPanel } from '../deploy-panel.js';

/** Seed 000's three models on a g5.12xlarge. */
const DEFAULT_MODELS = [
  { name: 'whisper-large-v3', kind: 'gb', value: '10' },
  { name: 'kokoro-tts', kind: 'gb', value: '2' },
  { name: 'custom-7b', kind: 'params', value: '7', precision: 'fp16', workload: 'inference' },
];
const KINDS = [{ value: 'gb', label: 'Memory it needs' }, { value: 'params', label: 'Parameter count' }];

/** URL form, as the CLI's --model: name=GB | name:PARAMS_B:precision:workload, comma separated. */
const enc = encodeURIComponent;
export function modelsToParam(models) {
  return models.map((m) => (m.kind === 'gb' ? `${enc(m.name)}=${enc(m.value)}`
    : `${enc(m.name)}:${enc(m.value)}:${enc(m.precision ?? 'fp16')}:${enc(m.workload ?? 'inference')}`)).join(',');
}
/** The models of a link: {models, broken}, `broken` the items (as written) with a percent-escape
 *  that does not decode, each kept as written in its model. At most one past the core's 64 are
 *  read, so that a link of thousands builds a few rows (and the core names the limit) instead of
 *  freezing the page. */
export function modelsFromParam(text) {
  const broken = [];
  const models = text.split(',', 66).filter(Boolean).slice(0, 65).map((part) => {
    const decode = (s) => {
      const item = readItem(s ?? '', { decode: true });
      if (item.broken && !broken.includes(part)) broken.push(part);
      return item.text;
    };
    const eq = part.indexOf('=');
    if (eq >= 0 && !part.slice(0, eq).includes(':')) return { name: decode(part.slice(0, eq)), kind: 'gb', value: decode(part.slice(eq + 1)) };
    const [name, value, precision, workload] = part.split(':').map(decode);
    return { name, kind: 'params', value: value ?? '', precision: precision || 'fp16', workload: workload || 'inference' };
  });
  return { models, broken };
}

const numberOrRaw = (text) => {
  const t = String(text ?? '').trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
};

function modelsControl(store) {
  let models = DEFAULT_MODELS.map((m) => ({ ...m }));
  const list = h('div', { class: 'place-models' });
  const add = h('button', { type: 'button', testid: 'place-add-model' }, 'Add model');
  const wrap = h('fieldset', { class: 'field place-models-field' }, h('legend', null, 'Models'), list, h('div', { class: 'buttons' }, add));
  const changed = () => wrap.dispatchEvent(new Event('change', { bubbles: true }));
  const precisionOptions = () => store.precisions.map((p) => ({ value: p.key, label: p.name }));

  function row(m, i) {
    const pre = `place-m-${i}`;
    const name = h('input', { id: `${pre}-name`, type: 'text', autocomplete: 'off', spellcheck: false, testid: `${pre}-name` });
    name.value = m.name;
    name.addEventListener('input', () => { m.name = name.value; });
    const kind = selectField({ id: `${pre}-kind`, label: 'Given as', options: KINDS });
    kind.input.value = m.kind;
    const value = numberField({ id: `${pre}-value`, label: 'Memory', unit: 'GB', min: 0, step: 'any', value: m.value });
    value.input.addEventListener('input', () => { m.value = value.input.value; });
    const precision = selectField({ id: `${pre}-precision`, label: 'Precision' });
    fillSelect(precision.input, precisionOptions());
    setSelectValue(precision.input, m.precision ?? 'fp16');
    precision.input.addEventListener('change', () => { m.precision = precision.input.value; });
    const workload = selectField({ id: `${pre}-workload`, label: 'Workload', options: taskOptions(store) });
    setSelectValue(workload.input, m.workload ?? 'inference');
    workload.input.addEventListener('change', () => { m.workload = workload.input.value; });
    const sync = () => {
      const params = kind.input.value === 'params';
      value.wrap.querySelector('label').textContent = params ? 'Parameters' : 'Memory';
      value.wrap.querySelector('.unit').textContent = params ? 'billion' : 'GB';
      precision.wrap.hidden = !params;
      workload.wrap.hidden = !params;
    };
    kind.input.addEventListener('change', () => {
      m.kind = kind.input.value;
      if (m.kind === 'params') { m.precision ??= 'fp16'; m.workload ??= 'inference'; }
      sync();
    });
    sync();
    const remove = h('button', { type: 'button', class: 'small-button', testid: `${pre}-remove`, 'aria-label': `Remove model ${i + 1}` }, 'Remove');
    remove.addEventListener('click', () => { models.splice(i, 1); build(); changed(); });
    return h('fieldset', { class: 'place-model', testid: pre },
      h('legend', { class: 'sr-only' }, `Model ${i + 1}`),
      h('div', { class: 'field' }, h('label', { for: `${pre}-name` }, 'Name'), name),
      kind.wrap, value.wrap, precision.wrap, workload.wrap,
      h('div', { class: 'field plan-wl-remove' }, remove));
  }
  function build() { list.replaceChildren(...models.map(row)); }
  const notes = linkNotes('models', wrap, 'Models', { kept: true });
  add.addEventListener('click', () => {
    models.push({ name: `model-${models.length + 1}`, kind: 'gb', value: '8' });
    build();
    changed();
    list.lastElementChild?.querySelector('input')?.focus();
  });
  return {
    wrap, key: 'models', fields: notes.fields, linkErrors: notes.linkErrors,
    fill() { build(); },
    fromParams(p) {
      const given = p.has('models') ? modelsFromParam(p.get('models')) : { models: DEFAULT_MODELS.map((m) => ({ ...m })), broken: [] };
      models = given.models;
      notes.set(given.broken);
      build();
    },
    toParams(p) { p.set('models', modelsToParam(models)); },
    value: () => models.map((m) => (m.kind === 'gb'
      ? { name: m.name, memory_gb: numberOrRaw(m.value) }
      : { name: m.name, model: { params_b: numberOrRaw(m.value) }, workload: m.workload ?? 'inference', precision: m.precision ?? 'fp16' })),
  };
}

export function createPlacementScreen(store) {
  const models = modelsControl(store);
  // URL: pack (an earlier version's link says instance, which is the workload form's key).
  const instance = selectControl({
    id: 'place-instance', key: 'pack', label: 'Instance (optional)', def: 'g5.12xlarge',
    fill: (s) => [{ value: '', label: 'None: just find the cheapest' }, ...instanceOptions(s)],
    hint: 'Packs the models onto this instance too.',
  });
  instance.fromParams = (p) => {
    const given = p.get('pack') ?? p.get('instance');
    instance.input.value = '';
    setSelectValue(instance.input, given ?? 'g5.12xlarge', { quiet: given === null });
  };
  instance.toParams = (p) => p.set('pack', instance.input.value);
  const providers = providersControl('place', 'Providers (none checked = all)');
  // Its own way to pay and schedule, apart from the workload form's (URL: pack_pricing...).
  const hours = hoursControl('place', 'pack_hours');
  const pricing = pricingControl('place', 'pack_');
  const schedule = scheduleControl('place', hours, 'pack_');
  const controls = controlSet([models, instance, providers, pricing, schedule, hours]);
  const fromParams = controls.fromParams;
  controls.fromParams = (p) => fromParams(earlierPlanLink(p));
  return createScreen(store, {
    id: 'placement',
    title: 'Placement',
    intro: 'Several models on one instance: how they pack onto its GPUs, and the cheapest instance or split that holds them.',
    controls,
    async render({ ask }) {
      const request = { question: 'placement', models: models.value() };
      if (instance.value()) request.instance = instance.value();
      if (providers.value().length) request.providers = providers.value();
      const hpm = hours.value();
      if (hpm !== undefined) request.hours_per_month = hpm;
      pricing.apply(request);
      schedule.apply(request);
      const { response, errors } = await ask(request);
      if (errors) return { errors };
      const r = response.result;
      const packed = r.on_instance?.fits || r.cheapest_split?.fits;
      return { nodes: [...renderPlacement(r), packed ? deployPanel(ask, request) : null] };
    },
  });
}

/** An earlier version's Fleet plan link named the placement's way to pay with the workload
 *  form's keys (the form writes none into a plan link): read there as the placement's. */
function earlierPlanLink(p) {
  if (p.get('view') !== 'plan' || PLACEMENT_PAY_KEYS.some((k) => p.has(`pack_${k}`))) return p;
  const out = new URLSearchParams(p);
  for (const k of PLACEMENT_PAY_KEYS) if (p.has(k)) out.set(`pack_${k}`, p.get(k));
  return out;
}

export function renderPlacement(r) {
  const colour = new Map(r.models.map((m, i) => [m.name, SERIES[i % SERIES.length]]));
  const gbOf = new Map(r.models.map((m) => [m.name, m.memory_gb]));
  return [
    h('section', { class: 'card' },
      h('h3', null, `Models (${r.models.length})`),
      table({
        caption: 'Memory each model needs', testid: 'place-models', className: 'data', records: r.models,
        head: ['Model', 'Memory', 'Basis'],
        rows: r.models.map((m, i) => h('tr', { testid: `place-model-${i}` },
          h('th', { scope: 'row' }, m.name),
          h('td', { class: 'num', testid: `place-model-gb-${i}` }, f.gb(m.memory_gb)),
          h('td', null, m.basis))),
      }),
      h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Basis: '), h('span', { testid: 'place-basis' }, r.basis))),
    r.on_instance !== undefined ? packingCard(r.on_instance, 'On the chosen instance', 'on', colour, gbOf) : null,
    packingCard(r.cheapest_single_instance, 'Cheapest single instance', 'single', colour, gbOf),
    packingCard(r.cheapest_split, 'Cheapest split (several instances of one type)', 'split', colour, gbOf),
  ];
}

function packingCard(p, title, key, colour, gbOf) {
  if (!p) return card(title, h('p', { class: 'muted', testid: `place-${key}-none` }, 'No priced instance holds these models.'));
  const MAX = 16;
  const gpus = p.gpus.slice(0, MAX);
  const name = (g) => `${p.instance_count > 1 ? `Instance ${g.instance + 1} · ` : ''}${p.gpu_type.startsWith('none') ? 'Memory' : `GPU ${g.gpu + 1}`}`;
  return h('section', { class: ['card', 'verdict', p.fits ? 'fits' : 'nofit'], testid: `place-${key}` },
    h('h3', null, title),
    h('div', { class: 'verdict-head' }, statusBadge(p.fits ? 'FITS' : 'CANNOT FIT MODEL', `place-${key}-fits`),
      h('p', { class: 'verdict-title' }, `${p.instance_count} × `, h('span', { testid: `place-${key}-instance` }, p.instance), ` · ${p.gpu_type}`)),
    facts([
      ['Instances', f.num(p.instance_count, 0), `place-${key}-count`],
      ['Monthly cost', f.usdMonth(p.cost?.usd_per_month), `place-${key}-monthly`],
      ['Provider', `${f.provider(p.provider)} ${p.region}`],
      p.unplaced?.length ? ['Not placed', p.unplaced.join(', '), `place-${key}-unplaced`] : null,
    ], 'facts compact'),
    h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Cost basis: '), h('span', { testid: `place-${key}-basis` }, p.cost?.basis ?? '')),
    p.note ? h('p', { class: 'why' }, h('span', { class: 'why-label' }, 'Note: '), h('span', { testid: `place-${key}-note` }, p.note)) : null,
    barChart({
      title: `Models packed onto ${p.instance_count} × ${p.instance}`,
      summary: gpus.map((g) => `${name(g)}: ${g.models.join(', ') || 'empty'}, ${f.gb(g.used_gb)} of ${f.gb(g.capacity_gb)}`).join('; '),
      xLabel: 'Memory (GB) against each accelerator’s usable memory', format: f.gbTick, testid: `place-${key}-chart`,
      rows: gpus.map((g) => ({
        label: name(g),
        parts: g.models.map((m) => ({ value: gbOf.get(m) ?? 0, cls: colour.get(m), name: m })),
        marker: g.capacity_gb, markerLabel: `usable ${f.gb(g.capacity_gb)}`,
        valueText: `${f.num(g.used_gb, 1)} of ${f.num(g.capacity_gb, 1)} GB`,
      })),
      legendItems: [...colour].map(([m, cls]) => ({ cls, name: m })).concat([{ cls: 'marker', name: 'Usable memory' }]),
      data: {
        caption: `Per accelerator on ${p.instance}`, records: p.gpus,
        head: ['Accelerator', 'Models', 'Used (GB)', 'Usable (GB)', 'Use (%)'],
        rows: p.gpus.map((g) => [name(g), g.models.join(', ') || 'none', f.num(g.used_gb, 2), f.num(g.capacity_gb, 2), f.num(g.capacity_gb > 0 ? (g.used_gb / g.capacity_gb) * 100 : 0, 1)]),
      },
    }),
    p.gpus.length > MAX ? h('p', { class: 'muted small' }, `The first ${MAX} of ${p.gpus.length} accelerators are drawn; the table has them all.`) : null);
}
