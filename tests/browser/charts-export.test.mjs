// Charts (their data against the CLI, their accessible parts), CSV/JSON downloads, "Copy link",
// the print stylesheet, and 360 px wide screens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, openData, linkOf, cli, screenshot, downloadOf, parseCsv, shownRows, SCREENSHOTS, ROOT } from './helpers.mjs';
import { VIEWS as PAGE_VIEWS } from '../../web/app/views.js';

let env;
before(async () => { env = await setup(); });
after(async () => { await env?.close(); });

const REC_URL = 'index.html?view=recommend&size=small&workload=inference&precision=fp16&priority=cost';
const REC_REQUEST = { question: 'recommend', model: { size: 'small' }, workload: 'inference', precision: 'fp16', priority: 'cost', use_spot: false, hours_per_month: 720 };
const VIEWS = PAGE_VIEWS.map((v) => v.id);  // the page's list (web/app/views.js), not a copy

/** Every chart on a page: an <svg role=img> with a title, axis labels with units, a legend or
 *  labels, and a data table behind it. */
async function checkCharts(page, min) {
  const charts = await page.locator('[role=tabpanel]:not([hidden]) figure.chart').evaluateAll((figs) => figs.map((f) => {
    const s = f.querySelector('svg');
    const title = s?.querySelector(':scope > title');
    const data = f.querySelector('details.chart-data');
    if (data && !data.open) data.querySelector('summary').click();  // its table is built when first opened
    return {
      role: s?.getAttribute('role'),
      labelled: Boolean(title && s.getAttribute('aria-labelledby') === title.id && title.textContent.length > 10),
      axisLabels: [...s.querySelectorAll('.chart-axis-label')].map((t) => t.textContent),
      table: Boolean(data?.querySelector('table caption')),
    };
  }));
  assert.ok(charts.length >= min, `at least ${min} chart(s), found ${charts.length}`);
  for (const c of charts) {
    assert.equal(c.role, 'img');
    assert.ok(c.labelled, 'the svg is labelled by its <title>');
    assert.ok(c.axisLabels.length >= 1 && c.axisLabels.every((l) => /\(.+\)/.test(l)), `axis labels carry units: ${c.axisLabels}`);
    assert.ok(c.table, 'a data table with a caption is behind the chart');
  }
}

test('charts: Fit memory, Precisions, Recommend scatter with its Pareto frontier, Plan by environment and provider', async () => {
  const fit = await env.page('index.html?view=fit&size=medium&workload=training&precision=bf16&instance=p5.48xlarge&gpus=4');
  const fr = cli({ question: 'fit', model: { size: 'medium' }, workload: 'training', precision: 'bf16', instance: 'p5.48xlarge', gpus: 4, hours_per_month: 720, use_spot: false }).result;
  await checkCharts(fit, 1);
  await openData(fit, 'fit-chart-data');
  const fitRows = await fit.getByTestId('fit-chart-data').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => Number(c.textContent.replace(/,/g, '')))));
  assert.equal(fitRows.length, 4, 'one bar per GPU used');
  // Each GPU of the layout holds the memory model's lines (GB, from the core's GiB), against the GPU's memory.
  const lines = fr.memory.per_gpu;
  const GB = (gib) => (gib * 2 ** 30) / 1e9;
  for (const row of fitRows) {
    lines.forEach((l, k) => assert.ok(Math.abs(row[1 + k] - GB(l.gib)) < 0.006, `${l.label} per GPU`));
    assert.ok(Math.abs(row[lines.length + 2] - fr.deployment.capacity_per_gpu_gb) < 0.006, 'capacity per GPU');
  }
  assert.equal(await fit.getByTestId('fit-chart').locator('.chart-marker').count(), 4, 'a capacity marker on each bar');

  const prec = await env.page('index.html?view=precisions&size=large');
  await prec.getByTestId('fit-more').scrollIntoViewIfNeeded();
  await prec.getByTestId('prec-chart').waitFor();
  const pr = cli({ question: 'precisions', model: { size: 'large' } }).result;
  await checkCharts(prec, 1);
  assert.equal(await prec.getByTestId('prec-chart').locator('rect.chart-bar').count(), pr.precisions.length);

  const rec = await env.page(REC_URL);
  const rr = cli(REC_REQUEST).result;
  await checkCharts(rec, 1);
  const usable = rr.candidates.filter((c) => c.cost.usd_per_month !== null && c.performance.score !== null);
  const label = (c) => `${c.instance_count > 1 ? `${c.instance_count} × ` : ''}${c.instance}`;
  // The frontier from the CLI's numbers: no other candidate at most as costly and at least as fast.
  const front = usable.filter((a) => !usable.some((b) => b !== a && b.cost.usd_per_month <= a.cost.usd_per_month
    && b.performance.score >= a.performance.score && (b.cost.usd_per_month < a.cost.usd_per_month || b.performance.score > a.performance.score)));
  const points = await rec.getByTestId('rec-chart').locator('circle').evaluateAll((cs) => cs.map((c) => [c.dataset.label, c.dataset.frontier]));
  assert.equal(points.length, usable.length, 'a point per priced candidate');
  assert.deepEqual(points.filter(([, f]) => f === '1').map(([l]) => l).sort(), front.map(label).sort(), 'the Pareto frontier');
  assert.ok(front.length >= 2 && front.length < usable.length);

  const plan = await env.page('index.html?view=plan');
  const pl = cli({ question: 'plan', plan: JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/cases/plans/seed001.json'), 'utf8')) }).result;
  await checkCharts(plan, 2);
  await openData(plan, 'plan-env-chart-data');
  await openData(plan, 'plan-provider-chart-data');
  const envRows = await plan.getByTestId('plan-env-chart-data').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[1].textContent.replace(/,/g, ''))]));
  assert.deepEqual(envRows, pl.environments.map((e) => [e.name, e.usd_per_month]));
  const provRows = await plan.getByTestId('plan-provider-chart-data').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.cells[1].textContent));
  assert.deepEqual(provRows.slice(1, -1).map((t) => (t === 'no equivalent' ? null : Number(t.replace(/,/g, '')))), Object.values(pl.by_provider_usd_per_month));
});

