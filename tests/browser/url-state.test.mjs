// The whole state lives in the URL: a link reproduces the inputs and the answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, linkOf, cli, text, afterChange, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const inputsOf = (page) => screen(page).locator('input, select').evaluateAll((els) =>
  els.map((e) => [e.id, e.type === 'checkbox' ? e.checked : e.value]));

test('recommend: change inputs, open location.href in a new page, same inputs and result', async () => {
  const page = await env.page('index.html?view=deployments');
  const s = screen(page);
  await afterChange(page, 'deployments', () => s.getByLabel('Model', { exact: true }).selectOption('custom'));
  await afterChange(page, 'deployments', () => s.getByLabel('Parameters', { exact: true }).fill('20'));
  await afterChange(page, 'deployments', () => s.getByLabel('Workload type').selectOption('training'));
  await afterChange(page, 'deployments', () => s.getByLabel('Weight format').selectOption('bf16'));
  await afterChange(page, 'deployments', () => s.getByLabel('Priority', { exact: true }).selectOption('performance'));
  await afterChange(page, 'deployments', () => page.getByTestId('rec-family-G6e').check());
  await afterChange(page, 'deployments', () => page.getByTestId('rec-family-P5').check());
  await afterChange(page, 'deployments', () => s.getByLabel('Way to pay').selectOption('spot'));
  await afterChange(page, 'deployments', () => s.getByLabel('Budget (max per month)').fill('50000'));
  await afterChange(page, 'deployments', () => s.getByLabel('Hours per month').fill('500'));
  const href = await linkOf(page);
  const params = new URL(href).searchParams;
  assert.equal(params.get('view'), 'deployments');
  assert.equal(params.get('params'), '20');
  assert.equal(params.get('families'), 'G6e,P5');

  const copy = await env.page(href.slice(env.origin.length + 1));
  assert.deepEqual(await inputsOf(copy), await inputsOf(page));
  assert.equal(await copy.getByTestId('rec-table').innerText(), await page.getByTestId('rec-table').innerText());
  const r = cli({ question: 'recommend', model: { params_b: 20 }, workload: 'training', precision: 'bf16', priority: 'performance', pricing: 'spot', hours_per_month: 500, families: ['G6e', 'P5'], max_usd_per_month: 50000 }).result;
  assert.equal(await text(copy, 'rec-top-instance'), r.candidates[0].instance);
});

test('fit and compare: links restore the view, the inputs and the answer', async () => {
  for (const [view, change] of [
    ['fit', async (page) => {
      await afterChange(page, 'fit', () => screen(page).getByLabel('Where it runs', { exact: true }).selectOption('p5.48xlarge'));
      await afterChange(page, 'fit', () => screen(page).getByLabel('GPUs', { exact: true }).fill('4'));
    }],
    ['compare', async (page) => {
      await afterChange(page, 'compare', () => screen(page).getByLabel('Where it runs', { exact: true }).selectOption('P4d'));
      await afterChange(page, 'compare', () => screen(page).getByLabel('GPUs', { exact: true }).fill('8'));
      await afterChange(page, 'compare', () => screen(page).getByLabel('Model', { exact: true }).selectOption('large'));
    }],
  ]) {
    const page = await env.page(`index.html?view=${view}`);
    await change(page);
    const copy = await env.page((await linkOf(page)).slice(env.origin.length + 1));
    assert.equal(await copy.getByTestId(`tab-${view}`).getAttribute('aria-selected'), 'true');
    assert.deepEqual(await inputsOf(copy), await inputsOf(page));
    assert.equal(await copy.getByTestId(`${view}-result`).innerText(), await page.getByTestId(`${view}-result`).innerText());
  }
});

