// Layout (issue 16's first slice): the view list is never clipped, each table's key columns fit
// its box at 1280 px, the answer starts inside the first screen at 390 x 844, no seed numbers or
// config keys in visible text; every view photographed at 1280 x 800 and 390 x 844, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, screenshot } from './helpers.mjs';
import { VIEWS as PAGE_VIEWS } from '../../web/app/views.js';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const VIEWS = PAGE_VIEWS.map((v) => v.id);  // the page's list (web/app/views.js), not a copy
/** The columns a table is read for: what, which, how much, how much it saves. */
const KEY = /^(#|Instance|GPU|Option|Way|Workload|Suitable|Cheapest deployment|Monthly cost.*|\$ per 1M.*|USD per 1M.*|Savings|Break-even.*|On-demand|Spot)$/;

const ready = (page, view) => page.waitForFunction((v) => document.querySelector(`[data-testid="${v}-result"]`)?.dataset.state === 'ready', view);

for (const width of [1280, 1440, 1920, 390]) {
  test(`the view list at ${width} px: every tab fully visible or reachable behind a visible cue; no label cut`, async () => {
    const page = await env.page('index.html?view=fit', { width, height: width === 390 ? 844 : 800 });
    const check = () => page.evaluate(() => {
      const list = document.querySelector('[role=tablist]');
      const box = list.getBoundingClientRect();
      const scrolls = list.scrollWidth > list.clientWidth + 1;
      const cueShown = (side) => { const c = document.querySelector(`[data-testid=tabs-more-${side}]`); return !!c && c.checkVisibility() && c.getBoundingClientRect().width > 0; };
      return [...list.querySelectorAll('[role=tab]')].map((t) => {
        const r = t.getBoundingClientRect();
        const inside = r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
        return { tab: t.textContent, inside, cut: t.scrollWidth > t.clientWidth + 1,
          behindCue: !inside && scrolls && ((r.right > box.right && cueShown('end')) || (r.left < box.left && cueShown('start'))) };
      });
    });
    for (const t of await check()) {
      assert.equal(t.cut, false, `${t.tab}: its label is cut`);
      assert.ok(t.inside || t.behindCue, `${t.tab}: neither visible nor behind a visible cue`);
    }
    if (width === 390) {
      // Keyboard: End reaches the last tab, which scrolls into view.
      await page.getByTestId('tab-fit').focus();
      await page.keyboard.press('End');
      await ready(page, 'catalog');
      const last = (await check()).at(-1);
      assert.ok(last.inside, 'the chosen last tab scrolled into view');
      assert.ok(await page.getByTestId('tabs-more-start').isVisible(), 'a cue says more tabs are to the left');
      await page.getByTestId('tabs-more-start').click();
      await page.waitForFunction(() => document.querySelector('[role=tablist]').scrollLeft < 2, null, { timeout: 3000 }).catch(() => {});
    }
  });
}

test('at 1280 x 800 every results table keeps its key columns inside its box, on every view', async () => {
  const page = await env.page('index.html?view=fit', { width: 1280, height: 800 });
  const outside = [];
  for (const view of VIEWS) {
    await page.getByTestId(`tab-${view}`).click();
    await ready(page, view);
    const found = await page.evaluate((keySource) => {
      const key = new RegExp(keySource);
      const panel = document.querySelector('[role=tabpanel]:not([hidden])');
      const out = [];
      for (const scroll of panel.querySelectorAll('.table-scroll')) {
        if (!scroll.checkVisibility()) continue;
        const t = scroll.querySelector('table');
        const box = scroll.getBoundingClientRect();
        const head = t.tHead.rows[t.tHead.rows.length - 1];
        for (const th of head.cells) {
          const name = th.innerText.trim();
          if (!key.test(name)) continue;
          const r = th.getBoundingClientRect();
          if (r.right > box.right + 1 || r.left < box.left - 1) out.push(`${t.caption?.innerText ?? t.dataset.testid}: ${name}`);
        }
      }
      return out;
    }, KEY.source);
    outside.push(...found.map((x) => `${view}: ${x}`));
  }
  assert.deepEqual(outside, []);
});

test('at 390 x 844 each view shows its answer within the first screen', async () => {
  const page = await env.page('index.html?view=fit', { width: 390, height: 844 });
  const late = [];
  for (const view of VIEWS) {
    await page.getByTestId(`tab-${view}`).click();
    await ready(page, view);
    const top = await page.evaluate((v) => { window.scrollTo(0, 0); return document.querySelector(`[data-testid="${v}-result"]`).getBoundingClientRect().top; }, view);
    if (top >= 844 - 60) late.push(`${view}: the answer starts at ${Math.round(top)} px`);
  }
  assert.deepEqual(late, []);
});

test('no visible text on any view names a seed number or a config key', async () => {
  const page = await env.page('index.html?view=fit');
  const found = [];
  for (const view of VIEWS) {
    await page.getByTestId(`tab-${view}`).click();
    await ready(page, view);
    const hits = await page.evaluate(() => document.body.innerText.match(/.{0,30}(seed \d|seed 00\d|_multiplier|memory_planning).{0,30}/gi) ?? []);
    found.push(...hits.map((x) => `${view}: ${x}`));
  }
  assert.deepEqual(found, []);
});

test('screenshots: every view at 1280 x 800 and 390 x 844, light and dark', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const page = await env.page('index.html?view=fit', { width, height });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const view of VIEWS) {
        await page.getByTestId(`tab-${view}`).click();
        await ready(page, view);
        await screenshot(page, `${view}-${width}x${height}-${scheme}`);
      }
    }
    await page.close();
  }
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