test('export: the plan\'s tables export the answer\'s records (numbers as numbers, basis strings quoted)', async () => {
  // Fields with commas and quotes are quoted (the plan's basis strings hold "$1,624.32").
  const plan = await env.page('index.html?view=plan');
  const pl = cli({ question: 'plan', plan: JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/cases/plans/seed001.json'), 'utf8')) }).result;
  const [head, ...rows] = parseCsv((await downloadOf(plan, () => plan.getByTestId('plan-workloads-csv').click())).text);
  const col = (k) => head.indexOf(k);
  assert.ok(col('cost.usd_per_month') >= 0 && col('count') >= 0 && col('environment') >= 0, head.join(','));
  const workloads = pl.environments.flatMap((e) => e.workloads.map((w) => [e.name, w]));
  assert.equal(rows.length, workloads.length);
  rows.forEach((r, i) => {
    assert.equal(r[col('environment')], workloads[i][0]);
    assert.equal(Number(r[col('cost.usd_per_month')]), workloads[i][1].cost.usd_per_month);
    assert.equal(Number(r[col('count')]), workloads[i][1].count);
  });
  assert.ok(rows.some((r) => r[col('cost.basis')].includes(',')));
  const [envHead, ...envRows] = parseCsv((await downloadOf(plan, () => plan.getByTestId('plan-envs-csv').click())).text);
  assert.deepEqual(envRows.map((r) => Number(r[envHead.indexOf('usd_per_month')])), pl.environments.map((e) => e.usd_per_month));
});

test('copy link puts the page URL on the clipboard, with a fallback without the Clipboard API', async () => {
  const page = await env.page('index.html?view=decide&params=13&workload=training&precision=bf16');
  await env.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
  await page.getByTestId('copy-link').click();
  await page.getByTestId('copy-status').getByText('Link copied').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await linkOf(page));

  await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
  await page.getByTestId('copy-link').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=copy-status]').textContent !== '');
  assert.match(await page.getByTestId('copy-status').textContent(), /Link copied|address bar/);
  assert.equal(await page.locator('textarea.offscreen').count(), 0, 'the fallback field is removed');
});

test('print: a migration report and a Plan print without inputs, tabs or buttons, on one page', async () => {
  for (const [view, url] of [
    ['compare', 'index.html?view=migrate&current=P4d&gpus=8&size=large&workload=training&precision=bf16&priority=performance'],
    ['plan', 'index.html?view=plan'],
  ]) {
    const page = await env.page(url);
    await page.emulateMedia({ media: 'print' });
    for (const sel of ['[role=tablist]', '.inputs-card', '.site-footer', 'button', 'details.chart-data']) {
      const visible = await page.locator(sel).evaluateAll((els) => els.filter((e) => e.getClientRects().length > 0).length);
      assert.equal(visible, 0, `${view}: ${sel} is hidden in print`);
    }
    assert.ok(await page.getByTestId(`${view}-result`).isVisible(), 'the answer prints');
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    fs.writeFileSync(path.join(SCREENSHOTS, `${view}-print.pdf`), pdf);
    await page.setViewportSize({ width: 794, height: 1123 }); // A4 at 96 dpi
    await page.screenshot({ path: path.join(SCREENSHOTS, `${view}-print.png`), fullPage: true });
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    assert.equal(pages, 1, `${view} prints on ${pages} page(s)`);
  }
});

test('every screen is usable 360 px wide: no sideways scroll of the page', async () => {
  for (const view of VIEWS) {
    const page = await env.page(`index.html?view=${view}`, { width: 360, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${view} scrolls sideways at 360px by ${overflow}px`);
    if (['plan', 'recommend', 'placement'].includes(view)) await screenshot(page, `${view}-360`, { fullPage: true });
    await page.close();
  }
});

test('no request left the origin; no console errors or CSP violations', () => env.checkClean());
