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

// Text or raw UTF-8 bytes (an uploaded file) cross into the core unchanged, copied into its memory.
const utf8In = new TextEncoder();
const utf8 = new TextDecoder();
function copyIn(core, value) {
  const bytes = value instanceof Uint8Array ? value : utf8In.encode(String(value));
  const at = core._malloc(Math.max(1, bytes.length));
  core.HEAPU8.set(bytes, at);
  return [at, bytes.length];
}

export class Analyzer {
  #core;
  #door = 0;
  constructor(core, { gpuInstances, modelConfig, workloads, priceFiles = [] }) {
    for (const { name, text } of priceFiles) {
      const staged = [name, text].map((value) => copyIn(core, value));
      try {
        core._gpufleet_stage_prices(...staged.flat());
      } finally {
        for (const [at] of staged) core._free(at);
      }
    }
    const parts = [gpuInstances, modelConfig, workloads].map((text) => copyIn(core, text));
    try {
      this.#door = core._gpufleet_create(...parts.flat());
    } finally {
      for (const [at] of parts) core._free(at);
    }
    this.#core = core;
  }
  /** The raw door: request JSON text (or UTF-8 bytes) in, response JSON text out. Never throws for
   *  any request; after dispose() every call throws GpufleetError with code "disposed". */
  analyzeJson(requestText) {
    if (!this.#door) {
      throw new GpufleetError([{ code: 'disposed', file: '', path: '', message: 'this analyzer was disposed; create another with createAnalyzer()' }]);
    }
    const core = this.#core;
    const [at, size] = copyIn(core, requestText);
    try {
      // The answer's bytes stay valid until the next question: decoded at once (memory may have
      // grown, so the view is taken after the call).
      const answer = core._gpufleet_analyze(this.#door, at, size);
      return utf8.decode(core.HEAPU8.subarray(answer, answer + core._gpufleet_answer_size(this.#door)));
    } finally {
      core._free(at);
    }
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
    if (this.#door) this.#core._gpufleet_destroy(this.#door);
    this.#door = 0;
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
