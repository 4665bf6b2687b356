// Three people's questions, each asked in one view with only the inputs it names, against the
// native CLI's answer to the same request: an ML engineer's fit, a platform engineer's sizing for a
// demand, a FinOps analyst's migration.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, linkOf, cli, text, numberIn, assertNear, afterChange, screen, sentence } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const findModel = async (page, view, name) => {
  const search = screen(page).getByLabel('Find a model by name');
  await search.fill(name);
  await afterChange(page, view, () => search.dispatchEvent('change'));
};
const requestOf = async (page, testid) => JSON.parse(await page.getByTestId(testid).textContent());

test('Llama 3.1 70B in BF16 at 8k tokens on 2 x A100 80GB: fits, on which instance, monthly cost (Fit & memory)', async () => {
  const page = await env.page('index.html?view=fit');
  const s = screen(page);
  await findModel(page, 'fit', 'Meta Llama 3.1 70B');
  await afterChange(page, 'fit', () => s.getByLabel('Weight format').selectOption('bf16'));
  await afterChange(page, 'fit', () => s.getByLabel('Prompt tokens', { exact: true }).fill('8192'));
  await afterChange(page, 'fit', () => s.getByLabel('Where it runs', { exact: true }).selectOption('any:NVIDIA A100 80GB'));
  await afterChange(page, 'fit', () => s.getByLabel('GPUs', { exact: true }).fill('2'));
  // The CLI, asked the same of every family with two or more of that GPU: the cheapest that fits.
  const menus = cli({ question: 'catalog', section: 'menus' }).result;
  const families = [...new Set(menus.instances.filter((i) => i.gpu_type === 'NVIDIA A100 80GB' && i.gpus >= 2).map((i) => i.family))];
  assert.ok(families.length >= 2, 'several families have the GPU');
  const ask = { question: 'fit', model: { name: 'llama-3.1-70b' }, workload: 'inference', precision: 'bf16', demand: { input_tokens: 8192 }, gpus: 2 };
  const answers = families.map((instance) => cli({ ...ask, instance }).result);
  // A flagged price goes last, as rankings leave it out (the page never picks by it).
  const flagged = (r) => (r.price_flags ? 1 : 0);
  const fitting = answers.filter((r) => r.status === 'FITS').sort((a, b) => flagged(a) - flagged(b) || a.cost.usd_per_month - b.cost.usd_per_month);
  assert.equal(await page.locator('[data-testid^=fit-any-row-]').count(), families.length, 'every family with the GPU is listed');
  if (fitting.length) {
    const best = fitting[0];
    assert.equal(await text(page, 'fit-status'), 'FITS');
    assert.equal(await text(page, 'fit-resolved-instance'), best.placement.instance);
    assertNear(await text(page, 'fit-cost-monthly'), best.cost.usd_per_month, 0.005, 'monthly cost');
  } else {
    // At the engine's defaults (vLLM, 90 % of memory) no family holds it: the page says so, as
    // the CLI does, and offers the CLI's ways out.
    assert.match(await text(page, 'fit-status'), /CANNOT FIT/);
    assert.ok(answers.every((r) => r.ways_out?.formats?.length), 'the CLI offers other formats');
    assert.match(await screen(page).innerText(), new RegExp(answers[0].ways_out.formats[0], 'i'));
  }
  // Only what the question names (the task is the form's default, inference).
  const sent = await requestOf(page, 'fit-request');
  assert.ok(fitting.length ? sent.instance === fitting[0].placement.family : families.includes(sent.instance), sent.instance);
  assert.deepEqual({ ...sent, instance: undefined }, { ...ask, instance: undefined });
});

