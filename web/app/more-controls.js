// Inputs of the later views only (priority, providers, accelerator kinds, the control set that wires a
// view's own inputs): a module of its own beside controls.js (the workload form's), fetched with the
// later views' chunk.
import { h } from './dom.js';
import { selectControl } from './controls.js';
import { provider } from './format.js';
import { readList, linkNotes, own } from './link.js';
import { KIND_NAMES } from './names.js';

/** Checkboxes bound to one list key: a link's items check the boxes of the same value; items
 *  with broken escapes mark the field (link.js). Returns the control's link part. */
export function checkedList(key, wrap, label, boxes) {
  const notes = linkNotes(key, wrap, label);
  return {
    fields: notes.fields,
    linkErrors: notes.linkErrors,
    /** The link's items (the wanted values), its boxes checked. */
    fromParams(p) {
      const { items, broken } = readList(p.get(key));
      notes.set(broken);
      for (const b of boxes()) b.checked = items.includes(b.value);
      return items;
    },
  };
}

/** The priorities (the core's menus). */
export const priorityControl = (prefix, def = 'cost') => selectControl({
  id: `${prefix}-priority`, key: 'priority', label: 'Priority', def,
  fill: (store) => (store.state?.data?.priorities ?? []).map((p) => ({ value: p.key, label: p.name })),
});

/** Provider checkboxes; none checked = the analyzer's default. URL: providers=aws,gcp */
export function providersControl(prefix, legend) {
  const list = h('div', { class: 'checks' });
  const wrap = h('fieldset', { class: 'field families' }, h('legend', null, legend), list);
  let wanted = [];
  const boxes = () => [...list.querySelectorAll('input[type=checkbox]')];
  const set = (names) => { for (const b of boxes()) b.checked = names.includes(b.value); };
  const link = checkedList('providers', wrap, 'Providers', boxes);
  return {
    wrap, key: 'providers', fields: link.fields, linkErrors: link.linkErrors,
    fill(store) {
      const keep = boxes().length ? boxes().filter((b) => b.checked).map((b) => b.value) : wanted;
      list.replaceChildren(...store.providers.map((p) => {
        const id = `${prefix}-provider-${p}`;
        return h('div', { class: 'check' }, h('input', { type: 'checkbox', id, value: p, testid: id }), h('label', { for: id }, provider(p)));
      }));
      set(keep);
    },
    fromParams(p) { wanted = link.fromParams(p); },
    toParams(p) { const v = this.value(); if (v.length) p.set('providers', v.join(',')); },
    value: () => boxes().filter((b) => b.checked).map((b) => b.value),
  };
}

/** The accelerator kinds a request may name: the core's list (its field table's values of "kinds"). */
export const kindsOf = (store) => store.state?.data?.request?.values?.kinds ?? [];

/** Accelerator kind checkboxes; none checked = the kinds suited to the workload. URL: kinds=gpu,cpu */
export function kindsControl(prefix, legend = 'Accelerator kinds (none checked = those suited to the workload)') {
  const list = h('div', { class: 'checks' });
  const wrap = h('fieldset', { class: 'field families kinds' }, h('legend', null, legend), list);
  const boxes = () => [...list.querySelectorAll('input[type=checkbox]')];
  const link = checkedList('kinds', wrap, 'Accelerator kinds', boxes);
  let wanted = [];  // the link's kinds, kept until the core's list makes the boxes
  return {
    wrap, key: 'kinds', fields: link.fields, linkErrors: link.linkErrors,
    fill(store) {
      const keep = boxes().length ? boxes().filter((b) => b.checked).map((b) => b.value) : wanted;
      list.replaceChildren(...kindsOf(store).map((k) => {
        const id = `${prefix}-kind-${k}`;
        return h('div', { class: 'check' }, h('input', { type: 'checkbox', id, value: k, testid: id }), h('label', { for: id }, own(KIND_NAMES, k) ?? k));
      }));
      for (const b of boxes()) b.checked = keep.includes(b.value);
    },
    fromParams(p) { wanted = link.fromParams(p); },
    toParams(p) { const v = this.value(); if (v.length) p.set('kinds', v.join(',')); },
    value: () => boxes().filter((b) => b.checked).map((b) => b.value),
  };
}

/** Wires a screen's controls: restore from / write to URL params, fill from the catalog. */
export function controlSet(controls) {
  return {
    controls,
    fill(store) { for (const c of controls) c.fill(store); },
    fromParams(p) { for (const c of controls) c.fromParams(p); },
    toParams(p) { for (const c of controls) c.toParams(p); },
  };
}
