// The lists of allowed values have one owner, the core's field table (core/src/api/request_fields.cpp):
// the page's module answers them in the catalog's menus (`request`), the same lists the request
// schema and the CLI carry; the page takes the values from there and only names them
// (web/app/names.js), so every value the core lists has a name and no name is of another value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, wasmDir, catalogTexts, load } from './support.mjs';
import { NAMED_VALUES } from '../../web/app/names.js';

const page = (await load(path.join(wasmDir, 'page'))).gpufleet.createAnalyzer(catalogTexts());
const menus = JSON.parse(page.analyzeJson(JSON.stringify({ question: 'catalog', section: 'menus' }))).result;
const schema = JSON.parse(readFileSync(path.join(root, 'config', 'schemas', 'request.schema.json'), 'utf8'));

test('the menus list every question of the request schema, in its order', () => {
  assert.deepEqual(menus.request.questions, schema.properties.question.enum.filter((q) => q !== 'accuracy'));
});

test('each list of values in the menus is the request schema\'s for that field', () => {
  const branch = (q) => schema.allOf.find((b) => b.if.properties.question.const === q).then.properties;
  // A closed list: the canonical values beside a pattern of every spelling in any case (anyOf).
  const values = (s) => s?.enum ?? s?.examples ?? s?.anyOf?.find((a) => a.enum)?.enum;
  const ofSchema = (s) => values(s) ?? values(s.items);
  for (const [key, values] of Object.entries(menus.request.values)) {
    const [owner, field] = key.includes('.') ? key.split('.') : [null, key];
    // A placement model has two forms the schema cannot tell apart (by name, or by memory_gb alone):
    // its items are checked by the core, so the schema carries no definition to compare with.
    if (owner === 'placement_model') continue;
    let s;
    if (!owner) s = branch('recommend')[field] ?? branch('catalog')[field] ?? branch('fit')[field] ?? branch('memory')[field];
    else if (schema.$defs[owner]) s = schema.$defs[owner].properties[field];
    else s = branch(owner)[field];
    assert.ok(s, key);
    assert.deepEqual(values, ofSchema(s), key);
  }
  assert.ok(Object.keys(menus.request.values).length >= 15);
});

test('the page names exactly the values the core lists, and each task has its memory mode', () => {
  for (const [key, names] of Object.entries(NAMED_VALUES)) {
    assert.deepEqual(Object.keys(names).sort(), [...menus.request.values[key]].sort(), key);
  }
  const modes = menus.request.values['memory.mode'];
  for (const t of menus.tasks) assert.ok(modes.includes(t.memory_mode), t.key);
});