test('a link with a bad value shows the analyzer error and the inputs stay usable', async () => {
  const page = await env.page('index.html?view=fit&size=small&workload=inference&precision=fp16&instance=P99&gpus=1');
  const expected = cli({ question: 'fit', model: { size: 'small' }, workload: 'inference', precision: 'fp16', instance: 'P99', gpus: 1 });
  const alert = page.getByTestId('fit-errors');
  assert.equal(await alert.getAttribute('role'), 'alert');
  assert.equal(await alert.isVisible(), true);
  assert.equal(await alert.getByTestId('error-code').first().textContent(), expected.errors[0].code);
  assert.equal(await alert.getByTestId('error-path').first().textContent(), expected.errors[0].path);
  assert.equal(await alert.getByTestId('error-message').first().textContent(), expected.errors[0].message);
  assert.equal(await screen(page).getByLabel('Where it runs', { exact: true }).inputValue(), 'P99');
  // Marked at its field too, in a sentence.
  assert.equal(await page.getByTestId('wf-instance').getAttribute('aria-invalid'), 'true');
  assert.match(await text(page, 'wf-instance-error'), /^Where it runs must be an instance family \(e\.g\. P5\) or instance type/);
  await afterChange(page, 'fit', () => screen(page).getByLabel('Where it runs', { exact: true }).selectOption('G6e'));
  assert.equal(await alert.isVisible(), false);
  assert.equal(await page.getByTestId('wf-instance').getAttribute('aria-invalid'), null);
  assert.equal(await text(page, 'fit-status'), 'FITS');
  // An empty GPU count is the analyzer's default (1); a zero is its error.
  await afterChange(page, 'fit', () => screen(page).getByLabel('GPUs', { exact: true }).fill('0'));
  assert.equal(await alert.getByTestId('error-path').first().textContent(), '/gpus');
});

// Each earlier view's link, with its own keys: the view that answers it now, and the form's keys.
const OLD_LINKS = [
  ['precisions', 'size=large', 'fit', { size: 'large' }],
  ['memory', 'model=llama-3-8b&mode=load_only&format=bf16&context=4096&new=64&gpu=A100-80GB&tp=2', 'fit',
    { model: 'llama-3-8b', workload: 'inference', precision: 'bf16', input: '4096', output: '64', instance: 'gpu:A100-80GB', gpus: '2' }],
  ['throughput', 'model=llama-3.1-8b&format=fp8&in=800&out=100', 'deployments', { model: 'llama-3.1-8b', precision: 'fp8', input: '800', output: '100' }],
  ['throughput', 'model=llama-3.1-8b&phase=training&tokens=2000000000', 'deployments', { workload: 'training', tokens: '2' }],
  ['recommend', 'params=20&workload=training&priority=performance', 'deployments', { params: '20', workload: 'training', priority: 'performance' }],
  ['decide', 'size=small&workload=training', 'deployments', { size: 'small', workload: 'training' }],
  ['migrate', 'current=P4d&gpus=8&size=large', 'compare', { instance: 'P4d', gpus: '8', size: 'large' }],
  ['workloads', 'id=inference_small_p5', 'compare', { preset: 'inference_small_p5', instance: 'P5' }],
  ['workloads', 'set=basic_demos', 'compare', { preset: 'set:basic_demos' }],
  ['placement', 'instance=g5.12xlarge', 'plan', { pack: 'g5.12xlarge', instance: null }],
];
for (const [old, keys, view, want] of OLD_LINKS) {
  test(`an earlier link ?view=${old}&${keys} opens ${view} with its inputs`, async () => {
    const page = await env.page(`index.html?view=${old}&${keys}`);
    assert.equal(await page.getByTestId(`tab-${view}`).getAttribute('aria-selected'), 'true');
    await page.locator(`[data-testid="${view}-result"][data-state="ready"]`).first().waitFor();
    const now = new URL(await linkOf(page)).searchParams;
    assert.equal(now.get('view'), view);
    for (const [k, v] of Object.entries(want)) assert.equal(now.get(k), v, `${old}: ${k}`);
  });
}

test('a Fleet plan link keeps its instance to itself (pack); one of an earlier version is read so', async () => {
  for (const key of ['pack', 'instance']) {
    const page = await env.page(`index.html?view=plan&${key}=p4d.24xlarge`);
    await page.locator('[data-testid="placement-result"][data-state="ready"]').first().waitFor();
    assert.equal(await page.getByTestId('place-instance').inputValue(), 'p4d.24xlarge', key);
    const now = new URL(await linkOf(page)).searchParams;
    assert.equal(now.get('pack'), 'p4d.24xlarge', `${key}: the link says pack`);
    assert.equal(now.get('instance'), null, `${key}: and not the form's instance`);
    // Where the workload runs is the form's own default, not the plan's instance.
    await page.getByTestId('tab-fit').click();
    await page.locator('[data-testid="fit-result"][data-state="ready"]').first().waitFor();
    assert.equal(await screen(page).getByLabel('Where it runs', { exact: true }).inputValue(), 'G6e', key);
  }
});

