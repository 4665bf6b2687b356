// The golden cases of tests/cases, answered by the WebAssembly core: byte for byte what the
// native analyzer answers (the native golden test checks the same files, pretty-printed; the
// core answers compact JSON, which is the golden text without the whitespace outside strings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, catalogTexts, load } from './support.mjs';

const { facade, gpufleet } = await load();
const analyzer = gpufleet.createAnalyzer(catalogTexts());
const casesDir = path.join(root, 'tests', 'cases');
const compact = (text) => text.replace(/("(?:[^"\\]|\\.)*")|\s+/g, (_, string) => string ?? '');
const requests = readdirSync(casesDir).filter((f) => f.endsWith('.request.json')).sort();

test('there are golden cases to check', () => {
  assert.ok(requests.length >= 10, `only ${requests.length} cases`);
});

for (const file of requests) {
  const stem = file.slice(0, -'.request.json'.length);
  test(`golden case ${stem}`, () => {
    const request = readFileSync(path.join(casesDir, file), 'utf8');
    const expected = readFileSync(path.join(casesDir, `${stem}.expected.json`), 'utf8');
    if (/"question"\s*:\s*"accuracy"/.test(request)) {
      // The accuracy harness is native only: the module says where to run it.
      const answer = JSON.parse(analyzer.analyzeJson(request));
      assert.equal(answer.ok, false);
      assert.deepEqual([answer.errors[0].code, answer.errors[0].path], ['unknown_name', '/question']);
      assert.match(answer.errors[0].message, /gpufleet accuracy/);
      return;
    }
    assert.equal(analyzer.analyzeJson(request), compact(expected));
  });
}

test('analyze() throws GpufleetError with code, file and path', () => {
  assert.throws(
    () => analyzer.analyze({ question: 'fit', model: { size: 'small' }, workload: 'inference', precision: 'fp16', instance: 'P99' }),
    (e) => e instanceof facade.GpufleetError && e.code === 'unknown_name' && e.file === 'request' && e.path === '/instance',
  );
});

test('a broken catalog is reported from every question, with file and path', () => {
  const texts = catalogTexts();
  const doc = JSON.parse(texts.gpuInstances);
  doc.gpu_instances.P5.spot_cost_per_hour = 'abc';
  const broken = gpufleet.createAnalyzer({ ...texts, gpuInstances: JSON.stringify(doc) });
  const response = broken.ask({ question: 'validate' });
  assert.equal(response.ok, false);
  assert.equal(response.errors[0].file, 'gpu_instances.json');
  assert.equal(response.errors[0].path, '/gpu_instances/P5/spot_cost_per_hour');
  broken.dispose();
});

test('numbers the module reads through JavaScript (wasm/strtod.cpp): long, tiny, huge', () => {
  const hours = (text) => JSON.parse(analyzer.analyzeJson(`{"question":"cost","instance":"P5","gpus":8,"hours_per_month":${text}}`));
  assert.equal(hours(`5${'0'.repeat(200000)}e-199998`).result.cost.monthly_hours, 500);
  assert.equal(hours(`0.${'0'.repeat(100000)}1e100003`).result.cost.monthly_hours, 100);
  assert.equal(hours('123456789012345678901234e-21').result.cost.monthly_hours, 123.46);
  assert.equal(hours('1e400').errors[0].code, 'invalid_json');
  assert.equal(hours('1e-400').errors[0].code, 'out_of_range');
  assert.equal(analyzer.analyze({ question: 'validate' }).valid, true);
});

test('bad input never aborts the module: the next call still works', () => {
  const bad = ['{', '', '[]', '{"question": 1}', '\u0000', '{"question": "fit", "gpus": 1e999}', 'null'];
  for (let i = 0; i < 2000; i++) {
    const response = JSON.parse(analyzer.analyzeJson(bad[i % bad.length]));
    assert.equal(response.ok, false);
  }
  assert.equal(analyzer.analyze({ question: 'validate' }).valid, true);
});
