// Where an input change's time goes, view by view: the changes of view-change.mjs (the weight
// format switched 10 times after a warm-up) under a Chrome trace and a CPU profile, each change's
// time on the page's thread split into the core (WebAssembly), the page's script, style, layout,
// paint (pre-paint, paint, layerize, commit), garbage collection and other work, as the thread's CPU
// time (which the machine's load inflates less than wall time; the core's share is the profile's
// wall time). `total`: the change to its answer painted; `answered`: to the answer in the document;
// `worker`: the CPU time of the page's Web Workers meanwhile (the core's worker answering).
// Medians per change, per site.
// Usage: node tests/bench/view_change_trace.mjs site_dir [site_dir...] [-- view...]
// TRACE_DEBUG=1 also prints the trace events and the profiled functions with the most self time.
import path from 'node:path';
import { startServer } from '../../scripts/site-server.mjs';
import { VIEWS, viewLink } from './view-change.mjs';
import { launchChromium, median } from './chromium.mjs';

const args = process.argv.slice(2);
const cut = args.indexOf('--');
const views = cut >= 0 ? args.slice(cut + 1) : VIEWS;
const dirs = cut >= 0 ? args.slice(0, cut) : args;

const GROUPS = {
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet', 'InvalidateLayout', 'ScheduleStyleRecalculation'],
  layout: ['Layout', 'UpdateLayer', 'IntersectionObserverController::computeIntersections', 'ComputeIntersections'],
  paint: ['PrePaint', 'Paint', 'PaintImage', 'Layerize', 'Commit', 'CompositeLayers', 'UpdateLayerTree'],
  gc: ['MinorGC', 'MajorGC', 'BlinkGC.AtomicPhase', 'V8.GCScavenger', 'V8.GCCompactor', 'V8.GCFinalizeMC', 'BlinkGC.IncrementalMarkingStep'],
};
const groupOf = new Map(Object.entries(GROUPS).flatMap(([g, names]) => names.map((n) => [n, g])));

/** In the page: the changes of view-change.mjs, each between marks bench:start-i and bench:end-i. */
async function markedChanges(id) {
  const input = document.querySelector('#wf-precision');
  const results = document.querySelector(`[data-testid="${id}-result"]`);
  const task = (ms = 0) => new Promise((r) => setTimeout(r, ms));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  // As view-change.mjs sees an answer: in the task that changes the results' data-seq.
  const seqChange = (before) => new Promise((resolve) => {
    const seen = new MutationObserver(() => { if (results.dataset.seq !== before) end(); });
    const timer = setTimeout(() => end(), 5000);
    const end = () => { seen.disconnect(); clearTimeout(timer); resolve(); };
    if (results.dataset.seq !== before) end();
    else seen.observe(results, { attributes: true, attributeFilter: ['data-seq'] });
  });
  const times = [];
  for (let i = 0; i < 11; i++) {
    await frame();
    await task(Math.random() * 16);
    const before = results.dataset.seq;
    performance.mark(`bench:start-${i}`);
    const t0 = performance.now();
    input.value = i % 2 === 0 ? 'int8' : 'fp16';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await seqChange(before);
    const answered = performance.now() - t0;
    await frame();
    await task();
    performance.mark(`bench:end-${i}`);
    times.push([performance.now() - t0, answered]);
  }
  return times;
}

/** Self time per group of the page thread's trace events that start inside [from, to] (µs
 *  timestamps), in ms of the thread's CPU time (`tdur`: what a loaded machine's waits leave out),
 *  and `cpu`, their sum. */
function split(events, from, to) {
  const out = {};
  const stack = [];
  const close = (until) => {
    while (stack.length && stack.at(-1).end <= until) {
      const e = stack.pop();
      out[e.group] = (out[e.group] ?? 0) + (e.cpu - e.children) / 1000;
    }
  };
  let cpu = 0;
  for (const e of events) {
    if (e.ts < from || e.ts > to) continue;
    close(e.ts);
    const used = e.tdur ?? 0;
    if (!stack.length) cpu += used;
    else stack.at(-1).children += used;
    const parent = stack.at(-1)?.group;
    const group = groupOf.get(e.name) ?? (parent && parent !== 'task' ? parent : e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask' ? 'task' : 'script');
    stack.push({ end: e.ts + e.dur, group, cpu: used, children: 0 });
  }
  close(Infinity);
  out.cpu = cpu / 1000;
  out.other = out.task ?? 0;
  delete out.task;
  return out;
}

/** Samples of the CPU profile in [from, to] (µs, the trace's clock): ms in the core's WebAssembly. */
function wasmTime(profile, from, to) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  let t = profile.startTime;
  let ms = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i];
    const next = profile.timeDeltas[i + 1] ?? 0;
    const f = nodes.get(id).callFrame;
    if (t >= from && t <= to && (f.url.endsWith('.wasm') || /^(wasm-function|\$)/.test(f.functionName) || f.url.includes('wasm://'))) ms += next / 1000;
  });
  return ms;
}

