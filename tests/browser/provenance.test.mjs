// The page's copies of the two large catalogs (in config/page/catalog.pack, scripts/stage-site.sh)
// hold every figure but no provenance text: the page reads them first, and fetches the whole files
// the first time a source is opened or the Catalog screen is shown, then answers again from them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, cli, open, screen, downloadOf, SITE_DIR } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const LEFT_OUT = "(left out of the page's copy";
// The schemas' mark of a member no reader reads (core/src/api/schema.cpp, the field tables' kInfo).
const UNREAD = 'kept for people: gpufleet reads no value here';

/** The schema of member `key` of an object whose schema is `s` (refs and nullable forms resolved). */
function memberSchema(schema, s, key) {
  const resolve = (n) => {
    while (n && (n.$ref || n.anyOf)) n = n.$ref ? schema.$defs[n.$ref.split('/').pop()] : n.anyOf.find((a) => a.type !== 'null');
    return n ?? {};
  };
  const o = resolve(s);
  if (o.properties?.[key]) return o.properties[key];
  for (const [pattern, sub] of Object.entries(o.patternProperties ?? {})) if (new RegExp(pattern).test(key)) return sub;
  if (Array.isArray(s) || o.type === 'array' || (Array.isArray(o.type) && o.type.includes('array'))) return resolve(o.items);
  return typeof o.additionalProperties === 'object' ? o.additionalProperties : {};
}
const MEMORY = {
  question: 'memory', model: { name: 'llama-3-8b' }, mode: 'inference', weight_format: 'bf16', context: 8192, batch: 1,
  new_tokens: 0, engine: 'transformers', gpu: 'A100-40GB', gpus: 1, tensor_parallel: 1,
};

/** The files of config/page/catalog.pack by name: a first line of JSON naming each file and its
 *  length in bytes, then their bytes. */
function readPack() {
  const pack = fs.readFileSync(path.join(SITE_DIR, 'config/page/catalog.pack'));
  const newline = pack.indexOf(10);
  const files = new Map();
  let at = newline + 1;
  for (const { name, bytes } of JSON.parse(pack.subarray(0, newline).toString('utf8')).files) {
    files.set(name, pack.subarray(at, at += bytes).toString('utf8'));
  }
  assert.equal(at, pack.length, 'the pack ends with its last file');
  return files;
}

/** The catalog files the page requested, in order. */
function recordConfig(page) {
  const fetched = [];
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (p.startsWith('/config/') && !p.startsWith('/config/prices/')) fetched.push(p);
  });
  return fetched;
}

test('the pack holds the served workloads and usual regions\' prices as they are', () => {
  const pack = readPack();
  const index = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'config/prices/index.json'), 'utf8'));
  const usual = Object.values(index.providers).map((p) => `prices/${p.regions[p.default_region].file}`);
  assert.deepEqual([...pack.keys()], ['model_config.json', 'workloads.json', 'gpu_instances.json', 'prices/index.json', ...usual]);
  for (const name of ['workloads.json', 'prices/index.json', ...usual]) {
    assert.equal(pack.get(name), fs.readFileSync(path.join(SITE_DIR, 'config', name), 'utf8'), name);
  }
});

test('the page copies hold the same figures with every provenance text left out', () => {
  const pack = readPack();
  let dropped = 0;
  for (const file of ['gpu_instances.json', 'model_config.json']) {
    const full = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'config', file), 'utf8'));
    const lean = JSON.parse(pack.get(file));
    const schema = JSON.parse(fs.readFileSync(new URL(`../../config/schemas/${file.replace('.json', '.schema.json')}`, import.meta.url), 'utf8'));
    let leftOut = 0;
    const walk = (a, b, at, s = schema) => {
      const text = Array.isArray(b) && b.length === 1 ? b[0] : b;
      if (typeof text === 'string' && text.startsWith(LEFT_OUT)) {
        leftOut++;
        assert.ok(typeof a === 'string' || Array.isArray(a), `${file}${at}: only texts are left out`);
        assert.match(at, /\/(source|sources|notes?|estimates?|about|dates_note|[a-z_]+_(source|notes|estimate))(\/0)?$/, `${file}${at}`);
        return;
      }
      if (a && typeof a === 'object') {
        // Members left out altogether are ones the schema marks unread (kInfo: no reader reads them).
        for (const k of Object.keys(a)) {
          if (Array.isArray(a) || k in b) continue;
          assert.equal(memberSchema(schema, s, k).$comment, UNREAD, `${file}${at}/${k}: left out, but a reader may read it`);
          dropped++;
        }
        const kept = Object.keys(a).filter((k) => Array.isArray(a) || k in b);
        assert.deepEqual(Object.keys(b), kept, `${file}${at}: the same members`);
        for (const k of kept) walk(a[k], b[k], `${at}/${k}`, Array.isArray(a) ? memberSchema(schema, s, '') : memberSchema(schema, s, k));
      } else assert.equal(b, a, `${file}${at}`);
    };
    walk(full, lean, '');
    assert.ok(leftOut > 50, `${file}: ${leftOut} texts left out`);
    assert.ok(Buffer.byteLength(pack.get(file)) < 0.8 * fs.statSync(path.join(SITE_DIR, 'config', file)).size);
  }
  assert.ok(dropped > 100, `${dropped} unread members left out`);
});

