// web/app/dom.js onEdit on the stand-in DOM: one call per edit of a choice (a select or checkbox
// fires input, then change), one per input of a text field and its change, and a choice's own
// change listeners run before the call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install } from './dom-stand-in.mjs';

install();
const { h, onEdit } = await import('../../web/app/dom.js');

/** The form, its fields and the calls onEdit made (with what the choice's listener had set). */
function form() {
  const select = h('select', null, h('option', { value: 'a' }, 'A'), h('option', { value: 'b' }, 'B'));
  const box = h('input', { type: 'checkbox' });
  const text = h('input', { type: 'number' });
  const node = h('form', null, select, box, text);
  const calls = [];
  let synced = null;
  select.addEventListener('change', () => { synced = select.value; });
  onEdit(node, (e) => calls.push({ target: e.target, type: e.type, synced }));
  return { node, select, box, text, calls };
}
const edit = (field, value) => {
  if (field.type === 'checkbox') field.checked = value;
  else field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
};

test('a select or a checkbox answers once per edit, on change, after its own listeners', () => {
  const { select, box, calls } = form();
  edit(select, 'b');
  assert.deepEqual(calls.map((c) => [c.type, c.synced]), [['change', 'b']]);
  edit(box, true);
  assert.equal(calls.length, 2);
  assert.equal(calls[1].target, box);
});

test('a text field answers on each input, and on its change', () => {
  const { text, calls } = form();
  for (const v of ['2', '25', '250']) {
    text.value = v;
    text.dispatchEvent(new Event('input', { bubbles: true }));
  }
  text.dispatchEvent(new Event('change', { bubbles: true }));
  assert.deepEqual(calls.map((c) => c.type), ['input', 'input', 'input', 'change']);
});

test('foldedLater builds a disclosure\'s content when it is first opened, once', async () => {
  const { foldedLater } = await import('../../web/app/dom.js');
  let built = 0;
  const details = foldedLater(h('details', null, h('summary', null, 'More')), () => { built += 1; return [h('p', null, 'one'), null, [h('p', null, 'two')]]; });
  assert.equal(built, 0);
  assert.equal(details.textContent, 'More');
  details.querySelector('p')?.click();
  details.querySelector('summary').click();
  assert.equal(details.textContent, 'Moreonetwo');
  details.open = true;
  details.dispatchEvent(new Event('toggle'));
  details.querySelector('summary').click();
  assert.equal(built, 1);
  // Opened by a script: its toggle event.
  const other = foldedLater(h('details', null, h('summary', null, 'More')), () => h('p', null, 'three'));
  other.open = true;
  other.dispatchEvent(new Event('toggle'));
  assert.equal(other.textContent, 'Morethree');
});
