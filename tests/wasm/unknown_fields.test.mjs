// An unknown key is refused at every depth of every question by the WebAssembly core too: each
// object of each golden request that answers (but a Hugging Face config's own keys and the native
// accuracy harness's cases) gets a key no definition names, and the answer names that key at its
// JSON pointer, with a key that is allowed there (tests/unit/request_fields_test.cpp does the same natively).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, catalogTexts, load } from './support.mjs';

const { gpufleet } = await load();
const analyzer = gpufleet.createAnalyzer(catalogTexts());
const casesDir = path.join(root, 'tests', 'cases');
const ask = (request) => JSON.parse(analyzer.analyzeJson(JSON.stringify(request)));

function objectsOf(value, pointer, out) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => objectsOf(item, `${pointer}/${i}`, out));
  } else if (value !== null && typeof value === 'object') {
    out.push(pointer);
    for (const [key, member] of Object.entries(value)) {
      if (key !== 'hf_config' && !(pointer === '' && key === 'cases')) objectsOf(member, `${pointer}/${key}`, out);
    }
  }
  return out;
}

const at = (doc, pointer) => pointer.split('/').slice(1).reduce((node, key) => node[key], doc);

test('every object of every answering golden request refuses an unknown key, named at its pointer', () => {
  let objects = 0;
  const questions = new Set();
  for (const file of readdirSync(casesDir).filter((f) => f.endsWith('.request.json') && !f.startsWith('bad_')).sort()) {
    const request = JSON.parse(readFileSync(path.join(casesDir, file), 'utf8'));
    if (ask(request).ok !== true) continue;  // the bad cases, and the native-only accuracy harness
    questions.add(request.question);
    for (const pointer of objectsOf(request, '', [])) {
      const edited = structuredClone(request);
      const target = at(edited, pointer);
      const sibling = Object.keys(target).find((k) => k !== 'question') ?? '';  // a key allowed there
      target.zz_not_a_field = 1;
      const answer = ask(edited);
      assert.equal(answer.ok, false, `${file} ${pointer}`);
      const named = answer.errors.find((e) => e.code === 'unknown_field' && e.path === `${pointer}/zz_not_a_field`);
      assert.ok(named, `${file} ${pointer}: ${JSON.stringify(answer.errors)}`);
      assert.ok(named.message.includes('zz_not_a_field') && named.message.includes(sibling), `${file} ${pointer}: ${named.message}`);
      objects += 1;
    }
  }
  assert.ok(questions.size >= 15, `questions ${[...questions].join(', ')}`);
  assert.ok(objects >= 60, `objects ${objects}`);
});
