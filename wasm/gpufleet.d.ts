// Typings of the gpufleet facade (wasm/gpufleet.js). The requests' types (every question and its
// fields) and the results' (Results: each question's) are generated from the request and response
// schemas into requests.d.ts (scripts/gen-typings.mjs).
import type { Question, Requests, Results } from './requests.js';
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

/** Which catalog answered. prices_as_of: the oldest price date the answer could use (null when no
 *  price is dated). */
export interface CatalogStamp {
  name: string;
  version: string;
  date: string;
  prices_as_of: string | null;
}
/** An answer to question Q: its result is Results[Q]. For a union of questions, a union of
 *  answers told apart by `question`. */
export type OkResponse<Q extends Question = Question> = Q extends Question
  ? { ok: true; question: Q; catalog: CatalogStamp; result: Results[Q] }
  : never;
export interface ErrorResponse {
  ok: false;
  errors: GpufleetErrorDetail[];
}
export type Response<Q extends Question = Question> = OkResponse<Q> | ErrorResponse;
/** A request to question Q (Q is read from the request's `question`). */
export type RequestOf<Q extends Question> = Requests[Q] & { question: Q };

export class Analyzer {
  /** Request JSON text (or its UTF-8 bytes) in, response JSON text out. Never throws for any
   *  request; after dispose() it throws GpufleetError with code "disposed". */
  analyzeJson(requestText: string | Uint8Array): string;
  /** The whole response object, ok or not. */
  ask<Q extends Question>(request: RequestOf<Q>): Response<Q>;
  /** The result of a successful answer; throws GpufleetError otherwise. */
  analyze<Q extends Question>(request: RequestOf<Q>): Results[Q];
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
