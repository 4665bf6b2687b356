// An input change to each view's answer on screen (view-change.mjs), and keystroke to paint with the
// largest catalog of your own (keystrokes.mjs; view `keys`) and bench.sh's Batch view of 20 jobs
// (view `batch20`), for two or more staged sites alternated
// view by view in one browser, so that a change to the page is measured under the same load as the
// page before it. Prints each view's median per site, over `rounds` rounds (10 changes, 12 keys).
// Usage: node tests/bench/view_change_pairs.mjs [rounds=2] site_dir [site_dir...] [-- view...]
// VIEW_CHANGE_RAF=1 times each change as bench.sh did before (view-change.mjs changeTimes).
import path from 'node:path';
import { startServer } from '../../scripts/site-server.mjs';
import { readFileSync } from 'node:fs';
import { VIEWS, timeView, batchJobsTimes } from './view-change.mjs';
import { keystrokeTimes } from './keystrokes.mjs';
import { largeCatalog } from './large-catalog.mjs';
import { launchChromium, median } from './chromium.mjs';

const args = process.argv.slice(2);
const cut = args.indexOf('--');
const views = cut >= 0 ? args.slice(cut + 1) : [...VIEWS, 'batch20', 'keys'];
const [rounds, ...dirs] = (cut >= 0 ? args.slice(0, cut) : args);
const servers = await Promise.all(dirs.map((d) => startServer(path.resolve(d))));
const browser = await launchChromium();
let large = null;
// bench.sh's Batch view of 20 jobs (view `batch20`): the 19 jobs pasted beside the view's own.
const jobs = JSON.parse(readFileSync(new URL('./sweep.json', import.meta.url), 'utf8')).tools.batch_20_jobs_1000_traces.jobs.slice(1);
try {
  const times = servers.map(() => Object.fromEntries(views.map((v) => [v, []])));
  const work = servers.map(() => Object.fromEntries(views.map((v) => [v, {}])));
  for (let r = 0; r < Number(rounds ?? 2); r++) {
    for (const view of views) {
      for (const [s, server] of servers.entries()) {
        times[s][view].push(...(view === 'keys'
          ? await keystrokeTimes(browser, server.origin, large ??= largeCatalog((file) => readFileSync(path.join(dirs[0], 'config', file), 'utf8')))
          : view === 'batch20' ? await batchJobsTimes(browser, server.origin, jobs)
            : await timeView(browser, server.origin, view, process.env.VIEW_CHANGE_RAF === '1', work[s][view])));
      }
    }
  }
  console.log(dirs.map((d, i) => `site ${i + 1}: ${d}`).join('\n'));
  for (const view of views) {
    const spent = (w) => Object.entries(w[view]).map(([k, v]) => `${k} ${median(v).toFixed(1)}`).join(', ');
    console.log(`${view.padEnd(12)} ${times.map((t) => `${median(t[view]).toFixed(1).padStart(7)} ms`).join(' ')}   ${work.map(spent).filter(Boolean).join(' | ')}`);
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
