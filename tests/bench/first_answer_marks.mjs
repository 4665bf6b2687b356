// Where the cold load's time goes, for docs/performance.md: the page's own performance marks
// (gpufleet:*), its first contentful paint, the Fit answer painted (tests/bench/links.mjs) and each
// resource's fetch (start and end), medians of N cold loads (a new browser context each), next to
// a blank page's first paint measured alternately on the same server, as tests/bench/bench_browser.mjs does.
// Usage: node tests/bench/first_answer_marks.mjs [runs=7] [site dir...]   (default: the staged site,
// scripts/stage-site.sh); with several site dirs (a copy staged before a change and the one after),
// each cold load of each is alternated with the others and the table has a column per site.
import path from 'node:path';
import { startServer } from '../../scripts/site-server.mjs';
import { root } from '../wasm/support.mjs';
import { launchChromium, median } from './chromium.mjs';
import { watchLink } from './links.mjs';

const runs = Number(process.argv[2] ?? 7);
const dirs = process.argv.length > 3 ? process.argv.slice(3).map((d) => path.resolve(d)) : [undefined];
const blankPage = { '/bench-blank.html': path.join(root, 'tests', 'bench', 'blank.html') };
const servers = await Promise.all(dirs.map((d) => startServer(d, { extra: blankPage })));
const server = servers[0];
const browser = await launchChromium();
const query = '/'; // the page as a visitor opens it (its HTML holds the default view's answer)
const perSite = servers.map(() => new Map()); // name -> [ms], one map per site
let samples = perSite[0];
const add = (name, ms) => { if (!samples.has(name)) samples.set(name, []); samples.get(name).push(ms); };
try {
  for (let i = 0; i < runs; i++) {
    for (const site of [-1, ...servers.keys()]) {
      const blank = site < 0;
      samples = perSite[Math.max(site, 0)];
      const context = await browser.newContext();
      // The Fit answer timed as bench_browser.mjs times it (links.mjs watchLink).
      await context.addInitScript(watchLink, { view: null, paste: null });
      const page = await context.newPage();
      if (blank) {
        await page.goto(`${server.origin}/bench-blank.html`, { waitUntil: 'commit' });
        add('blank first-contentful-paint', await (await page.waitForFunction(() => window.gpufleetBenchFcpMs)).jsonValue());
      } else {
        await page.goto(servers[site].origin + query, { waitUntil: 'commit' });
        await page.waitForFunction(() => window.gpufleetBenchFirstAnswerMs && window.gpufleetBenchFcpMs);
        const got = await page.evaluate(() => ({
          marks: performance.getEntriesByType('mark').filter((m) => m.name.startsWith('gpufleet:')).map((m) => [m.name, m.startTime]),
          measures: performance.getEntriesByType('measure').filter((m) => m.name.startsWith('gpufleet:')).map((m) => [m.name, m.duration]),
          nav: performance.getEntriesByType('navigation').map((n) => [['html', n.requestStart, n.responseEnd], ['domInteractive', n.domInteractive], ['domContentLoaded', n.domContentLoadedEventEnd]])[0],
          resources: performance.getEntriesByType('resource').map((r) => [new URL(r.name).pathname, r.startTime, r.responseEnd, r.initiatorType]),
          fcp: window.gpufleetBenchFcpMs,
          answer: window.gpufleetBenchFirstAnswerMs,
        }));
        add('page first-contentful-paint', got.fcp);
        add('first frame with the answer', got.answer);
        for (const [name, t] of got.marks) add(name, t);
        for (const [name, d] of got.measures) add(`${name} (duration)`, d);
        add('html response end', got.nav[0][2]);
        add('domInteractive', got.nav[1][1]);
        const seen = new Map();
        for (const [p, s, e, kind] of got.resources) {
          const k = `${p} (${kind})${seen.has(p) ? ' again' : ''}`;
          seen.set(p, true);
          add(`fetch ${k} start`, s);
          add(`fetch ${k} end`, e);
        }
      }
      await context.close();
    }
  }
  const blankMs = median(perSite[0].get('blank first-contentful-paint'));
  const names = [...new Set(perSite.flatMap((m) => [...m.keys()]))];
  const at = (m, name) => (m.has(name) ? median(m.get(name)) : NaN);
  names.sort((a, b) => at(perSite.at(-1), a) - at(perSite.at(-1), b) || at(perSite[0], a) - at(perSite[0], b));
  console.log(dirs.map((d, i) => `site ${i + 1}: ${d ?? 'the staged site'}`).join('\n'));
  for (const name of names) {
    console.log(`${perSite.map((m) => `${at(m, name).toFixed(1).padStart(8)} ms`).join(' ')}  ${name}`);
  }
  console.log(`first answer / blank first paint: ${perSite.map((m) => `${(at(m, 'first frame with the answer') / blankMs).toFixed(2)}x`).join(' ')}`);
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
