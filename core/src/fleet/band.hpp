#pragma once
// Error bands: how far a figure of the road can be off, propagated from the measured error of the
// figure it comes from (model_config.json "measured_error", leave one source out;
// docs/accuracy.md). An error is (predicted - measured) / measured, so a figure whose kind errs by
// at most p90 measures between predicted / (1 + p90) and predicted / (1 - p90). A throughput in
// that range sizes a fleet between the replicas the demand needs at each end; the instances, the
// monthly cost and the $ per 1M tokens follow the replicas as the road computes them.

#include <optional>
#include <string>

#include "catalog/catalog.hpp"
#include "fleet/road.hpp"

namespace gpufleet {

// The measured error of a kind of figure: on `vendor`'s GPUs, or with no vendor the kind's largest
// group of cases; nullptr when no case of the kind was measured.
const MeasuredError* measured_error(const Catalog& catalog, const std::string& quantity,
                                    const std::string& phase, const std::string& engine,
                                    const std::string& vendor);

// A kind of figure and its measured error (nullptr: none measured).
struct ErrorKind {
  std::string quantity, phase, engine, vendor;
  const MeasuredError* measured = nullptr;
};
ErrorKind error_kind(const Catalog& catalog, const std::string& quantity, const std::string& phase,
                     const std::string& engine, const std::string& vendor);
// The throughput kind of `engine` in `phase` on `vendor`'s devices; where that engine was never
// measured on them, the vendor's most measured engine stands in (expected_error names it).
ErrorKind throughput_kind(const Catalog& catalog, const std::string& phase,
                          const std::string& engine, const std::string& vendor);
// The throughput kind of a deployment of the workload: its engine and phase on its GPU's vendor.
ErrorKind throughput_kind(const Catalog& catalog, const Workload& w, const InstanceType& it);

// What a deployment's figures become at `factor` x its estimated throughput.
struct BandEnd {
  double factor = 1;
  double replicas = 0;
  int instance_count = 0;
  double gpus = 0;
  double output_tokens_per_s = 0;  // serving: all copies; training: tokens/s of the job
  std::optional<double> usd_per_hour, usd_per_month;
  std::optional<double> usd_per_million_tokens;
  std::optional<double> run_hours, usd_per_run;
  bool misses_deadline = false;
};
BandEnd at_throughput(const Catalog& catalog, const Workload& w, const Billing& billing,
                      const Deployment& d, double factor);

// A deployment's figures at the ends of its throughput's band: `slow` at throughput / (1 + p90),
// `fast` at throughput / (1 - p90), or when p90 reaches 100 % (no upper bound) at the limit where
// a demand takes the fewest replicas (the answer leaves the figures that grow without bound open).
struct DeploymentBand {
  ErrorKind kind;
  std::optional<BandEnd> slow, fast;  // both none when the kind has no measured case
};
DeploymentBand deployment_band(const Catalog& catalog, const Workload& w, const Billing& billing,
                               const Deployment& d);

// Where a figure measures when its kind errs by at most p90: predicted / (1 + p90) to
// predicted / (1 - p90); no upper end when p90 reaches 100 %.
struct MeasuredRange {
  double low = 0;
  std::optional<double> high;
};
MeasuredRange measured_range(double predicted, double p90_abs_err_pct);

// The memory a figure of `bytes` takes at its kind's p90 against a GPU's capacity: whether each end
// still fits (the high end does not when it is unbounded).
struct MemoryBand {
  MeasuredRange bytes;
  bool fits_low = false, fits_high = false;
};
MemoryBand memory_band(double bytes, double capacity_bytes, double p90_abs_err_pct);

}  // namespace gpufleet
