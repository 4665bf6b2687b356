// Typings of the gpufleet facade (wasm/gpufleet.js). The requests' types (every question and its
// fields) are generated from the request schema into requests.d.ts (scripts/gen-typings.mjs).
import type { Request, Question } from './requests.js';
export type * from './requests.js';

export interface GpufleetErrorDetail {
  /** invalid_json | wrong_type | missing_field | out_of_range | unknown_name | unknown_field | ... */
  code: string;
  /** "request" or the catalog file at fault, e.g. "gpu_instances.json" */
  file: string;
  /** JSON pointer of the offending value ("" for the whole document) */
  path: string;
  message: string;
}

export class GpufleetError extends Error {
  readonly name: 'GpufleetError';
  readonly code: string;
  readonly file: string;
  readonly path: string;
  readonly errors: GpufleetErrorDetail[];
}

/** One region's price file (config/prices/<provider>/<region>.json) and the name its errors carry. */
export interface PriceFileText {
  name: string;
  text: string | Uint8Array;
}

/** The three catalog files, as text, and the price files of the regions to price. */
export interface CatalogTexts {
  gpuInstances: string | Uint8Array;
  modelConfig: string | Uint8Array;
  workloads: string | Uint8Array;
  priceFiles?: PriceFileText[];
}

export interface OkResponse<R = any> {
  ok: true;
  question: Question;
  /** prices_as_of: the oldest price date the answer could use (null when no price is dated). */
  catalog: { name: string; version: string; date: string; prices_as_of: string | null };
  result: R;
}
export interface ErrorResponse {
  ok: false;
  errors: GpufleetErrorDetail[];
}
export type Response<R = any> = OkResponse<R> | ErrorResponse;

export class Analyzer {
  /** Request JSON text (or its UTF-8 bytes) in, response JSON text out. Never throws for any
   *  request; after dispose() it throws GpufleetError with code "disposed". */
  analyzeJson(requestText: string | Uint8Array): string;
  /** The whole response object, ok or not. */
  ask<R = any>(request: Request): Response<R>;
  /** The result of a successful answer; throws GpufleetError otherwise. */
  analyze<R = any>(request: Request): R;
  /** Frees the native analyzer. */
  dispose(): void;
}

export interface Gpufleet {
  /** Parses and validates a catalog once; catalog faults come back from every question. All or
   *  nothing: a catalog whose texts cannot be read (a text whose toString throws, priceFiles not
   *  an array of {name, text}: TypeError) or staged throws and leaves nothing behind, and the next
   *  call builds from exactly its own files. */
  createAnalyzer(catalog: CatalogTexts): Analyzer;
  /** Bytes of WebAssembly memory the module holds (it only grows). */
  memoryBytes(): number;
}

export interface LoadOptions {
  /** The module's bytes (gpufleet_core.wasm). Without them, browsers and bundlers fetch the file
   *  beside gpufleet_core.mjs (new URL('gpufleet_core.wasm', import.meta.url)) and the npm
   *  package's Node entry reads it from the package. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/** Loads the WebAssembly core. */
export function loadGpufleet(options?: LoadOptions): Promise<Gpufleet>;
