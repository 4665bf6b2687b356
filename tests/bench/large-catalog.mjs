// The largest catalog of your own the page accepts, as tests/browser/large-catalog.test.mjs and
// tests/bench/bench_browser.mjs load it: the shipped families copied 25 times, each size twice
// (825 families, 4,010 instance types: within the core's 1,024 and 4,096), and a workload set of
// every scenario, each twice (14). `shipped(file)` reads a staged catalog file's text.
export function largeCatalog(shipped) {
  const doc = JSON.parse(shipped('gpu_instances.json'));
  const families = Object.entries(doc.gpu_instances);
  for (let c = 1; c < 25; c++) {
    for (const [key, family] of families) {
      const copy = structuredClone(family);
      const suffix = `-copy${c}`;
      if (copy.instance_type) copy.instance_type += suffix;
      if (copy.sizes) copy.sizes = Object.fromEntries(Object.entries(copy.sizes).flatMap(([n, s]) => [[n + suffix, s], [`${n}${suffix}b`, s]]));
      doc.gpu_instances[key + suffix] = copy;
    }
  }
  const workloads = JSON.parse(shipped('workloads.json'));
  for (const [id, w] of Object.entries(workloads.workloads)) workloads.workloads[`${id}_again`] = { ...w, name: `${w.name} (again)` };
  workloads.workload_sets.every_scenario = Object.keys(workloads.workloads);
  const types = Object.values(doc.gpu_instances).reduce((n, f) => n + 1 + Object.keys(f.sizes ?? {}).length, 0);
  return { gpuInstances: JSON.stringify(doc), modelConfig: shipped('model_config.json'), workloads: JSON.stringify(workloads), types };
}
