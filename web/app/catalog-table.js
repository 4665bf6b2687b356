// The Catalog's instances as a table people know from ec2instances.info: filtered by name,
// provider, region, accelerator, memory per accelerator and price; sorted by any column (its
// heading is a button; aria-sort says the order); columns chosen; each price note and source
// written once under the table, its rows pointing at it by number. The filters live in the page
// only (not in the link); the table is drawn again, without asking the core, as they change.
import { h, table } from './dom.js';
import * as f from './format.js';

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Columns: key, heading, the value sorted on, the cell; `key: true` columns cannot be hidden. */
const COLUMNS = [
  { id: 'instance', head: 'Instance', key: true, sort: (i) => i.instance, cell: (i) => h('th', { scope: 'row' }, i.instance) },
  { id: 'gpu', head: 'GPU', sort: (i) => i.gpu_type ?? '', cell: (i) => h('td', null, i.gpu_type || f.DASH) },
  { id: 'gpus', head: 'GPUs', sort: (i) => num(i.gpus), cell: (i) => h('td', { class: 'num' }, f.num(i.gpus, 3)) },
  { id: 'od', head: 'On-demand', key: true, sort: (i) => num(i.on_demand_usd_per_hour), cell: (i) => h('td', { class: 'num', testid: `cat-od-${i.instance}` }, f.usdHour(i.on_demand_usd_per_hour)) },
  { id: 'spot', head: 'Spot', sort: (i) => num(i.spot_usd_per_hour), cell: (i) => h('td', { class: 'num' }, f.usdHour(i.spot_usd_per_hour)) },
  { id: 'provider', head: 'Provider', sort: (i) => f.provider(i.provider), cell: (i) => h('td', null, f.provider(i.provider)) },
  { id: 'region', head: 'Region', sort: (i) => i.region ?? '', cell: (i) => h('td', null, i.region || f.DASH) },
  { id: 'family', head: 'Family', sort: (i) => i.family, cell: (i) => h('td', null, i.family) },
  { id: 'memory', head: 'Memory per GPU', sort: (i) => num(i.memory_per_gpu_gb), cell: (i) => h('td', { class: 'num' }, f.gb(i.memory_per_gpu_gb)) },
  { id: 'vcpus', head: 'vCPUs', hidden: true, sort: (i) => num(i.vcpus), cell: (i) => h('td', { class: 'num' }, f.num(i.vcpus, 0)) },
  { id: 'ram', head: 'RAM', hidden: true, sort: (i) => num(i.ram_gib), cell: (i) => h('td', { class: 'num' }, i.ram_gib == null ? f.DASH : f.gbOfGib(i.ram_gib)) },
  { id: 'compute', head: 'Compute', hidden: true, sort: (i) => num(i.compute_tflops), cell: (i) => h('td', { class: 'num' }, i.compute_tflops == null ? f.DASH : `${f.num(i.compute_tflops, 1)} TFLOPS`) },
  { id: 'bandwidth', head: 'Bandwidth', hidden: true, sort: (i) => num(i.memory_bandwidth_gb_per_s), cell: (i) => h('td', { class: 'num' }, i.memory_bandwidth_gb_per_s == null ? f.DASH : `${f.num(i.memory_bandwidth_gb_per_s, 0)} GB/s`) },
  { id: 'interconnect', head: 'Interconnect', hidden: true, sort: (i) => i.interconnect ?? '', cell: (i) => h('td', null, i.interconnect ?? f.DASH) },
  { id: 'date', head: 'Source date', hidden: true, sort: (i) => i.source_date ?? '', cell: (i) => h('td', null, i.source_date ?? f.DASH) },
  { id: 'notes', head: 'Notes', sort: (i) => [i.price_notes, i.source].join(' '), cell: (i, ctx) => h('td', { class: 'small' }, ctx.noteRefs(i).map((n) => `[${n}]`).join(' ') || f.DASH) },
];

const compare = (a, b) => (a === null ? (b === null ? 0 : 1) : b === null ? -1
  : typeof a === 'number' && typeof b === 'number' ? a - b : f.compareNames(String(a), String(b)));

/** A select of `values` (all first). */
function choice(id, label, testid) {
  const input = h('select', { id, testid });
  return { input, wrap: h('div', { class: 'field' }, h('label', { for: id }, label), input),
    fill(values, name = (v) => v) {
      const keep = input.value;
      input.replaceChildren(h('option', { value: '' }, 'All'), ...values.map((v) => h('option', { value: v }, name(v))));
      input.value = values.includes(keep) ? keep : '';
    } };
}

function numberFilter(id, label, unit, testid) {
  const input = h('input', { id, type: 'number', min: 0, step: 'any', inputmode: 'decimal', testid });
  return { input, wrap: h('div', { class: 'field' }, h('label', { for: id }, `${label} (${unit})`), input),
    value: () => (input.value.trim() === '' || !Number.isFinite(Number(input.value)) ? null : Number(input.value)) };
}

