// The fleet screens (Plan, Placement, Decide) and the ways to pay and schedules on Fit, Recommend
// and Migrate give the answer the native CLI gives for the same request; their links restore them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, openData, showAll, linkOf, cli, text, assertNear, afterChange, screenshot, screen, ROOT, sentence } from './helpers.mjs';
import { DEFAULT_PLAN } from '../../web/app/default-plan.js';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const SEED001 = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/cases/plans/seed001.json'), 'utf8'));
const rel = async (page) => (await linkOf(page)).slice(env.origin.length + 1);

/** What a smaller host lacks, its RAM in GB (10^9 bytes) as the page says sizes. */
const gb = (gib) => (gib * 2 ** 30 / 1e9).toLocaleString('en-US', { maximumFractionDigits: 1 });
const lacking = (list) => `smaller host: ${list.map((s) => s.replace(/([\d.]+) of ([\d.]+) GiB/, (_, x, y) => `${gb(x)} of ${gb(y)} GB`)).join(', ')}`;

async function assertPlan(page, plan) {
  const expected = cli({ question: 'plan', plan });
  assert.equal(expected.ok, true, JSON.stringify(expected.errors));
  const r = expected.result;
  assertNear(await text(page, 'plan-total'), r.total_usd_per_month, 0.005, 'plan total');
  assertNear(await text(page, 'plan-grand-total'), r.total_usd_per_month, 0.005, 'grand total row');
  assertNear(await text(page, 'plan-mix-total'), r.cheapest_mix.usd_per_month, 0.005, 'cheapest mix');
  assertNear(await text(page, 'plan-mix-savings'), r.cheapest_mix.savings_pct, 0.05, 'mix savings');
  const all = r.environments.flatMap((e) => e.workloads);
  assert.equal(await page.locator('[data-testid^=plan-wl-cost-]').count(), all.length);
  for (const [k, w] of all.entries()) {
    assertNear(await text(page, `plan-wl-cost-${k}`), w.cost.usd_per_month, 0.005, `workload ${k} cost`);
    assert.equal(await text(page, `plan-wl-basis-${k}`), w.cost.basis);
    assert.equal(await page.locator(`[data-testid^=plan-alt-instance-${k}-]`).count(), w.alternatives.length);
    for (const [j, a] of w.alternatives.entries()) {
      assert.equal(await text(page, `plan-alt-instance-${k}-${j}`), a.instance);
      // A host with fewer vCPUs or less RAM than the plan's says so beside it.
      const short = page.getByTestId(`plan-alt-short-${k}-${j}`);
      if (a.host_short_of?.length) assert.equal(await text(page, `plan-alt-short-${k}-${j}`), lacking(a.host_short_of));
      else assert.equal(await short.count(), 0);
      assertNear(await text(page, `plan-alt-cost-${k}-${j}`), a.usd_per_month, 0.005, `alternative ${k}/${j}`);
    }
  }
  for (const [i, e] of r.environments.entries()) assertNear(await text(page, `plan-env-total-${i}`), e.usd_per_month, 0.005, `environment ${e.name}`);
  for (const [p, v] of Object.entries(r.by_provider_usd_per_month)) {
    const shown = await text(page, `plan-provider-cost-${p}`);
    if (v === null) assert.equal(shown, 'no equivalent');
    else assertNear(shown, v, 0.005, `all on ${p}`);
  }
  for (const [i, c] of r.cheapest_mix.choices.entries()) {
    assert.equal(await text(page, `plan-mix-instance-${i}`), c.instance);
    const w = r.environments.find((e) => e.name === c.environment).workloads.find((x) => x.name === c.workload);
    const lacks = w.alternatives.find((a) => a.provider === c.provider && a.instance === c.instance)?.host_short_of ?? [];
    if (lacks.length) assert.equal(await text(page, `plan-mix-short-${i}`), lacking(lacks));
    else assert.equal(await page.getByTestId(`plan-mix-short-${i}`).count(), 0);
  }
  // The page's words for how the alternatives are chosen, not the answer's field names.
  assert.doesNotMatch(await page.getByTestId('plan-result').innerText(), /host_short_of|\bnull\b/);
  return r;
}

