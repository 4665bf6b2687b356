// Where a link's cold load goes, for docs/performance.md: the page's own marks (gpufleet:*), each
// file's arrival and the link's answer painted, medians of N cold loads per link (a new browser
// context each), each site alternated with the others and a blank page's first paint.
// Usage: node tests/bench/link_steps.mjs [runs=5] [site dir...]   (default: the staged site);
// BENCH_LINKS=region,pasted_config opens only those links (tests/bench/floor_sites.mjs's pages
// answer the region link only).
import path from 'node:path';
import { startServer } from '../../scripts/site-server.mjs';
import { root } from '../wasm/support.mjs';
import { LINKS as ALL_LINKS, stepsOf, watchLink } from './links.mjs';
import { launchChromium, median } from './chromium.mjs';

const runs = Number(process.argv[2] ?? 5);
const only = process.env.BENCH_LINKS?.split(',');
const LINKS = Object.fromEntries(Object.entries(ALL_LINKS).filter(([name]) => !only || only.includes(name)));
if (!Object.keys(LINKS).length) throw new Error(`BENCH_LINKS names none of ${Object.keys(ALL_LINKS).join(', ')}`);
const dirs = process.argv.length > 3 ? process.argv.slice(3).map((d) => path.resolve(d)) : [undefined];
const blankPage = { '/bench-blank.html': path.join(root, 'tests', 'bench', 'blank.html') };
const servers = await Promise.all(dirs.map((d) => startServer(d, { extra: blankPage })));
const browser = await launchChromium();
const samples = servers.map(() => ({})); // site -> link -> step -> [ms]
const blank = [];
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    await context.addInitScript(watchLink, { view: null, paste: null });
    const page = await context.newPage();
    await page.goto(`${servers[0].origin}/bench-blank.html`, { waitUntil: 'commit' });
    blank.push(await (await page.waitForFunction(() => window.gpufleetBenchFcpMs)).jsonValue());
    await context.close();
    for (const [s, server] of servers.entries()) {
      for (const [name, link] of Object.entries(LINKS)) {
        const c = await browser.newContext();
        await c.addInitScript(watchLink, { view: link.view, paste: link.paste ?? null });
        const p = await c.newPage();
        await p.goto(`${server.origin}/${link.query}`, { waitUntil: 'commit' });
        const answered = await (await p.waitForFunction(() => window.gpufleetBenchLinkAnswerMs)).jsonValue();
        await p.waitForFunction(() => performance.getEntriesByName('gpufleet:first-answer').length);
        const got = { ...await stepsOf(p), 'answer painted': answered };
        samples[s][name] ??= {};
        for (const [k, t] of Object.entries(got)) (samples[s][name][k] ??= []).push(t);
        await c.close();
      }
    }
  }
  const blankMs = median(blank);
  console.log(dirs.map((d, i) => `site ${i + 1}: ${d ?? 'the staged site'}`).join('\n'));
  console.log(`blank page first paint ${blankMs.toFixed(1)} ms`);
  for (const name of Object.keys(LINKS)) {
    console.log(`\nlink ${name}: ${LINKS[name].query}`);
    const steps = [...new Set(samples.flatMap((s) => Object.keys(s[name])))];
    const at = (s, k) => (s[name][k] ? median(s[name][k]) : NaN);
    steps.sort((a, b) => at(samples.at(-1), a) - at(samples.at(-1), b));
    for (const k of steps) console.log(`${samples.map((s) => `${at(s, k).toFixed(1).padStart(8)} ms`).join(' ')}  ${k}`);
    console.log(`answer / blank first paint: ${samples.map((s) => `${(at(s, 'answer painted') / blankMs).toFixed(2)}x`).join(' ')}`);
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