/** The event names and profiled functions that took the most self time over the changes. */
function debug(main, profile, marks) {
  const from = marks.get('bench:start-1').ts;
  const to = marks.get('bench:end-10').ts;
  const names = {};
  const stack = [];
  for (const e of main) {
    if (e.ts + e.dur < from || e.ts > to) continue;
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    if (stack.length) names[stack.at(-1).name] = (names[stack.at(-1).name] ?? 0) - e.dur;
    names[e.name] = (names[e.name] ?? 0) + e.dur;
    stack.push(e);
  }
  console.log(Object.entries(names).sort((a, b) => b[1] - a[1]).slice(0, 25).map(([n, us]) => `${n} ${(us / 10000).toFixed(2)}`).join('; '));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = {};
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i];
    if (t < from || t > to) return;
    const f = nodes.get(id).callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self[key] = (self[key] ?? 0) + (profile.timeDeltas[i + 1] ?? 0);
  });
  console.log(Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, 30).map(([n, us]) => `${n} ${(us / 10000).toFixed(2)}`).join('\n'));
}

const servers = await Promise.all(dirs.map((d) => startServer(path.resolve(d))));
const browser = await launchChromium();
try {
  for (const view of views) {
    for (const [s, server] of servers.entries()) {
      const page = await browser.newPage();
      await page.goto(`${server.origin}/${viewLink(view)}`);
      await page.waitForSelector(`[data-testid="${view}-result"]:is([data-state="ready"], [data-state="error"])`, { timeout: 60000 });
      await page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 30000 }).catch(() => {});
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      const chunks = [];
      cdp.on('Tracing.dataCollected', (d) => chunks.push(...d.value));
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,toplevel,v8,blink', transferMode: 'ReportEvents' });
      await cdp.send('Profiler.start');
      const times = await page.evaluate(markedChanges, view);
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.send('Tracing.end');
      await done;
      await page.close();
      const marks = new Map(chunks.filter((e) => e.name?.startsWith('bench:')).map((e) => [e.name, e]));
      const start0 = marks.get('bench:start-1');
      const main = chunks.filter((e) => e.pid === start0.pid && e.tid === start0.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
      // The page's Web Workers (the core's, for the IN_WORKER questions): their tasks' CPU time.
      const workers = new Set(chunks.filter((e) => e.pid === start0.pid && e.name === 'thread_name' && /Worker/.test(e.args?.name)).map((e) => e.tid));
      const inWorkers = chunks.filter((e) => e.pid === start0.pid && workers.has(e.tid) && e.ph === 'X').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
      // The profile's clock is the trace's (both monotonic µs).
      const rows = [];
      for (let i = 1; i < 11; i++) {
        const from = marks.get(`bench:start-${i}`).ts;
        const to = marks.get(`bench:end-${i}`).ts;
        const parts = split(main, from, to);
        parts.worker = split(inWorkers, from, to).cpu;
        if (process.env.TRACE_DEBUG) {
          const top = inWorkers.filter((e) => e.ts >= from && e.ts <= to && (e.dur ?? 0) > 200);
          console.log(`change ${i}: ${top.map((e) => `${e.name} +${((e.ts - from) / 1000).toFixed(1)} ${(e.dur / 1000).toFixed(1)}/${((e.tdur ?? 0) / 1000).toFixed(1)}`).join('; ')}`);
        }
        const core = wasmTime(profile, from, to);
        parts.script = (parts.script ?? 0) - core;
        parts.core = core;
        rows.push({ total: times[i][0], answered: times[i][1], ...parts });
      }
      if (process.env.TRACE_DEBUG) debug(main, profile, marks);
      const keys = ['total', 'answered', 'cpu', 'core', 'script', 'style', 'layout', 'paint', 'gc', 'other', 'worker'];
      console.log(`${view.padEnd(12)} site ${s + 1}: ${keys.map((k) => `${k} ${median(rows.map((r) => r[k] ?? 0)).toFixed(1)}`).join(', ')}`);
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
