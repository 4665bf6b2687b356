// An input change to a view's answer on screen, as bench.sh and view_change_pairs.mjs time it: each
// view opened on a model, then the weight format switched (int8 <-> fp16) 11 times, the first
// change warming the view's code. Each change is made in a task of its own at a random point of a
// frame (as a person's input arrives), and timed from there to the end of the frame that paints
// the new answer (the results' data-seq counts renders): the first frame after the answer is in the
// document (requestAnimationFrame), then a task (which runs once that frame is painted). The time
// waited for that frame is part of it, as it is of what a person sees. The answer is seen by a
// MutationObserver on data-seq, in the task that draws it: a loop of awaited setTimeout(0) is
// clamped to 4 ms a turn after five turns (HTML's timer nesting), so it saw an answer up to 4 ms
// late and, where a frame began meanwhile, timed to the frame after the one that painted it.
export const VIEWS = ['fit', 'deployments', 'compare', 'autoscale', 'spot', 'regions', 'batch'];

/** The link each view is timed on. */
export const viewLink = (view) => `?view=${view}&model=llama-3.1-8b&workload=inference&precision=fp16`;

/** In the page: the times of the changes after the first, in ms. `raf`: timed as bench.sh did
 *  before the fourth round of issue 38 (each change made at the start of a frame, in its
 *  requestAnimationFrame callback, and timed to the next frame's callback after the answer). */
export async function changeTimes([id, raf = false]) {
  const input = document.querySelector('#wf-precision');
  const results = document.querySelector(`[data-testid="${id}-result"]`);
  const task = (ms = 0) => new Promise((r) => setTimeout(r, ms));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  // Resolves in the task that changes `node`'s data-seq from `before` (or after 5 s).
  const seqChange = (node, before) => new Promise((resolve) => {
    const seen = new MutationObserver(() => { if (node.dataset.seq !== before) end(); });
    const timer = setTimeout(() => end(), 5000);
    const end = () => { seen.disconnect(); clearTimeout(timer); resolve(); };
    if (node.dataset.seq !== before) end();
    else seen.observe(node, { attributes: true, attributeFilter: ['data-seq'] });
  });
  const times = [];
  for (let i = 0; i < 11; i++) {
    // A random point of a frame, after the last answer's frame has been painted.
    await frame();
    if (!raf) await task(Math.random() * 16);
    const before = results.dataset.seq;
    const t0 = performance.now();
    input.value = i % 2 === 0 ? 'int8' : 'fp16';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await seqChange(results, before);
    await frame();
    if (!raf) await task();
    if (i > 0) times.push(performance.now() - t0);
  }
  return times;
}

/** Opens `view` on `origin` in a new page of `browser`: the times of changeTimes() (`raf`: as timed
 *  before). `work`, when given, gets the page thread's time per change in ms (Chromium's
 *  Performance metrics: script, style, layout and every task), for where a change's time goes. */
export async function timeView(browser, origin, view, raf = false, work = null) {
  const p = await browser.newPage();
  try {
    await p.goto(`${origin}/${viewLink(view)}`);
    await p.waitForSelector(`[data-testid="${view}-result"]:is([data-state="ready"], [data-state="error"])`, { timeout: 60000 });
    // Once the page's offline copy (web/app/offline.js: every view's files and every region's prices,
    // fetched after the first answer) is made: a change is timed, not that download beside it.
    await p.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 30000 }).catch(() => {});
    const cdp = work ? await p.context().newCDPSession(p) : null;
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    if (cdp) await cdp.send('Performance.enable');
    const before = cdp ? await metrics() : null;
    const times = await p.evaluate(changeTimes, [view, raf]);
    if (cdp) {
      const after = await metrics();
      for (const [key, name] of [['ScriptDuration', 'script'], ['RecalcStyleDuration', 'style'], ['LayoutDuration', 'layout'], ['TaskDuration', 'tasks']]) {
        (work[name] ??= []).push(((after[key] - before[key]) * 1000) / 11);
      }
    }
    return times;
  } finally {
    await p.close();
  }
}

/** The Batch view with `jobs` pasted beside its own (bench.sh: 19, each of 1,000 traces): from a
 *  change of the traces' seed to the new answer on screen (the results' data-seq: these jobs'
 *  totals need not change with the seed), then one frame. The times of 10 changes, in ms. */
export async function batchJobsTimes(browser, origin, jobs) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/?view=batch`);
    await page.waitForSelector('[data-testid="bt-total"]');
    await page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 30000 }).catch(() => {});
    await page.fill('#bt-jobs', JSON.stringify(jobs));
    await page.locator('#bt-jobs').dispatchEvent('change');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid^="bt-job-"][data-testid$="-work"]').length >= n, jobs.length + 1, { timeout: 60000 });
    return await page.evaluate(async () => {
      const input = document.querySelector('#bt-seed');
      const results = document.querySelector('[data-testid="batch-result"]');
      const shown = () => results.dataset.seq;
      // As changeTimes sees an answer: in the task that draws it.
      const seqChange = (before) => new Promise((resolve) => {
        const seen = new MutationObserver(() => { if (shown() !== before) end(); });
        const timer = setTimeout(() => end(), 5000);
        const end = () => { seen.disconnect(); clearTimeout(timer); resolve(); };
        if (shown() !== before) end();
        else seen.observe(results, { attributes: true, attributeFilter: ['data-seq'] });
      });
      const times = [];
      for (let i = 0; i < 10; i++) {
        const before = shown();
        const t0 = performance.now();
        input.value = String(i + 2);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.dispatchEvent(new Event('change', { bubbles: true }));
        await seqChange(before);
        await new Promise((r) => requestAnimationFrame(() => r()));
        times.push(performance.now() - t0);
      }
      return times;
    });
  } finally {
    await page.close();
  }
}
