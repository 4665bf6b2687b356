// The workload form's choices come from the core's menus (catalog, section "menus"): the tasks, the
// priorities and every way to pay of the catalog, by name; a way to pay prices as the CLI does, and
// one without a public discount says so in the picker and in the answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, showAll, linkOf, cli, text, assertNear, afterChange, screen, sentence } from './helpers.mjs';

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
  // Each group of the picker is one provider's, by the catalog's name for it.
  const groups = await screen(page).getByLabel('Way to pay', { exact: true }).locator('optgroup').evaluateAll((gs) => gs.map((g) => g.label));
  assert.deepEqual(groups, ['Any provider', ...new Set(menus.ways_to_pay.map((w) => `${menus.provider_names[w.provider]} commitments`))]);
  assert.ok(groups.includes('Google Cloud commitments'), groups.join(' | '));
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
    assert.equal(new URL(await linkOf(page)).searchParams.get('pricing'), way.key, 'the link keeps the way');
    return cost;
  };
  const cost = await check(priced);
  assert.equal(cost.way, priced.key);
  assert.ok(cost.basis.includes(priced.name), cost.basis);
  assert.equal(await s.getByTestId('fit-cost-note').count(), 0);
  await afterChange(page, 'fit', () => s.getByLabel('Way to pay', { exact: true }).selectOption(unpriced.key));
  const fallback = await check(unpriced);
  assert.equal(fallback.pricing, 'on_demand');
  assert.equal(await text(page, 'fit-cost-note'), sentence(fallback.note));
  assert.match(fallback.note, /on-demand price used/);
});

test('the answers name the way to pay as the menus do, never by its key', async () => {
  const menus = cli({ question: 'catalog', section: 'menus' }).result;
  const names = new Map([...menus.pricing_modes, ...menus.ways_to_pay].map((m) => [m.key, m.name]));
  const keys = new RegExp(`\\b(${[...names.keys()].join('|')})\\b`);
  const priced = menus.ways_to_pay.find((w) => w.provider === 'aws' && w.priced && w.upfront === 'partial');
  // A provider's way, and a way of any provider (each provider's usual commitment, named by the way it used).
  for (const pricing of [priced.key, 'reserved_1y']) {
    const page = await env.page(`index.html?view=deployments&model=llama-3.1-8b&rps=5&pricing=${pricing}`);
    await page.locator('[data-testid="deployments-result"][data-state="ready"]').first().waitFor();
    const r = cli(JSON.parse(await text(page, 'rec-request'))).result;
    await showAll(page, 'rec-table');
    assert.ok(r.candidates.some((c) => c.cost.way), `${pricing}: a candidate paid by a provider's way`);
    for (const [i, c] of r.candidates.entries()) {
      const rate = await text(page, `rec-rate-${i}`);
      if (c.cost.usd_per_hour == null) { assert.match(rate, /^—/, `${pricing} row ${i}: no price`); continue; }
      const name = names.get(c.cost.way ?? c.cost.pricing);
      assert.ok(name, `${c.cost.way ?? c.cost.pricing} is named in the menus`);
      assert.ok(rate.endsWith(` ${name}`), `${pricing} row ${i}: ${rate}`);
      assertNear(rate, c.cost.usd_per_hour, 0.00005, `${pricing} row ${i} rate`);
    }
    const costCells = await page.getByTestId('rec-table').locator('tr.main-row td:nth-child(3)').allInnerTexts();
    assert.equal(costCells.length, r.candidates.length);
    for (const cell of costCells) assert.doesNotMatch(cell, keys, `${pricing}: no way to pay's key in the cost column`);
  }
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
