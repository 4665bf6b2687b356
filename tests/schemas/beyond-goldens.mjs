// Requests beyond the goldens, one or more per question, that take branches the goldens do not
// (tests/schemas/schemas.test.mjs asks them of the native CLI and checks each answer against the
// response schema).
const small = { model: { size: 'small' }, precision: 'bf16' };
const llama = { model: { name: 'llama-3.1-8b' } };
export const BEYOND_GOLDENS = [
  { question: 'fit', ...small, workload: 'training', instance: 'P5', gpus: 8, demand: { dataset_tokens: 1e9 } },
  { question: 'fit', ...small, workload: 'batch_inference', instance: 'G6e', demand: { dataset_tokens: 1e8 } },
  { question: 'fit', ...small, workload: 'lora', instance: 'G6e', pricing: 'reserved_1y' },
  { question: 'fit', ...small, workload: 'inference', instance: 'Inf2' },
  { question: 'fit', model: { size: 'large' }, workload: 'training', precision: 'bf16', instance: 'G6', gpus: 1 },
  { question: 'cost', instance: 'Inf2', gpus: 1, pricing: 'reserved_3y' },
  { question: 'recommend', ...small, workload: 'training', demand: { dataset_tokens: 1e9 }, limit: 3 },
  { question: 'recommend', ...small, workload: 'inference', demand: { requests_per_s: 20 }, kinds: ['gpu'], limit: 3 },
  { question: 'migrate', current: { instance: 'G5', gpus: 1 }, model: { size: 'large' }, workload: 'inference', precision: 'fp16' },
  { question: 'memory', model: { name: 'llama-3.1-8b' }, workload: 'lora', gpu: 'H100' },
  { question: 'placement', models: [{ name: 'a', memory_gb: 30 }, { name: 'b', memory_gb: 10 }], instance: 'G6e' },
  // Results closed after the first thirteen: every section of the catalog, a named model and an
  // unknown one, both ways of estimate, right-sizing, decide for inference, a set of scenarios,
  // auto-scaling on demand with a commitment, a deploy of a fit.
  ...['all', 'menus', 'instances', 'models', 'precisions', 'workloads', 'files'].map((section) => ({ question: 'catalog', section })),
  { question: 'catalog', section: 'model_name', model_name: 'Llama-3.1-8B-Instruct' },
  { question: 'catalog', section: 'model_name', model_name: 'no such model' },
  { question: 'estimate', ...llama, gpu: 'H100', precision: 'fp8', input_tokens: 1000, output_tokens: 1000, concurrency: 64 },
  { question: 'estimate', ...llama, instance: 'p5.48xlarge', gpus: 8, phase: 'training', dataset_tokens: 1e9 },
  { question: 'estimate', ...llama, rank: true, limit: 3 },
  { question: 'right_size', models: [{ model: { name: 'llama-3.1-8b' } }, { model: { name: 'llama-3.1-405b' }, precision: 'bf16' }] },
  { question: 'decide', ...llama, workload: 'inference', demand: { requests_per_s: 5 }, latency_ms: 200 },
  { question: 'workload_set', id: 'basic_demos' },
  { question: 'autoscale', ...llama, instance: 'G6e', demand: { input_tokens: 500, output_tokens: 200, max_ttft_ms: 800 }, profile: { shape: 'business_hours', peak_requests_per_s: 40 }, commitment: 'reserved_1y' },
  { question: 'deploy', target: 'kubernetes', from: { question: 'fit', ...llama, workload: 'inference', instance: 'g6e.xlarge', gpus: 1 } },
];