test('a source opened fetches the whole catalog once, answers again and shows it open', async () => {
  const page = await env.page();
  const fetched = recordConfig(page);
  await open(page, `${env.origin}/index.html?view=fit&model=llama-3-8b&precision=bf16&input=8192&instance=gpu:A100-40GB`);
  assert.deepEqual(fetched, ['/config/page/catalog.pack'], 'the first answer reads one catalog file');
  assert.ok(!fetched.includes('/config/model_config.json'), 'the whole catalog is not fetched before it is needed');
  const details = () => screen(page).locator('details', { hasText: 'Where the architecture comes from' });
  assert.match(await details().textContent(), /left out of the page's copy: config\/model_config\.json gives it/);
  await details().locator('summary').click();
  const expected = cli(MEMORY).result.model.source;
  await page.waitForFunction(() => [...document.querySelectorAll('details[open]')].some((d) => d.textContent.includes('Where the architecture comes from') && !d.textContent.includes("(left out")));
  assert.ok((await details().textContent()).includes(expected.slice(0, 60)));
  assert.equal(await details().evaluate((d) => d.open), true, 'the disclosure opened is open again after the new answer');
  assert.equal(fetched.filter((p) => p === '/config/model_config.json').length, 1);
  // Any other source now shows at once, without another fetch.
  const n = fetched.length;
  await page.getByTestId('tab-catalog').click();
  await page.getByTestId('cat-instances').waitFor();
  assert.equal(fetched.length, n);
});

test('the Catalog screen shows the sources and downloads the whole files', async () => {
  const page = await env.page();
  const fetched = recordConfig(page);
  await open(page, `${env.origin}/index.html?view=catalog`);
  await page.waitForFunction(() => document.querySelector('[data-testid=cat-instances]') && !document.querySelector('#main').textContent.includes("(left out"));
  assert.ok(fetched.includes('/config/gpu_instances.json'));
  const served = fs.readFileSync(path.join(SITE_DIR, 'config/gpu_instances.json'), 'utf8');
  assert.equal((await downloadOf(page, () => page.getByTestId('cat-download-gpu_instances.json').click())).text, served);
  env.checkClean();
});

test('no answer shows a left-out line outside a closed disclosure, in any view', async () => {
  const page = await env.page();
  await open(page, `${env.origin}/index.html?view=deployments&model=llama-3.1-8b&rate=5`);
  for (const view of ['deployments', 'fit', 'compare', 'plan']) {
    await page.getByTestId(`tab-${view}`).click();
    await screen(page).locator('[data-state=ready], .answer, table').first().waitFor().catch(() => {});
    await page.waitForTimeout(300);
    const shown = await page.evaluate((leftOut) => {
      const walker = document.createTreeWalker(document.querySelector('#main'), NodeFilter.SHOW_TEXT);
      const out = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent.includes(leftOut)) continue;
        const details = n.parentElement.closest('details');
        const inSummary = n.parentElement.closest('summary');
        if (!details || inSummary) out.push(n.textContent.slice(0, 120));
      }
      return out;
    }, LEFT_OUT);
    assert.deepEqual(shown, [], `${view}: a left-out line shown outside a disclosure`);
  }
});
