// The memory breakdown's groups, shared by the Fit screen (the first) and the Memory screen (in the
// later screens' chunk): a module of its own, so that the first download does not hold the Memory
// screen.

/** Colour of each breakdown line, by what it holds; the legend names the groups. */
export const GROUPS = [
  { cls: 'c1', name: 'Weights (and their casts)', keys: ['weights', 'weight_casts', 'root_unit', 'dequantization'] },
  { cls: 'c2', name: 'KV cache', keys: ['kv_cache'] },
  { cls: 'c3', name: 'Activations and logits', keys: ['activations', 'logits'] },
  { cls: 'c4', name: 'Gradients, optimizer, master weights', keys: ['gradients', 'optimizer', 'optimizer_step', 'master_weights'] },
  { cls: 'c6', name: 'Engine buffers', keys: ['compute_buffers'] },
  { cls: 'c5', name: 'Runtime (CUDA context, allocator, outside torch)', keys: ['cuda_context', 'allocator_reserve', 'non_torch'] },
];
export const groupOf = (key) => GROUPS.find((g) => g.keys.includes(key)) ?? GROUPS[4];