test('plan: seed 001 preloaded gives the CLI answer; editing, JSON and links follow it', async () => {
  assert.deepEqual(DEFAULT_PLAN, SEED001, 'the page embeds tests/cases/plans/seed001.json');
  const page = await env.page('index.html?view=plan');
  const r = await assertPlan(page, SEED001);
  assert.ok(await page.locator('[data-testid^=plan-mix-short-]').count() > 0, 'the cheapest mix has a smaller host, and says so');
  // The figures docs/cli.md gives for seed 001's first three environments.
  assert.deepEqual(r.environments.slice(0, 3).map((e) => e.usd_per_month), [185.15, 269.28, 1624.32]);
  await screenshot(page, 'plan', { fullPage: true });

  // Edit: 3 development instances on a 1-year commitment, staging on mixed at 30% spot, a new
  // scale-to-zero workload, and training removed.
  const plan = structuredClone(SEED001);
  const s = screen(page);
  await afterChange(page, 'plan', () => s.getByTestId('plan-w-0-0-count').fill('3'));
  await afterChange(page, 'plan', () => s.getByTestId('plan-w-0-0-pricing').selectOption('reserved_1y'));
  plan.environments[0].workloads[0].count = 3;
  plan.environments[0].workloads[0].pricing = 'reserved_1y';
  await afterChange(page, 'plan', () => s.getByTestId('plan-w-1-0-pricing').selectOption('mixed'));
  await afterChange(page, 'plan', () => s.getByTestId('plan-w-1-0-share').fill('0.3'));
  Object.assign(plan.environments[1].workloads[0], { pricing: 'mixed', spot_share: 0.3 });
  await afterChange(page, 'plan', () => s.getByTestId('plan-env-2-add').click());
  await afterChange(page, 'plan', () => s.getByTestId('plan-w-2-1-schedule').selectOption('s2z'));
  await afterChange(page, 'plan', () => s.getByTestId('plan-w-2-1-instance').selectOption('g5.xlarge'));
  plan.environments[2].workloads.push({ name: 'New workload', instance: 'g5.xlarge', count: 1, schedule: { off_hours_per_day: 12 }, pricing: 'on_demand' });
  await afterChange(page, 'plan', () => s.getByTestId('plan-env-3-remove').click());
  plan.environments.splice(3, 1);
  assert.deepEqual(JSON.parse(await s.getByTestId('plan-json').inputValue()), plan, 'the JSON view follows the form');
  await assertPlan(page, plan);

  // The link restores the edited plan.
  assert.ok(new URL(await linkOf(page)).searchParams.has('plan'));
  const copy = await env.page(await rel(page));
  await assertPlan(copy, plan);
  assert.equal(await copy.getByTestId('plan-workloads').innerText(), await page.getByTestId('plan-workloads').innerText());

  // Paste JSON: a syntax error is reported and the inputs stay usable; a valid plan answers.
  await s.locator('.plan-json > summary').click();
  await s.getByTestId('plan-json').fill('{"name": "x", ');
  await afterChange(page, 'plan', () => s.getByTestId('plan-use-json').click());
  assert.equal(await page.getByTestId('plan-errors').getByTestId('error-code').first().textContent(), 'invalid_json');
  const small = { name: 'Two GPUs', environments: [{ name: 'Prod', workloads: [{ name: 'serve', instance: 'g6e.xlarge', count: 2, schedule: { always_on: true }, pricing: 'reserved_3y' }] }] };
  await s.getByTestId('plan-json').fill(JSON.stringify(small));
  await afterChange(page, 'plan', () => s.getByTestId('plan-use-json').click());
  await assertPlan(page, small);
  // An unknown instance is the analyzer's error, with its JSON path.
  await afterChange(page, 'plan', () => s.getByTestId('plan-w-0-0-instance').selectOption('g5.xlarge'));
  await s.getByTestId('plan-json').fill(JSON.stringify({ ...small, environments: [{ name: 'Prod', workloads: [{ name: 'serve', instance: 'zz9.huge' }] }] }));
  await afterChange(page, 'plan', () => s.getByTestId('plan-use-json').click());
  const bad = cli({ question: 'plan', plan: { ...small, environments: [{ name: 'Prod', workloads: [{ name: 'serve', instance: 'zz9.huge' }] }] } });
  assert.equal(await page.getByTestId('plan-errors').getByTestId('error-path').first().textContent(), bad.errors[0].path);
  await afterChange(page, 'plan', () => s.getByTestId('plan-reset').click());
  await assertPlan(page, SEED001);
});

