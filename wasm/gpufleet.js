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

// Text or raw UTF-8 bytes (an uploaded file) cross into the core unchanged.
const textOrBytes = (value) => (value instanceof Uint8Array ? value : String(value));
// The core answers with a view of its UTF-8 bytes, valid until the next question: decoded at once.
const utf8 = new TextDecoder();

export class Analyzer {
  #native;
  constructor(core, { gpuInstances, modelConfig, workloads }) {
    this.#native = new core.Analyzer(textOrBytes(gpuInstances), textOrBytes(modelConfig), textOrBytes(workloads));
  }
  /** The raw door: request JSON text (or UTF-8 bytes) in, response JSON text out. Never throws. */
  analyzeJson(requestText) {
    return utf8.decode(this.#native.analyzeBytes(textOrBytes(requestText)));
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
    this.#native.delete();
  }
}

/** Loads the core. `options` go to the Emscripten module factory (e.g. { wasmBinary } in Node). */
export async function loadGpufleet(options = {}) {
  const core = await createGpufleetCore(options);
  return {
    createAnalyzer: (catalog) => new Analyzer(core, catalog),
    /** Bytes of WebAssembly memory in use by the module (it only grows). */
    memoryBytes: () => core.HEAP8.byteLength,
  };
}
