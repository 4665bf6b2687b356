// DOM helpers: every node is built with createElement and textContent, never from HTML strings,
// so catalog strings always render as text.
import { exportTools } from './export.js';
import { live } from './in-place.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function append(parent, child) {
  if (child === null || child === undefined || child === false) return;
  // A part drawn later (in-place.js drawnLater) inside another node: built now.
  if (typeof child === 'function') {
    append(parent, child());
    return;
  }
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
    return;
  }
  parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
}

function applyProps(node, props) {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'testid') node.dataset.testid = value;
    else if (key.startsWith('on') && typeof value === 'function') live(node).addEventListener(key.slice(2), value);
    else if (key in node && !key.includes('-') && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
}

/** h('td', {class: 'num', testid: 'x'}, 'text', childNode, [more]) */
export function h(tag, props, ...children) {
  const node = document.createElement(tag);
  applyProps(node, props);
  append(node, children);
  return node;
}

/** The same for SVG elements (attributes only). */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

export function clear(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

let uid = 0;
export const nextId = (prefix) => `${prefix}-${++uid}`;

/** A labelled <select>. options: [{value, label}] or [{group, options: [...]}]. */
export function selectField({ id, label, options = [], testid, hint }) {
  const select = h('select', { id, name: id, testid: testid ?? id });
  fillSelect(select, options);
  const wrap = h('div', { class: 'field' }, h('label', { for: id }, label), select, hint ? h('small', { class: 'hint' }, hint) : null);
  return { wrap, input: select };
}

export function fillSelect(select, options) {
  const keep = select.value;
  select.replaceChildren();
  const add = (parent, o) => parent.append(h('option', { value: o.value }, o.label ?? o.value));
  for (const o of options) {
    if (o.group) {
      const g = h('optgroup', { label: o.group });
      for (const inner of o.options) add(g, inner);
      select.append(g);
    } else add(select, o);
  }
  if (keep) setSelectValue(select, keep, { quiet: true });
}

/** Selects a value, adding it as an option when the catalog lacks it (so a link keeps its state
 *  and the analyzer explains what is wrong with it). */
export function setSelectValue(select, value, { quiet = false } = {}) {
  if (value === null || value === undefined || value === '') return;
  const found = [...select.options].some((o) => o.value === value);
  if (!found) {
    if (quiet) return;
    select.append(h('option', { value }, `${value} (not in the catalog)`));
  }
  select.value = value;
}

export function numberField({ id, label, value = '', min, max, step = 'any', unit, testid, hint, placeholder }) {
  const described = [unit ? `${id}-unit` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  const input = h('input', { id, name: id, type: 'number', inputmode: 'decimal', testid: testid ?? id, min, max, step, placeholder, 'aria-describedby': described || null });
  input.value = value;
  const control = unit ? h('div', { class: 'with-unit' }, input, h('span', { class: 'unit', id: `${id}-unit` }, unit)) : input;
  const wrap = h('div', { class: 'field' }, h('label', { for: id }, label), control,
    hint ? h('small', { class: 'hint', id: `${id}-hint` }, hint) : null);
  return { wrap, input };
}

/** A table whose wrapper scrolls horizontally on narrow screens, with CSV and JSON downloads
 *  (export: false leaves them out) of records, the answer's objects it shows, where given. */
export function table({ caption, head, rows, testid, className, exportName, records, export: withExport = true }) {
  const t = h('table', { class: className, testid },
    caption ? h('caption', null, caption) : null,
    h('thead', null, h('tr', null, head.map((c) => (typeof c === 'string' ? h('th', { scope: 'col' }, c) : c)))),
    h('tbody', null, rows));
  const scroll = h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption ?? 'table' }, t);
  if (!withExport) return scroll;
  return h('div', { class: 'table-block' }, scroll, exportTools(t, exportName ?? testid ?? caption, records));
}

/** A definition list of [term, value] pairs. */
export function facts(pairs, className = 'facts') {
  return h('dl', { class: className }, pairs.filter(Boolean).map(([term, value, testid]) => [
    h('dt', null, term), h('dd', { testid }, value),
  ]));
}

/** `details` (its summary only) with the nodes of `content()` added when it is first opened (by
 *  its summary, before its toggle event, which page.js reads; or by a script): an answer draws
 *  none of what stays folded. */
export function foldedLater(details, content) {
  let filled = false;
  const fill = () => {
    if (filled) return;
    filled = true;
    append(details, content());
  };
  live(details).addEventListener('click', (e) => { if (e.target.closest('summary')?.parentElement === details) fill(); });
  details.addEventListener('toggle', () => { if (details.open) fill(); });
  return details;
}

export function card(title, ...children) {
  return h('section', { class: 'card' }, title ? h('h3', null, title) : null, children);
}

/** A choice (a select, a checkbox, a radio button): one edit fires input, then change. */
const isChoice = (t) => t?.tagName === 'SELECT' || t?.type === 'checkbox' || t?.type === 'radio';

/** Calls `fn` once per edit of a field inside `node`: a text field's on each input (and on change),
 *  a choice's on its change only, so that one edit asks and draws one answer, after the choice's
 *  own change listeners (which show or hide other fields) have run. */
export function onEdit(node, fn) {
  node.addEventListener('input', (e) => { if (!isChoice(e.target)) fn(e); });
  node.addEventListener('change', fn);
}
