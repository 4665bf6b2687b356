#include "gpufleet/performance.hpp"

#include <cstdio>

#include "gpufleet/throughput.hpp"
#include "report.hpp"

namespace gpufleet {
namespace {

// The relative score of the seed: aggregate bandwidth or TFLOPS.
Performance catalog_score(const Catalog& catalog, const InstanceType& it, double gpus,
                          double scaling, WorkloadType workload, const Precision& precision) {
  Performance perf;
  char text[256];
  if (workload == WorkloadType::kInference) {
    perf.bound = "memory_bandwidth";
    perf.unit = "GB/s";
    perf.score = gpus * it.memory_bandwidth_gb_per_s * scaling;
    std::snprintf(text, sizeof text,
                  "token generation is memory-bandwidth bound: %g GPU x %g GB/s%s x scaling %.2f",
                  gpus, it.memory_bandwidth_gb_per_s,
                  it.bandwidth_from_factor ? " (from memory_bandwidth_factor)" : "", scaling);
  } else {
    double tflops = it.compute_tflops;
    std::string which = "compute_tflops";
    auto spec = catalog.gpus.find(it.gpu_model);
    if (spec != catalog.gpus.end()) {
      auto t = spec->second.tflops.find(precision.key);
      if (t != spec->second.tflops.end()) {
        tflops = t->second;
        which = precision.key;
      }
    }
    perf.bound = "compute";
    perf.unit = "TFLOPS";
    perf.score = gpus * tflops * scaling;
    std::snprintf(text, sizeof text,
                  "training is compute bound: %g GPU x %g TFLOPS (%s, dense) x scaling %.2f", gpus,
                  tflops, which.c_str(), scaling);
  }
  perf.basis = text;
  return perf;
}

// A score the catalog cannot give: which figure it lacks.
Performance not_estimated(Performance perf, const std::string& missing, const std::string& gpu) {
  perf.score = 0;
  perf.basis = "not estimated: the catalog has no " + missing + " for " + gpu;
  return perf;
}

}  // namespace

Performance performance_of(const Catalog& catalog, const Placement& placement,
                           WorkloadType workload, const Precision& precision, double parameters) {
  const InstanceType& it = *placement.instance;
  const double gpus = placement.gpus;
  // Several GPUs share one model: scaling is limited by the interconnect; across instances the
  // network limits it again.
  double scaling = (gpus > 1 ? it.interconnect_multiplier : 1.0) * it.gpu_fraction;
  if (placement.instance_count > 1) scaling *= it.interconnect_multiplier;
  const auto spec = catalog.gpus.find(it.gpu_model);
  const bool estimable = parameters > 0 && catalog.throughput.present && spec != catalog.gpus.end();
  if (!estimable) {
    const Performance perf = catalog_score(catalog, it, gpus, scaling, workload, precision);
    if (perf.score > 0) return perf;
    return not_estimated(
        perf, workload == WorkloadType::kInference ? "memory bandwidth figure" : "compute figure",
        it.gpu_type);
  }
  // The throughput model on the placement's GPUs: one model copy over all of them.
  ThroughputQuestion q;
  q.params.total = q.params.active = q.params.linear = parameters;
  q.weight_bytes = parameters * precision.bytes_per_parameter;
  q.compute = precision.key;
  q.device = catalog.device(spec->second);
  q.device.bandwidth_gb_per_s = it.memory_bandwidth_gb_per_s * it.gpu_fraction;
  q.gpus = q.tensor_parallel = gpus;
  q.batch = 1;
  q.sequence = 2048;
  const std::string kind = it.accelerator_kind == "gpu" ? ""
                                                        : " (" + it.accelerator_kind +
                                                              ": GPU efficiency factors "
                                                              "applied, an estimate)";
  const double interconnect =
      placement.instance_count > 1 || gpus > 1 ? it.interconnect_multiplier : 1.0;
  Performance perf;
  perf.unit = "tokens/s";
  if (workload == WorkloadType::kInference) {
    const Phase step = single_stream_decode(catalog.throughput, q, 0);
    perf.score = step.seconds > 0 ? interconnect / step.seconds : 0;
    perf.bound = step.bound == "compute" ? "compute" : "memory_bandwidth";
    perf.basis =
        "one stream decodes " + report::short_number(perf.score) + " tokens/s: each token reads " +
        report::short_number(q.weight_bytes / 1e9) + " GB of weights over " +
        report::short_number(gpus) + " x " + report::short_number(q.device.bandwidth_gb_per_s) +
        " GB/s at " + report::short_number(catalog.throughput.decode_bandwidth_efficiency * 100) +
        " % (" + perf.bound + " bound" +
        (interconnect < 1 ? ", x " + report::short_number(interconnect) + " interconnect" : "") +
        ")" + kind;
    if (perf.score > 0) perf.time_per_output_token_ms = 1000 / perf.score;
  } else {
    const TrainingEstimate t = estimate_training(catalog.throughput, q);
    perf.score = t.tokens_per_s * interconnect;
    perf.bound = "compute";
    perf.basis =
        "trains " + report::short_number(perf.score) + " tokens/s: " + t.basis + " x " +
        report::short_number(gpus) + " GPUs" +
        (interconnect < 1 ? " x " + report::short_number(interconnect) + " interconnect" : "") +
        kind;
  }
  if (perf.score > 0) return perf;
  return not_estimated(perf,
                       workload == WorkloadType::kInference ? "memory bandwidth" : "compute peak",
                       it.gpu_type);
}

std::optional<double> usd_per_million_tokens(const Performance& perf,
                                             std::optional<double> usd_per_hour) {
  if (perf.unit != "tokens/s" || perf.score <= 0 || !usd_per_hour) return std::nullopt;
  return *usd_per_hour / (perf.score * 3600) * 1e6;
}

}  // namespace gpufleet
