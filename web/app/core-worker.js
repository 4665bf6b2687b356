// The core in a Web Worker (web/app/worker-analyzer.js talks to it): the full module (every
// question, the tools' simulations too; the page's own module leaves those out), one analyzer over
// the catalog it was sent, one message in and one out at a time. {catalog: texts} builds the
// analyzer; {request: text} answers with the response's text and the ms it took.
import { loadGpufleet } from '../gpufleet/all/gpufleet.js';

const core = loadGpufleet();
let analyzer = null;

self.onmessage = async ({ data }) => {
  try {
    if (data.catalog) {
      analyzer?.dispose();
      analyzer = null;
      analyzer = (await core).createAnalyzer(data.catalog);
      self.postMessage({ answer: '' });
    } else {
      const t0 = performance.now();
      const answer = analyzer.analyzeJson(data.request);
      self.postMessage({ answer, ms: performance.now() - t0 });
    }
  } catch (e) {
    // An abort or a trap leaves the module unusable: the page replaces this worker.
    self.postMessage({ failed: String(e?.message ?? e), trap: e instanceof WebAssembly.RuntimeError });
  }
};
