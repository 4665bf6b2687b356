#pragma once
// How fast a setup runs a model, from the throughput model (core/include/gpufleet/throughput.hpp):
// inference as single-stream decode tokens/s (the roofline of one step: every weight read over the
// GPUs' bandwidth, or its FLOPs over their peak), training as tokens/s at the GPU generation's
// MFU. Without a model size, a relative score from the catalog's bandwidth or TFLOPS.

#include <optional>
#include <string>

#include "gpufleet/catalog.hpp"
#include "gpufleet/cost.hpp"

namespace gpufleet {

struct Performance {
  double score = 0;   // tokens/s, or without a model aggregate TFLOPS (training) / GB/s (inference)
  std::string unit;   // "tokens/s" | "TFLOPS" | "GB/s"
  std::string bound;  // "compute" | "memory_bandwidth" | "interconnect"
  std::string basis;  // the arithmetic, in words
  std::optional<double> usd_per_million_tokens;    // at the placement's hourly rate, when priced
  std::optional<double> time_per_output_token_ms;  // inference with a model
};

// parameters: the model's total parameters (0 = unknown: the relative catalog score).
Performance performance_of(const Catalog& catalog, const Placement& placement,
                           WorkloadType workload, const Precision& precision,
                           double parameters = 0);

// $ per 1M tokens at usd_per_hour for a setup that runs perf.score tokens/s.
std::optional<double> usd_per_million_tokens(const Performance& perf,
                                             std::optional<double> usd_per_hour);

}  // namespace gpufleet
