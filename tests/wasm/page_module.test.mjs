// The page's module (build-wasm/wasm/page/, staged as the site's gpufleet/) is built without the
// questions no view of the page asks and those of the later views and tools (kPageLeavesOut in
// core/src/api/analyzer.cpp), which the page asks of the full module in a Web Worker (IN_WORKER in
// web/app/catalog-store.js): every other golden case it answers byte for byte as the full module
// does, the left-out ones it refuses saying where to ask them, and every question the page's code
// asks is one it answers or one for the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, wasmDir, catalogTexts, load } from './support.mjs';

const { IN_WORKER } = await import('../../web/app/catalog-store.js');
const LEFT_OUT = ['cost', 'performance', 'right_size', 'estimate', ...IN_WORKER];
const texts = catalogTexts();
const page = (await load(path.join(wasmDir, 'page'))).gpufleet.createAnalyzer(texts);
const full = (await load()).gpufleet.createAnalyzer(texts);
const casesDir = path.join(root, 'tests', 'cases');
const requests = readdirSync(casesDir).filter((f) => f.endsWith('.request.json')).sort();
const questionOf = (request) => { try { return JSON.parse(request).question; } catch { return undefined; } };

test('the golden cases: the same answer as the full module, or a refusal naming where to ask', () => {
  let same = 0;
  let refused = 0;
  for (const file of requests) {
    const request = readFileSync(path.join(casesDir, file), 'utf8');
    const answer = page.analyzeJson(request);
    if (LEFT_OUT.includes(questionOf(request))) {
      const { ok, errors } = JSON.parse(answer);
      assert.equal(ok, false, file);
      assert.deepEqual([errors[0].code, errors[0].path], ['unknown_name', '/question'], file);
      assert.match(errors[0].message, /gpufleet\/all\/gpufleet\.js.*npm package.*CLI/, file);
      refused++;
    } else {
      assert.equal(answer, full.analyzeJson(request), file);
      same++;
    }
  }
  assert.ok(same >= 10 && refused >= 1, `${same} answered alike, ${refused} refused`);
});

test('every question the page asks is one its module answers', () => {
  const asked = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.js')) for (const m of readFileSync(file, 'utf8').matchAll(/question: '([a-z_]+)'/g)) asked.add(m[1]);
    }
  };
  walk(path.join(root, 'web'));
  assert.ok(asked.has('fit') && asked.has('recommend') && asked.has('spot'), [...asked].join(' '));
  for (const question of asked) {
    assert.ok(IN_WORKER.has(question) || !LEFT_OUT.includes(question), `the page asks "${question}", which its module leaves out`);
  }
});

test('a left-out question is refused by the page module and answered by the full one', () => {
  for (const request of [{ question: 'cost', instance: 'P5', gpus: 8 },
    { question: 'spot', model: { name: 'llama-3.1-8b' }, workload: 'inference', demand: { requests_per_s: 20 }, instance_types: ['g5.xlarge'] }]) {
    assert.equal(page.ask(request).errors[0].code, 'unknown_name', request.question);
    assert.equal(full.ask(request).ok, true, JSON.stringify(full.ask(request).errors));
  }
});
