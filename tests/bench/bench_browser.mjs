// Browser measurements for scripts/bench.sh: the sweep and the tool questions of
// tests/bench/sweep.json run on the page's own WebAssembly core and the recompute after an input change (one page, steady state), then the
// cold loads to the first answer (each in a context of its own, after the steady-state work so
// that their teardown does not run beside it).
// Prints one JSON line. Assumes the site is staged (scripts/stage-site.sh).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, SITE_DIR } from '../../scripts/site-server.mjs';
import { root } from '../wasm/support.mjs';
import { largeCatalog } from './large-catalog.mjs';
import { LINKS, stepsOf, watchLink } from './links.mjs';
import { VIEWS, timeView, batchJobsTimes } from './view-change.mjs';
import { keystrokeTimes } from './keystrokes.mjs';
import { launchChromium, median } from './chromium.mjs';
import { writeFloorSites } from './floor_sites.mjs';

const sweep = JSON.parse(readFileSync(path.join(root, 'tests', 'bench', 'sweep.json'), 'utf8'));
const server = await startServer(undefined, { extra: { '/bench-blank.html': path.join(root, 'tests', 'bench', 'blank.html') } });
// The floors (tests/bench/floor_sites.mjs), opened at the region link: the staged page reduced to
// loading the core and the catalog's pack and painting one line as the Fit result (`core`), and
// to building the analyzer and answering one Fit question before that line (`answer`): what no
// live answer with this core on this machine can beat.
const floorDir = mkdtempSync(path.join(os.tmpdir(), 'gpufleet-floor-'));
const floorServers = Object.fromEntries(await Promise.all(Object.entries(writeFloorSites(SITE_DIR, floorDir))
  .map(async ([name, dir]) => [name, await startServer(dir)])));
