// Accessibility: axe-core (pinned in package.json) on every screen, light and dark, with every
// <details> open so that the charts' data tables are checked too; no serious or critical
// violations. Each screen is photographed in both themes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, screenshot, ROOT } from './helpers.mjs';
import { VIEWS as PAGE_VIEWS } from '../../web/app/views.js';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const AXE = fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
const VIEWS = PAGE_VIEWS.map((v) => v.id);  // the page's list (web/app/views.js), not a copy

for (const scheme of ['light', 'dark']) {
  test(`axe: no serious or critical violations on any screen (${scheme})`, async () => {
    const page = await env.page('index.html?view=fit');
    await page.emulateMedia({ colorScheme: scheme });
    // page.evaluate runs outside the page's CSP (an inline <script> would be refused).
    await page.evaluate(AXE);
    const found = [];
    for (const view of VIEWS) {
      await page.getByTestId(`tab-${view}`).click();
      await page.waitForFunction((v) => document.querySelector(`[data-testid="${v}-result"]`)?.dataset.state === 'ready', view);
      await screenshot(page, `${view}-${scheme}`, { fullPage: true });
      await page.evaluate(() => document.querySelectorAll('[role=tabpanel]:not([hidden]) details').forEach((d) => { d.open = true; }));
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      for (const v of result.violations) {
        if (v.impact === 'serious' || v.impact === 'critical') {
          found.push(`${view}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        }
      }
    }
    assert.deepEqual(found, []);
  });
}

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
