// The facade (wasm/gpufleet.js) builds an analyzer all or nothing: a catalog whose texts cannot be
// read, or whose staging fails half-way, throws and leaves nothing staged, and the next build uses
// exactly its own files. Run against a stand-in core that stages as wasm/bindings.cpp does
// (stand-in-core.mjs; tests/wasm/facade.test.mjs checks the same with the built module).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facade-staging-'));
fs.copyFileSync(path.join(here, '../../wasm/gpufleet.js'), path.join(dir, 'gpufleet.js'));
fs.copyFileSync(path.join(here, 'stand-in-core.mjs'), path.join(dir, 'gpufleet_core.mjs'));
const { loadGpufleet, Analyzer } = await import(pathToFileURL(path.join(dir, 'gpufleet.js')).href);
const { default: createCore, faults } = await import(pathToFileURL(path.join(dir, 'gpufleet_core.mjs')).href);
fs.rmSync(dir, { recursive: true });

const good = {
  gpuInstances: '{"good": "gpu_instances"}', modelConfig: '{"good": "model_config"}', workloads: '{"good": "workloads"}',
  priceFiles: [{ name: 'prices/aws/us-east-1.json', text: '{"region": "us-east-1"}' }, { name: 'prices/gcp/us-central1.json', text: new TextEncoder().encode('{"region": "us-central1"}') }],
};
const goodTexts = ['{"good": "gpu_instances"}', '{"good": "model_config"}', '{"good": "workloads"}',
  'prices/aws/us-east-1.json', '{"region": "us-east-1"}', 'prices/gcp/us-central1.json', '{"region": "us-central1"}'];
const unreadable = { toString() { throw new Error('unreadable text'); } };
const broken = { ...good, gpuInstances: '{"broken":', priceFiles: [good.priceFiles[0], { name: 'prices/aws/eu-west-1.json', text: unreadable }] };

test('a build stages the catalog in order and its analyzer has exactly those texts', async () => {
  const gpufleet = await loadGpufleet();
  assert.deepEqual(gpufleet.createAnalyzer(good).ask({ question: 'texts' }).result, goodTexts);
});

test('a text that cannot be read throws with nothing staged; the next build has exactly its own files', async () => {
  const core = await createCore();
  assert.throws(() => new Analyzer(core, broken), /unreadable text/);
  assert.deepEqual(core.staged(), [], 'nothing is left staged');
  assert.deepEqual(new Analyzer(core, good).ask({ question: 'texts' }).result, goodTexts);
  // Through loadGpufleet, the same.
  const gpufleet = await loadGpufleet();
  assert.throws(() => gpufleet.createAnalyzer(broken), /unreadable text/);
  assert.deepEqual(gpufleet.createAnalyzer(good).ask({ question: 'texts' }).result, goodTexts);
});

test('a core that fails half-way through staging is emptied; the next build has exactly its own files', async () => {
  for (const at of [0, 1, 3, 4, 6]) {
    const core = await createCore();
    faults.stageFailsAt = at;
    try {
      assert.throws(() => new Analyzer(core, { ...good, gpuInstances: '{"first": "attempt"}' }), /cannot grow memory/, `stage ${at}`);
    } finally {
      faults.stageFailsAt = -1;
    }
    assert.deepEqual(core.staged(), [], `nothing is left staged after stage ${at} failed`);
    assert.deepEqual(new Analyzer(core, good).ask({ question: 'texts' }).result, goodTexts, `the build after stage ${at} failed`);
  }
});

test('catalog arguments of the wrong shape throw TypeError with nothing staged', async () => {
  const core = await createCore();
  for (const catalog of [null, 'text', { ...good, priceFiles: 'prices' }, { ...good, priceFiles: [good.priceFiles[0], null] }, { ...good, priceFiles: [7] }]) {
    assert.throws(() => new Analyzer(core, catalog), TypeError, JSON.stringify(catalog));
    assert.deepEqual(core.staged(), []);
  }
  assert.deepEqual(new Analyzer(core, good).ask({ question: 'texts' }).result, goodTexts);
});
