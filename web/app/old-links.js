// Links of earlier versions (?view=memory&format=bf16&context=8192...): fetched only when a link
// names an earlier view (views.js OLD_VIEWS, passed in).
import { own } from './link.js';

const TASKS = { load_only: 'inference', full_finetune: 'fine_tuning', pretraining: 'training' };
const TRAINING_MODES = new Set(['full_finetune', 'lora', 'qlora', 'pretraining']);

/** A link's parameters as the views read them: an earlier view's id and its own keys become the
 *  view that answers it now and the workload form's keys (the keys the form has no field for are
 *  left as they are, and unread). */
export function fromOldLink(p, OLD_VIEWS) {
  const out = new URLSearchParams(p);
  const view = p.get('view');
  const rename = (from, to, map = (v) => v) => {
    if (!p.has(from) || out.has(to) && from !== to) return;
    out.delete(from);
    out.set(to, map(p.get(from)));
  };
  if (view === 'memory' || view === 'throughput') {
    rename('format', 'precision');
    // The context of a training mode is its sequence length; of serving, the prompt.
    if (view === 'memory' && TRAINING_MODES.has(p.get('mode'))) rename('context', 'seq');
    rename('context', 'input');
    rename('new', 'output');
    rename('in', 'input');
    rename('out', 'output');
    rename('mode', 'workload', (m) => own(TASKS, m) ?? m);
    if (p.get('phase') === 'training') out.set('workload', 'training');
    // Dataset tokens were a count there; the form takes billions.
    if (view === 'throughput') rename('tokens', 'tokens', (t) => String(Number(t) / 1e9));
    if (view === 'memory' && p.has('gpu')) {
      out.delete('gpu');
      out.set('instance', `gpu:${p.get('gpu')}`);
      // Tensor parallelism now follows the GPU count.
      if (!p.has('gpus') && p.has('tp')) out.set('gpus', p.get('tp'));
    }
  }
  if (view === 'migrate') rename('current', 'instance');
  if (view === 'placement') rename('instance', 'pack');
  if (view === 'workloads') rename(p.has('set') ? 'set' : 'id', 'preset', (id) => (p.has('set') ? `set:${id}` : id));
  if (own(OLD_VIEWS, view)) out.set('view', own(OLD_VIEWS, view));
  return out;
}