test('placement: seed 000 models on g5.12xlarge, the cheapest instance and split as the CLI says', async () => {
  const page = await env.page('index.html?view=placement');
  const base = {
    question: 'placement',
    models: [{ name: 'whisper-large-v3', memory_gb: 10 }, { name: 'kokoro-tts', memory_gb: 2 },
      { name: 'custom-7b', model: { params_b: 7 }, workload: 'inference', precision: 'fp16' }],
    instance: 'g5.12xlarge', hours_per_month: 720, pricing: 'on_demand',
  };
  const check = async (request) => {
    const expected = cli(request);
    assert.equal(expected.ok, true, JSON.stringify(expected.errors));
    const r = expected.result;
    for (const [i, m] of r.models.entries()) assertNear(await text(page, `place-model-gb-${i}`), m.memory_gb, 0.005, `${m.name} GB`);
    assert.equal(await text(page, 'place-basis'), r.basis);
    for (const [key, p] of [['on', r.on_instance], ['single', r.cheapest_single_instance], ['split', r.cheapest_split]]) {
      if (p === undefined) { assert.equal(await page.getByTestId(`place-${key}`).count(), 0); continue; }
      assert.equal(await text(page, `place-${key}-instance`), p.instance, `${key} instance`);
      assert.equal(Number(await text(page, `place-${key}-count`)), p.instance_count, `${key} count`);
      assert.equal(await text(page, `place-${key}-fits`), p.fits ? 'FITS' : 'CANNOT FIT MODEL');
      assertNear(await text(page, `place-${key}-monthly`), p.cost.usd_per_month, 0.005, `${key} monthly`);
      assert.equal(await text(page, `place-${key}-basis`), p.cost.basis);
      if (p.note) assert.equal(await text(page, `place-${key}-note`), p.note, `${key} note`);
      else assert.equal(await page.getByTestId(`place-${key}-note`).count(), 0, `${key}: no note`);
      // The packing chart's data table lists the models on each accelerator.
      await openData(page, `place-${key}-chart-data`);
      const rows = await page.getByTestId(`place-${key}-chart-data`).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.cells[1].textContent));
      assert.deepEqual(rows, p.gpus.map((g) => g.models.join(', ') || 'none'), `${key} packing`);
    }
    return r;
  };
  const r = await check(base);
  assert.deepEqual(r.on_instance.gpus[0].models, ['custom-7b', 'kokoro-tts']);
  await screenshot(page, 'placement', { fullPage: true });

  // On Inferentia the packing says the models must be compiled for Neuron first, as the CLI does.
  await afterChange(page, 'placement', () => screen(page).getByLabel('Instance (optional)').selectOption('inf2.xlarge'));
  const neuron = await check({ ...base, instance: 'inf2.xlarge' });
  assert.match(neuron.on_instance.note, /compiled for Neuron/);
  await afterChange(page, 'placement', () => screen(page).getByLabel('Instance (optional)').selectOption('g5.12xlarge'));

  // Drive: a 13B model by parameters at int8, no instance, GCP and Azure only, 1-year commitment.
  const s = screen(page);
  await afterChange(page, 'placement', () => s.getByTestId('place-add-model').click());
  await afterChange(page, 'placement', () => s.getByTestId('place-m-3-name').fill('llm-13b'));
  await afterChange(page, 'placement', () => s.getByTestId('place-m-3-kind').selectOption('params'));
  await afterChange(page, 'placement', () => s.getByTestId('place-m-3-value').fill('13'));
  await afterChange(page, 'placement', () => s.getByTestId('place-m-3-precision').selectOption('int8'));
  await afterChange(page, 'placement', () => s.getByTestId('place-m-1-remove').click());
  await afterChange(page, 'placement', () => s.getByLabel('Instance (optional)').selectOption(''));
  await afterChange(page, 'placement', () => page.getByTestId('place-provider-gcp').check());
  await afterChange(page, 'placement', () => page.getByTestId('place-provider-azure').check());
  await afterChange(page, 'placement', () => page.getByTestId('place-pricing').selectOption('reserved_1y'));
  const driven = {
    question: 'placement',
    models: [base.models[0], base.models[2], { name: 'llm-13b', model: { params_b: 13 }, workload: 'inference', precision: 'int8' }],
    providers: ['gcp', 'azure'], hours_per_month: 720, pricing: 'reserved_1y',
  };
  await check(driven);
  const copy = await env.page(await rel(page));
  // Each chart's data table opened on both (check() opened some on this page).
  for (const p of [page, copy]) await p.evaluate(() => document.querySelectorAll('[data-testid=placement-result] details.chart-data').forEach((d) => { if (!d.open) d.querySelector('summary').click(); }));
  assert.equal(await copy.getByTestId('placement-result').innerText(), await page.getByTestId('placement-result').innerText());
});

