// Regions: the usual regions' prices load with the page; another region's file is fetched when
// chosen, every priced answer moves to it, the link keeps it, and the header says how old prices are.
// The Regions view: its placement, costs and refusals equal the CLI's `regions` answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, showAll, linkOf, cli, text, assertNear, afterChange, screen, screenshot } from './helpers.mjs';

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
  assert.equal(new URL(await linkOf(page)).searchParams.get('region'), 'eu-west-1');

  // Back to the usual regions: nothing fetched again.
  await page.getByTestId('region').selectOption('');
  await page.waitForFunction((rate) => document.querySelector('[data-testid=fit-cost-basis]')?.textContent.includes(`$${rate}/h`),
    usual.on_demand_usd_per_hour, { timeout: 20000 });
  assert.equal(fetched.length, 1);

  const copy = await env.page('index.html?view=fit&instance=g5.xlarge&region=eu-west-1');
  assert.match(await basis(copy), new RegExp(`\\$${ireland.on_demand_usd_per_hour}/h`));
  assert.equal(await copy.getByTestId('region').inputValue(), 'eu-west-1');
});

test('a flagged price is said beside the cost and not used: priced from its provider\'s cheapest trustworthy region, as the CLI does', async () => {
  // GCP's a3-highgpu-8g lists half its list price in us-central1 (cross_region_price).
  const page = await env.page('index.html?view=fit&instance=a3-highgpu-8g');
  const flag = await text(page, 'fit-cost-price-flag');
  assert.match(flag, /Suspect price: .*far below/);
  const all = cli({ question: 'cost', instance: 'a3-highgpu-8g' }).result;
  assert.equal(all.price_flags[0].code, 'cross_region_price');
  // Not used: the page loads the provider's other regions and prices it from the cheapest
  // trustworthy one, as the CLI does.
  assert.match(flag, /Not used/);
  assert.doesNotMatch(await basis(page), /\$43\.07/);
  assert.ok(all.cost.priced_from_region, 'the CLI prices it from another region');
  assert.match(flag, new RegExp(`priced as in ${all.cost.priced_from_region}`));
  assert.match(await basis(page), new RegExp(`\\$${all.cost.on_demand_usd_per_hour}/h`));
});

const placed = (page) => page.getByTestId('regions-result').and(page.locator('[data-state=ready]')).waitFor({ timeout: 20000 });
const regionsAsked = async (page) => JSON.parse(await page.getByTestId('rg-request').textContent());

test('the Regions view places seed 003\'s service as the CLI does: region, replicas, RTT and costs', async () => {
  const page = await env.page(`index.html?view=regions&model=llama-3.1-8b&rps=2&type=g5.xlarge&candidates=us-east-1,us-west-2&users=${encodeURIComponent('us-east-1 0.6; us-west-2 0.4')}`);
  await placed(page);
  const request = await regionsAsked(page);
  assert.deepEqual(request.users, [{ region: 'us-east-1', share: 0.6 }, { region: 'us-west-2', share: 0.4 }]);
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const r = expected.result;
  assert.equal(await text(page, 'rg-status'), r.status);
  assert.equal(await text(page, 'rg-where'), r.regions_chosen.map((c) => c.region).join(', '));
  assertNear(await text(page, 'rg-total'), r.totals.usd_per_month, 0.005, 'total');
  assertNear(await text(page, 'rg-compute'), r.totals.compute_usd_per_month, 0.005, 'compute');
  assertNear(await text(page, 'rg-egress'), r.totals.egress_usd_per_month, 0.005, 'egress');
  assert.equal(await text(page, 'rg-band'), r.band.text, 'the band at the measured error, as the CLI says it');
  for (const c of r.regions_chosen) {
    assertNear(await text(page, `rg-chosen-${c.region}-usd`), c.usd_per_month, 0.005, `${c.region} compute`);
    assertNear(await text(page, `rg-chosen-${c.region}-replicas`), c.replicas, 0, `${c.region} replicas`);
    assertNear(await text(page, `rg-chosen-${c.region}-ttft`), c.p95_ttft_with_rtt_ms, 0.05, `${c.region} TTFT + RTT`);
  }
  await showAll(page, 'rg-regions');
  for (const row of r.regions) {
    assertNear(await text(page, `rg-region-${row.region}-od`), row.usd_per_hour.on_demand, 0.00005, `${row.region} on demand`);
    for (const u of row.rtt_from_users ?? []) assert.match(await text(page, `rg-region-${row.region}-rtt`), new RegExp(`${u.rtt_ms_estimate} ms from ${u.users}`));
  }
  env.checkClean();
});

