// Auto-scaling: the view asks the core what the native CLI answers for the same request, draws each
// policy's replicas, marks a profile of the wrong length at its field, and reads a pasted CSV.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openData, cli, text, assertNear, afterChange, screen, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const ready = (page) => page.getByTestId('autoscale-result').and(page.locator('[data-state=ready]')).waitFor();

test('autoscale: the view shows the CLI\'s policies, recommended settings and committed base', async () => {
  const page = await env.page('index.html?view=autoscale&model=llama-3.1-8b&instance=p5.4xlarge&ttft=500');
  await ready(page);
  const request = JSON.parse(await page.getByTestId('as-request').textContent());
  assert.equal(request.question, 'autoscale');
  assert.equal(request.profile.requests_per_s.length, 24);
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const r = expected.result;
  assert.deepEqual(r.policies.map((p) => p.name), ['oracle', 'always_peak', 'target_tracking']);
  for (const p of r.policies) {
    assertNear(await text(page, `as-${p.name}-usd`), p.usd_per_month, 0.005, `${p.name} monthly`);
    assertNear(await text(page, `as-${p.name}-slo`), 100 * p.slo_attainment, 0.05, `${p.name} SLO`);
  }
  assert.equal(await page.locator('[data-testid=as-chart] polyline.chart-step').count(), r.policies.length);
  assert.equal(await text(page, 'as-band'), r.band.text);
  assert.equal(await text(page, 'as-rec-replicas'), `${r.recommended.min_replicas} to ${r.recommended.max_replicas}`);
  assert.equal((await page.getByTestId('as-keda').textContent()).trim(), r.recommended.keda_scaled_object.trim());
  assert.match(await text(page, 'as-base-replicas'), new RegExp(`^${r.committed_base.instances} instances? holding ${r.committed_base.replicas} replicas`));
  await screenshot(page, 'autoscale');
  env.checkClean();
});

test('autoscale: a profile of the wrong length is marked at its field; a pasted CSV answers', async () => {
  const page = await env.page('index.html?view=autoscale&model=llama-3.1-8b&instance=p5.4xlarge');
  await ready(page);
  const s = screen(page);
  await afterChange(page, 'autoscale', () => s.getByTestId('as-profile').fill('1, 2, 3'));
  const alert = await page.getByTestId('autoscale-errors').textContent();
  assert.match(alert, /\/profile\/requests_per_s/);
  assert.match(alert, /24 or 168/);
  assert.equal(await s.getByTestId('as-profile').getAttribute('aria-invalid'), 'true');
  const rows = ['timestamp,requests'];
  for (let hr = 0; hr < 24; hr++) rows.push(`2026-11-01T${String(hr).padStart(2, '0')}:00:00Z,${(hr >= 9 && hr < 18 ? 30 : 6) * 3600}`);
  await afterChange(page, 'autoscale', () => s.getByTestId('as-profile').fill(rows.join('\n')));
  await ready(page);
  const request = JSON.parse(await page.getByTestId('as-request').textContent());
  assert.ok(Array.isArray(request.profile.csv));
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  assert.deepEqual(expected.result.profile.requests_per_s.slice(8, 10), [6, 30]);
  assertNear(await text(page, 'as-oracle-usd'), expected.result.policies[0].usd_per_month, 0.005, 'oracle monthly');
  env.checkClean();
});

test('autoscale: a named shape of the core\'s menus answers as the CLI does; a place or a month the question does not take is refused at its field', async () => {
  const page = await env.page('index.html?view=autoscale&model=llama-3.1-8b&instance=p5.4xlarge&traffic=business_hours&peak=100');
  await ready(page);
  const s = screen(page);
  const menus = cli({ question: 'catalog', section: 'menus' }).result.request.values;
  const shown = await s.getByTestId('as-shape').locator('option').evaluateAll((o) => o.map((x) => x.value).filter(Boolean));
  assert.deepEqual(shown, menus['autoscale_profile.shape']);
  const policies = await s.getByTestId('as-policy').locator('option').evaluateAll((o) => o.map((x) => x.value));
  assert.deepEqual(policies, menus['autoscale_policy.kind']);
  const request = JSON.parse(await page.getByTestId('as-request').textContent());
  assert.deepEqual(request.profile, { shape: 'business_hours', peak_requests_per_s: 100 });
  const r = cli(request).result;
  assert.equal(r.profile.requests_per_s.length, 168);
  assert.equal(r.profile.synthetic, true);
  assert.match(await text(page, 'as-shape-source'), new RegExp(r.profile.shape_source.slice(0, 30)));
  for (const p of r.policies) assertNear(await text(page, `as-${p.name}-usd`), p.usd_per_month, 0.005, `${p.name} monthly`);
  await openData(page, 'as-chart-data');
  assert.equal(await page.locator('[data-testid=as-chart-data] tbody tr').count(), 168);

  await afterChange(page, 'autoscale', () => s.getByTestId('wf-instance').selectOption({ index: 0 }));
  assert.match(await page.getByTestId('autoscale-errors').textContent(), /\/instance.*instance type or family/s);
  await afterChange(page, 'autoscale', () => s.getByTestId('wf-instance').selectOption('p5.4xlarge'));
  await afterChange(page, 'autoscale', () => s.getByTestId('wf-gpus').fill('2'));
  assert.match(await page.getByTestId('autoscale-errors').textContent(), /\/gpus.*leave the GPUs empty/s);
  assert.equal(await s.getByTestId('wf-gpus').getAttribute('aria-invalid'), 'true');
  env.checkClean();
});

test('autoscale: the policy\'s settings and the cold start typed reach the core as the CLI reads them', async () => {
  const page = await env.page('index.html?view=autoscale&model=llama-3.1-8b&instance=p5.4xlarge&as_min_replicas=2&as_scale_down_delay_s=900&cs_provisioning_s=600&rps=7');
  await ready(page);
  // The form's steady rate is said to be unused: the profile gives the rate.
  assert.match(await text(page, 'as-rps-unused'), /7 requests\/s is not used here/);
  assert.equal(await page.getByTestId('as-settings').getAttribute('open'), '');
  const request = JSON.parse(await page.getByTestId('as-request').textContent());
  assert.equal(request.policy.min_replicas, 2);
  assert.equal(request.policy.scale_down_delay_s, 900);
  assert.deepEqual(request.cold_start, { provisioning_s: 600 });
  assert.equal(request.demand?.requests_per_s, undefined);
  const r = cli(request).result;
  assert.equal(r.policy.min_replicas, 2);
  assert.ok(r.cold_start.total_s >= 600);
  assertNear(await text(page, 'as-cold-start'), r.cold_start.total_s, 0.5, 'cold start');
  for (const p of r.policies) assertNear(await text(page, `as-${p.name}-usd`), p.usd_per_month, 0.005, `${p.name} monthly`);
  env.checkClean();
});
