// The links tests/bench/bench_browser.mjs and link_steps.mjs open cold, and what they read in the
// page. Links anyone shares, each answered by the live core (no staged answer): a named model with
// a demand (Deployments), a pasted config.json (Fit; a config is never in a link, so it is pasted
// the moment its field exists) and a region other than the usual ones (Fit).
const TINY_LLAMA = {
  architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 2048, intermediate_size: 5632, num_hidden_layers: 22,
  num_attention_heads: 32, num_key_value_heads: 4, vocab_size: 32000, max_position_embeddings: 2048, rms_norm_eps: 1e-5,
  tie_word_embeddings: false, torch_dtype: 'bfloat16',
};
export const LINKS = {
  model_demand: { view: 'deployments', query: '?view=deployments&model=llama-3.1-8b&workload=inference&rps=50&ttft=500' },
  pasted_config: { view: 'fit', query: '?view=fit&model=config&workload=inference&instance=G6e', paste: JSON.stringify(TINY_LLAMA) },
  region: { view: 'fit', query: '?view=fit&region=eu-west-1' },
};

/** An init script (context.addInitScript(watchLink, {view, paste})), run before any page script:
 *  records the first contentful paint (gpufleetBenchFcpMs), the Fit answer painted
 *  (gpufleetBenchFirstAnswerMs) and, for a link to `view`, its results filled by the live page
 *  painted, never the staged copy (gpufleetBenchLinkAnswerMs); pastes `paste` into the config.json
 *  field the moment it exists, as a visitor's paste lands. */
export function watchLink({ view, paste }) {
  let painted;
  const firstPaint = new Promise((resolve) => { painted = resolve; });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'first-contentful-paint') painted(window.gpufleetBenchFcpMs = e.startTime);
    }
  }).observe({ type: 'paint', buffered: true });
  const seen = new Set();
  const check = () => {
    const el = document.querySelector('[data-testid="fit-per-gpu-gb"]');
    if (el && el.textContent.trim() !== '') timeItsFrame(seen, 'gpufleetBenchFirstAnswerMs');
    const live = view && document.querySelector(`[data-testid="${view}-result"][data-state="ready"]`);
    if (live && !live.closest('[data-prerendered]')) timeItsFrame(seen, 'gpufleetBenchLinkAnswerMs');
    const field = paste && document.querySelector('[data-testid="wf-config"]');
    if (field && !field.value) {
      field.value = paste;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
    if (!seen.has(view ? 'gpufleetBenchLinkAnswerMs' : 'gpufleetBenchFirstAnswerMs')) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);

  /** Called from the animation-frame callback of the first frame that holds an answer: sets
   *  window[key] once that frame's style and layout are done (a ResizeObserver's first callback
   *  comes right after them), and not before the page's first contentful paint (the browser's
   *  time for its first frame on screen, as for the blank page). Its raster and presentation
   *  after the first paint are not counted: a lower bound of the answer's paint. */
  function timeItsFrame(done, key) {
    if (done.has(key)) return;
    done.add(key);
    const laidOut = new ResizeObserver(() => {
      laidOut.disconnect();
      const at = performance.now();
      firstPaint.then((fcp) => { window[key] = Math.max(at, fcp); });
    });
    laidOut.observe(document.documentElement);
  }
}

/** Where a cold load's time went (ms after navigation): the document's and the first files'
 *  arrival (resource timing) and the page's own marks (gpufleet:*, web/app/page.js). */
export const stepsOf = (page) => page.evaluate(() => Object.fromEntries([
  ['html received', performance.getEntriesByType('navigation')[0]?.responseEnd],
  ...performance.getEntriesByType('resource')
    .filter((r) => /\/(app\/main\.js|app\/chunk-[^/]*\.js|gpufleet\/gpufleet_core\.(wasm|mjs)|catalog\.pack)$/.test(new URL(r.name).pathname))
    .map((r) => [`${new URL(r.name).pathname.replace(/^\/(app\/)?/, '')} received`, r.responseEnd]),
  ...performance.getEntriesByType('mark').filter((m) => m.name.startsWith('gpufleet:')).map((m) => [m.name.slice('gpufleet:'.length), m.startTime]),
].filter(([, t]) => Number.isFinite(t))));
