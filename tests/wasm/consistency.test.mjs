// The consistency suite over the WebAssembly core: every setup of
// tests/data/consistency/setups.json asked through every question that can express it, the same
// figure compared wherever two questions report it (docs/road.md, "The consistency suite").
// tests/unit/consistency_test.cpp runs the same file through the native analyzer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, catalogTexts, load } from './support.mjs';
import { runSetup } from './consistency.mjs';

const doc = JSON.parse(readFileSync(path.join(root, 'tests', 'data', 'consistency', 'setups.json'), 'utf8'));
const { gpufleet } = await load();
const analyzer = gpufleet.createAnalyzer(catalogTexts());
const ask = (request) => JSON.parse(analyzer.analyzeJson(JSON.stringify(request)));
const totals = { pass: 0, fail: 0, known: 0, agrees_now: 0, not_applicable: 0 };

test('the suite has at least 40 setups and its comparisons name questions it asks', () => {
  assert.ok(doc.setups.length >= 40, `${doc.setups.length} setups`);
  const ids = doc.setups.map((s) => s.id);
  assert.equal(new Set(ids).size, ids.length, 'setup ids are unique');
  const names = new Set(doc.questions.map((q) => q.name));
  const comparisons = new Set(doc.comparisons.map((c) => c.id));
  for (const c of doc.comparisons) {
    for (const ref of [c.a, c.b].flat()) assert.ok(names.has(ref.slice(0, ref.indexOf(':'))), `${c.id}: ${ref}`);
  }
  for (const s of doc.setups) {
    for (const id of Object.keys(s.known_disagreements ?? {})) assert.ok(comparisons.has(id), `${s.id}: ${id}`);
    for (const q of Object.keys(s.not_expressible ?? {})) assert.ok(names.has(q), `${s.id}: ${q}`);
  }
});

for (const setup of doc.setups) {
  test(`consistency: ${setup.id}`, (t) => {
    const rows = runSetup(doc, setup, ask);
    for (const row of rows) totals[row.status] += 1;
    for (const row of rows.filter((r) => r.status === 'known' || r.status === 'agrees_now')) {
      t.diagnostic(`${row.status === 'known' ? 'known disagreement' : 'agrees now, remove the marker'}: ${row.comparison}: ${JSON.stringify(row.a)} vs ${JSON.stringify(row.b)} (${row.reason})`);
    }
    const failed = rows.filter((r) => r.status === 'fail');
    assert.deepEqual(failed.map((r) => `${r.comparison}: ${JSON.stringify(r.a)} vs ${JSON.stringify(r.b)}${r.reason ? ` (${r.reason})` : ''}`), []);
    assert.ok(rows.some((r) => r.status === 'pass'), 'at least one comparison applies');
  });
}

test('consistency totals', (t) => {
  t.diagnostic(`${doc.setups.length} setups x ${doc.comparisons.length} comparisons: ${JSON.stringify(totals)}`);
  assert.ok(totals.pass >= 500, JSON.stringify(totals));
  analyzer.dispose();
});
