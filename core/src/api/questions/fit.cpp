// "fit": does the model fit on this instance and GPU count, and at what cost (seed 004's CANNOT FIT).

#include "api/questions/questions.hpp"

#include <algorithm>

#include "api/answers.hpp"
#include "fleet/band.hpp"
#include "fleet/road.hpp"
#include "fleet/seed_memory.hpp"
#include "pricing/cost.hpp"

namespace gpufleet::detail {
namespace {

// What a deployment holds per GPU, as the seed's weights + overhead and as lines.
Json memory_summary(const Catalog& catalog, const Workload& w, const Deployment& d) {
  if (w.seed_memory) return report::memory(seed_requirement(catalog, w));
  Json j = report::object(6);
  const double weights = d.weights_per_gpu_bytes;
  report::add(j, "weights_gb", report::gb(weights));
  report::add(j, "overhead_gb", report::gb(std::max(0.0, d.memory_per_gpu_bytes - weights)));
  report::add(j, "overhead_covers", w.serving() ? "KV cache, activations and runtime, per GPU"
                                                : "gradients, optimizer states, activations and runtime, per GPU");
  report::add(j, "total_gb", report::gb(d.memory_per_gpu_bytes));
  report::add(j, "per_gpu", d.memory ? report::memory_lines(*d.memory) : Json::array());
  report::add(j, "basis", "architecture-aware memory model, per GPU of the layout (GB = 1e9 bytes)");
  return j;
}

// The kind of the deployment's memory figure: its engine and phase on its GPU's vendor.
ErrorKind memory_error_kind(const Catalog& catalog, const Workload& w, const InstanceType& it) {
  const GpuSpec* gpu = catalog.gpu(it.gpu_model);
  return error_kind(catalog, "memory", w.serving() ? "inference" : "training", w.engine_key(), gpu ? gpu->vendor : "");
}

}  // namespace

Json answer_fit(const Catalog& catalog, Session& s, const Json& req) {
  auto q = s.question(false);
  auto p = s.placement(req, "", q ? &q->w : nullptr, q ? &q->billing : nullptr);
  if (!q || !p) return nullptr;
  const Deployment d = deploy_on_gpus(catalog, q->w, q->billing, *p->instance, p->gpus);
  Json result;
  result["request"] = report::question(*q);
  result["placement"] = report::placement(*p);
  result["memory"] = memory_summary(catalog, q->w, d);
  Json fit = report::object(6);
  report::add(fit, "fits", d.runs());
  report::add(fit, "gpus", round_to(p->gpus, 3));
  report::add(fit, "per_gpu_gb", report::gb(d.memory_per_gpu_bytes));
  report::add(fit, "capacity_per_gpu_gb", report::gb(d.capacity_per_gpu_bytes));
  report::add(fit, "utilization_pct", d.capacity_per_gpu_bytes > 0 ? round_to(100 * d.memory_per_gpu_bytes / d.capacity_per_gpu_bytes, 1) : 0.0);
  const ErrorKind memory_kind = memory_error_kind(catalog, q->w, *d.instance);
  result["expected_error"] = report::expected_error(memory_kind);
  if (d.memory) {
    const auto engine = catalog.memory.engines.find(q->w.engine_key());
    const bool pool = engine != catalog.memory.engines.end() && engine->second.kv_policy == "pool";
    const double sequence = q->w.demand.input_tokens + q->w.demand.output_tokens;
    if (Json band = report::fit_band(*d.memory, sequence, d.capacity_per_gpu_bytes, pool, result["expected_error"]);
        !band.is_null())
      fit["fit_band"] = std::move(band);
  }
  result["fit"] = std::move(fit);
  result["status"] = d.runs() ? "FITS" : d.refusal.rfind("does not fit", 0) == 0 ? "CANNOT FIT MODEL" : "CANNOT RUN";
  result["deployment"] = report::deployment(d, true);
  if (d.runs() && (d.inference || d.training))
    result["band"] = report::band(deployment_band(catalog, q->w, q->billing, d), d);
  if (!d.runs()) result["ways_out"] = report::ways_out(ways_out(catalog, *q, *p->instance, p->gpus));
  // The road priced the deployment without the other ways to pay, which this answer lists.
  const Placement priced{d.instance, d.gpus, std::max(1, d.instance_count), d.instance->name, false, ""};
  const Cost cost = cost_of(catalog, priced, q->billing);
  result["cost"] = report::cost(cost, true);
  return report::price_flags_first(std::move(result), cost);
}

}  // namespace gpufleet::detail
