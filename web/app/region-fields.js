// What the Spot and Regions views share: a text field bound to one link key (lists of regions and
// instance types, user groups), the price files a list of regions needs, and an interruption band
// said as its interval with source and date.
import { h } from './dom.js';
import * as f from './format.js';
import { regionWanted } from './catalog-store.js';

/** A text input bound to one URL key; `parse` turns its text into the request's value (undefined:
 *  empty, the analyzer's default). */
export function textControl({ id, key, label, hint, placeholder, path, parse = (t) => t }) {
  const input = h('input', { id, name: id, type: 'text', testid: id, placeholder, autocomplete: 'off', spellcheck: false, 'aria-describedby': hint ? `${id}-hint` : null });
  const wrap = h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('small', { class: 'hint', id: `${id}-hint` }, hint) : null);
  return {
    wrap, input, key, label, path: path ?? `/${key}`,
    fill() {},
    fromParams(p) { input.value = p.get(key) ?? ''; },
    toParams(p) { if (input.value.trim() !== '') p.set(key, input.value.trim()); },
    value: () => (input.value.trim() === '' ? undefined : parse(input.value.trim())),
  };
}

/** A checkbox bound to one URL key (`key=1`). */
export function checkControl({ id, key, label, path }) {
  const input = h('input', { id, name: id, type: 'checkbox', testid: id });
  const wrap = h('div', { class: 'field check' }, input, h('label', { for: id }, label));
  return {
    wrap, input, key, label, path: path ?? `/${key}`,
    fill() {},
    fromParams(p) { input.checked = p.get(key) === '1'; },
    toParams(p) { if (input.checked) p.set(key, '1'); },
    value: () => input.checked,
  };
}

/** Names separated by commas or spaces; "all" stays the word. */
export const nameList = (text) => (text.toLowerCase() === 'all' ? 'all' : text.split(/[\s,;]+/).filter(Boolean));

/** The price files a request's regions need ({provider: [region]} or 'all'); names the price
 *  index lacks are left to the core, which names them. */
export function pricesWanted(index, regions) {
  if (regions === 'all') return 'all';
  const out = {};
  for (const name of regions ?? []) {
    const one = regionWanted(index, name);
    if (one && one !== 'all') for (const [p, list] of Object.entries(one)) (out[p] ??= []).push(...list);
  }
  return out;
}

/** An interruption band: "5-10% (AWS Spot Instance Advisor, as of 2025-06-28)", flagged when
 *  stale; a provider without bands says "unknown" and why. */
export function bandCell(band, testid) {
  if (!band || band.label === 'unknown') {
    return h('td', { testid, title: band?.reason ?? '' }, h('span', { class: 'pill risk-medium' }, 'unknown'), band?.reason ? h('span', { class: 'small muted' }, ` ${band.reason}`) : null);
  }
  const interval = `${f.num(band.low_pct, 0)}–${f.num(band.high_pct, 0)}% a month`;
  return h('td', { testid },
    h('span', { testid: testid && `${testid}-label` }, band.label), h('span', { class: 'small' }, ` (${interval})`),
    h('details', { class: 'source' }, h('summary', null, `as of ${band.as_of}`),
      h('p', null, band.source), band.age_days == null ? null : h('p', null, `${f.num(band.age_days, 0)} days before the catalog's date${band.stale ? ': older than 30 days' : ''}.`)));
}

/** "point (low to high)" of a {low, point, high} figure, each formatted by `fmt`. */
export const interval = (v, fmt) => (v ? `${fmt(v.point)} (${fmt(v.low)} to ${fmt(v.high)})` : f.DASH);
