// The bad-input corpus of tests/cases/bad, answered by the WebAssembly core with exactly the codes
// and paths the native test asserts (same manifest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, catalogTexts, load } from './support.mjs';

const { gpufleet } = await load();
const dir = path.join(root, 'tests', 'cases', 'bad');
const manifest = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8'));
const shipped = catalogTexts();
const shippedAnalyzer = gpufleet.createAnalyzer(shipped);
const catalogKey = { 'gpu_instances.json': 'gpuInstances', 'model_config.json': 'modelConfig', 'workloads.json': 'workloads' };

test('the corpus holds at least 50 distinct faults', () => {
  assert.ok(Object.keys(manifest).length >= 50);
});

for (const [name, want] of Object.entries(manifest)) {
  test(`bad input ${name}`, () => {
    // Raw bytes, as an uploaded file arrives: invalid UTF-8 and BOMs reach the core unchanged.
    const bytes = new Uint8Array(readFileSync(path.join(dir, `${name}.${want.target}`)));
    let answer;
    if (want.target === 'request.json') {
      answer = JSON.parse(shippedAnalyzer.analyzeJson(bytes));
      if (name.startsWith('accuracy_')) {
        // The accuracy harness is native only (the module answers that it has none).
        assert.deepEqual([answer.errors[0].code, answer.errors[0].path], ['unknown_name', '/question']);
        return;
      }
    } else {
      const analyzer = gpufleet.createAnalyzer({ ...shipped, [catalogKey[want.target]]: bytes });
      answer = JSON.parse(analyzer.analyzeJson('{"question": "validate"}'));
      analyzer.dispose();
    }
    assert.equal(answer.ok, false);
    const match = answer.errors.find((e) => e.code === want.code && e.file === want.file && e.path === want.path);
    assert.ok(match, `expected ${JSON.stringify(want)}, got ${JSON.stringify(answer.errors)}`);
  });
}
