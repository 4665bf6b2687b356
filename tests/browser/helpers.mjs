// Shared by the browser tests: the server, Chromium, a page that records every request and every
// console error, and the native CLI that gives the reference answers.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { startServer, ROOT, SITE_DIR } from '../../scripts/site-server.mjs';

export { ROOT, SITE_DIR };
export const CLI = process.env.GPUFLEET_CLI ?? path.join(ROOT, 'build/core/cli/gpufleet');
export const SCREENSHOTS = path.join(ROOT, 'build-wasm/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The native CLI's answer to a request (the reference the page must match), from the very
 *  catalog files the staged page loads. */
export function cli(request, configDir = path.join(SITE_DIR, 'config')) {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build the native CLI first (scripts/build.sh)`);
  let out;
  try {
    out = execFileSync(CLI, ['--config', configDir, '--json', 'analyze', '-'], { input: JSON.stringify(request), encoding: 'utf8' });
  } catch (e) {
    out = e.stdout; // exit 3: an {ok:false} answer is still JSON on stdout
  }
  return JSON.parse(out);
}

/** Server + browser for one test file; each page is checked for off-origin requests and errors. */
export async function setup() {
  const server = await startServer();
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpufleet-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block', acceptDownloads: true,
  });
  const watched = [];
  const env = {
    origin: server.origin,
    context,
    /** A new page that records requests and console errors. */
    async page(url, { width = 1280, height = 800 } = {}) {
      const page = await context.newPage();
      page.setDefaultTimeout(8000);
      await page.setViewportSize({ width, height });
      const record = { page, requests: [], errors: [] };
      watched.push(record);
      page.on('request', (r) => record.requests.push(r.url()));
      page.on('console', (m) => { if (m.type() === 'error') record.errors.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => record.errors.push(`pageerror: ${e.message}`));
      if (url !== undefined) await open(page, `${server.origin}/${url}`);
      return page;
    },
    /** Every recorded request stayed on the origin and no page logged an error. */
    checkClean() {
      for (const { requests, errors } of watched) {
        const away = requests.filter((u) => !(u.startsWith(`${server.origin}/`) || u.startsWith('blob:' + server.origin) || u.startsWith('data:')));
        assert.deepEqual(away, [], 'requests left the origin');
        assert.deepEqual(errors, [], 'console errors or CSP violations');
      }
    },
    async close() {
      await context.close();
      await server.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
  return env;
}

/** Opens a URL and waits until the page has answered (html[data-ready]). */
export async function open(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.ready, null, { timeout: 15000 });
  const ready = await page.evaluate(() => document.documentElement.dataset.ready);
  assert.equal(ready, '1', `the page did not start: ${await page.locator('[data-testid=app-errors]').textContent().catch(() => '')}`);
}

/** The page's link (its address) once it has caught up with the inputs: the page writes it when
 *  they rest (web/app/page.js), so a test that reads it right after an edit waits for it here. */
export async function linkOf(page) {
  await page.waitForFunction(() => document.documentElement.dataset.link !== 'pending');
  return page.evaluate(() => location.href);
}

/** Draws every row of the long tables `testid` names (web/app/long-table.js draws their first
 *  rows with the answer, the rest when asked). */
export async function showAll(page, testid) {
  await page.evaluate((id) => document.querySelectorAll(`[data-testid="${id}-all"]`).forEach((b) => b.click()), testid);
}

/** Opens the data tables behind the charts that `testid` names (web/app/charts.js dataTable builds
 *  one when it is first opened). */
export async function openData(page, testid) {
  await page.evaluate((id) => document.querySelectorAll(`[data-testid="${id}-details"]`).forEach((d) => { if (!d.open) d.querySelector('summary').click(); }), testid);
}

/** A phrase of the core's shown as a sentence of its own: the page capitalises its first letter. */
export const sentence = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export const text = async (page, testid) => (await page.getByTestId(testid).first().textContent()).trim();

/** The first number in a text: "$1,339.92/month" -> 1339.92, "-166.7%" -> -166.7. */
export function numberIn(s) {
  const m = String(s).replace(/,/g, '').match(/-?\d+(\.\d+)?/);
  assert.ok(m, `no number in ${JSON.stringify(s)}`);
  return Number(m[0]);
}

/** Shown number equals the CLI's, to the shown precision. */
export function assertNear(shown, expected, tolerance, what) {
  const n = numberIn(shown);
  assert.ok(Math.abs(n - expected) <= tolerance, `${what}: page shows ${JSON.stringify(shown)}, the CLI says ${expected}`);
}

/** Waits until a screen's result has been re-rendered after an input change, every part of it
 *  (the parts outside the window follow the frame that shows the others: web/app/in-place.js). */
export async function afterChange(page, screen, action) {
  const result = page.getByTestId(`${screen}-result`);
  const before = await result.getAttribute('data-seq');
  await action();
  await page.waitForFunction(([id, seq]) => {
    const shown = document.querySelector(`[data-testid="${id}-result"]`);
    return shown?.dataset.seq !== seq && shown.dataset.drawing === undefined;
  }, [screen, before]);
}

/** The visible view (its inputs share labels with the hidden views'; Fleet plan holds two screens). */
export const screen = (page) => page.locator('[role=tabpanel]:not([hidden]), .embed-panel').first();

export async function screenshot(page, name, { fullPage = false } = {}) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** Clicks something that downloads a file; resolves {name, text}. */
export async function downloadOf(page, click) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

/** An RFC 4180 parser (quoted fields, doubled quotes, CRLF), independent of the page's writer. */
export function parseCsv(text) {
  const records = [];
  let record = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i += 1; continue; }
      field += c; i += 1; continue;
    }
    if (c === '"' && field === '') { quoted = true; i += 1; continue; }
    if (c === ',') { record.push(field); field = ''; i += 1; continue; }
    if (c === '\r' && text[i + 1] === '\n') { record.push(field); records.push(record); record = []; field = ''; i += 2; continue; }
    assert.ok(c !== '\n' && c !== '\r', `a bare line break at ${i}: RFC 4180 lines end in CRLF`);
    assert.ok(c !== '"', `a quote inside an unquoted field at ${i}`);
    field += c; i += 1;
  }
  assert.ok(!quoted, 'an unterminated quoted field');
  if (field !== '' || record.length) { record.push(field); records.push(record); }
  return records;
}

/** The rows a table shows: visible text of each cell, whitespace collapsed (detail rows left out). */
export const shownRows = (locator) => locator.evaluate((t) => {
  const clean = (s) => s.replace(/\s+/g, ' ').trim();
  const head = [...t.tHead.rows[t.tHead.rows.length - 1].cells].map((c) => clean(c.innerText));
  const rows = [...t.tBodies].flatMap((b) => [...b.rows]).filter((r) => !r.classList.contains('detail-row'))
    .map((r) => [...r.cells].map((c) => clean(c.innerText)));
  return [head, ...rows];
});
