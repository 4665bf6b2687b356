// The model box takes names as people type them (issue 37): Hugging Face ids with or without the
// organisation, -Instruct, spaces and case, short names. The page asks the core's resolver (the
// catalog question's model_name, which the CLI answers too); an unknown name shows the core's
// ranked suggestions and the way out (paste its config.json).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, linkOf, cli, afterChange, screenshot, SITE_DIR } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

// Each typed name and the Hugging Face id of the catalog model it names (the base model the
// -Instruct variant is fine-tuned from: the same architecture).
const TYPED = [
  ['meta-llama/Llama-3.1-8B-Instruct', 'meta-llama/Llama-3.1-8B'],
  ['Llama-3.1-8B-Instruct', 'meta-llama/Llama-3.1-8B'],
  ['llama3 8b', 'meta-llama/Meta-Llama-3-8B'],
  ['Qwen2.5-7B-Instruct', 'Qwen/Qwen2.5-7B'],
  ['google/gemma-2-9b-it', 'google/gemma-2-9b'],
  ['MIXTRAL 8x7B', 'mistralai/Mixtral-8x7B-v0.1'],
];
// And every model by the name the page's lists show (the find box offers them).
const byListedName = () => Object.values(catalogModels()).map((m) => [m.name, m.hf_id]);
const catalogModels = () => JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'config/model_config.json'), 'utf8')).models;
const keyOfHfId = (hf) => Object.entries(catalogModels()).find(([, m]) => m.hf_id === hf)?.[0];

async function typeName(page, name) {
  const find = page.getByTestId('wf-find');
  await find.fill(name);
  await find.press('Enter');
}

test('each name as typed chooses its catalog model, as the CLI resolves it', async () => {
  const page = await env.page('index.html?view=fit');
  for (const [typed, hf] of [...TYPED, ...byListedName().slice(0, 3), ...byListedName().slice(-2)]) {
    const key = keyOfHfId(hf);
    assert.ok(key, `the catalog has ${hf}`);
    const core = cli({ question: 'catalog', section: 'model_name', model_name: typed }).result.model_name;
    assert.equal(core.key, key, `the CLI resolves ${typed}`);
    await afterChange(page, 'fit', () => typeName(page, typed));
    assert.equal(await page.locator('#wf-model').inputValue(), `model:${key}`, typed);
    assert.match(await page.getByTestId('wf-find-status').textContent(), new RegExp(core.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    // The answer is the chosen model's, and the link names it by its key.
    assert.equal(JSON.parse(await page.getByTestId('fit-request').textContent()).model.name, key);
    assert.equal(new URL(await linkOf(page)).searchParams.get('model'), key);
  }
  env.checkClean();
});

test('an unknown name shows the core\'s ranked suggestions and the config.json way out', async () => {
  const page = await env.page('index.html?view=fit');
  const typed = 'llama 3.1 9000b';
  const core = cli({ question: 'catalog', section: 'model_name', model_name: typed }).result.model_name;
  assert.equal(core.key, null);
  await typeName(page, typed);
  const offers = page.getByTestId('wf-find-offers');
  await offers.waitFor();
  assert.match(await page.getByTestId('wf-find-status').textContent(), /not in the catalog/);
  const shown = await offers.locator('[data-testid^=wf-find-suggestion-]').evaluateAll((bs) => bs.map((b) => b.dataset.testid.replace('wf-find-suggestion-', '')));
  assert.deepEqual(shown, core.suggestions.map((s) => s.key), 'the suggestions, in the core\'s order');
  assert.ok(shown.length > 0);
  // A suggestion chooses its model.
  await afterChange(page, 'fit', () => offers.getByTestId(`wf-find-suggestion-${shown[0]}`).click());
  assert.equal(await page.locator('#wf-model').inputValue(), `model:${shown[0]}`);
  // The way out: your own config.json.
  await typeName(page, typed);
  await page.getByTestId('wf-find-config').click();
  assert.equal(await page.locator('#wf-model').inputValue(), 'config');
  assert.equal(await page.getByTestId('wf-config').isVisible(), true);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'wf-config');
  await screenshot(page, 'model-names-unknown');
  env.checkClean();
});
