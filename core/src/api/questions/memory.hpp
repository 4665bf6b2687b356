#pragma once
// The memory questions: "memory" (a concrete model's per-GPU breakdown against a GPU, the largest
// batch and context that fit, the KV-cache capacity, which GPUs hold it; memory.cpp),
// "right_size" (right_size.cpp), "estimate" (estimate.cpp) and "accuracy" (measurement cases
// predicted and compared; tools/accuracy/accuracy.cpp, built only outside the WebAssembly module),
// and what they share: the memory request's reader and the figures' JSON. Internal to the core.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "api/session.hpp"

namespace gpufleet::detail {

// The request fields of the "memory" question (and of each right_size item), space-separated: the
// road's names (workload, precision, demand, recipe) and memory's older ones.
inline constexpr const char* kMemoryFields =
    "model workload precision demand recipe mode weight_format compute_precision optimizer batch context new_tokens beams "
    "gradient_checkpointing attention flash_attention chunked_loss optimizer_in_backward checkpoint_head_copy master_weights "
    "kv_cache_format lora gpus tensor_parallel pipeline_parallel sharding cpu_offload engine "
    "cuda_eager_loading gpu_memory_utilization max_model_len max_num_batched_tokens max_num_seqs "
    "engine_version engine_entrypoint gpu";
inline constexpr double kMaxTokens = 1e8;

// The words of a space-separated list.
std::vector<std::string> words(const char* text);

// GiB to 3 decimals.
double gib(double bytes);

// The model a memory question asks about: its shape, its label and its catalog entry if named.
struct ModelChoice {
  Architecture arch;
  std::string label;
  const NamedModel* named = nullptr;
  std::string shape_basis;  // a config.json, a size class or a parameter count: where its shape came from
  std::optional<std::pair<std::string, std::string>> typed_name;  // as ModelSpec's
};
// The model of `req` (at `path`) through the road's reader (Session::model): exactly one of name,
// hf_config, size or params_b.
std::optional<ModelChoice> read_model(Session& s, const Json& req, const std::string& path);
enum class RoadQuestion { kMemory, kEstimate };
// The request (at `path`) with the road's names (workload, precision, demand, recipe), read by the
// Session's readers, written under the question's older names (mode or phase, weight_format,
// context, new_tokens or input_tokens, ...), which the rest reads; nullopt with the faults, among
// them a road name given beside its older name. docs/api.md lists the older names.
std::optional<Json> with_older_names(Session& s, const Json& req, const std::string& path, RoadQuestion question);
// The memory question of a request (and the GPU it names, if any), or nullopt with the faults.
std::optional<MemoryQuestion> read_question(const Catalog& catalog, Reader& r, const Json& req,
                                            ModelChoice& model, const GpuSpec*& gpu);

// A memory estimate's per-GPU lines and totals.
Json breakdown(const MemoryEstimate& e);
// What a figure of this kind can be expected to miss by (model_config.json "measured_error").
Json expected_error(const Catalog& catalog, const std::string& quantity, const std::string& phase,
                    const std::string& engine, const std::string& vendor);

Json answer_memory(const Catalog& catalog, Session& s, const Json& req);
Json answer_accuracy(const Catalog& catalog, Session& s, const Json& req);  // accuracy.cpp, native only
Json answer_right_size(const Catalog& catalog, Session& s, const Json& req);
Json answer_estimate(const Catalog& catalog, Session& s, const Json& req);

}  // namespace gpufleet::detail