const browser = await launchChromium();
try {
  // The page's own download: without the offline copy of every view's files that its service
  // worker fetches after the first answer (web/app/offline.js; through the worker, whose resource
  // entries would stand for the files' first, compressed arrival).
  const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  await page.goto(`${server.origin}/?view=fit&size=small&workload=inference&precision=fp16&instance=G6e&gpus=1`);
  await page.waitForSelector('[data-testid="fit-per-gpu-gb"]');
  await page.waitForLoadState('networkidle');
  // Every file the page downloaded (the document and each resource it requested) and the bytes
  // the server sent for it (its brotli copy where the site holds one), for the size
  // budget: what a visitor's browser fetches, not every file staged beside it.
  const loadedFiles = await page.evaluate(() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
    .map((e) => [new URL(e.name).pathname, e.encodedBodySize])
    .map(([p, bytes]) => [(p.endsWith('/') ? `${p}index.html` : p).replace(/^\//, ''), bytes]));
  const recompute = await page.evaluate(async () => {
    // The weight format changes the memory per GPU (the GPU count alone need not: on the road
    // a second GPU can be a second model copy of the same size).
    const input = document.querySelector('#wf-precision');
    const shown = () => document.querySelector('[data-testid="fit-per-gpu-gb"]')?.textContent ?? '';
    const times = [];
    for (let i = 0; i < 20; i++) {
      const before = shown();
      const t0 = performance.now();
      input.value = i % 2 === 0 ? 'int8' : 'fp16';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
      // Until the answer on screen changed, then one frame for it to be painted.
      while (shown() === before && performance.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => r()));
      times.push(performance.now() - t0);
    }
    return times;
  });
  // Each view that asks about the workload: an input change (the weight format, int8 <-> fp16) to
  // the end of the frame that paints its answer (tests/bench/view-change.mjs), median of 10 after
  // the view's first answer; the tools' views answer from the core's Web Worker.
  const viewChange = {};
  for (const view of VIEWS) viewChange[view] = median(await timeView(browser, server.origin, view));
  const { runs: sweepMs, toolRuns } = await page.evaluate(async ({ sweep: requests, tools }) => {
    const { loadGpufleet } = await import('./gpufleet/all/gpufleet.js');
    const g = await loadGpufleet();
    const text = async (f) => (await fetch(`./config/${f}`)).text();
    // Every region's prices, as the native sweep has them.
    const index = JSON.parse(await text('prices/index.json'));
    const names = Object.values(index.providers).flatMap((p) => Object.values(p.regions).map((r) => `prices/${r.file}`));
    const analyzer = g.createAnalyzer({
      gpuInstances: await text('gpu_instances.json'),
      modelConfig: await text('model_config.json'),
      workloads: await text('workloads.json'),
      priceFiles: await Promise.all(names.map(async (name) => ({ name, text: await text(name) }))),
    });
    const texts = requests.map((r) => JSON.stringify(r));
    // Warm up for a second: the engine's optimizing tier compiles hot functions in the background,
    // and the budget is the steady state, as for the native figure it is compared with.
    for (const start = performance.now(); performance.now() - start < 1000;) texts.forEach((t) => analyzer.analyzeJson(t));
    const runs = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      texts.forEach((t) => analyzer.analyzeJson(t));
      runs.push(performance.now() - t0);
    }
    // The tool questions, each alone, warmed up the same way (median of 30).
    const toolRuns = {};
    for (const [name, request] of Object.entries(tools)) {
      const t = JSON.stringify(request);
      for (const start = performance.now(); performance.now() - start < 500;) analyzer.analyzeJson(t);
      toolRuns[name] = [];
      for (let i = 0; i < 30; i++) {
        const t0 = performance.now();
        analyzer.analyzeJson(t);
        toolRuns[name].push(performance.now() - t0);
      }
    }
    return { runs, toolRuns };
  }, sweep);
  // Cold load to the first answer painted, alternating with a blank page's first contentful paint
  // on the same server (each run in a new context: cold HTTP cache, fresh renderer), so that the
  // budget is a ratio of two figures taken under the same load. An observer installed before any
  // page script checks on every animation frame whether the fit answer is in the document and
  // times it once that frame is laid out, not before the page's first contentful paint
  // (links.mjs watchLink). Times are taken in the page
  // (navigation start = 0), so the harness's own round trips are not counted.
  const firstAnswers = [];
  const blankPaints = [];
  const liveAnswers = [];
  const linkAnswers = Object.fromEntries(Object.keys(LINKS).map((name) => [name, []]));
  const floorAnswers = Object.fromEntries(Object.keys(floorServers).map((name) => [name, []]));
  // Where each cold load's time goes: the page's own marks (gpufleet:*, web/app/page.js), the
  // document's and each file's arrival (resource timing), the answer painted; per link and for the
  // default link's live path, medians over the runs.
  const steps = Object.fromEntries(['default', ...Object.keys(LINKS)].map((name) => [name, {}]));
  const addSteps = (kind, got) => { for (const [k, t] of Object.entries(got)) (steps[kind][k] ??= []).push(t); };
  for (let i = 0; i < 7; i++) {
    for (const kind of ['blank', 'default', ...Object.keys(LINKS), ...Object.keys(floorServers)]) {
      const context = await browser.newContext();
      const floor = floorServers[kind];
      const link = floor ? LINKS.region : LINKS[kind];
      await context.addInitScript(watchLink, { view: link?.view ?? null, paste: link?.paste ?? null });
      const page = await context.newPage();
      if (kind === 'blank') {
        await page.goto(`${server.origin}/bench-blank.html`, { waitUntil: 'commit' });
        blankPaints.push(await (await page.waitForFunction(() => window.gpufleetBenchFcpMs)).jsonValue());
      } else if (kind === 'default') {
        // The page as a visitor opens it: its HTML holds the default view's answer, rendered when
        // the site was staged (scripts/prerender.mjs); the live core's own first answer replaces
        // it, and is reported beside it.
        await page.goto(`${server.origin}/`, { waitUntil: 'commit' });
        firstAnswers.push(await (await page.waitForFunction(() => window.gpufleetBenchFirstAnswerMs)).jsonValue());
        liveAnswers.push(await (await page.waitForFunction(() => performance.getEntriesByName('gpufleet:first-answer')[0]?.startTime)).jsonValue());
        addSteps(kind, await stepsOf(page));
      } else if (floor) {
        await page.goto(`${floor.origin}/${link.query}`, { waitUntil: 'commit' });
        floorAnswers[kind].push(await (await page.waitForFunction(() => window.gpufleetBenchLinkAnswerMs)).jsonValue());
      } else {
        await page.goto(`${server.origin}/${link.query}`, { waitUntil: 'commit' });
        linkAnswers[kind].push(await (await page.waitForFunction(() => window.gpufleetBenchLinkAnswerMs)).jsonValue());
        await page.waitForFunction(() => performance.getEntriesByName('gpufleet:first-answer').length);
        addSteps(kind, { ...await stepsOf(page), 'answer painted': linkAnswers[kind].at(-1) });
      }
      await context.close();
    }
  }
  // The Batch view with 19 jobs pasted beside its own (20 jobs, 1,000 traces each): a change of the
  // traces' seed to the new answer on screen (tests/bench/view-change.mjs batchJobsTimes).
  const batchView = await batchJobsTimes(browser, server.origin, sweep.tools.batch_20_jobs_1000_traces.jobs.slice(1));
  // Keystroke to paint while the largest catalog of your own the page accepts is loaded
  // (tests/bench/keystrokes.mjs).
  const large = largeCatalog((file) => readFileSync(path.join(SITE_DIR, 'config', file), 'utf8'));
  const largeKeys = await keystrokeTimes(browser, server.origin, large);
  console.log(JSON.stringify({
    browser_batch_view_20_jobs_ms: median(batchView),
    browser_keystroke_to_paint_largest_catalog_ms: median(largeKeys),
    browser_keystroke_to_paint_largest_catalog_max_ms: Math.max(...largeKeys),
    browser_largest_catalog_instance_types: large.types,
    browser_cold_load_steps: Object.fromEntries(Object.entries(steps).map(([kind, byStep]) => [kind,
      Object.fromEntries(Object.entries(byStep).map(([k, ts]) => [k, median(ts)]))])),
    browser_first_answer_ms: median(firstAnswers),
    browser_live_first_answer_ms: median(liveAnswers),
    ...Object.fromEntries(Object.entries(linkAnswers).map(([name, runs]) => [`browser_link_${name}_first_answer_ms`, median(runs)])),
    ...Object.fromEntries(Object.entries(floorAnswers).map(([name, runs]) => [`browser_floor_${name}_ms`, median(runs)])),
    browser_blank_first_paint_ms: median(blankPaints),
    browser_recompute_ms: median(recompute),
    ...Object.fromEntries(Object.entries(viewChange).map(([view, ms]) => [`browser_input_to_answer_${view}_ms`, ms])),
    browser_sweep_ms: median(sweepMs),
    ...Object.fromEntries(Object.entries(toolRuns).map(([name, runs]) => [`browser_${name}_ms`, median(runs)])),
    browser_loaded_files: Object.fromEntries(loadedFiles),
  }));
} finally {
  await browser.close();
  await server.close();
  await Promise.all(Object.values(floorServers).map((s) => s.close()));
  rmSync(floorDir, { recursive: true, force: true });
}
