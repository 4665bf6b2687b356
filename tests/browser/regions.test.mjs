// Regions: the usual regions' prices load with the page; another region's file is fetched when
// chosen, every priced answer moves to it, the link keeps it, and the header says how old prices are.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, text } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const basis = (page) => text(page, 'fit-cost-basis');

test('choosing a region fetches its prices once and reprices the answer; the link keeps it', async () => {
  const page = await env.page('index.html?view=fit&instance=g5.xlarge');
  const fetched = [];
  page.on('request', (r) => { if (r.url().includes('/config/prices/')) fetched.push(new URL(r.url()).pathname); });
  const usual = cli({ question: 'cost', instance: 'g5.xlarge' }).result.cost;
  assert.match(await basis(page), new RegExp(`\\$${usual.on_demand_usd_per_hour}/h`));
  assert.match(await text(page, 'prices-age'), /date unknown|prices as of/);

  const ireland = cli({ question: 'cost', instance: 'g5.xlarge', region: 'eu-west-1' }).result.cost;
  assert.notEqual(ireland.on_demand_usd_per_hour, usual.on_demand_usd_per_hour);
  await page.getByTestId('region').selectOption('eu-west-1');
  await page.waitForFunction((rate) => document.querySelector('[data-testid=fit-cost-basis]')?.textContent.includes(`$${rate}/h`),
    ireland.on_demand_usd_per_hour, { timeout: 20000 });
  assert.deepEqual(fetched, ['/config/prices/aws/eu-west-1.json']);
  assert.equal(new URL(page.url()).searchParams.get('region'), 'eu-west-1');

  // Back to the usual regions: nothing fetched again.
  await page.getByTestId('region').selectOption('');
  await page.waitForFunction((rate) => document.querySelector('[data-testid=fit-cost-basis]')?.textContent.includes(`$${rate}/h`),
    usual.on_demand_usd_per_hour, { timeout: 20000 });
  assert.equal(fetched.length, 1);

  const copy = await env.page('index.html?view=fit&instance=g5.xlarge&region=eu-west-1');
  assert.match(await basis(copy), new RegExp(`\\$${ireland.on_demand_usd_per_hour}/h`));
  assert.equal(await copy.getByTestId('region').inputValue(), 'eu-west-1');
});

test('a flagged price is said beside the cost and not used; "any instance with this GPU" puts it last', async () => {
  // GCP's a3-highgpu-8g lists half its list price in us-central1 (cross_region_price).
  const page = await env.page('index.html?view=fit&instance=a3-highgpu-8g');
  const flag = await text(page, 'fit-cost-price-flag');
  assert.match(flag, /Suspect price: .*far below/);
  const all = cli({ question: 'cost', instance: 'a3-highgpu-8g' }).result;
  assert.equal(all.price_flags[0].code, 'cross_region_price');
  // The page loads the usual region only: no trustworthy price there, so none is used.
  assert.match(flag, /Not used/);
  assert.doesNotMatch(await basis(page), /\$43\.07/);
});
