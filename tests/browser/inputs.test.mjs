// Input: a bad value is marked at its field with a sentence (aria-invalid, the message beside the
// field, found from the error's JSON path) and the last good answer stays, dimmed; GPU counts take
// whole GPUs; an empty hours field means the stated default, shown as its placeholder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, linkOf, cli, text, screen, afterChange, assertNear } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

test('a value the core refuses is marked at its field, in words; the last answer stays, dimmed', async () => {
  const page = await env.page('index.html?view=fit');
  const s = screen(page);
  const status = await text(page, 'fit-status');
  await afterChange(page, 'fit', () => s.getByLabel('GPUs', { exact: true }).fill('5000'));
  const field = page.getByTestId('wf-gpus');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  const message = (await page.getByTestId('wf-gpus-error').textContent()).trim();
  assert.match(message, /^GPUs must be a number more than 0 and at most 4096 \(you entered 5000\)\.$/);
  assert.ok((await field.getAttribute('aria-describedby')).split(' ').includes('wf-gpus-error'));
  assert.equal(await page.getByTestId('fit-result').getAttribute('data-state'), 'error');
  assert.equal(await text(page, 'fit-status'), status, 'the last good answer stays');
  assert.ok(Number(await page.getByTestId('fit-result').evaluate((n) => getComputedStyle(n).opacity)) < 1, 'dimmed');
  assert.match(await text(page, 'alert-note'), /last one for valid inputs/);
  assert.equal(await text(page, 'error-path'), '/gpus');
  // A good value clears the mark.
  await afterChange(page, 'fit', () => s.getByLabel('GPUs', { exact: true }).fill('2'));
  assert.equal(await field.getAttribute('aria-invalid'), null);
  assert.equal(await page.getByTestId('wf-gpus-error').count(), 0);
  assert.equal(await page.getByTestId('fit-result').getAttribute('data-state'), 'ready');
});

test('a schedule\'s numbers and the spot share the core refuses are marked at their fields, on the form and on the placement', async () => {
  for (const [view, link, pre, result] of [['fit', 'index.html?view=fit&sched=day&ha=8&hb=22', 'wf', 'fit'], ['plan', 'index.html?view=plan&pack_sched=day&pack_ha=8&pack_hb=22', 'place', 'placement']]) {
    const page = await env.page(link);
    const a = page.getByTestId(`${pre}-sched-a`);
    const b = page.getByTestId(`${pre}-sched-b`);
    await afterChange(page, result, () => a.fill('30'));
    assert.equal(await a.getAttribute('aria-invalid'), 'true', `${view}: hours a day`);
    assert.equal(await text(page, `${pre}-sched-a-error`), 'Hours a day must be a number more than 0 and at most 24 (you entered 30).');
    assert.equal(await b.getAttribute('aria-invalid'), null);
    await afterChange(page, result, () => a.fill('8'));
    await afterChange(page, result, () => b.fill('40'));
    assert.equal(await a.getAttribute('aria-invalid'), null, `${view}: the mark follows the field`);
    assert.equal(await b.getAttribute('aria-invalid'), 'true', `${view}: days a month`);
    assert.match(await text(page, `${pre}-sched-b-error`), /^Days a month must be /);
    await afterChange(page, result, () => b.fill('22'));
    await afterChange(page, result, () => page.getByTestId(`${pre}-pricing`).selectOption('mixed'));
    await afterChange(page, result, () => page.getByTestId(`${pre}-share`).fill('1.5'));
    assert.equal(await page.getByTestId(`${pre}-share`).getAttribute('aria-invalid'), 'true', `${view}: spot share`);
    assert.match(await text(page, `${pre}-share-error`), /^Spot share must be /);
    await afterChange(page, result, () => page.getByTestId(`${pre}-share`).fill('0.5'));
    assert.equal(await page.getByTestId(`${result}-result`).getAttribute('data-state'), 'ready');
    await page.close();
  }
});

