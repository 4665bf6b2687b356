// Loads the built WebAssembly core under Node (wasmBinary: Emscripten 3.1.6's loader cannot fetch
// a file path under Node 20) with the repository's catalogs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const wasmDir = path.resolve(process.env.GPUFLEET_WASM_DIR ?? path.join(root, 'build-wasm', 'wasm'));

/** Every region's price file of a config directory (prices/<provider>/<region>.json), as the CLI
 *  loads them. */
export function priceFiles(dir = path.join(root, 'config')) {
  const prices = path.join(dir, 'prices');
  if (!existsSync(prices)) return [];
  return readdirSync(prices, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    .flatMap((provider) => readdirSync(path.join(prices, provider)).filter((f) => f.endsWith('.json')).sort()
      .map((file) => `prices/${provider}/${file}`))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(dir, name), 'utf8') }));
}

export function catalogTexts(dir = path.join(root, 'config')) {
  return {
    gpuInstances: readFileSync(path.join(dir, 'gpu_instances.json'), 'utf8'),
    modelConfig: readFileSync(path.join(dir, 'model_config.json'), 'utf8'),
    workloads: readFileSync(path.join(dir, 'workloads.json'), 'utf8'),
    priceFiles: priceFiles(dir),
  };
}

/** The module that answers every question, or with `dir` another build of it (the page's is in
 *  page/, with the first views' questions only). */
export async function load(dir = wasmDir) {
  const facade = await import(path.join(dir, 'gpufleet.js'));
  const gpufleet = await facade.loadGpufleet({
    wasmBinary: readFileSync(path.join(dir, 'gpufleet_core.wasm')),
  });
  return { facade, gpufleet };
}
