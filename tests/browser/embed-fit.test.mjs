// Embeds that fit their host (issue 37): the theme follows a dark host and its change to light,
// compact modes, a height that follows the content past the old 4,000 px cap (or a max-height),
// a short status line announced instead of the whole answer; and at 390 px the Deployments
// table's key columns inside its box and chart text at 11 px or more.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setup, screenshot, afterChange, screen } from './helpers.mjs';
import { startServer } from '../../scripts/site-server.mjs';

let env;
let host;
let dir;
before(async () => {
  env = await setup();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpufleet-host-'));
  const page = (body, style) => `<!doctype html><html><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="host.css"><script type="module" src="${env.origin}/embed.js"></script></head>
<body class="${style}">${body}</body></html>`;
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>host</title>');
  fs.writeFileSync(path.join(dir, 'host.css'), 'body.dark { background: #15171c; color: #eee; } body.light { background: #fff; }');
  fs.writeFileSync(path.join(dir, 'dark.html'), page('<gpufleet-calculator view="fit"></gpufleet-calculator>', 'dark'));
  fs.writeFileSync(path.join(dir, 'compact.html'), page('<gpufleet-calculator view="fit" compact="answer" theme="light"></gpufleet-calculator><gpufleet-calculator view="fit" compact="summary" theme="dark"></gpufleet-calculator>', 'light'));
  fs.writeFileSync(path.join(dir, 'sections.html'), page('<gpufleet-calculator view="fit" compact="cost, verdict,nope"></gpufleet-calculator><gpufleet-calculator view="deployments" compact="table" preset="params=13&workload=inference&precision=fp16&rps=5"></gpufleet-calculator>', 'light'));
  fs.writeFileSync(path.join(dir, 'tall.html'), page('<gpufleet-calculator view="catalog"></gpufleet-calculator><gpufleet-calculator view="catalog" max-height="900"></gpufleet-calculator>', 'light'));
  host = await startServer(dir);
});
after(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await env?.close();
});

