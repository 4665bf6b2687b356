// The analyzer of the questions the page's module leaves out (IN_WORKER in catalog-store.js): the
// full module (gpufleet/all/) over the catalog in use, in a Web Worker so that a long answer never
// freezes the page, and, once the page is idle after the worker's first answer, on the page's
// thread too. A question whose last answer took at most QUICK_MS is answered on the page's thread:
// the worker's round trip (a message each way and, on a busy machine, the wait for the worker's
// thread to run) then costs more than the question, and the answer comes a frame later (issue 38,
// docs/performance.md). A question that took longer, or one asked `background` (an answer the
// view shows after its own, such as Deployments' accelerator rules), goes to the worker.
export const QUICK_MS = 8;

let fullModule = null;
/** The full module, loaded once for the page (the worker loads its own); `forget` after it died
 *  makes the next call instantiate a fresh one. */
const loadFull = ({ forget = false } = {}) => {
  if (forget) return (fullModule = null);
  return (fullModule ??= import('../gpufleet/all/gpufleet.js').then((m) => m.loadGpufleet()));
};
/** Runs `fn` when the page is next idle (not in-place.js's whenIdle: importing it from here would
 *  split in-place.js into a chunk of its own, one more file before the first answer). */
const whenIdle = (fn) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 1000 }) : setTimeout(fn, 0));
const startCoreWorker = (texts) => import('./worker-analyzer.js').then((m) => m.createWorkerAnalyzer(texts));

export class ToolsAnalyzer {
  #texts;
  #worker;
  #here = null;
  #building = false;
  #disposed = false;
  #spentMs = new Map();  // question -> ms its last answer took (the worker's own time there)
  #killers = new Set();  // questions whose answer on this thread killed its module

  #full;
  #moduleDied;

  /** `moduleDied(e)`: whether `e` is a failure of the module itself, which no other thread retries.
   *  `startWorker(texts)` and `full()` (the worker's analyzer and the full module, promised) are
   *  for tests to replace. */
  constructor(texts, moduleDied, { startWorker = startCoreWorker, full = loadFull } = {}) {
    this.#texts = texts;
    this.#full = full;
    this.#moduleDied = moduleDied;
    this.#worker = startWorker(texts)
      .catch(async (e) => {
        if (moduleDied(e)) throw e;
        // No worker here (or it could not start): the full module on this thread.
        return (await full()).createAnalyzer(texts);
      });
    this.#worker.catch(() => {});
  }

  /** Resolves once the worker (or, without one, this thread's full module) holds the catalog. */
  started() { return this.#worker.then(() => this); }

  /** The whole response (a promise); rejects as the worker's or the module's ask does. */
  async ask(request, signal, { background = false } = {}) {
    const question = request?.question;
    if (this.#here && !background && !this.#killers.has(question) && (this.#spentMs.get(question) ?? Infinity) <= QUICK_MS) {
      const t0 = performance.now();
      try {
        const response = this.#here.ask(request);
        this.#spentMs.set(question, performance.now() - t0);
        return response;
      } catch (e) {
        if (!this.#moduleDied(e)) throw e;
        // This thread's module died: the worker answers, and a fresh module is built when idle; the
        // question that killed it stays with the worker, so that it cannot kill each fresh one.
        this.#here = null;
        this.#killers.add(question);
        this.#building = false;
        this.#full({ forget: true });
      }
    }
    const worker = await this.#worker;
    const t0 = performance.now();
    const response = await worker.ask(request, signal);
    this.#spentMs.set(question, worker.spentMs?.get(question) ?? performance.now() - t0);
    if (worker.inWorker && !background) this.#buildHere();
    return response;
  }

  /** The full module over the same catalog on this thread, built when the page is next idle. */
  #buildHere() {
    if (this.#building) return;
    this.#building = true;
    whenIdle(async () => {
      try {
        const g = await this.#full();
        if (!this.#disposed) this.#here = g.createAnalyzer(this.#texts);
      } catch (e) {
        // Not on this thread, then: every question stays with the worker.
        console.warn(e);
      }
    });
  }

  dispose() {
    this.#disposed = true;
    this.#worker.then((a) => a.dispose(), () => {});
    try { this.#here?.dispose(); } catch { /* its module died: nothing left to free */ }
    this.#here = null;
  }
}
