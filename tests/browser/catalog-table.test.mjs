// The Catalog as a table people know (issue 37): sorted by a heading, filtered by name, provider,
// region, accelerator, memory and price, columns chosen, each note written once, the concrete
// models listed; against the CLI's catalog answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, numberIn, screenshot } from './helpers.mjs';

let env;
let all;
before(async () => {
  env = await setup();
  all = cli({ question: 'catalog', section: 'all' }).result;
});
after(async () => { await env?.close(); });

const rowsOf = (page) => page.locator('[data-testid^=cat-row-]').evaluateAll((rs) => rs.map((r) => r.dataset.testid.slice('cat-row-'.length)));
const byName = () => Object.fromEntries(all.instances.map((i) => [i.instance, i]));
const column = async (page, head) => {
  const heads = await page.getByTestId('cat-instances').locator('thead th').allTextContents();
  const at = heads.indexOf(head);
  assert.ok(at >= 0, `a ${head} column in ${heads}`);
  return page.getByTestId('cat-instances').locator(`tbody tr > :nth-child(${at + 1})`).allTextContents();
};
const sorted = (list, dir = 1) => list.every((v, i) => i === 0 || dir * (v - list[i - 1]) >= 0);

test('sorted by a heading, filtered, columns chosen, notes once, models listed', async () => {
  const page = await env.page('index.html?view=catalog');
  // The full catalog (with its sources) replaces the page's lean copy.
  await page.waitForFunction(() => document.querySelector('[data-testid=cat-instances]') && !document.querySelector('#main').textContent.includes('(left out'));
  const shown = await rowsOf(page);
  assert.equal(shown.length, all.instances.length, 'every instance of the CLI\'s catalog');
  // Sorted by on-demand price at first (priced rows first), then by a click on a heading.
  const price = (name) => byName()[name].on_demand_usd_per_hour;
  assert.ok(sorted(shown.map(price).filter((p) => p != null)), 'cheapest first');
  await page.getByTestId('cat-sort-memory').click();
  const mem = (await rowsOf(page)).map((n) => byName()[n].memory_per_gpu_gb);
  assert.ok(sorted(mem), 'memory per GPU ascending');
  assert.equal(await page.getByTestId('cat-sort-memory').locator('..').getAttribute('aria-sort'), 'ascending');
  await page.getByTestId('cat-sort-memory').click();
  assert.ok(sorted((await rowsOf(page)).map((n) => byName()[n].memory_per_gpu_gb), -1), 'descending on a second click');

  // Filters: provider, memory, price, accelerator, name.
  const provider = all.instances.find((i) => i.provider !== all.instances[0].provider).provider;
  await page.getByTestId('cat-provider').selectOption(provider);
  let rows = await rowsOf(page);
  assert.equal(rows.length, all.instances.filter((i) => i.provider === provider).length);
  assert.ok(rows.every((n) => byName()[n].provider === provider));
  await page.getByTestId('cat-provider').selectOption('');
  await page.getByTestId('cat-min-memory').fill('80');
  await page.getByTestId('cat-max-price').fill('40');
  rows = await rowsOf(page);
  const want = all.instances.filter((i) => i.memory_per_gpu_gb >= 80 && i.on_demand_usd_per_hour != null && i.on_demand_usd_per_hour <= 40);
  assert.deepEqual([...rows].sort(), want.map((i) => i.instance).sort());
  assert.ok(rows.length > 0);
  assert.match(await page.locator('.catalog-browser h3').first().textContent(), new RegExp(`^Instances \\(${rows.length} of ${all.instances.length}\\)`));
  await page.getByTestId('cat-min-memory').fill('');
  await page.getByTestId('cat-max-price').fill('');
  const gpu = all.instances.find((i) => i.gpu_type === 'NVIDIA H100')?.gpu_type ?? all.instances[0].gpu_type;
  await page.getByTestId('cat-accelerator').selectOption(gpu);
  assert.ok((await rowsOf(page)).every((n) => byName()[n].gpu_type === gpu));
  await page.getByTestId('cat-accelerator').selectOption('');
  await page.getByTestId('cat-search').fill('p5');
  assert.ok((await rowsOf(page)).every((n) => /p5/i.test(`${n} ${byName()[n].family}`)));
  await page.getByTestId('cat-search').fill('');

  // Columns: the GPU column off and vCPUs on; the instance and price stay.
  await page.locator('.columns-choice summary').click();
  await page.getByTestId('cat-col-gpu').uncheck();
  await page.getByTestId('cat-col-vcpus').check();
  const heads = await page.getByTestId('cat-instances').locator('thead th').allTextContents();
  assert.ok(!heads.includes('GPU') && heads.includes('vCPUs') && heads.includes('Instance') && heads.includes('On-demand'));
  const vcpus = await column(page, 'vCPUs');
  assert.deepEqual(vcpus.map(numberIn), (await rowsOf(page)).map((n) => byName()[n].vcpus));

  // Each note once: the list under the table has each distinct note and source one time.
  const notes = await page.getByTestId('cat-notes').locator('li').allTextContents();
  const distinct = new Set(all.instances.flatMap((i) => [i.price_notes, i.source]).filter(Boolean));
  assert.equal(notes.length, distinct.size);
  assert.equal(new Set(notes).size, notes.length);
  const longest = [...distinct].sort((a, b) => b.length - a.length)[0];
  const times = await page.getByTestId('catalog-result').evaluate((r, t) => r.textContent.split(t).length - 1, longest);
  assert.equal(times, 1, 'the longest note is written once');

  // The concrete models.
  const models = await page.locator('[data-testid^=cat-model-]').count();
  assert.equal(models, all.concrete_models.length);
  assert.ok(models > 4, 'more than the size classes');
  await screenshot(page, 'catalog-table');
  env.checkClean();
});