test('decide: the accelerator rules inside Deployments, branch and every option as the CLI says', async () => {
  const page = await env.page('index.html?view=decide&params=13&workload=training&precision=bf16&goal=cost');
  const base = { question: 'decide', model: { params_b: 13 }, workload: 'training', precision: 'bf16', batch: false, goal: 'cost' };
  const check = async (request) => {
    const expected = cli(request);
    assert.equal(expected.ok, true, JSON.stringify(expected.errors));
    const r = expected.result;
    assert.deepEqual(JSON.parse(await text(page, 'decide-request')), request);
    assert.equal(await text(page, 'decide-tree'), r.decision_tree);
    assert.equal(await text(page, 'decide-branch'), r.branch);
    assert.equal(await text(page, 'decide-kind'), r.recommended_kind.replaceAll('_', ' '));
    for (const o of r.options) {
      assert.equal(await text(page, `decide-${o.kind}-suitable`), o.suitable ? 'yes' : 'no', `${o.kind} suitable`);
      assert.equal(await text(page, `decide-${o.kind}-instance`), o.cheapest_instance?.instance ?? 'no deployment runs');
      if (o.cheapest_instance) assertNear(await text(page, `decide-${o.kind}-monthly`), o.cheapest_instance.cost.usd_per_month, 0.005, `${o.kind} monthly`);
      assert.equal(await text(page, `decide-${o.kind}-complexity`), o.migration_complexity);
      assert.equal(await text(page, `decide-${o.kind}-risk`), o.risk_level);
      // The core names the documents it cites by their titles.
      const reasons = await page.getByTestId(`decide-${o.kind}-reasons`).locator('.reasons li').allTextContents();
      assert.deepEqual(reasons, o.reasons);
      for (const line of reasons) assert.doesNotMatch(line, /\bseed\b/i, `${o.kind}: ${line}`);
    }
    return r;
  };
  const r = await check(base);
  assert.equal(r.recommended_kind, 'trainium');
  await page.getByTestId('decide-details').locator('summary').first().click();
  await screenshot(page, 'decide', { fullPage: true });

  const s = screen(page);
  await afterChange(page, 'deployments', () => s.getByLabel('Workload type').selectOption('inference'));
  await afterChange(page, 'deployments', () => s.getByLabel('Weight format').selectOption('fp16'));
  await afterChange(page, 'deployments', () => s.getByLabel('Priority', { exact: true }).selectOption('performance'));
  await afterChange(page, 'deployments', () => s.getByLabel('Schedule').selectOption('day'));
  await check({ ...base, workload: 'inference', precision: 'fp16', goal: 'performance', schedule: { hours_per_day: 8, days_per_month: 22 } });
  const copy = await env.page(await rel(page));
  // The rules follow the ranking (from the core's worker) into their card.
  await copy.getByTestId('decide-request').waitFor({ state: 'attached' });
  assert.equal(await copy.getByTestId('decide-details').textContent(), await page.getByTestId('decide-details').textContent());
});

