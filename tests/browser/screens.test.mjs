// Every screen gives the answer the native CLI gives for the same request, and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, showAll, linkOf, cli, text, numberIn, assertNear, afterChange, screenshot, screen, sentence } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

test('fit: URL state gives the CLI answer; driving the inputs follows it (FITS and CANNOT FIT)', async () => {
  const page = await env.page('index.html?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1');
  const expected = cli({ question: 'fit', model: { size: 'small' }, workload: 'inference', precision: 'fp16', instance: 'G6e', gpus: 1, hours_per_month: 720, use_spot: false });
  assert.equal(expected.ok, true);
  const r = expected.result;
  assert.equal(await text(page, 'fit-status'), r.status);
  assert.equal(await text(page, 'fit-resolved-instance'), r.placement.instance);
  assertNear(await text(page, 'fit-memory-total'), r.memory.total_gb, 0.005, 'total GB');
  assertNear(await text(page, 'fit-memory-weights'), r.memory.weights_gb, 0.005, 'weights GB');
  assertNear(await text(page, 'fit-utilization'), r.fit.utilization_pct, 0.05, 'per-GPU %');
  assertNear(await text(page, 'fit-cost-monthly'), r.cost.usd_per_month, 0.005, 'monthly cost');
  assert.equal(await text(page, 'fit-memory-basis'), r.memory.basis);
  assert.equal(await text(page, 'fit-cost-basis'), r.cost.basis);
  // The architecture-aware memory lines on each GPU, and the deployment's speed on those GPUs.
  assert.equal(await page.getByTestId('fit-memory-lines').locator('tbody tr').count(), r.memory.per_gpu.length);
  const d = r.deployment;
  assert.equal(await text(page, 'fit-layout'), `TP ${d.layout.tensor_parallel} · PP ${d.layout.pipeline_parallel} · ${d.layout.replicas} replica${d.layout.replicas === 1 ? '' : 's'}`);
  assertNear(await text(page, 'fit-dep-tps'), d.output_tokens_per_s, 0.05, 'output tokens/s');
  assertNear(await text(page, 'fit-dep-tpot'), d.time_per_output_token_ms, 0.05, 'time per output token');
  assertNear(await text(page, 'fit-dep-ttft'), d.time_to_first_token_ms, 0.05, 'time to first token');
  assertNear(await text(page, 'fit-dep-per-token'), d.usd_per_million_output_tokens, 0.00005, '$ per 1M output tokens');
  // The measured error of the memory figure and of the capacity, as the answer states them.
  assert.equal(await text(page, 'fit-expected-error'), r.expected_error.text);
  assert.equal(await text(page, 'fit-band'), sentence(r.fit.fit_band.text));
  assert.ok((await text(page, 'fit-capacity-band')).endsWith(r.band.text), 'capacity band');
  assert.ok((await text(page, 'fit-utilization')).endsWith('%'), 'percent carries its unit');
  assert.ok((await text(page, 'fit-memory-total')).endsWith('GB'), 'GB carries its unit');
  await screenshot(page, 'fit');

  // Drive the inputs to a setup that cannot fit.
  await afterChange(page, 'fit', () => screen(page).getByLabel('Model', { exact: true }).selectOption('medium'));
  await afterChange(page, 'fit', () => screen(page).getByLabel('Workload type').selectOption('training'));
  await afterChange(page, 'fit', () => screen(page).getByLabel('Weight format').selectOption('bf16'));
  await afterChange(page, 'fit', () => screen(page).getByLabel('Where it runs', { exact: true }).selectOption('P5'));
  const nofit = cli({ question: 'fit', model: { size: 'medium' }, workload: 'training', precision: 'bf16', instance: 'P5', gpus: 1, hours_per_month: 720, use_spot: false }).result;
  assert.equal(nofit.status, 'CANNOT FIT MODEL');
  assert.equal(await text(page, 'fit-status'), nofit.status);
  assertNear(await text(page, 'fit-utilization'), nofit.fit.utilization_pct, 0.05, 'per-GPU % (no fit)');
  assertNear(await text(page, 'fit-memory-total'), nofit.memory.total_gb, 0.005, 'total GB (no fit)');
  assert.equal(await text(page, 'fit-ways-out-summary'), nofit.ways_out.summary);
  assert.equal(await text(page, 'fit-refusal'), nofit.deployment.refusal);
  await screenshot(page, 'fit-cannot-fit');

  // Parameter count instead of a size class, and more GPUs.
  await afterChange(page, 'fit', () => screen(page).getByLabel('Model', { exact: true }).selectOption('custom'));
  await afterChange(page, 'fit', () => screen(page).getByLabel('Parameters', { exact: true }).fill('20'));
  await afterChange(page, 'fit', () => screen(page).getByLabel('GPUs', { exact: true }).fill('2'));
  const custom = cli({ question: 'fit', model: { params_b: 20 }, workload: 'training', precision: 'bf16', instance: 'P5', gpus: 2, hours_per_month: 720, use_spot: false }).result;
  assertNear(await text(page, 'fit-memory-total'), custom.memory.total_gb, 0.005, 'total GB (20B)');
  assertNear(await text(page, 'fit-cost-monthly'), custom.cost.usd_per_month, 0.005, 'monthly cost (2 GPUs)');
  assert.equal(await text(page, 'fit-resolved-instance'), custom.placement.instance);
  assert.match(await text(page, 'fit-layout'), new RegExp(`^TP ${custom.deployment.layout.tensor_parallel} `));

  const phone = await env.page('index.html?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1', { width: 375, height: 800 });
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways at 375px by ${overflow}px`);
  await screenshot(phone, 'fit-375');
});

test('precisions: every format, weights GB and native families as the CLI says', async () => {
  // An earlier version's link: the weights in every format are part of Fit & memory now.
  const page = await env.page('index.html?view=precisions&size=small');
  await afterChange(page, 'fit', () => screen(page).getByLabel('Model', { exact: true }).selectOption('medium'));
  // Below the answer, asked once it comes near the screen.
  await page.getByTestId('fit-more').scrollIntoViewIfNeeded();
  await page.getByTestId('prec-table').waitFor();
  const r = cli({ question: 'precisions', model: { size: 'medium' } }).result;
  assert.equal(await page.locator('[data-testid^=prec-row-]').count(), r.precisions.length);
  for (const p of r.precisions) {
    assertNear(await text(page, `prec-weights-${p.precision}`), p.weights_gb, 0.005, `${p.precision} weights`);
    const fams = await page.getByTestId(`prec-families-${p.precision}`).locator('li').allTextContents();
    assert.deepEqual(fams, p.native_on_families, `${p.precision} families`);
  }
  assert.equal(await text(page, 'prec-basis'), r.basis);
  await screenshot(page, 'precisions');
});

test('recommend: ranked candidates, filters and top pick as the CLI says', async () => {
  const page = await env.page('index.html?view=recommend&size=small&workload=fine_tuning&precision=bf16&priority=balanced&spot=1&families=G5,G6e,P4de&budget=20000');
  const request = { question: 'recommend', model: { size: 'small' }, workload: 'fine_tuning', precision: 'bf16', priority: 'balanced', use_spot: true, hours_per_month: 720, families: ['G5', 'G6e', 'P4de'], max_usd_per_month: 20000 };
  const r = cli(request).result;
  assert.ok(r.candidates.length > 0);
  await showAll(page, 'rec-table');
  assert.equal(await page.locator('[data-testid^=rec-row-]').count(), r.candidates.length);
  assert.equal(await text(page, 'rec-top-instance'), r.candidates[0].instance);
  assertNear(await text(page, 'rec-top-monthly'), r.candidates[0].cost.usd_per_month, 0.005, 'top monthly cost');
  for (const [i, c] of r.candidates.entries()) {
    assert.equal(await text(page, `rec-instance-${i}`), c.instance);
    assertNear(await text(page, `rec-monthly-${i}`), c.cost.usd_per_month, 0.005, `row ${i} monthly`);
    assert.equal(numberIn(await text(page, `rec-count-${i}`)), c.instance_count, `row ${i} instances`);
    // Training tokens/s from the road, priced per million tokens.
    assert.equal(c.performance.unit, 'training tokens/s');
    assertNear(await text(page, `rec-tps-${i}`), c.tokens_per_s, 0.05, `row ${i} tokens/s`);
    assertNear(await text(page, `rec-util-${i}`), c.mfu * 100, 0.05 + 1e-9, `row ${i} MFU`);  // shown to 0.1 %: half a unit off at most
    assertNear(await text(page, `rec-per-token-${i}`), c.performance.usd_per_million_tokens, 0.00005, `row ${i} $ per 1M tokens`);
  }
  assert.equal(await text(page, 'rec-workload-model'), r.request.model.label);
  assertNear(await text(page, 'rec-workload-params'), r.request.model.parameters_billion, 0.0005, 'parameters (billion)');
  assert.equal(await page.getByTestId('rec-family-G6e').isChecked(), true);

  // Drive the filters: add a family, lower the budget, change the priority.
  await afterChange(page, 'deployments', () => page.getByTestId('rec-family-P5').check());
  await afterChange(page, 'deployments', () => screen(page).getByLabel('Priority', { exact: true }).selectOption('cost'));
  await afterChange(page, 'deployments', () => screen(page).getByLabel('Budget (max per month)').fill('15000'));
  const r2 = cli({ ...request, families: ['G5', 'G6e', 'P4de', 'P5'], priority: 'cost', max_usd_per_month: 15000 }).result;
  assert.ok(r2.candidates.length > 0);
  await showAll(page, 'rec-table');
  assert.equal(await page.locator('[data-testid^=rec-row-]').count(), r2.candidates.length);
  assert.equal(await text(page, 'rec-top-instance'), r2.candidates[0].instance);
  assertNear(await text(page, 'rec-top-monthly'), r2.candidates[0].cost.usd_per_month, 0.005, 'top monthly (filtered)');
  const excluded = await page.getByTestId('rec-excluded').locator('li').count().catch(() => 0);
  assert.equal(excluded, r2.excluded.length, 'excluded families');
  await screenshot(page, 'recommend');
});

test('Deployments: its providers legend says what none checked means, and the chart counts the candidates it leaves out', async () => {
  const page = await env.page('index.html?view=deployments&model=llama-3.1-8b&rps=50&input=500&output=200&ttft=500');
  const r = cli(JSON.parse(await text(page, 'rec-request'))).result;
  const menus = cli({ question: 'catalog', section: 'menus' }).result;
  // None checked: every provider of the catalog answers, and the legend says "all".
  assert.deepEqual(new Set(r.candidates.map((c) => c.provider)), new Set(menus.instances.map((i) => i.provider)));
  assert.equal((await screen(page).locator('legend', { hasText: 'Providers' }).textContent()).trim(), 'Providers (none checked = all)');
  // The chart draws the candidates with a price and a speed; the table lists them all.
  const drawn = r.candidates.filter((c) => Number.isFinite(c.cost.usd_per_month) && Number.isFinite(c.performance.score)).length;
  assert.ok(drawn < r.candidates.length, 'a candidate without a price');
  await showAll(page, 'rec-table');
  assert.equal(await page.locator('[data-testid^=rec-row-]').count(), r.candidates.length);
  assert.equal(await page.getByTestId('rec-chart-figure').locator('circle').count(), drawn);
  const caption = await page.getByTestId('rec-chart-figure').locator('figcaption').textContent();
  assert.match(caption, new RegExp(`, ${drawn} candidates \\(${r.candidates.length - drawn} of the ${r.candidates.length} without a price or a speed: in the table only\\)$`));
});

test('migrate: the migration report as the CLI says', async () => {
  const page = await env.page('index.html?view=migrate&current=P4d&gpus=8&size=large&workload=training&precision=bf16&priority=performance&hours=500&spot=1');
  const r = cli({ question: 'migrate', current: { instance: 'P4d', gpus: 8 }, model: { size: 'large' }, workload: 'training', precision: 'bf16', priority: 'performance', hours_per_month: 500, use_spot: true }).result;
  assert.equal(await text(page, 'mig-summary'), sentence(r.recommendation.summary));
  assert.match(await text(page, 'mig-rec-instance'), new RegExp(`\\b${r.recommendation.instance.replaceAll('.', '\\.')}\\b`));
  assertNear(await text(page, 'mig-rec-savings'), r.recommendation.savings_pct, 0.05, 'savings %');
  // The current setup cannot run the model: no speed to compare with.
  if (r.recommendation.performance_ratio === null) assert.equal(await text(page, 'mig-rec-ratio'), '—');
  else assertNear(await text(page, 'mig-rec-ratio'), r.recommendation.performance_ratio, 0.005, 'performance ratio');
  assert.equal(await text(page, 'mig-assessment'), r.assessment);
  assert.equal(await page.locator('[data-testid^=mig-alt-instance-]').count(), r.alternatives.length);
  for (const [i, a] of r.alternatives.entries()) {
    assert.equal(await text(page, `mig-alt-instance-${i}`), a.instance);
    assertNear(await text(page, `mig-alt-savings-${i}`), a.savings_pct, 0.05, `alternative ${i} savings`);
    assert.equal(numberIn(await text(page, `mig-alt-count-${i}`)), a.instance_count, `alternative ${i} instances`);
    assertNear(await text(page, `mig-alt-monthly-${i}`), a.cost.usd_per_month, 0.005, `alternative ${i} monthly`);
  }
  assert.equal(await text(page, 'mig-current-refusal'), r.current.refusal);
  for (const [k, v] of Object.entries(r.best_by_priority)) assert.equal(await text(page, `mig-best-${k}`), v ?? '—');
  assert.deepEqual(await page.getByTestId('mig-warnings').locator('li').allTextContents(), r.warnings);
  await screenshot(page, 'migrate');

  await afterChange(page, 'compare', () => screen(page).getByLabel('Priority', { exact: true }).selectOption('cost'));
  const r2 = cli({ question: 'migrate', current: { instance: 'P4d', gpus: 8 }, model: { size: 'large' }, workload: 'training', precision: 'bf16', priority: 'cost', hours_per_month: 500, use_spot: true }).result;
  assert.equal(await text(page, 'mig-summary'), sentence(r2.recommendation.summary));
});

test('Compare & migrate: where today\'s deployment is best, the best by priority are said to be the alternatives\' best', async () => {
  const page = await env.page('index.html?view=compare&instance=G6e&size=small');
  const r = cli(JSON.parse(await text(page, 'mig-request'))).result;
  assert.equal(r.recommendation.action, 'stay');
  assert.notEqual(r.best_by_priority[r.request.priority ?? 'cost'], r.current.instance, 'the answer names an alternative as best for the priority kept');
  assert.equal(await text(page, `mig-best-${r.request.priority ?? 'cost'}`), r.best_by_priority[r.request.priority ?? 'cost']);
  const card = page.getByTestId('mig-best');
  assert.equal((await card.locator('h3').textContent()).trim(), 'Best alternative for each priority');
  assert.match(await card.innerText(), /not counting where it runs today/);
});

test('scenarios are presets of Compare & migrate: one fills the form, a set shows each report', async () => {
  const page = await env.page('index.html?view=compare');
  await afterChange(page, 'compare', () => screen(page).getByLabel('Start from a scenario').selectOption('inference_small_p5'));
  const w = cli({ question: 'workload', id: 'inference_small_p5' }).result;
  assert.equal(await text(page, 'wl-expected'), w.expected_outcome);
  assert.equal(await text(page, 'wl-analyzer'), sentence(w.report.recommendation.summary));
  assert.equal(await text(page, 'mig-summary'), sentence(w.report.recommendation.summary));
  assert.equal(await page.locator('[data-testid^=mig-alt-instance-]').count(), w.report.alternatives.length);
  assert.equal(await screen(page).getByLabel('Where it runs', { exact: true }).inputValue(), w.scenario.current_instance);
  await screenshot(page, 'compare-scenario');

  await afterChange(page, 'compare', () => screen(page).getByLabel('Start from a scenario').selectOption('set:basic_demos'));
  const set = cli({ question: 'workload_set', id: 'basic_demos' }).result;
  assert.equal(await page.locator('[data-testid^=wl-member-]').count(), set.reports.length);
  for (const [i, m] of set.reports.entries()) {
    assert.equal(await text(page, `wl${i}-expected`), m.expected_outcome);
    assert.equal(await text(page, `wl${i}-analyzer`), sentence(m.report.recommendation.summary));
  }
  assert.match(await linkOf(page), /[?&]preset=set%3Abasic_demos\b/);
});

test('catalog: info, validation counts and instances as the CLI says', async () => {
  const page = await env.page('index.html?view=catalog');
  const v = cli({ question: 'validate' });
  const all = cli({ question: 'catalog', section: 'all' }).result;
  assert.equal(await text(page, 'catalog-name'), v.catalog.name);
  assert.equal(await text(page, 'catalog-version'), v.catalog.version);
  assert.equal(await text(page, 'cat-date'), all.info.date);
  assert.equal(await text(page, 'val-valid'), v.result.valid ? 'VALID' : 'INVALID');
  for (const [k, n] of Object.entries(v.result.counts)) assert.equal(numberIn(await text(page, `val-count-${k}`)), n, `count of ${k}`);
  assert.equal(await page.locator('[data-testid^=cat-row-]').count(), all.instances.length);
  const first = all.instances.find((i) => i.on_demand_usd_per_hour != null);
  assertNear(await text(page, `cat-od-${first.instance}`), first.on_demand_usd_per_hour, 0.00005, 'on-demand $/h');
  await screenshot(page, 'catalog');

  await afterChange(page, 'catalog', () => screen(page).getByLabel('Instance family').selectOption(all.instances[0].family));
  assert.equal(await page.locator('[data-testid^=cat-row-]').count(), all.instances.filter((i) => i.family === all.instances[0].family).length);
});

test('keyboard: arrow keys move between tabs and switch the screen', async () => {
  const page = await env.page('index.html?view=fit');
  await page.getByTestId('tab-fit').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getByTestId('tab-deployments').getAttribute('aria-selected'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'tab-deployments');
  assert.equal(await page.locator('#panel-deployments').isVisible(), true);
  assert.equal(await page.locator('#panel-fit').isVisible(), false);
  await page.keyboard.press('End');
  assert.equal(await page.getByTestId('tab-catalog').getAttribute('aria-selected'), 'true');
  // The URL follows once the screen is shown (its module fetched on first use).
  await page.waitForURL(/view=catalog/);
  // Every input has a label.
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea')]
    .filter((el) => el.type !== 'hidden' && !el.labels?.length && !el.getAttribute('aria-label')).map((el) => el.id || el.name));
  assert.deepEqual(unlabelled, []);
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
