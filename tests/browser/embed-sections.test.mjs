// Chosen sections (compact=table,chart: docs/page.md, Embedding) on every view that can be embedded
// besides Fit and Deployments (embed-fit.test.mjs): each view marks its answer's cards with the ids
// of web/app/sections.js, and an embed shows the sections asked, in the view's order, and nothing
// else of the answer; a section the view does not have is ignored; the inputs are hidden.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, screenshot } from './helpers.mjs';
import { SECTIONS } from '../../web/app/sections.js';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

// Per view: the sections asked (two of its own, where its default answer has them, plus one of
// another view's, which it ignores) and the cards its default answer draws.
const CASES = [
  { view: 'compare', ask: ['verdict', 'table', 'cost'], has: ['verdict', 'table', 'current', 'workload'] },
  { view: 'plan', ask: ['table', 'providers', 'excluded'], has: ['verdict', 'chart', 'table', 'alternatives', 'providers'] },
  { view: 'autoscale', ask: ['chart', 'base', 'verdict'], has: ['deployment', 'chart', 'table', 'recommended', 'base'] },
  { view: 'spot', ask: ['verdict', 'table', 'chart'], has: ['verdict', 'baseline', 'table'] },
  { view: 'regions', ask: ['verdict', 'table', 'cost'], has: ['verdict', 'table'] },
  { view: 'batch', ask: ['chart', 'table'], has: ['jobs', 'chart'] },
  { view: 'catalog', ask: ['table', 'models', 'verdict'], has: ['info', 'table', 'models', 'precisions', 'sources'] },
];

test('sections.js lists a section for every view that can be embedded, each of them drawn by its view', () => {
  const views = new Set(SECTIONS.flatMap((s) => s.views));
  for (const { view, has } of CASES) {
    assert.ok(views.has(view), view);
    for (const id of has) assert.ok(SECTIONS.find((s) => s.id === id).views.includes(view), `${id} on ${view}`);
  }
});

for (const { view, ask, has } of CASES) {
  test(`${view}: an embed with compact=${ask.join(',')} shows only its own of those sections`, async () => {
    const page = await env.page(`index.html?embed=1&view=${view}&compact=${ask.join(',')}`, { width: 1000, height: 800 });
    const results = page.locator(`[data-testid=${view}-result][data-state=ready]`);
    await results.waitFor({ timeout: 15000 });
    assert.equal(await page.locator('html').getAttribute('data-compact'), 'sections');
    const got = await results.evaluate((r) => {
      const marked = [...r.querySelectorAll('[data-section]')];
      return {
        marked: [...new Set(marked.map((n) => n.dataset.section))],
        visible: marked.filter((n) => n.getClientRects().length).map((n) => n.dataset.section),
        others: [...r.children].filter((n) => !n.dataset.section && n.getClientRects().length
          && !n.querySelector('[data-section]')).map((n) => n.className || n.tagName),
      };
    });
    for (const id of has) assert.ok(got.marked.includes(id), `${view} draws ${id}: ${got.marked}`);
    const own = SECTIONS.filter((s) => s.views.includes(view)).map((s) => s.id);
    const wanted = got.marked.filter((id) => ask.includes(id) && own.includes(id));
    assert.deepEqual([...new Set(got.visible)], wanted, `${view}: the sections asked, in the view's order`);
    assert.ok(wanted.length >= 1 && wanted.length < got.marked.length, `${view}: some sections shown, some not`);
    assert.deepEqual(got.others, [], `${view}: nothing else of the answer takes room`);
    for (const outside of ['.inputs-card', '.screen-actions']) {
      assert.equal(await page.locator(`[data-testid=screen-${view}] ${outside}`).first().isVisible(), false, `${view}: ${outside}`);
    }
    await screenshot(page, `embed-sections-${view}`);
    await page.close();
  });
}

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
