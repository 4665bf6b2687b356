#pragma once
// The memory questions: "memory" (a concrete model's breakdown), "right_size" and "estimate";
// "accuracy" (measurement cases predicted and compared) is answered in accuracy.cpp, built only
// outside the WebAssembly module. Internal to the core.

#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "api/session.hpp"

namespace gpufleet::detail {

// The request fields of the "memory" question (and of each right_size item), space-separated.
inline constexpr const char* kMemoryFields =
    "model mode weight_format compute_precision optimizer batch context new_tokens beams "
    "gradient_checkpointing flash_attention chunked_loss optimizer_in_backward master_weights "
    "kv_cache_format lora gpus tensor_parallel pipeline_parallel sharding cpu_offload engine "
    "cuda_eager_loading gpu_memory_utilization max_model_len max_num_batched_tokens max_num_seqs "
    "engine_version engine_entrypoint gpu";

// The words of a space-separated list.
std::vector<std::string> words(const char* text);

// A memory estimate's per-GPU lines and totals.
Json breakdown(const MemoryEstimate& e);

Json answer_memory(const Catalog& catalog, Session& s, const Json& req);
Json answer_accuracy(const Catalog& catalog, Session& s, const Json& req);  // accuracy.cpp, native only
Json answer_right_size(const Catalog& catalog, Session& s, const Json& req);
Json answer_estimate(const Catalog& catalog, Session& s, const Json& req);

}  // namespace gpufleet::detail
