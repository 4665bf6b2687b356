// The catalog in use: its three texts, the analyzer built from them and what the page needs to
// fill its inputs (families, instance types, model sizes, precisions, workloads). The analyzer
// answers on the page's thread (the shipped catalog and small ones of your own) or, for a heavy
// catalog of your own, in a Web Worker (catalog-load.js chooses, worker-analyzer.js talks to it),
// so that a long answer never freezes the page; either way `ask` resolves to the response.

import { setPayNames } from './format.js';
import { own } from './link.js';

export const FILES = [
  { key: 'gpuInstances', file: 'gpu_instances.json' },
  { key: 'modelConfig', file: 'model_config.json' },
  { key: 'workloads', file: 'workloads.json' },
];
/** The files whose page copies (in config/page/catalog.pack) leave their provenance texts out,
 *  each replaced by a line naming the full file, which withSources() fetches when a source is
 *  first shown. */
const LEAN = new Set(['gpuInstances', 'modelConfig']);
/** How a provenance text of a page copy begins instead (scripts/stage-site.sh writes it). */
export const LEFT_OUT = "(left out of the page's copy";

async function fetchBytes(file, base) {
  const res = await fetch(new URL(file, new URL(base, document.baseURI)), { cache: 'no-cache' });
  if (!res.ok) throw new Error(`could not load ${file}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
const decoder = new TextDecoder();

/** The price file of each region `regions` names ({provider: [region]}, or 'all'), per
 *  prices/index.json: [{name, text}] with the text as UTF-8 bytes. */
export async function fetchPriceFiles(index, regions, base = './config/', loaded = new Set()) {
  const names = priceFileNames(index, regions).filter((name) => !loaded.has(name));
  return Promise.all(names.map(async (name) => ({ name, text: await fetchBytes(name, base) })));
}

/** The price files (prices/<provider>/<region>.json) of `regions` ({provider: [region]} or 'all'). */
function priceFileNames(index, regions) {
  const names = [];
  for (const [provider, p] of Object.entries(index.providers ?? {})) {
    const wanted = regions === 'all' ? Object.keys(p.regions ?? {}) : own(regions, provider) ?? [];
    for (const region of wanted) if (own(p.regions, region)) names.push(`prices/${own(p.regions, region).file}`);
  }
  return names;
}

/** The regions a link's ?region= asks for, per prices/index.json: 'all', {provider: [region]}
 *  for a region the index names (its own keys only), {} for none, or null for a name it lacks. */
export function regionWanted(index, region) {
  if (region === 'all') return 'all';
  if (!region) return {};
  for (const [provider, p] of Object.entries(index?.providers ?? {})) if (own(p?.regions, region)) return { [provider]: [region] };
  return null;
}

/** The shipped files and the usual regions' prices as UTF-8 bytes (what the core reads, copied in
 *  at once) and as text (what the Catalog screen shows and downloads), and the price index, from
 *  config/page/catalog.pack (scripts/stage-site.sh): a first line of JSON naming each file and its
 *  length in bytes, then the files' bytes in that order. `base` is kept with them: the store fetches
 *  the full files and other regions' prices from there too. */
export async function fetchShippedTexts(base = './config/') {
  const pack = await fetchBytes('page/catalog.pack', base);
  const newline = pack.indexOf(10);
  const files = new Map();
  let at = newline + 1;
  for (const { name, bytes: length } of JSON.parse(decoder.decode(pack.subarray(0, newline))).files) {
    files.set(name, pack.subarray(at, at += length));
  }
  const texts = {};
  const bytes = {};
  for (const { key, file } of FILES) {
    bytes[key] = files.get(file);
    texts[key] = decoder.decode(bytes[key]);
  }
  bytes.priceFiles = [...files].filter(([name]) => name.startsWith('prices/') && name !== 'prices/index.json').map(([name, text]) => ({ name, text }));
  texts.priceFiles = bytes.priceFiles;
  return { texts, bytes, index: JSON.parse(decoder.decode(files.get('prices/index.json'))), lean: [...LEAN], base };
}

/** The questions the page's module leaves out (kPageLeavesOut in core/src/api/analyzer.cpp): those of
 *  the later views and the tools' simulations. The full module (gpufleet/all/) answers them in a Web
 *  Worker, started with the catalog in use when one is first asked, so that neither the first
 *  download nor the page's thread carries them. */
export const IN_WORKER = new Set(['precisions', 'migrate', 'workload', 'plan', 'decide', 'placement', 'workload_set', 'workloads', 'validate',
  'autoscale', 'spot', 'regions', 'batch', 'deploy']);

/** Questions whose answers carry prices: the region chosen on the page is added to them. */
const PRICED = new Set(['fit', 'cost', 'performance', 'recommend', 'migrate', 'plan', 'decide', 'placement', 'right_size', 'estimate', 'catalog', 'spot']);

/** Reads what the page's inputs offer (the catalog's "menus": names, sizes, formats, without
 *  prices and sources, a third of "all"); {ok:false, errors} when the catalog is invalid (an
 *  invalid catalog answers every question, this one included, with its errors). */
async function describe(analyzer) {
  const all = await analyzer.ask({ question: 'catalog', section: 'menus' });
  if (!all.ok) return { ok: false, errors: all.errors };
  const data = all.result;
  const providers = new Map();
  for (const i of data.instances) if (!providers.has(i.family)) providers.set(i.family, i.provider);
  return {
    ok: true,
    providers,
    info: data.info,
    catalog: all.catalog,
    data,
    families: [...providers.keys()],
  };
}

/** A failure of the WebAssembly module itself (an abort, a trap): the module cannot answer again. */
const moduleDied = (e) => e instanceof WebAssembly.RuntimeError || /\bAborted\(|unreachable|memory access out of bounds/.test(String(e?.message ?? e));

export class CatalogStore extends EventTarget {
  #g;
  #shipped;
  #shippedBytes;
  #reload;
  #recovering = null;
  #lean;  // keys of the shipped files still read from the page's copies
  #hydrating = null;
  #lastRecoveryMs = -Infinity;
  #base;  // where the shipped files are served (fetchShippedTexts' base)
  #tools = null;  // {base: the analyzer in use it copies, analyzer: a promise of the tools' analyzer}
  /** `reload` loads a fresh module (loadGpufleet): used when the one in use dies. */
  constructor(gpufleet, { texts, bytes, index = {}, lean = [], base = './config/' }, { reload } = {}) {
    super();
    this.#base = base;
    this.#lean = lean;
    this.#g = gpufleet;
    this.#reload = reload;
    this.#shipped = { ...texts };
    this.#shippedBytes = bytes;
    this.texts = null;
    this.analyzer = null;
    this.state = null; // describe() of the catalog in use
    this.isShipped = true;
    this.priceIndex = index; // prices/index.json: every region's file and the usual ones
    this.region = '';  // '' (each provider's usual region), a region name, or 'all'
  }

  /** Prices every question in `region` ('' for the usual regions, 'all' for the cheapest of every
   *  region): fetches the region's price file when it is not loaded yet, then answers again. */
  async setRegion(region) {
    const wanted = regionWanted(this.priceIndex, region);
    if (!wanted) return { ok: false, errors: [{ code: 'unknown_name', file: 'prices/index.json', path: '', message: `no prices for the region "${region}"` }] };
    return this.loadPrices(wanted, () => { this.region = region; });
  }

  /** Loads the price files of `wanted` ({provider: [region]} or 'all') not loaded yet, without
   *  changing the page's region (the spot and regions views ask about many regions at once);
   *  `then` runs before the catalog answers again. Resolves to the catalog's state. */
  async loadPrices(wanted, then = () => {}) {
    const missing = await fetchPriceFiles(this.priceIndex, wanted, this.#base, this.#loadedPrices());
    then();
    // Before the first build (a link's region), the region's prices join the shipped ones and the
    // analyzer is built once.
    if (!missing.length && this.analyzer) {
      this.dispatchEvent(new Event('change'));
      return this.state;
    }
    const priceFiles = [...((this.texts ?? this.#shippedBytes)?.priceFiles ?? []), ...missing];
    if (this.isShipped) this.#shipped.priceFiles = this.#shippedBytes.priceFiles = priceFiles;
    return this.isShipped ? this.loadShipped() : this.tryLoad({ priceFiles });
  }

  /** Whether every price file of `wanted` is loaded. */
  hasPrices(wanted) {
    const loaded = this.#loadedPrices();
    return priceFileNames(this.priceIndex, wanted).every((name) => loaded.has(name));
  }

  #loadedPrices() { return new Set(((this.texts ?? this.#shippedBytes)?.priceFiles ?? []).map((f) => f.name)); }

  /** True while the shipped catalog in use lacks its provenance texts (sources, notes). */
  get lean() { return this.#lean.length > 0; }

  /** The shipped catalog whole: fetches the full files of the page's copies (once) and answers
   *  again from them (the figures are the same; sources and notes are no longer left out). */
  withSources() {
    if (!this.lean) return Promise.resolve(this.state);
    this.#hydrating ??= (async () => {
      const keys = this.#lean;
      const before = this.analyzer;
      const full = await Promise.all(keys.map((key) => fetchBytes(FILES.find((f) => f.key === key).file, this.#base)));
      const replacements = {};
      keys.forEach((key, i) => {
        const text = decoder.decode(full[i]);
        if (this.texts?.[key] === this.#shipped[key]) replacements[key] = text;
        this.#shipped[key] = text;
        this.#shippedBytes[key] = full[i];
      });
      this.#lean = [];
      // A catalog loaded meanwhile (an upload, Reset) stays: only the one in use when the sources
      // were asked for is built again, and only while it is still in use.
      const unchanged = () => this.analyzer === before;
      if (!unchanged()) return this.state;
      if (this.isShipped) return this.loadShipped(unchanged);
      return Object.keys(replacements).length ? this.tryLoad(replacements, unchanged) : this.state;
    })().finally(() => { this.#hydrating = null; });
    return this.#hydrating;
  }

  /** The request with the page's region added where the question prices. */
  #withRegion(request) {
    if (!this.region || !PRICED.has(request?.question) || 'region' in request || 'regions' in request) return request;
    return this.region === 'all' ? { ...request, regions: 'all' } : { ...request, region: this.region };
  }

  /** Builds an analyzer from the shipped catalog; returns describe()'s answer. */
  async loadShipped(stillWanted = () => true) {
    if (this.#recovering) return this.#restarting();
    // Bytes cross into the core with one copy; a string is re-encoded character by character.
    let analyzer;
    try {
      analyzer = this.#g.createAnalyzer(this.#shippedBytes);
    } catch (e) {
      if (!moduleDied(e)) throw e;
      this.#recover(e, true);
      return this.#restarting();
    }
    performance.mark('gpufleet:analyzer-built');
    analyzer.texts = this.#shipped;
    analyzer.bytes = { ...this.#shippedBytes };
    const state = await describe(analyzer);
    // Even an invalid shipped catalog is kept, so that every question reports its errors.
    if (!stillWanted()) {
      analyzer.dispose();
      return this.state;
    }
    this.#swap(analyzer, { ...this.#shipped }, state, true);
    return state;
  }

  /** Tries texts that replace some of the files in use. Keeps the current catalog when invalid.
   *  Where the new catalog answers (this thread or a Web Worker) is chosen in catalog-load.js. */
  async tryLoad(replacements, stillWanted = () => true) {
    if (this.#recovering) return this.#restarting();
    const texts = { ...this.texts, ...replacements };
    let analyzer;
    let state;
    try {
      ({ analyzer, state } = await (await import('./catalog-load.js')).build(this.#g, texts, describe));
    } catch (e) {
      // A worker's module that died took only that worker with it.
      if (moduleDied(e) && !e.inWorker) this.#recover(e);
      return { ok: false, errors: [{ code: 'internal_error', file: '', path: '', message: String(e?.message ?? e) }] };
    }
    if (!state.ok) {
      analyzer.dispose();
      return state;
    }
    if (!stillWanted()) {
      analyzer.dispose();
      return this.state;
    }
    analyzer.texts = texts;
    this.#swap(analyzer, texts, state, false);
    return state;
  }

  reset() {
    return this.loadShipped();
  }

  #swap(analyzer, texts, state, shipped, { announce = true } = {}) {
    const old = this.analyzer;
    this.analyzer = analyzer;
    this.texts = texts;
    this.state = state;
    this.isShipped = shipped;
    setPayNames(state?.data);
    try { old?.dispose(); } catch { /* its module died: nothing left to free */ }
    if (announce) this.dispatchEvent(new Event('change'));
  }

  /** Resolves to the whole response, ok or not. Rejects only with an AbortError: `signal` was
   *  aborted (a newer question supersedes this one) or the analyzer was replaced meanwhile.
   *  `background`: an IN_WORKER question whose answer the view shows after its own (tools-analyzer.js).
   *  An answer about a named instance whose price is flagged is asked again once its provider's
   *  every region is loaded: the stand-in is that provider's cheapest trustworthy region, as the CLI finds. */
  async ask(request, signal, options = {}, standIn = true) {
    // Superseded before its turn (a newer input came in the same task): never computed.
    if (signal?.aborted) throw new DOMException('superseded', 'AbortError');
    if (this.#recovering) return this.#restarting();
    const analyzer = this.analyzer;
    const tool = IN_WORKER.has(request?.question) && !analyzer.inWorker;
    try {
      const asked = this.#withRegion(request);
      const response = tool ? await (await this.#toolsOf(analyzer)).ask(asked, signal, options) : await analyzer.ask(asked, signal);
      const regions = standIn && this.#standInRegions(response);
      if (!regions) return response;
      try {
        await this.loadPrices(regions);
      } catch {
        return response;  // the other regions could not be fetched: the answer as it stands
      }
      return this.ask(request, signal, options, false);
    } catch (e) {
      if (e?.name === 'AbortError') throw e;
      if (!moduleDied(e)) return { ok: false, errors: [{ code: 'internal_error', file: '', path: '', message: String(e?.message ?? e) }] };
      // The worker died alone: the next question for it starts a fresh one.
      if (tool) {
        this.#dropTools();
        return { ok: false, errors: [{ code: 'core_restarting', file: '', path: '', message: `the core's worker stopped (${String(e?.message ?? e)}); it starts again with the next change` }] };
      }
      if (analyzer === this.analyzer) this.#recover(e);
      return this.#restarting();
    }
  }

  /** {provider: [every region]} of the provider whose price an answer flags, when not all loaded. */
  #standInRegions(response) {
    const provider = response?.ok ? response.result?.price_flags?.[0]?.provider : null;
    const regions = Object.keys(this.priceIndex?.providers?.[provider]?.regions ?? {});
    const wanted = { [provider]: regions };
    return regions.length && !this.hasPrices(wanted) ? wanted : null;
  }

  /** The analyzer of the IN_WORKER questions over the same catalog as `analyzer`
   *  (tools-analyzer.js: the full module in a Web Worker, and on this thread for quick questions). */
  #toolsOf(analyzer) {
    if (this.#tools?.base === analyzer) return this.#tools.analyzer;
    // The worker of an earlier catalog stops now, not when that catalog was replaced: what it was
    // answering then is still shown (a catalog replaced during the first answer has no one to ask
    // again).
    this.#dropTools();
    // Compact copies: a view into the catalog's pack would send the whole pack each time.
    const source = analyzer.bytes ?? analyzer.texts;
    const texts = Object.fromEntries(Object.entries(source).map(([key, v]) => [key,
      key === 'priceFiles' ? v.map((f) => ({ name: f.name, text: f.text instanceof Uint8Array ? f.text.slice() : f.text }))
        : v instanceof Uint8Array ? v.slice() : v]));
    const started = import('./tools-analyzer.js').then((m) => new m.ToolsAnalyzer(texts, moduleDied).started());
    this.#tools = { base: analyzer, analyzer: started };
    return started;
  }

  #dropTools() {
    const tools = this.#tools;
    this.#tools = null;
    tools?.analyzer.then((a) => a.dispose(), () => {});
  }

  #restarting() {
    return { ok: false, errors: [{ code: 'core_restarting', file: '', path: '', message: 'the calculator\'s core stopped on an internal failure and is being restarted with the catalog in use; the answer follows' }] };
  }

  /** A fresh module and an analyzer over the catalog in use (or the shipped one), then every
   *  screen answers again ('change') and the page says what happened ('recovered'). A worker's
   *  module that died is replaced by a fresh worker; the page's own module is not touched. */
  #recover(error, toShipped = false) {
    if (this.#recovering || !this.#reload) return;
    // A module that dies again within seconds died on the same work: restart it, but do not ask
    // the screens again (they would ask what killed it), so that the next answer waits for the user.
    const again = performance.now() - this.#lastRecoveryMs < 10000;
    this.#lastRecoveryMs = performance.now();
    const inWorker = !toShipped && this.analyzer?.inWorker;
    this.#recovering = (async () => {
      const shipped = toShipped || this.isShipped || !this.texts;
      const texts = shipped ? { ...this.#shipped } : this.texts;
      let analyzer;
      if (inWorker) analyzer = await this.analyzer.respawn();
      else {
        this.#g = await this.#reload();
        analyzer = this.#g.createAnalyzer(shipped ? this.#shippedBytes : texts);
      }
      analyzer.texts = texts;
      if (shipped && !inWorker) analyzer.bytes = { ...this.#shippedBytes };
      const state = await describe(analyzer);
      this.#recovering = null;
      this.#swap(analyzer, texts, state, shipped, { announce: !again });
      this.dispatchEvent(new CustomEvent('recovered', { detail: { reason: String(error?.message ?? error), again } }));
    })().catch((e) => {
      this.#recovering = null;
      this.dispatchEvent(new CustomEvent('recovered', { detail: { reason: String(error?.message ?? error), failed: String(e?.message ?? e) } }));
    });
  }

  get ok() { return Boolean(this.state?.ok); }
  get families() { return this.state?.families ?? []; }
  providerOf(family) { return this.state?.providers?.get(family) ?? 'aws'; }
  get providers() { return [...new Set(this.families.map((f) => this.providerOf(f)))]; }
  get instances() { return this.state?.data?.instances ?? []; }
  get modelSizes() { return this.state?.data?.model_sizes ?? []; }
  get precisions() { return Object.entries(this.state?.data?.precision_formats ?? {}).map(([key, p]) => ({ key, ...p })); }
  get workloads() { return this.state?.data?.workloads?.workloads ?? []; }
  get workloadSets() { return this.state?.data?.workloads?.workload_sets ?? {}; }
  get info() { return this.state?.info ?? null; }
}
