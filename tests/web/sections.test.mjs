// The sections an embed can choose (web/app/sections.js): one list, which the views mark their
// cards with and docs/page.md's table is generated from; a compact value keeps the known ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECTIONS, chosenSections, section } from '../../web/app/sections.js';
import { VIEWS } from '../../web/app/views.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('a compact value keeps the known section ids, in the list\'s order, in any case; none from answer or nonsense', () => {
  assert.deepEqual(chosenSections('cost, VERDICT,nope'), ['verdict', 'cost']);
  assert.deepEqual(chosenSections('answer'), []);
  assert.deepEqual(chosenSections(null), []);
  assert.throws(() => section('nope', {}), /unknown section/);
});

test('every view marks sections; every listed section is marked by the views it names, and the views mark no other', () => {
  const used = new Map();
  // Each view that can be embedded and the file that draws its answer (Compare's: report.js).
  const files = { fit: 'screens/fit.js', deployments: 'screens/deployments.js', compare: 'report.js', plan: 'screens/plan.js',
    autoscale: 'screens/autoscale.js', spot: 'screens/spot.js', regions: 'screens/regions.js', batch: 'screens/batch.js', catalog: 'screens/catalog.js' };
  assert.deepEqual(Object.keys(files).sort(), VIEWS.map((v) => v.id).sort(), 'every view of the page');
  for (const [view, file] of Object.entries(files)) {
    const text = fs.readFileSync(path.join(root, 'web/app', file), 'utf8');
    for (const [, id] of text.matchAll(/section\('(\w+)'/g)) used.set(id, [...(used.get(id) ?? []), view]);
  }
  for (const view of Object.keys(files)) assert.ok([...used.values()].some((v) => v.includes(view)), `${view} marks no section`);
  for (const s of SECTIONS) assert.deepEqual([...new Set(used.get(s.id))].sort(), [...s.views].sort(), s.id);
  assert.deepEqual([...used.keys()].sort(), SECTIONS.map((s) => s.id).sort());
});

test("docs/page.md's sections table is what web/app/sections.js generates", () => {
  execFileSync(process.execPath, [path.join(root, 'scripts/gen-embed-sections.mjs'), '--check'], { stdio: 'pipe' });
});
