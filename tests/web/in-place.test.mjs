// web/app/in-place.js on the stand-in DOM: a new answer keeps the nodes shown where they are of the
// same kind and writes only what differs; a node with behaviour (live) or a form field is replaced
// whole; an answer's parts built later are built once drawn; nothing waits where nothing is
// known to be outside the window (no IntersectionObserver here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install } from './dom-stand-in.mjs';

const document = install();
const { h } = await import('../../web/app/dom.js');
const { patchChildren, drawAnswer, drawnLater, live } = await import('../../web/app/in-place.js');

/** An answer as a card of figures: a heading, a list of [label, value] and a note. */
const answer = (title, rows, note) => h('section', { class: 'card', testid: 'card' },
  h('h3', null, title),
  h('ul', null, rows.map(([k, v]) => h('li', { 'data-key': k }, `${k}: `, h('strong', null, v)))),
  note ? h('p', { class: 'note' }, note) : null);

test('a new answer keeps the nodes shown and writes only the texts and attributes that differ', () => {
  const shown = h('div');
  document.body.replaceChildren(shown);
  patchChildren(shown, h('div', null, answer('Fits', [['memory', '17.6 GB'], ['cost', '$1,339.92']], 'an estimate')));
  const card = shown.firstElementChild;
  const memory = card.querySelector('strong');
  patchChildren(shown, h('div', null, answer('Fits', [['memory', '9.1 GB'], ['cost', '$1,339.92'], ['gpus', '1']])));
  assert.equal(shown.firstElementChild, card, 'the card is the one shown before');
  assert.equal(card.querySelector('strong'), memory, 'its figure too');
  assert.equal(card.textContent, 'Fitsmemory: 9.1 GBcost: $1,339.92gpus: 1');
  assert.deepEqual(card.querySelectorAll('li').map((li) => li.getAttribute('data-key')), ['memory', 'cost', 'gpus']);
  assert.equal(card.querySelector('p'), null, 'the note the new answer lacks is gone');
});

test('attributes follow the new answer: changed, added and removed', () => {
  const shown = h('div');
  patchChildren(shown, h('div', null, h('span', { class: 'pill risk-low', title: 'low' }, 'low')));
  const pill = shown.firstElementChild;
  patchChildren(shown, h('div', null, h('span', { class: 'pill risk-high', 'aria-label': 'high risk' }, 'high')));
  assert.equal(shown.firstElementChild, pill);
  assert.equal(pill.getAttribute('class'), 'pill risk-high');
  assert.equal(pill.getAttribute('aria-label'), 'high risk');
  assert.equal(pill.hasAttribute('title'), false);
  assert.equal(pill.textContent, 'high');
});

test('a node with behaviour, a form field and a node of another kind are replaced, not kept', () => {
  const shown = h('div');
  const first = () => [live(h('details', null, h('summary', null, 'Why'))), h('button', { type: 'button' }, 'CSV'), h('p', null, 'a')];
  patchChildren(shown, h('div', null, first()));
  const [details, button] = shown.children;
  let pressed = 0;
  const next = [live(h('details', null, h('summary', null, 'Why'))), h('button', { type: 'button', onclick: () => { pressed++; } }, 'CSV'), h('table')];
  patchChildren(shown, h('div', null, next));
  assert.notEqual(shown.children[0], details, 'the live disclosure is the new answer\'s');
  assert.equal(shown.children[0], next[0]);
  assert.notEqual(shown.children[1], button, 'the button is the new answer\'s, with its listener');
  shown.children[1].dispatchEvent(new Event('click'));
  assert.equal(pressed, 1);
  assert.equal(shown.children[2].localName, 'table');
});

test('drawAnswer draws every part, builds those drawn later once, and says when it is done', () => {
  const shown = h('div');
  document.body.replaceChildren(shown);
  let builds = 0;
  let done = 0;
  const parts = (v) => [h('p', { class: 'verdict' }, v), drawnLater(() => { builds++; return h('section', null, `table ${v}`); }), drawnLater(() => null)];
  drawAnswer(shown, parts('one'), () => { done++; });
  assert.equal(shown.textContent, 'onetable one');
  const kept = shown.children[1];
  drawAnswer(shown, parts('two'), () => { done++; });
  assert.equal(shown.textContent, 'twotable two');
  assert.equal(shown.children[1], kept, 'the part built later is drawn in place of the one shown');
  assert.equal(builds, 2);
  assert.equal(done, 2);
});

test('a node a view keeps from one answer to the next stays as it is', () => {
  const shown = h('div');
  const browser = h('section', null, h('input', { type: 'search' }), h('p', null, 'rows'));
  patchChildren(shown, h('div', null, h('p', null, 'info'), browser));
  const search = browser.firstElementChild;
  // The view returns the same node, still on screen, among new ones.
  const fresh = [h('p', null, 'info 2'), browser];
  drawAnswer(shown, fresh);
  assert.equal(shown.children[1], browser);
  assert.equal(browser.firstElementChild, search);
  assert.equal(shown.textContent, 'info 2rows');
});
