// Offline after the first load (issue 37): with the service worker allowed (the other tests
// block it), a first visit keeps every view's code and data; then, offline, every view opens and
// answers, the Deploy panel writes and zips its files, and the page itself opens again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/site-server.mjs';
import { VIEWS } from '../../web/app/views.js';

let server;
let context;
let dir;
before(async () => {
  server = await startServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpufleet-offline-'));
  context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
  });
});
after(async () => {
  await context?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('after the first load, every view opens offline', async () => {
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && /Content.Security.Policy|service ?worker/i.test(m.text())) errors.push(m.text()); });
  await page.goto(`${server.origin}/index.html`);
  await page.locator('html[data-offline="ready"]').waitFor({ timeout: 60000 });
  await context.setOffline(true);
  const unseen = await page.evaluate(() => fetch(`./never-fetched-${Date.now()}.json`).then(() => 'answered', () => 'failed'));
  assert.equal(unseen, 'failed', 'the network is off: only what was kept answers');
  for (const v of VIEWS) {
    await page.getByTestId(`tab-${v.id}`).click();
    await page.locator(`[data-testid="${v.id}-result"][data-state="ready"]`).waitFor();
    assert.equal(await page.getByText('This screen could not load').count(), 0, v.id);
  }
  // Fit's Deploy panel writes its files and zips them (its modules are fetched on first use).
  await page.getByTestId('tab-fit').click();
  await page.getByTestId('deploy-panel').first().locator('summary').click();
  await page.getByTestId('deploy-content').first().waitFor();
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('deploy-zip').first().click()]);
  assert.equal(zip.suggestedFilename(), 'gpufleet-deploy.zip');
  // The page itself, opened again offline, with a link of its own.
  await page.goto(`${server.origin}/index.html?view=spot`);
  await page.locator('html[data-ready="1"]').waitFor();
  await page.locator('[data-testid="spot-result"][data-state="ready"]').waitFor();
  await context.setOffline(false);
  assert.deepEqual(errors, []);
});
