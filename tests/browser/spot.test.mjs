// Spot: the view asks the core what the native CLI answers for the same request (serving: pools,
// plan, all on demand, all spot; training: each pool's run), shows the bands' date flagged when
// stale, fetches the price files of the regions asked once, and marks a refused field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, showAll, cli, text, assertNear, afterChange, screen, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const ready = (page) => page.getByTestId('spot-result').and(page.locator('[data-state=ready]')).waitFor({ timeout: 20000 });
const asked = async (page) => JSON.parse(await page.getByTestId('spot-request').textContent());
const usdOf = (s) => Number(s.replace(/[$,]|\/month.*$/g, ''));

test('spot serving: pools, plan, all on demand and all spot equal the CLI\'s; the regions\' prices are fetched once', async () => {
  const fetched = [];
  const page = await env.page();
  page.on('request', (r) => { if (r.url().includes('/config/prices/')) fetched.push(new URL(r.url()).pathname); });
  await page.goto(`${env.origin}/index.html?view=spot&model=llama-3.1-8b&rps=20&types=g5.xlarge,g6.xlarge&regions=us-east-1,us-east-2,us-west-2`);
  await ready(page);
  const request = await asked(page);
  assert.equal(request.question, 'spot');
  assert.deepEqual(request.regions, ['us-east-1', 'us-east-2', 'us-west-2']);
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const r = expected.result;
  // us-east-1 is a usual region (in the page's first download); the other two are fetched once.
  assert.deepEqual(fetched.sort(), ['/config/prices/aws/us-east-2.json', '/config/prices/aws/us-west-2.json']);

  await showAll(page, 'spot-pools');
  assert.equal(await page.locator('[data-testid=spot-pools] tbody tr').count(), r.pools.length);
  for (const [i, p] of r.pools.entries()) {
    const row = page.getByTestId(`spot-pool-${i}`);
    assert.match(await row.locator('th').textContent(), new RegExp(`^${p.instance.replace('.', '\\.')}$`));
    assertNear(await text(page, `spot-pool-${i}-od`), p.on_demand_usd_per_hour, 0.00005, `pool ${i} on demand`);
    assertNear(await text(page, `spot-pool-${i}-spot`), p.spot_usd_per_hour, 0.00005, `pool ${i} spot`);
    // The spot price is the region's cheapest zone's: the cell says so, with the zones' median.
    assert.ok(p.spot_zone_median_usd_per_hour >= p.spot_usd_per_hour, `pool ${i}: AWS prices zones`);
    assertNear((await text(page, `spot-pool-${i}-median`)).replace(/^.*median /, ''), p.spot_zone_median_usd_per_hour, 0.00005, `pool ${i} zones' median`);
    assert.equal(await page.getByTestId(`spot-pool-${i}-median`).getAttribute('title'), p.spot_basis);
    assert.equal(await text(page, `spot-pool-${i}-band-label`), p.interruption_band.label);
    assert.match(await text(page, `spot-pool-${i}-band`), new RegExp(`as of ${p.interruption_band.as_of}`));
    assert.match(await text(page, `spot-pool-${i}-same`), new RegExp(`^${p.same_accelerator_instance_types} types${p.below_karpenter_15 ? ' below Karpenter' : '$'}`));
  }
  // The bands' date, flagged: the CLI says they are older than 30 days.
  assert.equal(r.data.stale, true);
  assert.match(await text(page, 'spot-data'), new RegExp(`as of ${r.data.bands_as_of} \\(${r.data.age_days} days`));
  assert.equal(await page.getByTestId('spot-stale').count(), 1);

  const plan = r.plan;
  assertNear(await text(page, 'spot-plan-usd'), plan.usd_per_month.point, 0.005, 'plan point');
  const band = (await text(page, 'spot-plan-band')).split(' to ').map(usdOf);
  assert.deepEqual(band, [plan.usd_per_month.low, plan.usd_per_month.high]);
  assert.ok(plan.usd_per_month.low <= plan.usd_per_month.point && plan.usd_per_month.point <= plan.usd_per_month.high);
  assertNear(await text(page, 'spot-plan-p'), 100 * plan.p_capacity_met, 0.0005, 'P(capacity met)');
  assert.equal(await text(page, 'spot-plan-throughput-band'), plan.band.text, 'the plan at the throughput\'s measured error, as the CLI says it');
  assert.equal(await text(page, 'spot-plan-replicas'), `${plan.on_demand.replicas} on demand + ${plan.replicas_total - plan.on_demand.replicas} spot`);
  assertNear(await text(page, 'spot-compare-on-demand-usd'), r.all_on_demand.usd_per_month, 0.005, 'all on demand');
  assertNear(await text(page, 'spot-compare-spot-usd'), r.all_spot.usd_per_month, 0.005, 'all spot');
  assert.ok(plan.usd_per_month.point <= r.all_on_demand.usd_per_month, 'no plan costs more than all on demand');
  await screenshot(page, 'spot');
  env.checkClean();
});

