// How long the slowest question takes over catalogs of growing size, on the WebAssembly core under
// node: the measurement behind the page's Web Worker threshold (web/app/catalog-load.js,
// docs/page.md "Large catalogs"). The shipped families are copied N times, each size twice; the
// questions are the golden cases the page's screens ask. Prints one line per catalog.
// Run: node tests/bench/catalog_weight.mjs (after scripts/build-wasm.sh).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root, catalogTexts, load } from '../wasm/support.mjs';

const { gpufleet } = await load();
const base = catalogTexts();
const request = (name) => JSON.parse(readFileSync(path.join(root, 'tests', 'cases', `${name}.request.json`), 'utf8'));
const questions = {
  catalog_all: { question: 'catalog', section: 'all' },
  fit: request('fit_small_g6e'),
  recommend: { question: 'recommend', model: { params_b: 13 }, workload: 'inference', precision: 'fp16', priority: 'cost' },
  migrate: request('migrate_p4d_training'),
  placement: request('placement_seed000'),
  plan: request('plan_seed001_today'),
  decide: request('decide_training_cost'),
  workload_set: { question: 'workload_set', id: 'comprehensive_suite' },
};

function scaled(copies) {
  const doc = JSON.parse(base.gpuInstances);
  for (const [key, family] of Object.entries(JSON.parse(base.gpuInstances).gpu_instances)) {
    for (let c = 1; c < copies; c++) {
      const copy = structuredClone(family);
      const suffix = `-copy${c}`;
      if (copy.instance_type) copy.instance_type += suffix;
      if (copy.sizes) copy.sizes = Object.fromEntries(Object.entries(copy.sizes).flatMap(([n, s]) => [[n + suffix, s], [`${n}${suffix}b`, s]]));
      doc.gpu_instances[key + suffix] = copy;
    }
  }
  return { ...base, gpuInstances: JSON.stringify(doc) };
}

const best = (fn) => Math.min(...[0, 1, 2].map(() => { const t = performance.now(); fn(); return performance.now() - t; }));
for (const copies of [1, 2, 4, 8, 16, 25]) {
  const texts = scaled(copies);
  const loadMs = best(() => gpufleet.createAnalyzer(texts).dispose());
  const a = gpufleet.createAnalyzer(texts);
  const menus = a.analyze({ question: 'catalog', section: 'menus' });
  const largestSet = Math.max(1, ...Object.values(menus.workloads.workload_sets).map((ids) => ids.length));
  const times = Object.fromEntries(Object.entries(questions).map(([k, q]) => [k, best(() => a.ask(q))]));
  const [slowest, ms] = Object.entries(times).sort((x, y) => y[1] - x[1])[0];
  const bytes = Object.values(texts).reduce((n, t) => n + t.length, 0);
  console.log(JSON.stringify({ instance_types: menus.instances.length, largest_set: largestSet, weight: menus.instances.length * largestSet,
    bytes, load_ms: +loadMs.toFixed(1), slowest, slowest_ms: +ms.toFixed(1), ms_per_pair: +(ms / (menus.instances.length * largestSet)).toFixed(4),
    times: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, +v.toFixed(1)])) }));
  a.dispose();
}