test('Compare & migrate: a GPU count the core refuses for the current deployment is marked at the form\'s GPUs', async () => {
  const page = await env.page('index.html?view=compare&instance=p5.48xlarge&size=small');
  const field = page.getByTestId('wf-gpus');
  await afterChange(page, 'compare', () => field.fill('0'));
  assert.equal(await text(page, 'error-path'), '/current/gpus');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.equal(await text(page, 'wf-gpus-error'), 'GPUs must be a number more than 0 and at most 4096 (you entered 0).');
  await afterChange(page, 'compare', () => field.fill('8'));
  assert.equal(await field.getAttribute('aria-invalid'), null);
  assert.equal(await page.getByTestId('compare-result').getAttribute('data-state'), 'ready');
  // An instance it does not know, where it runs today: marked at Where it runs.
  const unknown = await env.page('index.html?view=compare&instance=P99&size=small');
  assert.equal(await text(unknown, 'error-path'), '/current/instance');
  assert.equal(await unknown.getByTestId('wf-instance').getAttribute('aria-invalid'), 'true');
  assert.match(await text(unknown, 'wf-instance-error'), /^Where it runs must be an instance family/);
});

test('Fleet plan: a value the core refuses inside a row is marked at that row\'s field, in words', async () => {
  const page = await env.page('index.html?view=plan');
  const count = page.getByTestId('plan-w-0-0-count');
  const status = await text(page, 'plan-total');
  await afterChange(page, 'plan', () => count.fill('0'));
  assert.equal(await text(page, 'error-path'), '/plan/environments/0/workloads/0/count');
  assert.equal(await count.getAttribute('aria-invalid'), 'true');
  assert.equal(await text(page, 'plan-w-0-0-count-error'), 'Count must be a number at least 1 and at most 10000 (you entered 0).');
  assert.ok((await count.getAttribute('aria-describedby')).split(' ').includes('plan-w-0-0-count-error'));
  assert.equal(await page.getByTestId('plan-w-1-0-count').getAttribute('aria-invalid'), null, 'only the row at fault');
  assert.equal(await text(page, 'plan-total'), status, 'the last good answer stays');
  await afterChange(page, 'plan', () => count.fill('2'));
  assert.equal(await count.getAttribute('aria-invalid'), null);
  assert.equal(await page.getByTestId('plan-w-0-0-count-error').count(), 0);
  // A schedule's number (this row: 8 h a day x 22 days) and a spot share, each at its own field.
  const hoursADay = page.getByTestId('plan-w-0-0-a');
  await afterChange(page, 'plan', () => hoursADay.fill('30'));
  assert.equal(await text(page, 'error-path'), '/plan/environments/0/workloads/0/schedule/hours_per_day');
  assert.equal(await hoursADay.getAttribute('aria-invalid'), 'true');
  assert.equal(await text(page, 'plan-w-0-0-a-error'), 'Hours a day must be a number more than 0 and at most 24 (you entered 30).');
  assert.equal(await page.getByTestId('plan-w-0-0-b').getAttribute('aria-invalid'), null);
  await afterChange(page, 'plan', () => hoursADay.fill('8'));
  assert.equal(await hoursADay.getAttribute('aria-invalid'), null);
  await afterChange(page, 'plan', () => page.getByTestId('plan-w-1-0-pricing').selectOption('mixed'));
  await afterChange(page, 'plan', () => page.getByTestId('plan-w-1-0-share').fill('2'));
  assert.equal(await page.getByTestId('plan-w-1-0-share').getAttribute('aria-invalid'), 'true');
  assert.match(await text(page, 'plan-w-1-0-share-error'), /^Spot share must be a number at least 0 and at most 1 \(you entered 2\)\.$/);
  await afterChange(page, 'plan', () => page.getByTestId('plan-w-1-0-share').fill('0.5'));
  assert.equal(await page.getByTestId('plan-result').getAttribute('data-state'), 'ready');
  assert.equal(await page.locator('[aria-invalid=true]').count(), 0);
});

test('GPU counts take whole GPUs: step 1, and 2.5 is refused at the field', async () => {
  const page = await env.page('index.html?view=fit');
  const s = screen(page);
  assert.equal(await page.getByTestId('wf-gpus').getAttribute('step'), '1');
  await afterChange(page, 'fit', () => s.getByLabel('GPUs', { exact: true }).fill('2.5'));
  assert.equal(await page.getByTestId('wf-gpus').getAttribute('aria-invalid'), 'true');
  assert.match(await text(page, 'wf-gpus-error'), /whole GPUs: enter 2 or 3/);

});