test('Llama 3.1 8B at 50 requests/s, 500/200 tokens, p95 TTFT under 500 ms: instance, count, monthly cost (Deployments)', async () => {
  const page = await env.page('index.html?view=deployments');
  const s = screen(page);
  await findModel(page, 'deployments', 'Meta Llama 3.1 8B');
  await afterChange(page, 'deployments', () => s.getByLabel('Requests per second').fill('50'));
  await afterChange(page, 'deployments', () => s.getByLabel('Prompt tokens', { exact: true }).fill('500'));
  await afterChange(page, 'deployments', () => s.getByLabel('Output tokens', { exact: true }).fill('200'));
  await afterChange(page, 'deployments', () => s.getByLabel('Max p95 time to first token').fill('500'));
  const ask = { question: 'recommend', model: { name: 'llama-3.1-8b' }, workload: 'inference', precision: 'fp16', demand: { input_tokens: 500, output_tokens: 200, requests_per_s: 50, max_ttft_ms: 500 }, priority: 'cost' };
  const top = cli(ask).result.candidates[0];
  assert.equal(await text(page, 'rec-top-instance'), top.instance);
  assert.equal(numberIn(await text(page, 'rec-top-count')), top.instance_count);
  assertNear(await text(page, 'rec-top-monthly'), top.cost.usd_per_month, 0.005, 'monthly cost');
  assert.ok(top.p95_time_to_first_token_ms <= 500, 'the top pick meets the latency target');
  assert.deepEqual(await requestOf(page, 'rec-request'), ask);
});

test('one p5.48xlarge serving a 13B model 24/7: what to move to and the savings (Compare & migrate)', async () => {
  const page = await env.page('index.html?view=compare');
  const s = screen(page);
  await afterChange(page, 'compare', () => s.getByLabel('Where it runs', { exact: true }).selectOption('p5.48xlarge'));
  await afterChange(page, 'compare', () => s.getByLabel('Model', { exact: true }).selectOption('custom'));
  await afterChange(page, 'compare', () => s.getByLabel('Parameters', { exact: true }).fill('13'));
  await afterChange(page, 'compare', () => s.getByLabel('Schedule').selectOption('always'));
  // One instance: every GPU of it (empty GPUs field).
  const ask = { question: 'migrate', current: { instance: 'p5.48xlarge', gpus: 8 }, model: { params_b: 13 }, workload: 'inference', precision: 'fp16', priority: 'cost', schedule: { always_on: true } };
  const r = cli(ask).result;
  assert.equal(r.recommendation.action, 'migrate');
  assert.equal(await text(page, 'mig-summary'), sentence(r.recommendation.summary));
  assert.match(await text(page, 'mig-rec-instance'), new RegExp(`\\b${r.recommendation.instance.replaceAll('.', '\\.')}\\b`));
  assertNear(await text(page, 'mig-rec-savings'), r.recommendation.savings_pct, 0.05, 'savings %');
  assert.match(await text(page, 'mig-rec-savings'), new RegExp(`\\$${r.recommendation.savings_usd_per_month.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).replace('.', '\\.')}`));
  assert.deepEqual(await requestOf(page, 'mig-request'), ask);
});

test('what is typed in one view is there in the next, with the same link keys', async () => {
  const page = await env.page('index.html?view=fit');
  await findModel(page, 'fit', 'Meta Llama 3.1 8B');
  await afterChange(page, 'fit', () => screen(page).getByLabel('Weight format').selectOption('fp8'));
  await page.getByTestId('tab-deployments').click();
  await page.waitForURL(/view=deployments/);
  await page.getByTestId('deployments-result').and(page.locator('[data-state=ready]')).waitFor();
  const url = new URL(await linkOf(page)).searchParams;
  assert.equal(url.get('model'), 'llama-3.1-8b');
  assert.equal(url.get('precision'), 'fp8');
  assert.equal(await screen(page).getByLabel('Weight format').inputValue(), 'fp8');
  assert.equal((await requestOf(page, 'rec-request')).model.name, 'llama-3.1-8b');
  // Deployments does not use where it runs: that group is not shown there.
  assert.equal(await screen(page).getByLabel('Where it runs', { exact: true }).isVisible(), false);
  assert.ok(!url.has('instance'));
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
