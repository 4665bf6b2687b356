// The landing view answers the traffic question (issue 37): the demand is in the form from the
// start, the accelerator kind is chosen at the top, and a request rate gives the deployment sized
// for it (the CLI's recommend for the same workload, demand and kind); a pick whose speed has no
// measured error says so on its first line, there and on Deployments.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, linkOf, cli, text, numberIn, assertNear, afterChange, screenshot, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

/** What the page asks for its example workload at `rps` on `kind` (the CLI's request). */
const sizedRequest = (rps, kind) => ({
  question: 'recommend', model: { size: 'small' }, workload: 'inference', precision: 'fp16',
  demand: { requests_per_s: rps }, kinds: [kind], limit: 1,
});

test('the plain page shows the demand and the kind of accelerator first; 20 requests/s gives a GPU deployment sized for them', async () => {
  const page = await env.page('');
  const s = screen(page);
  const rps = s.getByLabel('Requests per second', { exact: true });
  const kind = s.getByLabel('Accelerator', { exact: true });
  assert.equal(await rps.isVisible(), true, 'the request rate is in the form from the start');
  assert.equal(await s.getByLabel('Max p95 time to first token', { exact: true }).isVisible(), true);
  assert.equal(await kind.inputValue(), 'gpu');
  const top = async (l) => (await l.boundingBox()).y;
  assert.ok(await top(kind) < await top(s.getByLabel('Model', { exact: true })), 'the kind is chosen above the model');
  assert.ok(await top(kind) < 800, 'the kind is in the first screen');

  await afterChange(page, 'fit', () => rps.fill('20'));
  const c = cli(sizedRequest(20, 'gpu')).result.candidates[0];
  assert.equal(c.accelerator_kind, 'gpu');
  assert.ok(c.utilization_pct <= 100, 'the CLI\'s deployment carries the demand');
  assert.equal(await text(page, 'fit-sized-instance'), c.instance);
  assert.equal(numberIn(await text(page, 'fit-sized-count')), c.instance_count);
  assert.ok(c.instance_count > 1, 'more than one instance for 20 requests/s of the example model');
  assertNear(await text(page, 'fit-sized-monthly'), c.cost.usd_per_month, 0.005, 'monthly cost');
  assertNear(await text(page, 'fit-sized-util'), c.utilization_pct, 0.05 + 1e-9, 'utilization');
  // It leads the answer, before the one-instance fit.
  const first = await page.getByTestId('fit-result').evaluate((r) => r.firstElementChild?.dataset.testid);
  assert.equal(first, 'fit-sized');
  assert.equal(await page.getByTestId('fit-sized-uncalibrated').count(), 0, 'a GPU pick has measured errors');
  assert.equal(new URL(await linkOf(page)).searchParams.get('rps'), '20');
  await screenshot(page, 'landing-20-rps');
  env.checkClean();
});

test('an Inferentia pick says on its first line that its speed has no measured error, on Fit and on Deployments', async () => {
  const page = await env.page('index.html?view=fit&model=llama-3.1-8b&rps=5');
  const s = screen(page);
  await afterChange(page, 'fit', () => s.getByLabel('Accelerator', { exact: true }).selectOption('inferentia'));
  const c = cli({ ...sizedRequest(5, 'inferentia'), model: { name: 'llama-3.1-8b' } }).result.candidates[0];
  assert.equal(c.uncalibrated, true, 'the CLI says Inferentia speeds are not calibrated');
  assert.equal(await text(page, 'fit-sized-instance'), c.instance);
  const line = page.getByTestId('fit-sized').locator('.verdict-title');
  assert.match(await line.textContent(), /^Speed not measured on Inferentia chips: no measured error/);
  assert.equal(new URL(await linkOf(page)).searchParams.get('kinds'), 'inferentia');

  // Deployments: the kinds are the first inputs; the same link's kind is checked there, and its top
  // pick says the same on its first line.
  const link = new URL(await linkOf(page));
  link.searchParams.set('view', 'deployments');
  await page.goto(link.href);
  await page.locator('[data-testid="deployments-result"][data-state="ready"]').waitFor();
  const d = screen(page);
  const kinds = d.locator('fieldset.kinds');
  assert.ok((await kinds.boundingBox()).y < (await d.getByLabel('Model', { exact: true }).boundingBox()).y, 'the kinds come before the model');
  assert.equal(await d.getByTestId('rec-kind-inferentia').isChecked(), true);
  assert.match(await text(page, 'rec-top-uncalibrated'), /^Speed not measured on Inferentia chips/);
  env.checkClean();
});
