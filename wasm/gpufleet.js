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

/** The catalog's texts as bytes, in the order the core stages them (gpu_instances, model_config,
 *  workloads, then a name and a text per price file). Every text is read here, before the core is
 *  touched: a catalog that cannot be read throws with nothing staged. */
function catalogBytes(catalog) {
  if (catalog === null || typeof catalog !== 'object') throw new TypeError('createAnalyzer: expected {gpuInstances, modelConfig, workloads, priceFiles}');
  const { gpuInstances, modelConfig, workloads, priceFiles = [] } = catalog;
  if (!Array.isArray(priceFiles)) throw new TypeError('createAnalyzer: priceFiles: expected an array of {name, text}');
  const files = priceFiles.flatMap((file, i) => {
    if (file === null || typeof file !== 'object') throw new TypeError(`createAnalyzer: priceFiles[${i}]: expected {name, text}`);
    return [file.name, file.text];
  });
  return [gpuInstances, modelConfig, workloads, ...files].map(bytesOf);
}

/** Empties what the core holds staged after a build that stopped half-way: create() takes every
 *  staged text (wasm/bindings.cpp), and what it makes of them is freed at once. */
function unstage(core) {
  try {
    const door = core.create();
    if (door) core.destroy(door);
  } catch {
    // A module that cannot even do this is dead: the page replaces it (docs/hostile-input.md).
  }
}

/** A native analyzer from exactly these texts, or an exception with nothing left staged: the
 *  core's staging is shared by every build, so a half-staged catalog would open the next one. */
function build(core, texts) {
  try {
    for (const bytes of texts) core.stage(bytes.length).set(bytes);
  } catch (err) {
    unstage(core);
    throw err;
  }
  const door = core.create();
  if (!door) throw new GpufleetError([{ code: 'internal_error', file: '', path: '', message: 'the core built no analyzer from the catalog staged' }]);
  return door;
}

export class Analyzer {
  #core;
  #door = 0;
  /** Transactional: a catalog that cannot be read or staged throws and leaves the core as it was,
   *  and the next analyzer is built from exactly its own files. */
  constructor(core, catalog) {
    this.#door = build(core, catalogBytes(catalog));
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
