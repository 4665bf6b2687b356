// The sweep and the tool questions of tests/bench/sweep.json on the WebAssembly core under node;
// prints one JSON line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, catalogTexts, load } from '../wasm/support.mjs';

const { gpufleet } = await load();
const doc = JSON.parse(readFileSync(path.join(root, 'tests', 'bench', 'sweep.json'), 'utf8'));
// The three catalog files without price files, as the native benchmark (bench_analyzer.cpp) and
// the page load them: the same work on both sides of the ratio.
const { priceFiles, ...texts } = catalogTexts();

function timeIt(fn, minMs = 1000) {
  for (let i = 0; i < 5; i++) fn();  // warm up
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    fn();
    runs++;
  }
  return (performance.now() - start) / runs;
}

const analyzer = gpufleet.createAnalyzer(texts);
const requests = doc.sweep.map((r) => JSON.stringify(r));
const one = JSON.stringify(doc.one_estimate);
const result = {
  wasm_catalog_load_ms: timeIt(() => gpufleet.createAnalyzer(texts).dispose(), 500),
  wasm_one_estimate_us: timeIt(() => analyzer.analyzeJson(one), 500) * 1000,
  wasm_sweep_ms: timeIt(() => requests.forEach((r) => analyzer.analyzeJson(r))),
  sweep_requests: requests.length,
};
// The tool questions, each alone (sweep.json "tools"), with every region's prices as the native
// benchmark and the page's Spot and Regions views have them.
const priced = gpufleet.createAnalyzer({ ...texts, priceFiles });
for (const [name, request] of Object.entries(doc.tools)) {
  const text = JSON.stringify(request);
  if (!JSON.parse(priced.analyzeJson(text)).ok) throw new Error(`bench: ${name} is refused`);
  result[`wasm_${name}_ms`] = timeIt(() => priced.analyzeJson(text), 500);
}
console.log(JSON.stringify(result));
