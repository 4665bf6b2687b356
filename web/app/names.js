// Names for a person of the values the core lists (its field table's allowed values, which the
// catalog's menus return as `request.values`): the page takes the values from the core and only
// their names from here (tests/wasm/menus.test.mjs: every value the core lists has a name, and no
// name is of a value the core does not list).

/** Accelerator kinds (the request field "kinds"). */
export const KIND_NAMES = { gpu: 'GPU', trainium: 'Trainium', inferentia: 'Inferentia', cpu: 'CPU' };

/** The memory question's modes ("memory.mode"). */
export const MODE_NAMES = {
  load_only: 'Load only (weights, no forward pass)', inference: 'Inference', full_finetune: 'Full fine-tuning',
  lora: 'LoRA fine-tuning', qlora: 'QLoRA fine-tuning', pretraining: 'Pre-training',
};

/** Training state sharding ("memory.sharding"). */
export const SHARDING_NAMES = {
  none: 'None', zero1: 'ZeRO-1 (optimizer)', zero2: 'ZeRO-2 (+ gradients)', zero3: 'ZeRO-3 (+ weights)', fsdp: 'FSDP (full shard)',
};

/** Which field of the core's menus (`request.values`) each list names. */
export const NAMED_VALUES = { kinds: KIND_NAMES, 'memory.mode': MODE_NAMES, 'memory.sharding': SHARDING_NAMES };
