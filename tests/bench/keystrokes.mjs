// Keystroke to paint while the largest catalog of your own the page accepts is loaded (it answers
// in the core's Web Worker, web/app/catalog-load.js), as bench.sh and keystroke_pairs.mjs time it:
// on Fit, keys typed into the prompt tokens, each a new question; from the key's event to the
// frame after its handlers (a frame, then a task), keys 150 ms apart so that answers arrive and
// are drawn between them. Also where each key's time went: the page's own long tasks meanwhile.
import { setTimeout as sleep } from 'node:timers/promises';

export const KEYS = ['2', '0', '4', '8', 'Backspace', 'Backspace', '5', '1', '2', 'Backspace', '0', '9'];

/** The times of KEYS (ms) on a page of `browser` at `origin` with `large` (largeCatalog()) loaded. */
export async function keystrokeTimes(browser, origin, large) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/?view=catalog`);
    await page.getByTestId('cat-upload').setInputFiles([
      { name: 'gpu_instances.json', mimeType: 'application/json', buffer: Buffer.from(large.gpuInstances) },
      { name: 'workloads.json', mimeType: 'application/json', buffer: Buffer.from(large.workloads) },
    ]);
    await page.getByTestId('cat-origin').getByText('your own catalog').waitFor({ timeout: 120000 });
    await page.getByTestId('tab-fit').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=fit-result]')?.dataset.state === 'ready', null, { timeout: 120000 });
    await page.locator('#wf-input').fill('');
    await page.locator('#wf-input').focus();
    await page.evaluate(() => {
      window.gpufleetBenchKeys = [];
      addEventListener('keydown', (e) => {
        const t0 = e.timeStamp;
        requestAnimationFrame(() => setTimeout(() => window.gpufleetBenchKeys.push(performance.now() - t0), 0));
      }, true);
    });
    for (const key of KEYS) {
      await page.keyboard.press(key);
      await sleep(150);
    }
    await page.waitForFunction((n) => window.gpufleetBenchKeys.length === n, KEYS.length);
    return await page.evaluate(() => window.gpufleetBenchKeys);
  } finally {
    await page.close();
  }
}