/** The instances browser: `node` (made once: filters survive a new answer), `show(list, store)`. */
export function createInstanceBrowser() {
  const search = h('input', { id: 'cat-search', type: 'search', testid: 'cat-search', autocomplete: 'off', placeholder: 'p5, H100, A10G…' });
  const provider = choice('cat-provider', 'Provider', 'cat-provider');
  const region = choice('cat-region', 'Region', 'cat-region');
  const accel = choice('cat-accelerator', 'Accelerator', 'cat-accelerator');
  const minMemory = numberFilter('cat-min-memory', 'Memory per GPU at least', 'GB', 'cat-min-memory');
  const maxPrice = numberFilter('cat-max-price', 'On-demand at most', 'USD/h', 'cat-max-price');
  const shown = new Set(COLUMNS.filter((c) => !c.hidden).map((c) => c.id));
  const columnBoxes = h('div', { class: 'checks' }, COLUMNS.filter((c) => !c.key).map((c) => {
    const id = `cat-col-${c.id}`;
    const box = h('input', { type: 'checkbox', id, testid: id, checked: shown.has(c.id) });
    box.addEventListener('change', () => { if (box.checked) shown.add(c.id); else shown.delete(c.id); draw(); });
    return h('div', { class: 'check' }, box, h('label', { for: id }, c.head));
  }));
  const filters = h('form', { class: 'catalog-filters', 'aria-label': 'Filter the instances', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: search.id }, 'Find'), search),
    provider.wrap, region.wrap, accel.wrap, minMemory.wrap, maxPrice.wrap,
    h('details', { class: 'columns-choice' }, h('summary', null, 'Columns'), h('fieldset', { class: 'field' }, h('legend', { class: 'sr-only' }, 'Columns shown'), columnBoxes)));
  filters.addEventListener('submit', (e) => e.preventDefault());
  // The screen's own inputs are not these: they redraw the table only.
  for (const type of ['input', 'change']) filters.addEventListener(type, (e) => { e.stopPropagation(); if (e.target.type !== 'checkbox') draw(); });
  const title = h('h3', null, 'Instances');
  const body = h('div');
  const node = h('section', { class: 'card catalog-browser' }, title, filters, body);
  let all = [];
  let ctx = null;
  let order = { id: 'od', dir: 1 };

  const wanted = (i) => {
    const q = search.value.trim().toLowerCase();
    if (q && ![i.instance, i.family, i.gpu_type, i.provider, i.region].some((s) => String(s ?? '').toLowerCase().includes(q))) return false;
    if (provider.input.value && i.provider !== provider.input.value) return false;
    if (region.input.value && i.region !== region.input.value) return false;
    if (accel.input.value && (i.gpu_type || 'CPU only') !== accel.input.value) return false;
    // An unknown figure (null) passes no bound.
    if (minMemory.value() !== null && !(num(i.memory_per_gpu_gb) >= minMemory.value())) return false;
    if (maxPrice.value() !== null && !(num(i.on_demand_usd_per_hour) !== null && i.on_demand_usd_per_hour <= maxPrice.value())) return false;
    return true;
  };
  const sortButton = (c) => {
    const b = h('button', { type: 'button', class: 'sort', testid: `cat-sort-${c.id}` }, c.head);
    b.addEventListener('click', () => { order = { id: c.id, dir: order.id === c.id ? -order.dir : 1 }; draw(); b.focus(); });
    const sorted = order.id === c.id ? (order.dir > 0 ? 'ascending' : 'descending') : null;
    return h('th', { scope: 'col', 'aria-sort': sorted }, b);
  };

  function draw() {
    if (!ctx) return;
    const col = COLUMNS.find((c) => c.id === order.id);
    const list = all.filter(wanted).sort((a, b) => order.dir * compare(col.sort(a, ctx), col.sort(b, ctx)) || f.compareNames(a.instance, b.instance));
    const cols = COLUMNS.filter((c) => c.key || shown.has(c.id));
    // Each note and source once, numbered in the order the rows first name them.
    const notes = new Map();
    ctx.noteRefs = (i) => [i.price_notes, i.source].filter(Boolean).map((t) => {
      if (!notes.has(t)) notes.set(t, notes.size + 1);
      return notes.get(t);
    });
    for (const i of list) ctx.noteRefs(i);
    title.textContent = `Instances (${list.length} of ${all.length})`;
    body.replaceChildren(
      table({
        caption: 'Instance types with prices (USD per instance-hour): sort by a column heading', testid: 'cat-instances', className: 'data', records: list,
        exportName: 'catalog-instances', head: cols.map(sortButton),
        rows: list.map((i) => h('tr', { testid: `cat-row-${i.instance}` }, cols.map((c) => c.cell(i, ctx)))),
      }),
      notes.size ? h('ol', { class: 'catalog-notes small', testid: 'cat-notes' }, [...notes.keys()].map((t) => h('li', null, t))) : null);
  }
  return {
    node,
    show(list) {
      all = list;
      ctx = { noteRefs: () => [] };
      const uniq = (key) => [...new Set(list.map(key).filter(Boolean))].sort(f.compareNames);
      provider.fill(uniq((i) => i.provider), f.provider);
      region.fill(uniq((i) => i.region));
      accel.fill(uniq((i) => i.gpu_type || 'CPU only'));
      draw();
      return node;
    },
  };
}

/** The catalog's concrete models, which a name typed on any view finds. */
export function concreteModelsTable(models) {
  return table({
    caption: 'Concrete models (model_config.json models): find them by name, Hugging Face id or a short name', testid: 'cat-concrete-models', className: 'data',
    exportName: 'catalog-models', records: models,
    head: ['Model', 'Hugging Face id', 'Parameters', 'Architecture', 'Longest context'],
    rows: models.map((m) => h('tr', { testid: `cat-model-${m.key}` },
      h('th', { scope: 'row' }, m.name), h('td', null, m.hf_id || f.DASH),
      h('td', { class: 'num' }, `${f.num(m.parameters_billion, 3)} billion`), h('td', null, m.model_type),
      h('td', { class: 'num' }, m.max_context ? `${f.num(m.max_context, 0)} tokens` : f.DASH))),
  });
}
