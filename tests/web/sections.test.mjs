// The sections an embed can choose (web/app/sections.js): one list, which the views mark their
// cards with and docs/page.md's table is generated from; a compact value keeps the known ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECTIONS, chosenSections, section } from '../../web/app/sections.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('a compact value keeps the known section ids, in the list\'s order, in any case; none from answer or nonsense', () => {
  assert.deepEqual(chosenSections('cost, VERDICT,nope'), ['verdict', 'cost']);
  assert.deepEqual(chosenSections('answer'), []);
  assert.deepEqual(chosenSections(null), []);
  assert.throws(() => section('nope', {}), /unknown section/);
});

test('every listed section is marked by the views it names, and the views mark no other', () => {
  const used = new Map();
  for (const view of ['fit', 'deployments']) {
    const text = fs.readFileSync(path.join(root, `web/app/screens/${view}.js`), 'utf8');
    for (const [, id] of text.matchAll(/section\('(\w+)'/g)) used.set(id, [...(used.get(id) ?? []), view]);
  }
  for (const s of SECTIONS) assert.deepEqual([...new Set(used.get(s.id))].sort(), [...s.views].sort(), s.id);
  assert.deepEqual([...used.keys()].sort(), SECTIONS.map((s) => s.id).sort());
});

test("docs/page.md's sections table is what web/app/sections.js generates", () => {
  execFileSync(process.execPath, [path.join(root, 'scripts/gen-embed-sections.mjs'), '--check'], { stdio: 'pipe' });
});
