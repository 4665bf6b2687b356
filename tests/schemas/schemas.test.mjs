// The JSON Schemas of config/schemas/ (generated from the core's field definitions, scripts/update-schemas)
// checked with ajv, a validator of the npm ecosystem: the shipped catalogs and every price file
// pass; every golden request and response passes; each fault of the bad-input corpus that a schema
// can express is refused by the schema as by the core; a typo in a catalog fails both the schema and
// `gpufleet catalog check` (the native CLI: BUILD_DIR, default build/), with file and path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { BEYOND_GOLDENS } from './beyond-goldens.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const config = path.join(root, 'config');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

// Strict, except that a defined field may also match the free-text pattern (price_notes: a string either way).
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, allowMatchingProperties: true });
const names = ['gpu_instances', 'model_config', 'workloads', 'prices', 'request', 'response'];
const validate = Object.fromEntries(
  names.map((name) => [name, ajv.compile(readJson(path.join(config, 'schemas', `${name}.schema.json`)))]),
);
const problems = (v) => (v.errors || []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`).join('\n');

function assertValid(name, doc, what) {
  const ok = validate[name](doc);
  assert.ok(ok, `${what} against ${name}.schema.json:\n${problems(validate[name])}`);
}

test('the shipped catalog files pass their schemas and name them with $schema', () => {
  for (const name of ['gpu_instances', 'model_config', 'workloads']) {
    const doc = readJson(path.join(config, `${name}.json`));
    assert.equal(doc.$schema, `./schemas/${name}.schema.json`);
    assert.ok(existsSync(path.join(config, doc.$schema)));
    assertValid(name, doc, `config/${name}.json`);
  }
});

test('every price file passes the price file schema', () => {
  let count = 0;
  for (const provider of readdirSync(path.join(config, 'prices'), { withFileTypes: true })) {
    if (!provider.isDirectory()) continue;
    for (const file of readdirSync(path.join(config, 'prices', provider.name))) {
      if (!file.endsWith('.json')) continue;
      assertValid('prices', readJson(path.join(config, 'prices', provider.name, file)), `prices/${provider.name}/${file}`);
      count += 1;
    }
  }
  assert.ok(count >= 60, `${count} price files`);
});

const cases = path.join(root, 'tests', 'cases');
const golden = readdirSync(cases).filter((f) => f.endsWith('.request.json')).map((f) => f.replace(/\.request\.json$/, ''));

test('every golden request the core answers passes the request schema; every refused one that a schema can express fails it', () => {
  assert.ok(golden.length >= 20);
  for (const name of golden) {
    const expected = readJson(path.join(cases, `${name}.expected.json`));
    let request;
    try {
      request = readJson(path.join(cases, `${name}.request.json`));
    } catch {
      assert.equal(expected.ok, false, `${name}: not JSON, refused by the core`);
      continue;
    }
    if (expected.ok) {
      assertValid('request', request, `tests/cases/${name}.request.json`);
    } else if (!expected.errors.every((e) => ['unknown_name', 'invalid_json'].includes(e.code) || notExpressible.paths.some((p) => p.test(e.path)))) {
      assert.equal(validate.request(request), false, `${name}: the core refuses it (${JSON.stringify(expected.errors)}); the schema should`);
    }
  }
});

test('every golden response passes the response schema', () => {
  for (const name of golden) assertValid('response', readJson(path.join(cases, `${name}.expected.json`)), `tests/cases/${name}.expected.json`);
});

test('the response schema refuses an error code the core does not have, and an answer without its catalog', () => {
  assert.equal(validate.response({ ok: false, errors: [{ code: 'oops', file: 'request', path: '', message: 'm' }] }), false);
  assert.equal(validate.response({ ok: true, question: 'fit', result: {} }), false);
});

test('the response schema closes the results the result table lists: a member it lacks, or one missing, fails', () => {
  const fit = readJson(path.join(cases, 'fit_small_g6e.expected.json'));
  assertValid('response', fit, 'fit_small_g6e');
  const misspelled = structuredClone(fit);
  misspelled.result.deployment.memory_per_gpu_gbb = misspelled.result.deployment.memory_per_gpu_gb;
  assert.equal(validate.response(misspelled), false, 'an unknown member of the deployment');
  const missing = structuredClone(fit);
  delete missing.result.cost.usd_per_month;
  assert.equal(validate.response(missing), false, 'a member every cost has');
  const asOther = { ...structuredClone(fit), question: 'cost' };
  assert.equal(validate.response(asOther), false, 'a fit result is not a cost result');
});

test('every question\'s result is closed: each golden answer passes, and fails with a member misspelled or one it must have left out', () => {
  const response = readJson(path.join(config, 'schemas', 'response.schema.json'));
  const answer = response.oneOf.find((b) => b.properties.ok.const === true);
  const closed = answer.allOf.map((b) => b.if.properties.question.const).sort();
  const questions = readJson(path.join(config, 'schemas', 'request.schema.json')).properties.question.enum;
  assert.deepEqual(closed, [...questions].sort(), 'a result row in core/src/api/result_fields.cpp for every question');
  const asked = new Set();
  for (const name of golden) {
    const expected = readJson(path.join(cases, `${name}.expected.json`));
    if (!expected.ok) continue;
    asked.add(expected.question);
    const members = Object.keys(expected.result);
    const required = response.$defs[`${expected.question}_result`].required ?? [];
    assert.ok(members.length > 0, name);
    const misspelled = structuredClone(expected);
    misspelled.result[`${members[0]}s`] = misspelled.result[members[0]];
    assert.equal(validate.response(misspelled), false, `${name}: a result member "${members[0]}s"`);
    for (const key of required) {
      const missing = structuredClone(expected);
      delete missing.result[key];
      assert.equal(validate.response(missing), false, `${name}: without "${key}"`);
    }
  }
  assert.ok(asked.size >= 20, `the goldens ask ${asked.size} questions`);
});

// Faults a JSON Schema cannot express: the text is not JSON a validator can read (syntax, byte-order
// mark, duplicate keys, nesting or size limits), or the value names something another part of the
// catalog defines (unknown_name, duplicate_name: cross-file and case-insensitive references), or it
// lies inside a Hugging Face config.json, which the architecture reader checks (its fields are
// open in the schema).
const notExpressible = {
  codes: new Set(['invalid_json', 'duplicate_key', 'too_deep', 'too_large', 'unknown_name', 'duplicate_name']),
  // hf_config is read by the architecture reader; a profile's length is 24 or 168 values, which the
  // field table's ranges do not say; a placement model is one of two kinds (memory_gb alone, or a
  // workload: placement_model_by_memory, placement_model) and "models" is shared with right_size, a
  // choice the table's schema does not say; a batch job's shortest deadline is its work on the
  // fastest pool, which the road computes; a deploy target applies or not by the answer's provider.
  paths: [/^\/target$/, /\/hf_config\//, /\/profile\/requests_per_s$/, /^\/models\/\d+\/[^/]+$/, /(^|\/jobs\/\d+)\/deadline_hours$/],
};

test('the bad-input corpus: each fault the core refuses, the schema refuses too, where a schema can express it', () => {
  const dir = path.join(cases, 'bad');
  const manifest = readJson(path.join(dir, 'expected.json'));
  const schemaOf = { 'request.json': 'request', 'gpu_instances.json': 'gpu_instances', 'model_config.json': 'model_config', 'workloads.json': 'workloads' };
  let checked = 0;
  const skipped = [];
  for (const [name, want] of Object.entries(manifest)) {
    if (notExpressible.codes.has(want.code) || notExpressible.paths.some((p) => p.test(want.path))) {
      skipped.push(`${name} (${want.code})`);
      continue;
    }
    let doc;
    try {
      doc = JSON.parse(readFileSync(path.join(dir, `${name}.${want.target}`), 'utf8'));
    } catch {
      skipped.push(`${name} (not JSON)`);
      continue;
    }
    const schema = schemaOf[want.target];
    assert.equal(validate[schema](doc), false, `${name}: the core says ${want.code} at ${want.path}; the schema accepts it`);
    // The schema points at the same place: the path itself, or the object holding a missing,
    // unknown or mistyped member.
    const paths = validate[schema].errors.map((e) => e.instancePath);
    const parent = want.path.replace(/\/[^/]*$/, '');
    assert.ok(paths.includes(want.path) || paths.includes(parent), `${name}: core ${want.path}; schema ${paths.join(', ')}`);
    checked += 1;
  }
  assert.ok(checked >= 40, `checked ${checked}; not expressible: ${skipped.join(', ')}`);
});

// The example: a size of G5 priced as on_demand_cost_per_hr (a typo of on_demand_cost_per_hour).
function typoCatalog() {
  const doc = readJson(path.join(config, 'gpu_instances.json'));
  doc.gpu_instances.G5.sizes['g5.2xlarge'].on_demand_cost_per_hr = 1.5;
  return doc;
}

test('a typo in a catalog fails the schema with its path and name', () => {
  assert.equal(validate.gpu_instances(typoCatalog()), false);
  const error = validate.gpu_instances.errors.find((e) => e.params.additionalProperty === 'on_demand_cost_per_hr');
  assert.ok(error, problems(validate.gpu_instances));
  assert.equal(error.instancePath, '/gpu_instances/G5/sizes/g5.2xlarge');
});

const cli = path.join(process.env.BUILD_DIR || path.join(root, 'build'), 'core', 'cli', 'gpufleet');

test('a typo in a catalog fails `gpufleet catalog check` with file and path', { skip: !existsSync(cli) && 'no native CLI built' }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gpufleet-schema-'));
  try {
    cpSync(config, dir, { recursive: true });
    writeFileSync(path.join(dir, 'gpu_instances.json'), JSON.stringify(typoCatalog(), null, 2));
    let out = '';
    let status = 0;
    try {
      execFileSync(cli, ['--json', '--config', dir, 'catalog', 'check'], { encoding: 'utf8' });
    } catch (e) {
      status = e.status;
      out = e.stdout;
    }
    assert.equal(status, 3);
    const answer = JSON.parse(out);
    assert.equal(answer.ok, false);
    const error = answer.errors.find((e) => e.code === 'unknown_field');
    assert.deepEqual([error.file, error.path], ['gpu_instances.json', '/gpu_instances/G5/sizes/g5.2xlarge/on_demand_cost_per_hr']);
    assert.match(error.message, /did you mean "on_demand_cost_per_hour"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the committed schemas are what the core generates', { skip: !existsSync(cli) && 'no native CLI built' }, () => {
  for (const name of names) {
    const generated = execFileSync(cli, ['schema', name], { encoding: 'utf8' });
    assert.equal(generated, readFileSync(path.join(config, 'schemas', `${name}.schema.json`), 'utf8'), `${name}: run scripts/update-schemas`);
  }
});

// The goldens do not take every branch of the code that writes a result: answers to requests
// beyond them (beyond-goldens.mjs: training and batch runs, a commitment, AWS Neuron, a cannot-fit
// migration, every catalog section, both ways of estimate, ...) pass the closed schema too.
test('answers beyond the goldens pass the response schema', { skip: !existsSync(cli) && 'no native CLI built' }, () => {
  const ask = (request) => {
    try {
      return JSON.parse(execFileSync(cli, ['--config', config, 'analyze', '-'], { input: JSON.stringify(request), encoding: 'utf8' }));
    } catch (e) {
      return JSON.parse(e.stdout);
    }
  };
  for (const request of BEYOND_GOLDENS) {
    const answer = ask(request);
    assert.equal(answer.ok, true, `${JSON.stringify(request)}: ${JSON.stringify(answer.errors)}`);
    assertValid('response', answer, JSON.stringify(request));
  }
});

// The core reads a list's values in any case and takes a value's other spellings (the field table's
// "training|pretraining"): the request schema accepts what the core accepts, and still refuses a
// value the core refuses.
test('the request schema takes a value in any case and its other spellings, as the core does', { skip: !existsSync(cli) && 'no native CLI built' }, () => {
  const ask = (request) => {
    try {
      return JSON.parse(execFileSync(cli, ['--config', config, 'analyze', '-'], { input: JSON.stringify(request), encoding: 'utf8' }));
    } catch (e) {
      return JSON.parse(e.stdout);
    }
  };
  const memory = { question: 'memory', model: { name: 'llama-3.1-8b' }, gpu: 'H100' };
  const decide = { question: 'decide', model: { name: 'llama-3.1-8b' }, workload: 'inference' };
  const accepted = [
    { ...memory, workload: 'Fine-Tuning' }, { ...memory, workload: 'PRETRAINING' }, { ...memory, workload: 'batch' },
    { ...memory, mode: 'Full_Fine_Tuning' }, { ...memory, engine: 'vllm', engine_entrypoint: 'Offline' },
    { ...decide, goal: 'Performance' }, { question: 'catalog', section: 'MENUS' },
  ];
  for (const request of accepted) {
    assert.equal(validate.request(request), true, `${JSON.stringify(request)}: ${problems(validate.request)}`);
    assert.equal(ask(request).ok, true, JSON.stringify(request));
  }
  for (const request of [{ ...memory, workload: 'fine tuning' }, { ...decide, goal: 'cheapest' }, { ...memory, mode: 'train' }]) {
    assert.equal(validate.request(request), false, JSON.stringify(request));
    const answer = ask(request);
    assert.equal(answer.ok, false, JSON.stringify(request));
    assert.equal(answer.errors[0].code, 'unknown_name', JSON.stringify(answer.errors));
  }
});
