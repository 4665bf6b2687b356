// The least any live answer can take on this machine, for docs/performance.md: copies of a staged
// site whose page does nothing but what every live answer needs. `core`: the staged page's head
// (its inline style sheet and script, which requests the core and the catalog's pack under a link,
// not the live page's modules) and an empty body; its module loads the core and the pack, then
// paints one line as the Fit result. `answer`: the same, and the analyzer built from the pack
// answers one Fit question first. tests/bench/bench_browser.mjs times both beside the live links.
// Usage: node tests/bench/floor_sites.mjs SITE_DIR OUT_DIR, then
//   BENCH_LINKS=region node tests/bench/link_steps.mjs 9 SITE_DIR OUT_DIR/core OUT_DIR/answer
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const module = (answer) => `import { loadGpufleet } from '../gpufleet/gpufleet.js';
performance.mark('gpufleet:start');
const [g, pack] = await Promise.all([loadGpufleet().then((x) => { performance.mark('gpufleet:core-ready'); return x; }),
  fetch('./config/page/catalog.pack').then((r) => r.arrayBuffer()).then((b) => new Uint8Array(b))]);
let text = 'ready';
if (${answer}) {
  const newline = pack.indexOf(10);
  const files = {};
  let at = newline + 1;
  for (const { name, bytes } of JSON.parse(new TextDecoder().decode(pack.subarray(0, newline))).files) files[name] = pack.subarray(at, at += bytes);
  const analyzer = g.createAnalyzer({ gpuInstances: files['gpu_instances.json'], modelConfig: files['model_config.json'], workloads: files['workloads.json'],
    priceFiles: Object.keys(files).filter((n) => n.startsWith('prices/') && n !== 'prices/index.json').map((n) => ({ name: n.slice(7), text: files[n] })) });
  performance.mark('gpufleet:analyzer-built');
  text = analyzer.analyzeJson(JSON.stringify({ question: 'fit', model: { name: 'llama-3.1-8b' }, workload: 'inference', precision: 'bf16', instance: 'G6e', gpus: 1 })).slice(0, 200);
}
performance.mark('gpufleet:first-answer');
const result = document.createElement('div');
Object.assign(result.dataset, { testid: 'fit-result', state: 'ready' });
result.textContent = text;
document.getElementById('main').append(result);
`;

/** Writes OUT_DIR/core and OUT_DIR/answer from the staged site SITE_DIR; returns their paths. */
export function writeFloorSites(site, out) {
  const dirs = {};
  // The inline script without the live page's modules in its list, allowed by its own hash.
  const staged = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
  const hash = (text) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;
  const script = staged.match(/<script>([^]*?)<\/script>/)[1];
  const lean = script.replace(/,"\.\/app\/chunk-[^"]*"/g, '');
  const html = staged.replace(script, lean).replace(hash(script), hash(lean));
  const body = html.indexOf('<body');
  const bare = `${html.slice(0, html.indexOf('>', body) + 1)}<main id="main"></main></body></html>\n`;
  for (const [name, answer] of [['core', false], ['answer', true]]) {
    const dir = path.join(out, name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(site, dir, { recursive: true });
    for (const [file, text] of [['index.html', bare], ['app/main.js', module(answer)]]) {
      const p = path.join(dir, file);
      fs.writeFileSync(p, text);
      fs.writeFileSync(`${p}.br`, zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      fs.writeFileSync(`${p}.gz`, zlib.gzipSync(text, { level: 9 }));
    }
    dirs[name] = dir;
  }
  return dirs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [site, out] = process.argv.slice(2).map((d) => d && path.resolve(d));
  if (!site || !out || !fs.existsSync(path.join(site, 'index.html'))) {
    console.error('floor_sites: usage: node tests/bench/floor_sites.mjs SITE_DIR OUT_DIR (SITE_DIR: a staged site)');
    process.exit(2);
  }
  for (const dir of Object.values(writeFloorSites(site, out))) console.log(`floor_sites: ${dir}`);
}
