// The package's entry under Node: the facade, with the .wasm read from beside this file (Node's
// fetch cannot read a file: URL, which is how the browser entry finds it).
import { readFile } from 'node:fs/promises';
import { loadGpufleet as loadWithOptions } from './index.js';

export { Analyzer, GpufleetError } from './index.js';

/** Loads the WebAssembly core; `wasmBinary` (the module's bytes) replaces the packaged file. */
export async function loadGpufleet(options = {}) {
  const wasmBinary = options.wasmBinary ?? (await readFile(new URL('./gpufleet_core.wasm', import.meta.url)));
  return loadWithOptions({ ...options, wasmBinary });
}
