// The facade over the built module builds analyzers all or nothing: a createAnalyzer call that
// throws half-way leaves nothing staged in the core, and the next analyzer answers from exactly
// its own files (the golden answers). tests/web/facade-staging.test.mjs checks the same against a
// stand-in core, staging failures included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, catalogTexts, load } from './support.mjs';

const { gpufleet } = await load();
const texts = catalogTexts();
const casesDir = path.join(root, 'tests', 'cases');
const compact = (text) => text.replace(/("(?:[^"\\]|\\.)*")|\s+/g, (_, string) => string ?? '');
const golden = (stem) => [readFileSync(path.join(casesDir, `${stem}.request.json`), 'utf8'),
  compact(readFileSync(path.join(casesDir, `${stem}.expected.json`), 'utf8'))];

/** The next analyzer answers the golden cases that read gpu_instances and the price files. */
function answersFromItsOwnFiles(why) {
  const analyzer = gpufleet.createAnalyzer(texts);
  try {
    for (const stem of ['validate', 'cost_seed003_regions']) {
      const [request, expected] = golden(stem);
      assert.equal(analyzer.analyzeJson(request), expected, `${stem} after ${why}`);
    }
  } finally {
    analyzer.dispose();
  }
}

test('a price file whose text cannot be read throws; the next analyzer uses exactly its own files', () => {
  const unreadable = { toString() { throw new Error('unreadable text'); } };
  const broken = {
    ...texts, gpuInstances: '{"broken":',
    priceFiles: [texts.priceFiles[0], { name: 'prices/aws/eu-west-1.json', text: unreadable }, ...texts.priceFiles.slice(1)],
  };
  assert.throws(() => gpufleet.createAnalyzer(broken), /unreadable text/);
  answersFromItsOwnFiles('an unreadable price file');
  assert.throws(() => gpufleet.createAnalyzer({ ...broken, gpuInstances: unreadable }), /unreadable text/);
  answersFromItsOwnFiles('an unreadable gpu_instances.json');
});

test('catalog arguments of the wrong shape throw TypeError; the next analyzer uses exactly its own files', () => {
  for (const catalog of [null, { ...texts, priceFiles: 'prices' }, { ...texts, priceFiles: [texts.priceFiles[0], null] }]) {
    assert.throws(() => gpufleet.createAnalyzer(catalog), TypeError);
    answersFromItsOwnFiles(JSON.stringify(catalog)?.slice(0, 60));
  }
});

test('failed builds in a row leave the module\'s memory where it was', () => {
  answersFromItsOwnFiles('warming up');
  const warm = gpufleet.memoryBytes();
  const unreadable = { toString() { throw new Error('unreadable text'); } };
  for (let i = 0; i < 200; i++) {
    assert.throws(() => gpufleet.createAnalyzer({ ...texts, priceFiles: [...texts.priceFiles, { name: 'x', text: unreadable }] }));
  }
  assert.equal(gpufleet.memoryBytes(), warm, 'memory grew over 200 failed builds');
  answersFromItsOwnFiles('200 failed builds');
});
