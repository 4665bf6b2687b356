// Where a catalog of your own answers: on the page's thread, as the shipped catalog does, or in a
// Web Worker (worker-analyzer.js) when its answers could freeze the page. Measured over the
// shipped families copied (docs/page.md, "Large catalogs"): the slowest question grows with the
// instance types times the scenarios of the largest workload set, about 0.03 ms per pair in the
// browser's WebAssembly, so WORKER_WEIGHT pairs is about 50 ms; a catalog's files above
// WORKER_BYTES are not even parsed on the page's thread (1 MiB takes about 35 ms to load).
export const WORKER_BYTES = 1 << 20;
export const WORKER_WEIGHT = 1500;

/** Instance types times the scenarios of the largest workload set (at least 1). */
export const weightOf = (menus) => (menus.instances?.length ?? 0)
  * Math.max(1, ...Object.values(menus.workloads?.workload_sets ?? {}).map((ids) => ids.length));

const sizeOf = (texts) => Object.values(texts).reduce((n, t) => n + (t?.length ?? 0), 0);

/** The analyzer over `texts` and describe()'s answer (catalog-store.js), on this thread or in a
 *  worker. Errors of a worker carry inWorker: true (the page's own module is fine). */
export async function build(gpufleet, texts, describe) {
  if (sizeOf(texts) <= WORKER_BYTES) {
    const analyzer = gpufleet.createAnalyzer(texts);
    const state = await describe(analyzer);
    if (!state.ok || weightOf(state.data) <= WORKER_WEIGHT) return { analyzer, state };
    analyzer.dispose();
  }
  let analyzer;
  try {
    const { createWorkerAnalyzer } = await import('./worker-analyzer.js');
    analyzer = await createWorkerAnalyzer(texts);
  } catch {
    // No worker here (or it could not start): answer on this thread, as before.
    const onThread = gpufleet.createAnalyzer(texts);
    return { analyzer: onThread, state: await describe(onThread) };
  }
  try {
    return { analyzer, state: await describe(analyzer) };
  } catch (e) {
    analyzer.dispose();
    throw Object.assign(e, { inWorker: true });
  }
}
