// The workload form's choices come from the core's menus (catalog, section "menus"): the tasks, the
// priorities and every way to pay of the catalog, by name; a way to pay prices as the CLI does, and
// one without a public discount says so in the picker and in the answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, cli, text, assertNear, afterChange, screen } from './helpers.mjs';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const options = (page, label) => screen(page).getByLabel(label, { exact: true }).locator('option')
  .evaluateAll((list) => list.map((o) => [o.value, o.textContent]));

test('the form offers the core\'s tasks, priorities and every way to pay of the catalog, by name', async () => {
  const menus = cli({ question: 'catalog', section: 'menus' }).result;
  const page = await env.page('index.html?view=deployments&model=llama-3.1-8b&rps=5');
  await page.locator('[data-testid="deployments-result"][data-state="ready"]').first().waitFor();
  assert.deepEqual(await options(page, 'Workload type'), menus.tasks.map((t) => [t.key, t.name]));
  assert.deepEqual(await options(page, 'Priority'), menus.priorities.map((p) => [p.key, p.name]));
  const pay = await options(page, 'Way to pay');
  assert.deepEqual(pay.map(([key]) => key), [...menus.pricing_modes.map((m) => m.key), ...menus.ways_to_pay.map((w) => w.key)],
    'every way of paying, then every provider\'s ways to pay with a commitment');
  assert.ok(menus.ways_to_pay.length > 20, 'more than the five old ways');
  const label = new Map(pay);
  for (const m of menus.pricing_modes) assert.equal(label.get(m.key), m.name);
  for (const w of menus.ways_to_pay) {
    const shown = label.get(w.key);
    assert.ok(shown.startsWith(w.name), `${w.key}: ${shown}`);
    if (w.priced) assert.equal(shown, w.name);
    else if (w.priced_for) assert.match(shown, new RegExp(`priced for ${w.priced_for.join(', ')} only`));
    else assert.match(shown, /no public discount: on-demand price/, w.key);
  }
  assert.ok(menus.ways_to_pay.some((w) => !w.priced && !w.priced_for), 'the catalog has ways without a public discount');
  // Each group of the picker is one provider's.
  const groups = await screen(page).getByLabel('Way to pay', { exact: true }).locator('optgroup').evaluateAll((gs) => gs.map((g) => g.label));
  assert.deepEqual(groups, ['Any provider', ...new Set(menus.ways_to_pay.map((w) => `${w.provider.toUpperCase()} commitments`))]);
});

test('a way to pay of the catalog prices as the CLI does; one without a public discount says so', async () => {
  const menus = cli({ question: 'catalog', section: 'menus' }).result;
  const priced = menus.ways_to_pay.find((w) => w.provider === 'aws' && w.priced && w.upfront === 'partial');
  const unpriced = menus.ways_to_pay.find((w) => w.provider === 'aws' && !w.priced && !w.priced_for);
  const page = await env.page(`index.html?view=fit&size=small&instance=p4d.24xlarge&pricing=${priced.key}`);
  const s = screen(page);
  const check = async (way) => {
    const request = JSON.parse(await text(page, 'fit-request'));
    assert.equal(request.pricing, way.key);
    const expected = cli(request);
    assert.equal(expected.ok, true, JSON.stringify(expected.errors));
    const cost = expected.result.cost;
    assertNear(await text(page, 'fit-cost-monthly'), cost.usd_per_month, 0.005, `${way.key} monthly`);
    assert.equal(await text(page, 'fit-cost-basis'), cost.basis);
    assert.equal(new URL(page.url()).searchParams.get('pricing'), way.key, 'the link keeps the way');
    return cost;
  };
  const cost = await check(priced);
  assert.equal(cost.way, priced.key);
  assert.ok(cost.basis.includes(priced.name), cost.basis);
  assert.equal(await s.getByTestId('fit-cost-note').count(), 0);
  await afterChange(page, 'fit', () => s.getByLabel('Way to pay', { exact: true }).selectOption(unpriced.key));
  const fallback = await check(unpriced);
  assert.equal(fallback.pricing, 'on_demand');
  assert.equal(await text(page, 'fit-cost-note'), fallback.note);
  assert.match(fallback.note, /on-demand price used/);
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
