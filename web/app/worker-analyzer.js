// An analyzer whose core runs in a Web Worker (web/app/core-worker.js): the facade's Analyzer
// (ask, analyzeJson, dispose), answering with promises. Questions wait in a queue here and go to
// the worker one at a time, so a question superseded before its turn (its AbortSignal aborted) is
// never computed; one already computing finishes and its answer is dropped by whoever asked.
const aborted = (why) => new DOMException(why, 'AbortError');

export class WorkerAnalyzer {
  inWorker = true;
  /** question -> the ms its last answer took in the worker (tools-analyzer.js chooses by it). */
  spentMs = new Map();
  #worker;
  #queue = [];
  #running = null;
  #dead = null;

  #texts;

  constructor(worker, texts) {
    this.#worker = worker;
    this.#texts = texts;
    worker.onmessage = ({ data }) => this.#answered(data);
    // The worker's script could not run (an error outside any question): as good as a dead module.
    worker.onerror = (e) => {
      e.preventDefault();
      this.#die(new WebAssembly.RuntimeError(`the core's worker stopped: ${e.message ?? 'no message'}`));
    };
  }

  /** Sends {catalog} or {request}; resolves to the worker's reply ({answer: text, ms}). The same
   *  request as the one computing (a select fires input and change: two renders) shares its answer. */
  send(message, signal) {
    if (this.#dead) return Promise.reject(this.#dead);
    if (signal?.aborted) return Promise.reject(aborted('superseded'));
    if (message.request !== undefined && this.#running?.message.request === message.request) return this.#running.answer;
    let job;
    const answer = new Promise((resolve, reject) => {
      job = { message, resolve, reject };
      signal?.addEventListener('abort', () => {
        const at = this.#queue.indexOf(job);
        if (at >= 0) {
          this.#queue.splice(at, 1);
          reject(aborted('superseded'));
        }
      }, { once: true });
    });
    job.answer = answer;
    this.#queue.push(job);
    this.#next();
    return answer;
  }

  #next() {
    if (this.#running || !this.#queue.length) return;
    this.#running = this.#queue.shift();
    this.#worker.postMessage(this.#running.message);
  }

  #answered(data) {
    const job = this.#running;
    this.#running = null;
    if (!job) return;
    if ('answer' in data) job.resolve(data);
    else {
      const error = data.trap ? new WebAssembly.RuntimeError(data.failed) : new Error(data.failed);
      job.reject(error);
      // Whatever failed inside the worker left its module in an unknown state: no more questions.
      this.#die(error);
    }
    this.#next();
  }

  /** Rejects every waiting question with `error` and stops the worker. */
  #die(error) {
    this.#dead ??= error;
    this.#worker.terminate();
    for (const job of [this.#running, ...this.#queue]) job?.reject(error);
    this.#running = null;
    this.#queue = [];
  }

  /** Request JSON text in, response JSON text out (a promise). */
  async analyzeJson(requestText, signal) {
    return (await this.send({ request: String(requestText) }, signal)).answer;
  }

  /** The whole response object, ok or not (a promise). */
  async ask(request, signal) {
    const { answer, ms } = await this.send({ request: JSON.stringify(request) }, signal);
    if (ms !== undefined) this.spentMs.set(request?.question, ms);
    return JSON.parse(answer);
  }

  /** A new worker over the same catalog (this one's module died). */
  respawn() {
    return createWorkerAnalyzer(this.#texts);
  }

  /** Stops the worker; questions still waiting reject with an AbortError. */
  dispose() {
    this.#die(aborted('the catalog in use changed'));
  }
}

/** Starts a worker and builds the catalog's analyzer in it; rejects when either fails. */
export async function createWorkerAnalyzer(texts) {
  const analyzer = new WorkerAnalyzer(new Worker(new URL('./core-worker.js', import.meta.url), { type: 'module' }), texts);
  await analyzer.send({ catalog: texts });
  return analyzer;
}
