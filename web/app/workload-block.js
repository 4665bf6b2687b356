// The workload the analyzer sized (an answer's `request`): model, formats, engine, demand. Used
// under the later views' answers and below Fit's (fetched with the later views' chunk).
import { h, facts } from './dom.js';
import * as f from './format.js';

const upper = (s) => String(s ?? '').toUpperCase();

function servingDemand(d) {
  const targets = [d.max_ttft_ms == null ? null : `p95 TTFT ≤ ${f.ms(d.max_ttft_ms)}`, d.max_tpot_ms == null ? null : `TPOT ≤ ${f.ms(d.max_tpot_ms)}`].filter(Boolean);
  return [
    ['Requests', d.requests_per_s == null ? 'no rate given' : `${f.num(d.requests_per_s, 4)} per second`],
    ['Tokens per request', `${f.num(d.input_tokens, 0)} prompt, ${f.num(d.output_tokens, 0)} output`],
    ['Latency targets', targets.join(', ') || 'none'],
    ['Target utilization', f.pct(d.target_utilization * 100)],
    d.tokens_per_month == null ? null : ['Output tokens a month', f.num(d.tokens_per_month, 0)],
  ];
}

function trainingDemand(d, recipe) {
  return [
    ['Dataset', d.dataset_tokens == null ? 'not given: no run time' : `${f.num(d.dataset_tokens / 1e9, 3)}B tokens × ${f.num(d.epochs, 2)} epoch${d.epochs === 1 ? '' : 's'}`],
    d.deadline_days == null ? null : ['Deadline', `${f.num(d.deadline_days, 2)} days`],
    recipe ? ['Recipe', `${recipe.optimizer}${recipe.master_weights ? ' with fp32 master weights' : ''}, ${recipe.gradient_checkpointing ? 'gradient checkpointing' : 'no checkpointing'}, ${recipe.sharding}, micro-batch ${f.num(recipe.micro_batch, 0)} × ${f.num(recipe.sequence_length, 0)} tokens`] : null,
  ];
}

/** The workload the analyzer sized (an answer's `request`): model, formats, engine, demand. */
export function workloadBlock(r, prefix = 'workload') {
  if (!r?.model) return null;
  const d = r.demand ?? {};
  const serving = 'input_tokens' in d;
  return h('div', null,
    facts([
      ['Model', r.model.label, `${prefix}-model`],
      ['Parameters', `${f.num(r.model.parameters_billion, 3)} billion`, `${prefix}-params`],
      ['Workload', f.label(r.workload), `${prefix}-workload`],
      ['Weights', upper(r.weight_format)],
      serving ? ['KV cache', r.kv_cache_format] : null,
      ['Engine', r.engine],
      ['Memory model', r.memory_method === 'seed' ? 'rule of thumb (weights × multiplier)' : 'architecture-aware'],
      ...(serving ? servingDemand(d) : trainingDemand(d, r.recipe)),
      r.schedule ? ['Hours', `${r.schedule}, ${f.pay(r)}`] : null,
    ], 'facts compact'),
    r.model.shape ? h('details', { class: 'why-details' }, h('summary', null, 'Model shape'), h('p', null, f.sentence(r.model.shape))) : null);
}

