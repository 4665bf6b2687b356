// The whole state lives in the URL: a link reproduces the inputs and the answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, text, afterChange, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const inputsOf = (page) => screen(page).locator('input, select').evaluateAll((els) =>
  els.map((e) => [e.id, e.type === 'checkbox' ? e.checked : e.value]));

test('recommend: change inputs, open location.href in a new page, same inputs and result', async () => {
  const page = await env.page('index.html?view=recommend');
  const s = screen(page);
  await afterChange(page, 'recommend', () => s.getByLabel('Model', { exact: true }).selectOption('custom'));
  await afterChange(page, 'recommend', () => s.getByLabel('Parameters').fill('20'));
  await afterChange(page, 'recommend', () => s.getByLabel('Workload type').selectOption('training'));
  await afterChange(page, 'recommend', () => s.getByLabel('Precision').selectOption('bf16'));
  await afterChange(page, 'recommend', () => s.getByLabel('Priority', { exact: true }).selectOption('performance'));
  await afterChange(page, 'recommend', () => page.getByTestId('rec-family-G6e').check());
  await afterChange(page, 'recommend', () => page.getByTestId('rec-family-P5').check());
  await afterChange(page, 'recommend', () => s.getByLabel('Use spot prices where known').check());
  await afterChange(page, 'recommend', () => s.getByLabel('Budget (max per month)').fill('50000'));
  await afterChange(page, 'recommend', () => s.getByLabel('Hours per month').fill('500'));
  const href = page.url();
  const params = new URL(href).searchParams;
  assert.equal(params.get('view'), 'recommend');
  assert.equal(params.get('params'), '20');
  assert.equal(params.get('families'), 'G6e,P5');

  const copy = await env.page(href.slice(env.origin.length + 1));
  assert.deepEqual(await inputsOf(copy), await inputsOf(page));
  assert.equal(await copy.getByTestId('rec-table').innerText(), await page.getByTestId('rec-table').innerText());
  const r = cli({ question: 'recommend', model: { params_b: 20 }, workload: 'training', precision: 'bf16', priority: 'performance', use_spot: true, hours_per_month: 500, families: ['G6e', 'P5'], max_usd_per_month: 50000 }).result;
  assert.equal(await text(copy, 'rec-top-instance'), r.candidates[0].instance);
});

test('fit and migrate: links restore the view, the inputs and the answer', async () => {
  for (const [view, change] of [
    ['fit', async (page) => {
      await afterChange(page, 'fit', () => screen(page).getByLabel('Instance (family or type)').selectOption('p5.48xlarge'));
      await afterChange(page, 'fit', () => screen(page).getByLabel('GPUs', { exact: true }).fill('4'));
    }],
    ['migrate', async (page) => {
      await afterChange(page, 'migrate', () => screen(page).getByLabel('Current instance (family or type)').selectOption('P4d'));
      await afterChange(page, 'migrate', () => screen(page).getByLabel('GPUs', { exact: true }).fill('8'));
      await afterChange(page, 'migrate', () => screen(page).getByLabel('Model', { exact: true }).selectOption('large'));
    }],
  ]) {
    const page = await env.page(`index.html?view=${view}`);
    await change(page);
    const copy = await env.page(page.url().slice(env.origin.length + 1));
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
  assert.equal(await screen(page).getByLabel('Instance (family or type)').inputValue(), 'P99');
  await afterChange(page, 'fit', () => screen(page).getByLabel('Instance (family or type)').selectOption('G6e'));
  assert.equal(await alert.isVisible(), false);
  assert.equal(await text(page, 'fit-status'), 'FITS');
  // An empty GPU count is the analyzer's default (1); a zero is its error.
  await afterChange(page, 'fit', () => screen(page).getByLabel('GPUs', { exact: true }).fill('0'));
  assert.equal(await alert.getByTestId('error-path').first().textContent(), '/gpus');
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
