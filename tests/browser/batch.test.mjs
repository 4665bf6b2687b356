// Batch jobs: the view asks the core what the native CLI answers for the same request, shows each
// plan's cost and odds of finishing on time, draws the schedule, and marks a bad deadline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, text, assertNear, afterChange, screen, screenshot } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const ready = (page) => page.getByTestId('batch-result').and(page.locator('[data-state=ready]')).waitFor();

test('batch: the view shows the CLI\'s plans and the schedule, byte for byte the same answer', async () => {
  const page = await env.page('index.html?view=batch&model=llama-3.1-8b&job=lora&job_tokens=50&job_deadline=48&traces=400');
  await ready(page);
  const request = JSON.parse(await page.getByTestId('bt-request').textContent());
  assert.equal(request.question, 'batch');
  assert.equal(request.deadline_hours, 48);
  assert.equal(request.demand.dataset_tokens, 5e7);
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const job = expected.result.jobs[0];
  assert.deepEqual(job.plans.map((p) => p.name), ['all_on_demand', 'all_spot', 'deadline_aware', 'uniform_progress']);
  for (const p of job.plans) {
    assertNear(await text(page, `bt-0-${p.name}-p50`), p.cost_usd.p50, 0.005, `${p.name} p50`);
    assertNear(await text(page, `bt-0-${p.name}-on-time`), 100 * p.p_meet_deadline, 0.05, `${p.name} on time`);
  }
  assert.equal(await page.locator('[data-testid=bt-gantt] rect[data-job]').count(), expected.result.schedule.length);
  assertNear(await text(page, 'bt-total'), expected.result.total.cost_usd.p50, 0.005, 'total p50');
  assert.equal(await text(page, 'bt-job-0-band'), expected.result.jobs[0].band.text, 'the job at the measured error, as the CLI says it');
  await screenshot(page, 'batch');
  env.checkClean();
});

test('batch: more jobs are scheduled earliest deadline first; a deadline shorter than the work is marked at its field', async () => {
  const page = await env.page('index.html?view=batch&model=llama-3.1-8b&job=lora&job_tokens=50&job_deadline=48&traces=200');
  await ready(page);
  const s = screen(page);
  const more = [{ name: 'eval', model: { name: 'llama-3.1-8b' }, workload: 'lora', demand: { dataset_tokens: 2e7 }, deadline_hours: 24 }];
  await afterChange(page, 'batch', () => s.getByTestId('bt-jobs').fill(JSON.stringify(more)));
  await ready(page);
  const request = JSON.parse(await page.getByTestId('bt-request').textContent());
  assert.equal(request.jobs.length, 2);
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  assert.deepEqual(expected.result.schedule.map((x) => x.job), ['eval', 'this job']);
  assert.equal(await page.locator('[data-testid=bt-gantt] rect[data-job]').count(), 2);
  assert.equal(await page.locator('[data-testid=bt-gantt] rect[data-job]').first().getAttribute('data-job'), 'eval');
  await afterChange(page, 'batch', () => s.getByTestId('bt-jobs').fill(''));
  await ready(page);
  await afterChange(page, 'batch', () => s.getByTestId('bt-deadline').fill('0.01'));
  const alert = await page.getByTestId('batch-errors').textContent();
  assert.match(alert, /\/deadline_hours/);
  assert.match(alert, /at least/);
  assert.equal(await s.getByTestId('bt-deadline').getAttribute('aria-invalid'), 'true');
  env.checkClean();
});

test('batch: a batch-inference job shows its tokens at each provider\'s batch API as the CLI prices them', async () => {
  const page = await env.page('index.html?view=batch&model=llama-3.1-8b&job=batch_inference&job_tokens=50&job_deadline=48&traces=200');
  await ready(page);
  const request = JSON.parse(await page.getByTestId('bt-request').textContent());
  assert.equal(request.workload, 'batch_inference');
  const expected = cli(request);
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const shown = await text(page, 'bt-job-0-batch-api');
  for (const o of expected.result.jobs[0].batch_api.offers) {
    assert.ok(shown.includes(o.service), `${o.service} in "${shown}"`);
    // The shipped catalog carries no model's token price: each offer says it is not priced.
    assert.equal(o.cost_usd, null);
  }
  assert.match(shown, /not priced/);
  assert.match(shown, /50 % off list/);
  env.checkClean();
});