test('the Regions view: every region\'s prices fetched once; residency and N+1 priced as the CLI does; a residency without the GPU refused with its way out', async () => {
  const fetched = [];
  const page = await env.page();
  page.on('request', (r) => { if (r.url().includes('/config/prices/')) fetched.push(new URL(r.url()).pathname); });
  await page.goto(`${env.origin}/index.html?view=regions&model=llama-3.1-8b&rps=5&ttft=2000&type=g5.xlarge&geo=eu&users=${encodeURIComponent('48.14 11.58 1')}&failover=1&dataset=500&dataset_from=us-east-1`);
  await placed(page);
  // Every region's file but the usual ones (in the first download), each once.
  assert.equal(new Set(fetched).size, fetched.length, 'a price file fetched twice');
  assert.ok(fetched.length >= 30, `only ${fetched.length} price files fetched`);
  assert.ok(!fetched.includes('/config/prices/aws/us-east-1.json'));
  const request = await regionsAsked(page);
  assert.deepEqual(request.residency, { geo: 'eu' });
  assert.equal(request.failover, true);
  const r = cli(request).result;
  assert.equal(r.status, 'PLACED');
  assert.equal(await text(page, 'rg-where'), r.regions_chosen.map((c) => c.region).join(', '));
  assertNear(await text(page, 'rg-one-time'), r.totals.one_time_usd, 0.005, 'one-time');
  assertNear(await text(page, 'rg-failover-premium'), r.failover.premium_usd_per_month, 0.005, 'N+1 premium');
  assertNear(await text(page, 'rg-total'), r.totals.usd_per_month, 0.005, 'total');
  assert.equal(await text(page, 'rg-users-asked'), '48.14, 11.58 (100%)');
  assert.equal(await text(page, 'rg-residency-asked'), 'eu');
  // g5.xlarge is AWS's, whose regions in the EU are all named eu-*.
  for (const c of r.regions_chosen) assert.match(c.region, /^eu-/, `${c.region} inside the EU residency`);
  await screenshot(page, 'regions');

  const s = screen(page);
  await afterChange(page, 'regions', () => s.getByTestId('rg-instance').selectOption('g6e.xlarge'));
  await afterChange(page, 'regions', () => s.getByTestId('rg-geo').fill('africa'));
  const refused = cli(await regionsAsked(page)).result;
  assert.equal(refused.status, 'CANNOT PLACE');
  assert.equal(await text(page, 'rg-status'), 'CANNOT PLACE');
  assert.match(await text(page, 'rg-refusal'), new RegExp(refused.refusal.slice(1, 30)));
  assert.match(await text(page, 'rg-way-out'), new RegExp(refused.way_out.slice(1, 30).replace(/[()]/g, '.')));
  assert.equal(await page.getByTestId('rg-chosen').count(), 0);
  env.checkClean();
});

test('the Regions view marks a user group\'s unknown region at its field', async () => {
  const page = await env.page('index.html?view=regions&model=llama-3.1-8b&rps=2&type=g5.xlarge&candidates=us-east-1');
  await placed(page);
  const s = screen(page);
  await afterChange(page, 'regions', () => s.getByTestId('rg-users').fill('atlantis 1'));
  const alert = await page.getByTestId('regions-errors').textContent();
  assert.match(alert, /\/users\/0\/region/);
  assert.match(alert, /atlantis/);
  assert.equal(await s.getByTestId('rg-users').getAttribute('aria-invalid'), 'true');
  env.checkClean();
});