test('ways to pay and schedules on Fit, Recommend and Migrate, and kinds on Recommend', async () => {
  // Fit: a 1-year commitment, 8 h x 22 days, through the inputs; the commitment's basis shows.
  const fit = await env.page('index.html?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1');
  const s = screen(fit);
  await afterChange(fit, 'fit', () => s.getByLabel('Way to pay').selectOption('reserved_1y'));
  await afterChange(fit, 'fit', () => s.getByLabel('Schedule').selectOption('day'));
  const fr = cli({ question: 'fit', model: { size: 'small' }, workload: 'inference', precision: 'fp16', instance: 'G6e', gpus: 1, pricing: 'reserved_1y', schedule: { hours_per_day: 8, days_per_month: 22 } }).result;
  assertNear(await text(fit, 'fit-cost-monthly'), fr.cost.usd_per_month, 0.005, 'fit reserved monthly');
  assert.equal(await text(fit, 'fit-cost-basis'), fr.cost.basis);
  const copy = await env.page(await rel(fit));
  assert.equal(await copy.getByTestId('fit-cost-basis').textContent(), await fit.getByTestId('fit-cost-basis').textContent());

  // Recommend from a link: mixed at 30% spot, 24 h a week, GPU and CPU kinds.
  const rec = await env.page('index.html?view=recommend&params=7&workload=inference&precision=fp16&priority=cost&kinds=gpu,cpu&pricing=mixed&share=0.3&sched=week&ha=24&hb=4');
  const rr = cli({ question: 'recommend', model: { params_b: 7 }, workload: 'inference', precision: 'fp16', priority: 'cost', kinds: ['gpu', 'cpu'], pricing: 'mixed', spot_share: 0.3, schedule: { hours_per_week: 24, weeks_per_month: 4 } }).result;
  await showAll(rec, 'rec-table');
  assert.equal(await rec.locator('[data-testid^=rec-row-]').count(), rr.candidates.length);
  for (const [i, c] of rr.candidates.entries()) {
    assert.equal(await text(rec, `rec-instance-${i}`), c.instance);
    if (c.cost.usd_per_month === null) assert.match(await text(rec, `rec-monthly-${i}`), /^—/);
    else assertNear(await text(rec, `rec-monthly-${i}`), c.cost.usd_per_month, 0.005, `row ${i}`);
  }
  assert.equal(await rec.getByTestId('rec-kind-cpu').isChecked(), true);
  // CPU families are weighed when asked; the road has no CPU throughput, so they are excluded with its reason.
  const cpu = rr.excluded.filter((x) => x.reason.includes('has no accelerator'));
  assert.ok(cpu.length > 0, 'CPU families are weighed when asked');
  const shown = await rec.getByTestId('rec-excluded').locator('li').allTextContents();
  for (const x of cpu) assert.ok(shown.some((t) => t.startsWith(`${x.family}: ${x.reason}`)), `${x.family} excluded with its reason`);

  // Migrate: scale to zero 12 h a day.
  const mig = await env.page('index.html?view=migrate&current=P4d&gpus=8&size=large&workload=training&precision=bf16&priority=cost&sched=s2z&ha=12');
  const mr = cli({ question: 'migrate', current: { instance: 'P4d', gpus: 8 }, model: { size: 'large' }, workload: 'training', precision: 'bf16', priority: 'cost', use_spot: false, schedule: { off_hours_per_day: 12 } }).result;
  assert.equal(await text(mig, 'mig-summary'), sentence(mr.recommendation.summary));
  assert.equal(await text(mig, 'mig-current-cost-basis'), mr.current.cost.basis);
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