test('on one GPU alone, 2 GPUs split the model 2 ways: tensor parallelism follows the GPU count', async () => {
  const page = await env.page('index.html?view=fit&model=llama-3.1-70b&precision=bf16&instance=gpu:A100-80GB');
  assert.equal(await text(page, 'mem-fits'), 'DOES NOT FIT');
  await afterChange(page, 'fit', () => screen(page).getByLabel('GPUs', { exact: true }).fill('2'));
  const r = cli({ question: 'memory', model: { name: 'llama-3.1-70b' }, mode: 'inference', weight_format: 'bf16', gpu: 'A100-80GB', gpus: 2, tensor_parallel: 2 }).result;
  assert.equal(r.gpu.fits, true);
  assert.equal(await text(page, 'mem-fits'), 'FITS');
  assert.match(await text(page, 'fit-request'), /"gpus":2,"tensor_parallel":2/);
});

test('an empty hours field means 720 h, said by its placeholder and hint', async () => {
  const page = await env.page('index.html?view=fit');
  const hours = page.getByTestId('wf-hours');
  assert.equal(await hours.inputValue(), '');
  assert.equal(await hours.getAttribute('placeholder'), '720');
  assert.match(await page.locator('#wf-hours-hint').textContent(), /Empty means 720 h/);
  assert.doesNotMatch(await text(page, 'fit-request'), /hours_per_month/);
  assert.match(await text(page, 'fit-cost-basis'), /x 720 h = /);
  assert.ok(!new URL(await linkOf(page)).searchParams.has('hours'));
});

test('pricing g5.xlarge for a schedule with the example model: the cost leads, its verdict is a note; a chosen model\'s is the verdict', async () => {
  const page = await env.page('index.html?view=fit');
  const s = screen(page);
  await afterChange(page, 'fit', () => s.getByLabel('Where it runs', { exact: true }).selectOption('g5.xlarge'));
  await afterChange(page, 'fit', () => s.getByLabel('Schedule').selectOption('day'));
  const r = cli({ question: 'fit', model: { size: 'small' }, workload: 'inference', precision: 'fp16', instance: 'g5.xlarge', gpus: 1, schedule: { hours_per_day: 8, days_per_month: 22 } }).result;
  assert.equal(r.status, 'CANNOT FIT MODEL');
  const result = page.getByTestId('fit-result');
  assert.equal((await result.locator(':scope > section').first().locator('h3').textContent()).trim(), 'Cost', 'the cost comes first');
  assertNear(await text(page, 'fit-cost-monthly'), r.cost.usd_per_month, 0.005, 'monthly cost');
  assert.equal(await result.locator('.verdict.nofit, .badge.bad').count(), 0, 'no red verdict for the example model');
  assert.match(await text(page, 'fit-example'), /example model/);
  // The ways out name accelerators only: no CPU-only instance as "more memory per GPU".
  assert.ok(r.ways_out.other_families.every((d) => d.accelerator_kind !== 'cpu'));
  assert.doesNotMatch(await page.getByTestId('fit-ways-out').innerText(), /CPU only|no accelerator/);
  // A model chosen by hand: its verdict leads, as an alarm.
  await afterChange(page, 'fit', () => s.getByLabel('Model', { exact: true }).selectOption('medium'));
  assert.equal(await result.locator('.verdict.nofit .badge.bad').count(), 1);
  assert.equal(await page.getByTestId('fit-example').count(), 0);
});

test('a way out in a smaller weight format names it as the weight format picker does', async () => {
  const page = await env.page('index.html?view=fit&model=llama-3.1-70b&precision=bf16&input=8192&instance=any:NVIDIA+A100+80GB&gpus=1');
  const r = cli(JSON.parse(await text(page, 'fit-request'))).result;
  assert.ok(r.ways_out.formats.some((k) => k.includes('_')), 'a format whose key has an underscore');
  const names = new Map(await screen(page).getByLabel('Weight format', { exact: true }).locator('option').evaluateAll((os) => os.map((o) => [o.value, o.textContent])));
  const rows = await page.getByTestId('fit-ways-out').locator('tr', { hasText: 'Smaller weight format' }).locator('td').allTextContents();
  assert.deepEqual(rows, r.ways_out.formats.map((k) => `${names.get(k)} on the same GPUs`));
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
