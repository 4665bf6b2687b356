#pragma once
// Searches and rankings over the memory and throughput models that the memory questions ask:
// the largest batch or context that fits a GPU, and every priced instance ranked by $ per 1M
// output tokens (estimate's "rank"). Figures only: the answers' JSON is made in api/questions/.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "fleet/road.hpp"
#include "model/memory_model.hpp"
#include "model/throughput.hpp"

namespace gpufleet {

// The largest value of `field` (1 .. limit) for which `q` still fits a GPU of `capacity` bytes
// (memory_refusal empty), by bisection; 0 when even 1 does not.
double largest_fitting(const MemoryConstants& k, MemoryQuestion q, double capacity,
                       double MemoryQuestion::*field, double limit);

// A serving question's sequence shape, concurrency (0: the largest the KV cache holds) and
// latency targets.
struct TokenShape {
  double input = Demand{}.input_tokens, output = Demand{}.output_tokens, concurrency = 0;
  std::optional<double> max_ttft_ms, max_tpot_ms;
};

// The sequences of the shape one model copy on `tp` GPUs of `capacity_bytes` holds (the memory
// model on that device, model/sequences.hpp): 0 when the weights and one sequence do not fit.
double sequences_on(const Catalog& catalog, MemoryQuestion q, const TokenShape& t, double tp, double capacity_bytes,
                    const std::string& gpu, bool linked);

// The throughput question of the memory question's model and formats on one GPU at `tp`.
ThroughputQuestion roofline_question(const Catalog& catalog, const MemoryQuestion& mq, const GpuSpec& gpu,
                                     double tp, const TokenShape& t, double weight_bytes, double kv_bytes_per_token);

// One instance type's best layout: its copies on `tensor_parallel` GPUs each at the concurrency
// that meets the targets, and its price per token.
struct RankedOffer {
  const InstanceType* instance = nullptr;
  const GpuSpec* gpu = nullptr;
  double tensor_parallel = 1, copies = 1;
  double usd_per_million_output_tokens = 0, output_tokens_per_s = 0;
  InferenceEstimate estimate;  // one copy's
};
struct UnrankedOffer {
  const InstanceType* instance = nullptr;
  std::string reason;
};
struct PerTokenRanking {
  std::vector<RankedOffer> ranked;  // cheapest first (by the price as printed, 4 decimals; ties keep the catalog's order)
  std::vector<UnrankedOffer> excluded;
};

// Every priced GPU, Inferentia and Trainium instance of `providers` that holds the model (each
// copy on the fewest devices that hold the weights and one full sequence, every copy of the
// instance serving), ranked by on-demand $ per 1M output tokens with the latency targets honoured.
PerTokenRanking rank_per_token(const Catalog& catalog, const MemoryQuestion& mq, const TokenShape& t,
                               const std::vector<std::string>& providers, double weight_bytes,
                               double kv_bytes_per_token);

// The tensor-parallel degree rank_per_token ranks a priced instance by (its layout with the lowest
// $ per token); 0 when no layout holds the model and meets the targets.
double ranked_tp_on(const Catalog& catalog, const MemoryQuestion& mq, const TokenShape& t,
                    const InstanceType& it, double weight_bytes, double kv_bytes_per_token);

}  // namespace gpufleet
