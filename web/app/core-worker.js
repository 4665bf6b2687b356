// The core in a Web Worker (web/app/worker-analyzer.js talks to it): the same facade and module as
// the page's thread, one analyzer over the catalog it was sent, one message in and one out at a
// time. {catalog: texts} builds the analyzer; {request: text} answers with the response's text.
import { loadGpufleet } from '../gpufleet/gpufleet.js';

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
      self.postMessage({ answer: analyzer.analyzeJson(data.request) });
    }
  } catch (e) {
    // An abort or a trap leaves the module unusable: the page replaces this worker.
    self.postMessage({ failed: String(e?.message ?? e), trap: e instanceof WebAssembly.RuntimeError });
  }
};
