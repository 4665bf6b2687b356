#include "fleet/band.hpp"

#include <algorithm>
#include <cmath>

namespace gpufleet {
namespace {
// A throughput factor that stands for "no upper end": every demand it sizes for takes one copy.
constexpr double kUnboundedFactor = 1e9;
}  // namespace

const MeasuredError* measured_error(const Catalog& catalog, const std::string& quantity,
                                    const std::string& phase, const std::string& engine,
                                    const std::string& vendor) {
  const MeasuredError* found = nullptr;
  for (const MeasuredError& e : catalog.measured_error) {
    if (e.quantity != quantity || e.phase != phase || e.engine != engine) continue;
    if (vendor.empty() ? (!found || e.n > found->n) : e.vendor == vendor) found = &e;
  }
  return found;
}

ErrorKind error_kind(const Catalog& catalog, const std::string& quantity, const std::string& phase,
                     const std::string& engine, const std::string& vendor) {
  return {quantity, phase, engine, vendor,
          measured_error(catalog, quantity, phase, engine, vendor)};
}

ErrorKind throughput_kind(const Catalog& catalog, const std::string& phase,
                          const std::string& engine, const std::string& vendor) {
  ErrorKind k = error_kind(catalog, "throughput", phase, engine, vendor);
  // No case of this engine on the vendor's devices (vLLM on AWS Neuron): the vendor's most measured
  // engine stands in, and the answer names it.
  for (const MeasuredError& e : catalog.measured_error) {
    if (k.measured && k.measured->engine == k.engine) break;
    if (e.quantity == k.quantity && e.phase == k.phase && !k.vendor.empty() && e.vendor == k.vendor &&
        (!k.measured || e.n > k.measured->n))
      k.measured = &e;
  }
  return k;
}

ErrorKind throughput_kind(const Catalog& catalog, const Workload& w, const InstanceType& it) {
  const GpuSpec* gpu = catalog.gpu(it.gpu_model);
  return throughput_kind(catalog, w.serving() ? "inference" : "training", w.engine_key(),
                         gpu ? gpu->vendor : "");
}

BandEnd at_throughput(const Catalog& catalog, const Workload& w, const Billing& billing,
                      const Deployment& d, double factor) {
  Deployment s;
  s.instance = d.instance;
  s.layout = d.layout;
  s.gpus = d.gpus;
  s.instance_count = d.instance_count;
  s.output_tokens_per_s = d.output_tokens_per_s * factor;
  if (d.inference) {
    // Serving: each copy serves `factor` x its estimate; a fleet sized for a demand takes the
    // copies the demand then needs, plus those the road added beyond it (queueing, a spare).
    if (d.sized_for_demand) {
      const double copies = copies_for(d.demand_rps, d.copy_rps * factor) + d.copies_beyond_demand;
      s.layout.replicas = copies;
      s.gpus = copies * d.layout.gpus_per_copy();
      s.instance_count = instances_for(*d.instance, d.layout, copies);
      s.output_tokens_per_s *= copies / d.layout.replicas;
    }
    if (d.utilization > 0)
      s.utilization = d.utilization * d.output_tokens_per_s / s.output_tokens_per_s;
  }
  if (d.run_hours) s.run_hours = *d.run_hours * d.output_tokens_per_s / s.output_tokens_per_s;
  price(catalog, billing, false, s);
  per_token_and_run_costs(catalog, w, s);
  BandEnd end;
  end.factor = factor;
  end.replicas = s.layout.replicas;
  end.instance_count = s.instance_count;
  end.gpus = s.gpus;
  end.output_tokens_per_s = s.output_tokens_per_s;
  end.usd_per_hour = s.cost.usd_per_hour;
  end.usd_per_month = s.cost.usd_per_month;
  end.usd_per_million_tokens = s.usd_per_million_output_tokens;
  if (d.training && s.cost.usd_per_hour && s.output_tokens_per_s > 0)
    end.usd_per_million_tokens = *s.cost.usd_per_hour / (s.output_tokens_per_s * 3600) * 1e6;
  end.run_hours = s.run_hours;
  end.usd_per_run = s.usd_per_run;
  end.misses_deadline =
      s.run_hours && w.demand.deadline_days && *s.run_hours > *w.demand.deadline_days * 24;
  return end;
}

DeploymentBand deployment_band(const Catalog& catalog, const Workload& w, const Billing& billing,
                               const Deployment& d) {
  DeploymentBand band;
  band.kind = throughput_kind(catalog, w, *d.instance);
  if (!band.kind.measured || !d.runs() || d.output_tokens_per_s <= 0) return band;
  const MeasuredRange factor = measured_range(1, band.kind.measured->p90_abs_err_pct);
  band.slow = at_throughput(catalog, w, billing, d, factor.low);
  // Without an upper end the fast end is the limit: the fewest replicas the road would take.
  band.fast = at_throughput(catalog, w, billing, d, factor.high.value_or(kUnboundedFactor));
  return band;
}

MeasuredRange measured_range(double predicted, double p90_abs_err_pct) {
  const double e = p90_abs_err_pct / 100;
  MeasuredRange range;
  range.low = predicted / (1 + e);
  if (e < 1) range.high = predicted / (1 - e);
  return range;
}

MemoryBand memory_band(double bytes, double capacity_bytes, double p90_abs_err_pct) {
  MemoryBand band;
  band.bytes = measured_range(bytes, p90_abs_err_pct);
  band.fits_low = band.bytes.low <= capacity_bytes;
  band.fits_high = band.bytes.high && *band.bytes.high <= capacity_bytes;
  return band;
}

}  // namespace gpufleet
