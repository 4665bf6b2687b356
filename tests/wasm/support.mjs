// Loads the built WebAssembly core under Node (wasmBinary: Emscripten 3.1.6's loader cannot fetch
// a file path under Node 20) with the repository's catalogs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const wasmDir = path.resolve(process.env.GPUFLEET_WASM_DIR ?? path.join(root, 'build-wasm', 'wasm'));

/** The three catalog files and every region's price file (prices/<provider>/<region>.json, named
 *  as the CLI names them), as the CLI reads a config directory (one without prices/ has none). */
export function catalogTexts(dir = path.join(root, 'config')) {
  const priceFiles = [];
  const pricesDir = path.join(dir, 'prices');
  const providers = existsSync(pricesDir) ? readdirSync(pricesDir, { withFileTypes: true }) : [];
  for (const provider of providers.filter((e) => e.isDirectory())) {
    for (const file of readdirSync(path.join(pricesDir, provider.name)).filter((f) => f.endsWith('.json'))) {
      priceFiles.push({ name: `prices/${provider.name}/${file}`, text: readFileSync(path.join(pricesDir, provider.name, file), 'utf8') });
    }
  }
  priceFiles.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    gpuInstances: readFileSync(path.join(dir, 'gpu_instances.json'), 'utf8'),
    modelConfig: readFileSync(path.join(dir, 'model_config.json'), 'utf8'),
    workloads: readFileSync(path.join(dir, 'workloads.json'), 'utf8'),
    priceFiles,
  };
}

export async function load() {
  const facade = await import(path.join(wasmDir, 'gpufleet.js'));
  const gpufleet = await facade.loadGpufleet({
    wasmBinary: readFileSync(path.join(wasmDir, 'gpufleet_core.wasm')),
  });
  return { facade, gpufleet };
}
