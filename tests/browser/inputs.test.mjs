// Input: a bad value is marked at its field with a sentence (aria-invalid, the message beside the
// field, found from the error's JSON path) and the last good answer stays, dimmed; GPU counts take
// whole GPUs; an empty hours field means the stated default, shown as its placeholder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, text, screen, afterChange } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

test('a value the core refuses is marked at its field, in words; the last answer stays, dimmed', async () => {
  const page = await env.page('index.html?view=fit');
  const s = screen(page);
  const status = await text(page, 'fit-status');
  await afterChange(page, 'fit', () => s.getByLabel('GPUs', { exact: true }).fill('5000'));
  const field = page.getByTestId('fit-gpus');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  const message = (await page.getByTestId('fit-gpus-error').textContent()).trim();
  assert.match(message, /^GPUs must be a number more than 0 and at most 4096 \(you entered 5000\)\.$/);
  assert.ok((await field.getAttribute('aria-describedby')).split(' ').includes('fit-gpus-error'));
  assert.equal(await page.getByTestId('fit-result').getAttribute('data-state'), 'error');
  assert.equal(await text(page, 'fit-status'), status, 'the last good answer stays');
  assert.ok(Number(await page.getByTestId('fit-result').evaluate((n) => getComputedStyle(n).opacity)) < 1, 'dimmed');
  assert.match(await text(page, 'alert-note'), /last one for valid inputs/);
  assert.equal(await text(page, 'error-path'), '/gpus');
  // A good value clears the mark.
  await afterChange(page, 'fit', () => s.getByLabel('GPUs', { exact: true }).fill('2'));
  assert.equal(await field.getAttribute('aria-invalid'), null);
  assert.equal(await page.getByTestId('fit-gpus-error').count(), 0);
  assert.equal(await page.getByTestId('fit-result').getAttribute('data-state'), 'ready');
});

test('GPU counts take whole GPUs: step 1, and 2.5 is refused at the field', async () => {
  const page = await env.page('index.html?view=fit');
  const s = screen(page);
  assert.equal(await page.getByTestId('fit-gpus').getAttribute('step'), '1');
  await afterChange(page, 'fit', () => s.getByLabel('GPUs', { exact: true }).fill('2.5'));
  assert.equal(await page.getByTestId('fit-gpus').getAttribute('aria-invalid'), 'true');
  assert.match(await text(page, 'fit-gpus-error'), /whole GPUs: enter 2 or 3/);

  const mem = await env.page('index.html?view=memory');
  const m = screen(mem);
  assert.equal(await mem.getByTestId('mem-gpus').getAttribute('step'), '1');
  await afterChange(mem, 'memory', () => m.getByLabel('GPUs per model copy').fill('2.5'));
  assert.equal(await mem.getByTestId('mem-gpus').getAttribute('aria-invalid'), 'true');
  assert.match(await text(mem, 'mem-gpus-error'), /whole number: enter 2 or 3/);
  await afterChange(mem, 'memory', () => m.getByLabel('Tensor parallel').fill('1.5'));
  assert.equal(await mem.getByTestId('mem-tp').getAttribute('aria-invalid'), 'true');
});

test('an empty hours field means 720 h, said by its placeholder and hint', async () => {
  const page = await env.page('index.html?view=fit');
  const hours = page.getByTestId('fit-hours');
  assert.equal(await hours.inputValue(), '');
  assert.equal(await hours.getAttribute('placeholder'), '720');
  assert.match(await page.locator('#fit-hours-hint').textContent(), /Empty means 720 h/);
  assert.match(await text(page, 'fit-request'), /"hours_per_month":720/);
  assert.ok(!new URL(page.url()).searchParams.has('hours'));
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
