// web/app/long-table.js on the stand-in DOM: a long table draws its first rows with the answer and
// the others, in order and once, when asked or before printing; a short one draws every row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install } from './dom-stand-in.mjs';

// No IntersectionObserver here: rows come only when asked, or printed (the window's beforeprint).
const document = install();
const { h } = await import('../../web/app/dom.js');
const { longTable, FIRST_ROWS } = await import('../../web/app/long-table.js');

/** A table of `count` rows (each a main row and a detail row) in the document, and the rows built. */
function shown(count, first, testid = 't') {
  const built = [];
  const block = longTable({ caption: 'Ranked', testid, head: ['#'], records: [] }, {
    count, first, what: 'candidates',
    row: (i) => { built.push(i); return [h('tr', { testid: `t-row-${i}` }, h('td', null, String(i))), h('tr', { class: 'detail-row' })]; },
  });
  document.body.replaceChildren(block);
  const rows = () => block.querySelectorAll('tr').filter((r) => r.dataset.testid?.startsWith('t-row-')).map((r) => r.textContent);
  return { block, built, rows, button: () => block.querySelectorAll('button').find((b) => b.dataset.testid === `${testid}-all`) ?? null };
}

test('a long table draws its first rows, then every row in order once when "Show all" is pressed', () => {
  const t = shown(25);
  assert.equal(FIRST_ROWS, 10);
  assert.deepEqual(t.rows(), Array.from({ length: 10 }, (_, i) => String(i)));
  assert.equal(t.button().textContent, 'Show all 25 candidates');
  assert.match(t.block.textContent, /The first 10 of 25 candidates/);
  t.button().click();
  assert.deepEqual(t.rows(), Array.from({ length: 25 }, (_, i) => String(i)));
  assert.equal(t.button(), null, 'the line and its button are gone');
  assert.deepEqual(t.built, Array.from({ length: 25 }, (_, i) => i), 'each row built once');
  assert.equal(t.block.querySelectorAll('tr.detail-row').length, 25);
});

test('once every row was asked for, the table\'s next answers draw every row at once', () => {
  shown(25, 10, 'asked').button().click();
  const next = shown(25, 10, 'asked');
  assert.equal(next.rows().length, 25);
  assert.equal(next.button(), null);
});

test('printing draws the rest; a table of at most the first rows has no button', () => {
  const t = shown(12, 5, 'printed');
  assert.equal(t.rows().length, 5);
  dispatchEvent(new Event('beforeprint'));
  assert.equal(t.rows().length, 12);
  dispatchEvent(new Event('beforeprint'));
  assert.equal(t.built.length, 12, 'a second print draws nothing more');
  assert.equal(shown(12, 5, 'printed').rows().length, 5, 'printing is not asking: the next answer draws its first rows');
  const all = shown(10, undefined, 'short');
  assert.equal(all.rows().length, 10);
  assert.equal(all.button(), null);
});