const hostPage = async (name) => {
  const page = await env.context.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(`${host.origin}/${name}`);
  return page;
};
const luminance = (rgb) => { const [r, g, b] = rgb.match(/\d+/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };

test('the embed follows a dark host, then its change to light, without loading again', async () => {
  const page = await hostPage('dark.html');
  const frame = page.frameLocator('gpufleet-calculator iframe');
  await frame.locator('[data-testid="fit-result"][data-state="ready"]').waitFor();
  assert.equal(new URL(await page.locator('gpufleet-calculator iframe').getAttribute('src')).searchParams.get('theme'), 'dark');
  const bg = () => frame.locator('html').evaluate((r) => getComputedStyle(r).backgroundColor);
  assert.equal(await frame.locator('html').getAttribute('data-theme'), 'dark');
  assert.ok(luminance(await bg()) < 60, `a dark page: ${await bg()}`);
  await screenshot(page, 'embed-dark-host');
  const loads = await frame.locator('html').evaluate(() => performance.timeOrigin);
  await page.evaluate(() => { document.body.className = 'light'; });
  await frame.locator('html[data-theme="light"]').waitFor();
  assert.ok(luminance(await bg()) > 200, `a light page: ${await bg()}`);
  assert.equal(await frame.locator('html').evaluate(() => performance.timeOrigin), loads, 'the same page, restyled');
  await page.close();
});

test('compact modes: the answer without the inputs, or its first card only', async () => {
  const page = await hostPage('compact.html');
  const frames = [0, 1].map((i) => page.frameLocator('gpufleet-calculator iframe').nth(i));
  for (const f of frames) await f.locator('[data-testid="fit-result"][data-state="ready"]').waitFor();
  const [answer, summary] = frames;
  assert.equal(await answer.locator('.inputs-card').isVisible(), false);
  assert.equal(await answer.getByTestId('fit-status').isVisible(), true);
  assert.equal(await answer.locator('html').getAttribute('data-theme'), 'light');
  const visibleCards = (f) => f.locator('[data-testid=fit-result] > *').evaluateAll((ns) => ns.filter((n) => n.getClientRects().length).length);
  assert.ok(await visibleCards(answer) > 1);
  assert.equal(await visibleCards(summary), 1);
  assert.equal(await summary.locator('html').getAttribute('data-theme'), 'dark');
  await screenshot(page, 'embed-compact');
  await page.close();
});

test('compact with chosen sections: only those sections of the answer are shown, in the view\'s order', async () => {
  const page = await hostPage('sections.html');
  const [fit, deployments] = [0, 1].map((i) => page.frameLocator('gpufleet-calculator iframe').nth(i));
  const src = await page.locator('gpufleet-calculator iframe').first().getAttribute('src');
  assert.equal(new URL(src).searchParams.get('compact'), 'verdict,cost', 'the known ids, in the list\'s order');
  await fit.locator('[data-testid="fit-result"][data-state="ready"]').waitFor();
  await deployments.locator('[data-testid="deployments-result"][data-state="ready"]').waitFor();
  // The sections drawn, and which of them (and of the rest of the answer) take room on the page.
  const shown = (f, id) => f.locator(`[data-testid=${id}-result]`).evaluate((results) => ({
    marked: [...results.querySelectorAll('[data-section]')].map((n) => n.dataset.section),
    visible: [...results.querySelectorAll('[data-section]')].filter((n) => n.getClientRects().length).map((n) => n.dataset.section),
    others: [...results.children].filter((n) => !n.dataset.section && n.getClientRects().length).map((n) => n.className || n.tagName),
  }));
  const f = await shown(fit, 'fit');
  assert.ok(['chart', 'memory', 'deployment'].every((id) => f.marked.includes(id)), `the fit answer has more sections: ${f.marked}`);
  assert.deepEqual(f.visible, ['verdict', 'cost']);
  assert.deepEqual(f.others, [], 'nothing else of the answer takes room');
  assert.equal(await fit.getByTestId('fit-status').isVisible(), true);
  assert.equal(await fit.getByTestId('fit-cost-monthly').isVisible(), true);
  assert.equal(await fit.locator('.inputs-card').isVisible(), false);
  const d = await shown(deployments, 'deployments');
  assert.ok(d.marked.includes('verdict') && d.marked.includes('chart'), `the deployments answer has more sections: ${d.marked}`);
  assert.deepEqual(d.visible, ['table']);
  assert.equal(await deployments.getByTestId('rec-table').isVisible(), true);
  await screenshot(page, 'embed-sections');
  await page.close();
});

test('the height follows the content past 4,000 px; max-height caps it', async () => {
  const page = await hostPage('tall.html');
  const frames = page.locator('gpufleet-calculator iframe');
  await page.frameLocator('gpufleet-calculator iframe').first().locator('[data-testid="catalog-result"][data-state="ready"]').waitFor();
  await page.waitForFunction(() => document.querySelector('gpufleet-calculator iframe').getBoundingClientRect().height > 4000, null, { timeout: 15000 })
    .catch(async (e) => { throw new Error(`${e.message}: ${await frames.first().evaluate((f) => f.style.height)}`); });
  const inner = await page.frameLocator('gpufleet-calculator iframe').first().locator('body').evaluate((b) => b.getBoundingClientRect().height);
  const outer = (await frames.first().boundingBox()).height;
  assert.ok(Math.abs(outer - inner) < 12, `the iframe (${outer} px) holds its page (${inner} px)`);
  await page.frameLocator('gpufleet-calculator iframe').nth(1).locator('[data-testid="catalog-result"][data-state="ready"]').waitFor();
  // Its page is as tall as the first's: the height stops at max-height.
  await page.waitForFunction(() => document.querySelectorAll('gpufleet-calculator iframe')[1].style.height === '900px');
  assert.ok(await page.frameLocator('gpufleet-calculator iframe').nth(1).locator('body').evaluate((b) => b.getBoundingClientRect().height) > 900);
  await page.close();
});

test('an answer is announced as one short status line, not the whole answer', async () => {
  const page = await env.page('index.html?view=fit');
  assert.equal(await page.locator('[aria-live]:not([role=status]):not([role=alert])').evaluateAll((ns) => ns.filter((n) => n.textContent.length > 300).length), 0, 'no live region over an answer');
  await afterChange(page, 'fit', () => screen(page).getByLabel('GPUs', { exact: true }).fill('2'));
  const said = await page.getByTestId('fit-said').textContent();
  assert.match(said, /^Fit & memory answered: /);
  assert.ok(said.length < 200, said);
  assert.equal(await page.getByTestId('fit-said').getAttribute('role'), 'status');
  env.checkClean();
});

test('at 390 px the key columns are in the table\'s box and chart text is 11 px or more', async () => {
  const page = await env.page('index.html?view=deployments&model=llama-3.1-8b&rps=20', { width: 390, height: 844 });
  await page.locator('[data-testid="deployments-result"][data-state="ready"]').waitFor();
  const outside = await page.getByTestId('rec-table').evaluate((t) => {
    const box = t.closest('.table-scroll').getBoundingClientRect();
    return [...t.querySelectorAll('[data-testid^=rec-instance-], [data-testid^=rec-count-], [data-testid^=rec-monthly-]')]
      .filter((n) => n.getBoundingClientRect().right > box.right + 0.5 || n.getBoundingClientRect().left < box.left - 0.5).map((n) => n.dataset.testid);
  });
  assert.deepEqual(outside, [], 'instance, count and monthly cost inside the table box');
  for (const view of ['deployments', 'fit']) {
    if (view === 'fit') {
      await page.getByTestId('tab-fit').click();
      await page.locator('[data-testid="fit-result"][data-state="ready"]').waitFor();
    }
    const smallest = await page.locator('[role=tabpanel]:not([hidden]) svg.chart-svg').evaluateAll((svgs) => Math.min(...svgs.flatMap((s) => {
      const scale = s.getScreenCTM().a;
      return [...s.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    })));
    assert.ok(smallest >= 11 - 1e-6, `${view}: the smallest chart text is ${smallest} px`);
  }
  await screenshot(page, 'deployments-390');
  env.checkClean();
});
