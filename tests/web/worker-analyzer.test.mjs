// The queue in front of the core's Web Worker (web/app/worker-analyzer.js), with a stand-in worker:
// one question at a time, questions superseded before their turn never sent, a dead module
// rejects everything waiting, dispose() aborts what waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerAnalyzer } from '../../web/app/worker-analyzer.js';

/** Records what is posted; answer() replies to the question being computed. */
function fakeWorker() {
  return {
    posted: [],
    terminated: false,
    postMessage(message) { this.posted.push(message); },
    terminate() { this.terminated = true; },
    answer(data) { this.onmessage({ data }); },
  };
}
const tick = () => new Promise((r) => setImmediate(r));

test('questions go to the worker one at a time, in order', async () => {
  const w = fakeWorker();
  const a = new WorkerAnalyzer(w, {});
  const first = a.ask({ question: 'fit' });
  const second = a.ask({ question: 'plan' });
  await tick();
  assert.deepEqual(w.posted, [{ request: '{"question":"fit"}' }]);
  w.answer({ answer: '{"ok":true,"result":1}' });
  assert.deepEqual(await first, { ok: true, result: 1 });
  assert.deepEqual(w.posted.map((m) => m.request), ['{"question":"fit"}', '{"question":"plan"}']);
  w.answer({ answer: '{"ok":true,"result":2}' });
  assert.deepEqual(await second, { ok: true, result: 2 });
});

test('a question superseded before its turn is never computed; the one computing finishes', async () => {
  const w = fakeWorker();
  const a = new WorkerAnalyzer(w, {});
  const runs = [1, 2, 3].map(() => new AbortController());
  const answers = runs.map((run, i) => a.ask({ question: 'fit', n: i }, run.signal));
  await tick();
  // A newer question supersedes the older ones: 0 is computing, 1 waits and is dropped.
  runs[0].abort();
  runs[1].abort();
  await assert.rejects(answers[1], { name: 'AbortError' });
  w.answer({ answer: '{"ok":true,"result":0}' });
  assert.deepEqual(await answers[0], { ok: true, result: 0 }, 'the answer computing still arrives (its asker drops it)');
  assert.deepEqual(w.posted.map((m) => JSON.parse(m.request).n), [0, 2], 'question 1 never reached the worker');
  w.answer({ answer: '{"ok":true,"result":2}' });
  assert.deepEqual(await answers[2], { ok: true, result: 2 });
  // Already aborted: rejected at once, nothing sent.
  const done = new AbortController();
  done.abort();
  await assert.rejects(a.ask({ question: 'fit' }, done.signal), { name: 'AbortError' });
  assert.equal(w.posted.length, 2);
});

test('a module that dies in the worker fails every waiting question, and the worker stops', async () => {
  const w = fakeWorker();
  const a = new WorkerAnalyzer(w, { gpuInstances: 'x' });
  const first = a.ask({ question: 'fit' });
  const second = a.ask({ question: 'fit' });
  await tick();
  w.answer({ failed: 'memory access out of bounds', trap: true });
  await assert.rejects(first, (e) => e instanceof WebAssembly.RuntimeError && /out of bounds/.test(e.message));
  await assert.rejects(second, WebAssembly.RuntimeError);
  assert.equal(w.terminated, true);
  await assert.rejects(a.ask({ question: 'fit' }), WebAssembly.RuntimeError, 'a dead worker answers nothing more');
});

test('dispose() stops the worker; what waits rejects with an AbortError', async () => {
  const w = fakeWorker();
  const a = new WorkerAnalyzer(w, {});
  const waiting = [a.ask({ question: 'fit' }), a.ask({ question: 'plan' })];
  a.dispose();
  for (const p of waiting) await assert.rejects(p, { name: 'AbortError' });
  assert.equal(w.terminated, true);
});

test('the same question as the one computing shares its answer instead of being computed again', async () => {
  const w = fakeWorker();
  const a = new WorkerAnalyzer(w, {});
  const first = new AbortController();
  const answers = [a.ask({ question: 'workload_set', id: 'x' }, first.signal)];
  await tick();
  first.abort();  // a select fires input, then change: the second render supersedes the first
  answers.push(a.ask({ question: 'workload_set', id: 'x' }));
  await tick();
  assert.equal(w.posted.length, 1, 'sent once');
  w.answer({ answer: '{"ok":true,"result":7}' });
  assert.deepEqual(await answers[1], { ok: true, result: 7 });
});