const placementReady = (page) => page.locator('[data-testid="placement-result"][data-state="ready"]').first().waitFor();
const formPay = async (page) => {
  await page.getByTestId('tab-deployments').click();
  await page.locator('[data-testid="deployments-result"][data-state="ready"]').first().waitFor();
  return [await screen(page).getByLabel('Way to pay').inputValue(), await screen(page).getByLabel('Hours per month').inputValue()];
};

test('the Fleet plan\'s way to pay and hours have link keys of their own: a plan link leaves the form\'s alone', async () => {
  const page = await env.page('index.html?view=deployments&pricing=spot&hours=500');
  await page.getByTestId('tab-plan').click();
  await placementReady(page);
  assert.equal(await page.getByTestId('place-pricing').inputValue(), 'on_demand', 'the placement starts from its own default');
  await afterChange(page, 'placement', () => page.getByTestId('place-pricing').selectOption('reserved_1y'));
  await afterChange(page, 'placement', () => page.getByTestId('place-hours').fill('300'));
  const link = new URL(await linkOf(page)).searchParams;
  assert.equal(link.get('pack_pricing'), 'reserved_1y');
  assert.equal(link.get('pack_hours'), '300');
  assert.equal(link.get('pricing'), null, 'not the form\'s key');
  assert.equal(link.get('hours'), null, 'not the form\'s key');
  const copy = await env.page((await linkOf(page)).slice(env.origin.length + 1));
  assert.equal(await copy.getByTestId('place-pricing').inputValue(), 'reserved_1y');
  assert.equal(await copy.getByTestId('place-hours').inputValue(), '300');
  assert.equal(await copy.getByTestId('placement-result').innerText(), await page.getByTestId('placement-result').innerText());
  // The plan's link opened: the form's way to pay and hours are their defaults, not the plan's.
  assert.deepEqual(await formPay(copy), ['on_demand', '']);
  // And the page it was copied from kept the form's own.
  assert.deepEqual(await formPay(page), ['spot', '500']);
});

// An earlier version's plan links named the placement's way to pay with the form's keys.
const EARLIER_PLAN_LINKS = [
  ['view=plan&pricing=spot&sched=day&ha=10&hb=20', { pricing: 'spot', schedule: 'day', a: '10', b: '20' },
    { pricing: 'spot', schedule: { hours_per_day: 10, days_per_month: 20 } }],
  ['view=placement&instance=g5.12xlarge&pricing=reserved_1y&hours=300', { pricing: 'reserved_1y', hours: '300' },
    { pricing: 'reserved_1y', hours_per_month: 300 }],
];
for (const [keys, inputs, asked] of EARLIER_PLAN_LINKS) {
  test(`an earlier plan link ?${keys} prices the placement as before, and not the form`, async () => {
    const page = await env.page(`index.html?${keys}`);
    await placementReady(page);
    const ids = { pricing: 'place-pricing', schedule: 'place-schedule', a: 'place-sched-a', b: 'place-sched-b', hours: 'place-hours' };
    for (const [k, v] of Object.entries(inputs)) assert.equal(await page.getByTestId(ids[k]).inputValue(), v, k);
    const now = new URL(await linkOf(page)).searchParams;
    assert.equal(now.get('pack_pricing'), inputs.pricing);
    for (const k of ['pricing', 'sched', 'ha', 'hb', 'hours']) assert.equal(now.get(k), null, `${k} is now pack_${k}`);
    const r = cli({
      question: 'placement', instance: 'g5.12xlarge', ...asked,
      models: [{ name: 'whisper-large-v3', memory_gb: 10 }, { name: 'kokoro-tts', memory_gb: 2 },
        { name: 'custom-7b', model: { params_b: 7 }, workload: 'inference', precision: 'fp16' }],
    }).result;
    assert.equal(await text(page, 'place-on-basis'), r.on_instance.cost.basis);
    assert.deepEqual(await formPay(page), ['on_demand', '']);
  });
}

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
