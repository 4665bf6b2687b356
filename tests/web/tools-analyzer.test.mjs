// web/app/tools-analyzer.js with a stand-in worker and module: the worker answers until the page is
// idle after its first answer; then a question whose last answer took at most QUICK_MS is answered
// on the page's thread, a slower one and one asked in the background by the worker; an answer
// that took longer on the page's thread sends the next one back to the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { install } from './dom-stand-in.mjs';

install();
globalThis.requestIdleCallback = (fn) => setTimeout(fn, 0);
globalThis.cancelIdleCallback = clearTimeout;
const { ToolsAnalyzer, QUICK_MS } = await import('../../web/app/tools-analyzer.js');

const idle = () => new Promise((r) => setTimeout(r, 5));
const died = () => false;

/** A worker whose answers took `ms[question]`, and a full module whose analyzer on this thread
 *  takes `hereMs[question]` (performance.now() moved on by that much); both record what they answer. */
function standIns(ms, hereMs = {}) {
  const asked = [];
  let built = 0;
  const worker = {
    inWorker: true,
    spentMs: new Map(),
    async ask(request) {
      asked.push(['worker', request.question]);
      this.spentMs.set(request.question, ms[request.question]);
      return { ok: true, by: 'worker' };
    },
    dispose() { asked.push(['worker', 'disposed']); },
  };
  let now = 0;
  const realNow = performance.now.bind(performance);
  const clock = { now: () => now + realNow() };
  const full = async () => ({
    createAnalyzer(texts) {
      built++;
      return {
        texts,
        ask(request) {
          asked.push(['here', request.question]);
          now += hereMs[request.question] ?? 0;
          return { ok: true, by: 'here' };
        },
        dispose() { asked.push(['here', 'disposed']); },
      };
    },
  });
  return { asked, worker, full, clock, built: () => built };
}

test('the worker answers first; once idle, quick questions are answered on this thread', async (t) => {
  const s = standIns({ spot: 3, batch: 40, decide: 4 });
  t.mock.method(performance, 'now', s.clock.now);
  const tools = new ToolsAnalyzer({ gpuInstances: 'x' }, died, { startWorker: async () => s.worker, full: s.full });
  await tools.started();
  assert.equal((await tools.ask({ question: 'spot' })).by, 'worker', 'nothing on this thread before the page is idle');
  await tools.ask({ question: 'batch' });
  await idle();
  assert.equal(s.built(), 1, 'the full module built once on this thread');
  assert.equal((await tools.ask({ question: 'spot' })).by, 'here', `spot took 3 ms in the worker (<= ${QUICK_MS})`);
  assert.equal((await tools.ask({ question: 'batch' })).by, 'worker', 'batch took 40 ms there');
  assert.equal((await tools.ask({ question: 'regions' })).by, 'worker', 'a question not timed yet goes to the worker');
  await tools.ask({ question: 'decide' });
  assert.equal((await tools.ask({ question: 'decide' }, undefined, { background: true })).by, 'worker', 'asked in the background');
  tools.dispose();
  await idle();
  assert.deepEqual(s.asked.filter(([, q]) => q === 'disposed').map(([by]) => by).sort(), ['here', 'worker']);
});

test('a question that took longer than QUICK_MS on this thread goes back to the worker', async (t) => {
  const s = standIns({ autoscale: 4 }, { autoscale: QUICK_MS + 5 });
  t.mock.method(performance, 'now', s.clock.now);
  const tools = new ToolsAnalyzer({}, died, { startWorker: async () => s.worker, full: s.full });
  await tools.ask({ question: 'autoscale' });
  await idle();
  assert.equal((await tools.ask({ question: 'autoscale' })).by, 'here');
  assert.equal((await tools.ask({ question: 'autoscale' })).by, 'worker', `it took ${QUICK_MS + 5} ms here`);
  assert.equal((await tools.ask({ question: 'autoscale' })).by, 'here', 'and 4 ms in the worker again');
});

test('questions asked only in the background never build the module on this thread; no worker: this thread answers', async () => {
  const s = standIns({ decide: 4 });
  const tools = new ToolsAnalyzer({}, died, { startWorker: async () => s.worker, full: s.full });
  await tools.ask({ question: 'decide' }, undefined, { background: true });
  await idle();
  assert.equal(s.built(), 0);
  const none = new ToolsAnalyzer({}, died, { startWorker: async () => { throw new Error('no Worker here'); }, full: s.full });
  assert.equal((await none.ask({ question: 'spot' })).by, 'here');
  await idle();
  assert.equal(s.built(), 1, 'one module on this thread, not a second');
  const dead = new ToolsAnalyzer({}, () => true, { startWorker: async () => { throw new Error('Aborted()'); }, full: s.full });
  await assert.rejects(dead.ask({ question: 'spot' }), /Aborted/);
});

test('a module that dies on this thread sends the question to the worker, and a fresh one is built', async (t) => {
  const s = standIns({ spot: 2 });
  t.mock.method(performance, 'now', s.clock.now);
  const forgotten = [];
  let dies = true;
  const full = async (options = {}) => {
    if (options.forget) { forgotten.push(true); return null; }
    const module = await s.full();
    return {
      createAnalyzer(texts) {
        const analyzer = module.createAnalyzer(texts);
        return { ...analyzer, ask(request) { if (dies) { dies = false; throw new Error('Aborted(unreachable)'); } return analyzer.ask(request); } };
      },
    };
  };
  const moduleDied = (e) => /Aborted\(/.test(String(e?.message));
  const tools = new ToolsAnalyzer({}, moduleDied, { startWorker: async () => s.worker, full });
  await tools.ask({ question: 'spot' });
  await idle();
  assert.equal((await tools.ask({ question: 'spot' })).by, 'worker', 'the dead module does not answer');
  assert.equal(forgotten.length, 1, 'the dead module is forgotten');
  await idle();
  assert.equal(s.built(), 2, 'a fresh analyzer is built once the page is idle again');
  assert.equal((await tools.ask({ question: 'spot' })).by, 'worker', 'the question that killed it stays with the worker');
  s.worker.spentMs.set('regions', 2);
  await tools.ask({ question: 'regions' });
  assert.equal((await tools.ask({ question: 'regions' })).by, 'here', 'other quick questions use the fresh module');
});

test('an error that is not the module dying is thrown to the caller', async (t) => {
  const s = standIns({ spot: 2 });
  t.mock.method(performance, 'now', s.clock.now);
  const full = async () => ({ createAnalyzer: () => ({ ask() { throw new TypeError('bad request'); }, dispose() {} }) });
  const tools = new ToolsAnalyzer({}, died, { startWorker: async () => s.worker, full });
  await tools.ask({ question: 'spot' });
  await idle();
  await assert.rejects(tools.ask({ question: 'spot' }), /bad request/);
});