test('spot training: each pool\'s checkpoint interval, wall time, cost and break-even equal the CLI\'s', async () => {
  const page = await env.page('index.html?view=spot&model=llama-3.1-8b&workload=lora&tokens=0.2&types=g6e.xlarge,g5.2xlarge&regions=us-east-1,us-west-2&ckpt=60&restart=600');
  await ready(page);
  const request = await asked(page);
  assert.equal(request.demand.dataset_tokens, 2e8);
  assert.equal(request.checkpoint_write_s, 60);
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const jobs = expected.result.jobs;
  assert.ok(jobs.length > 0);
  assert.equal(await page.locator('[data-testid=spot-jobs] tbody tr').count(), jobs.length);
  assert.equal(await text(page, 'spot-job-band'), jobs[0].band.text, 'the first run at the measured error');
  for (const [i, j] of jobs.entries()) {
    assertNear(await text(page, `spot-job-${i}-usd`), j.spot_usd.point, 0.005, `job ${i} spot cost`);
    assertNear(await text(page, `spot-job-${i}-od`), j.on_demand_usd, 0.005, `job ${i} on demand`);
    assertNear(await text(page, `spot-job-${i}-ckpt`), j.checkpoint_interval_s.point, 0.05, `job ${i} checkpoint interval`);
    assertNear(await text(page, `spot-job-${i}-wall`), j.wall_hours.point, 0.05, `job ${i} wall hours`);
    assertNear(await text(page, `spot-job-${i}-breakeven`), j.break_even_discount_pct.point, 0.05, `job ${i} break-even`);
  }
  assert.equal(await page.getByTestId('spot-plan').count(), 0);
  env.checkClean();
});

test('spot: a target availability of 1 is marked at its field with the core\'s reason; an unknown region too', async () => {
  const page = await env.page('index.html?view=spot&model=llama-3.1-8b&rps=5&types=g6.xlarge');
  await ready(page);
  const s = screen(page);
  await afterChange(page, 'spot', () => s.getByTestId('spot-target').fill('1'));
  const expected = cli({ ...(await asked(page)), target_availability: 1 });
  assert.equal(expected.ok, false);
  const alert = await page.getByTestId('spot-errors').textContent();
  assert.match(alert, /\/target_availability/);
  assert.match(alert, new RegExp(expected.errors[0].message.slice(0, 40).replace(/[()]/g, '.')));
  assert.equal(await s.getByTestId('spot-target').getAttribute('aria-invalid'), 'true');
  await afterChange(page, 'spot', () => s.getByTestId('spot-target').fill(''));
  await afterChange(page, 'spot', () => s.getByTestId('spot-regions').fill('mars-north-1'));
  assert.match(await page.getByTestId('spot-errors').textContent(), /mars-north-1/);
  env.checkClean();
});
