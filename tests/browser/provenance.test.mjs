// The page's copies of the two large catalogs (config/page/, scripts/stage-site.sh) hold every
// figure but no provenance text: the page reads them first, and fetches the whole files the
// first time a source is opened or the Catalog screen is shown, then answers again from them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, cli, open, screen, downloadOf, SITE_DIR } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const LEFT_OUT = "(left out of the page's copy";
const MEMORY = {
  question: 'memory', model: { name: 'llama-3-8b' }, mode: 'inference', weight_format: 'bf16', context: 8192, batch: 1,
  new_tokens: 0, engine: 'transformers', gpu: 'A100-40GB', gpus: 1, tensor_parallel: 1,
};

/** The catalog files the page requested, in order. */
function recordConfig(page) {
  const fetched = [];
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (p.startsWith('/config/') && !p.startsWith('/config/prices/')) fetched.push(p);
  });
  return fetched;
}

test('the page copies hold the same figures with every provenance text left out', () => {
  for (const file of ['gpu_instances.json', 'model_config.json']) {
    const full = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'config', file), 'utf8'));
    const lean = JSON.parse(fs.readFileSync(path.join(SITE_DIR, 'config/page', file), 'utf8'));
    let leftOut = 0;
    const walk = (a, b, at) => {
      const text = Array.isArray(b) && b.length === 1 ? b[0] : b;
      if (typeof text === 'string' && text.startsWith(LEFT_OUT)) {
        leftOut++;
        assert.ok(typeof a === 'string' || Array.isArray(a), `${file}${at}: only texts are left out`);
        assert.match(at, /\/(source|sources|notes?|estimates?|about|dates_note|[a-z_]+_(source|notes|estimate))(\/0)?$/, `${file}${at}`);
        return;
      }
      if (a && typeof a === 'object') {
        assert.deepEqual(Object.keys(b), Object.keys(a), `${file}${at}: the same members`);
        for (const k of Object.keys(a)) walk(a[k], b[k], `${at}/${k}`);
      } else assert.equal(b, a, `${file}${at}`);
    };
    walk(full, lean, '');
    assert.ok(leftOut > 50, `${file}: ${leftOut} texts left out`);
    assert.ok(fs.statSync(path.join(SITE_DIR, 'config/page', file)).size < 0.8 * fs.statSync(path.join(SITE_DIR, 'config', file)).size);
  }
});

test('a source opened fetches the whole catalog once, answers again and shows it open', async () => {
  const page = await env.page();
  const fetched = recordConfig(page);
  await open(page, `${env.origin}/index.html?view=fit&model=llama-3-8b&precision=bf16&input=8192&instance=gpu:A100-40GB`);
  assert.ok(fetched.includes('/config/page/model_config.json') && fetched.includes('/config/page/gpu_instances.json'), fetched.join(' '));
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
