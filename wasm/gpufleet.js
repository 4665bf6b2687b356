// gpufleet facade: loads the WebAssembly core once, builds analyzers from catalog texts, and turns
// {"ok": false, ...} answers into a thrown GpufleetError.
import createGpufleetCore from './gpufleet_core.mjs';

export class GpufleetError extends Error {
  constructor(errors) {
    const first = errors[0] ?? { code: 'internal_error', file: '', path: '', message: 'unknown error' };
    const where = [first.file, first.path].filter(Boolean).join(' at ');
    super(where ? `${where}: ${first.message}` : first.message);
    this.name = 'GpufleetError';
    this.code = first.code;
    this.file = first.file;
    this.path = first.path;
    this.errors = errors;
  }
}

// Text or raw UTF-8 bytes (an uploaded file) cross into the core unchanged: written once into the
// view of the core's memory that it hands out (embind, wasm/bindings.cpp), used before anything
// else can move that memory.
const utf8In = new TextEncoder();
const utf8 = new TextDecoder();
const bytesOf = (value) => (value instanceof Uint8Array ? value : utf8In.encode(String(value)));

export class Analyzer {
  #core;
  #door = 0;
  constructor(core, { gpuInstances, modelConfig, workloads, priceFiles = [] }) {
    const texts = [gpuInstances, modelConfig, workloads, ...priceFiles.flatMap(({ name, text }) => [name, text])];
    for (const text of texts) {
      const bytes = bytesOf(text);
      core.stage(bytes.length).set(bytes);
    }
    this.#door = core.create();
    this.#core = core;
  }
  /** The raw door: request JSON text (or UTF-8 bytes) in, response JSON text out. Never throws for
   *  any request; after dispose() every call throws GpufleetError with code "disposed". */
  analyzeJson(requestText) {
    if (!this.#door) {
      throw new GpufleetError([{ code: 'disposed', file: '', path: '', message: 'this analyzer was disposed; create another with createAnalyzer()' }]);
    }
    const core = this.#core;
    const bytes = bytesOf(requestText);
    core.request(this.#door, bytes.length).set(bytes);
    // The answer's bytes stay valid until the next question: decoded at once.
    return utf8.decode(core.analyze(this.#door));
  }
  /** The whole response object, ok or not. */
  ask(request) {
    return JSON.parse(this.analyzeJson(JSON.stringify(request)));
  }
  /** The result of a successful answer; throws GpufleetError otherwise. */
  analyze(request) {
    const response = this.ask(request);
    if (!response.ok) throw new GpufleetError(response.errors);
    return response.result;
  }
  dispose() {
    const core = this.#core;
    if (this.#door) core.destroy(this.#door);
    this.#door = 0;
  }
}

/** Loads the core. `options.wasmBinary`: the module's bytes; without them the module is fetched
 *  from beside gpufleet_core.mjs (the npm package's Node entry reads it from disk instead). */
export async function loadGpufleet(options = {}) {
  const core = await createGpufleetCore(options);
  return {
    createAnalyzer: (catalog) => new Analyzer(core, catalog),
    /** Bytes of WebAssembly memory in use by the module (it only grows). */
    memoryBytes: () => core.HEAP8.byteLength,
  };
}
