// The module survives a flood of bad input: every answer is a structured error, the next good
// request succeeds, and memory stops growing once the allocator has warmed up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, catalogTexts, load } from './support.mjs';

const { gpufleet } = await load();
const dir = path.join(root, 'tests', 'cases', 'bad');
const badRequests = readdirSync(dir)
  .filter((f) => f.endsWith('.request.json'))
  .map((f) => new Uint8Array(readFileSync(path.join(dir, f))));

function flood(analyzer, count) {
  for (let i = 0; i < count; i++) {
    const answer = JSON.parse(analyzer.analyzeJson(badRequests[i % badRequests.length]));
    assert.equal(answer.ok, false);
    assert.ok(answer.errors.length > 0 && answer.errors[0].code && answer.errors[0].message);
  }
}

test('10,000 bad requests in a row, then a good one', () => {
  const analyzer = gpufleet.createAnalyzer(catalogTexts());
  flood(analyzer, 10000);
  assert.equal(analyzer.analyze({ question: 'validate' }).valid, true);
  const warm = gpufleet.memoryBytes();
  flood(analyzer, 10000);
  assert.equal(gpufleet.memoryBytes(), warm, 'memory grew during the second 10,000 bad requests');
  analyzer.dispose();
});

test('building and freeing analyzers does not leak', () => {
  const texts = catalogTexts();
  for (let i = 0; i < 20; i++) gpufleet.createAnalyzer(texts).dispose();
  const warm = gpufleet.memoryBytes();
  for (let i = 0; i < 100; i++) {
    const analyzer = gpufleet.createAnalyzer(texts);
    assert.equal(analyzer.analyze({ question: 'validate' }).valid, true);
    analyzer.dispose();
  }
  assert.equal(gpufleet.memoryBytes(), warm, 'memory grew while analyzers were built and freed');
});

test('an analyzer used after dispose() throws GpufleetError "disposed", and the module keeps working', () => {
  const texts = catalogTexts();
  const analyzer = gpufleet.createAnalyzer(texts);
  analyzer.dispose();
  for (const call of [() => analyzer.analyzeJson('{"question": "validate"}'), () => analyzer.analyze({ question: 'validate' })]) {
    assert.throws(call, (e) => e.name === 'GpufleetError' && e.code === 'disposed' && /disposed/.test(e.message));
  }
  analyzer.dispose();  // twice is harmless
  const next = gpufleet.createAnalyzer(texts);
  assert.equal(next.analyze({ question: 'validate' }).valid, true);
  next.dispose();
});
