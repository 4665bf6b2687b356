#pragma once
// Batch jobs against deadlines on spot and on-demand capacity: a spot pool's availability as an
// alternating up/down process drawn from a small deterministic generator (so every door draws the
// same traces), four policies simulated on each trace (all on demand, all spot, deadline-aware:
// spot while the slack allows, then on demand; uniform progress: on demand whenever idle and behind
// an even pace to the deadline), and an earliest-deadline-first queue of jobs.
// Structs in, structs out; docs/batch.md states the model.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace gpufleet::batch {

inline constexpr int kDefaultTraces = 1000;
inline constexpr int kMaxTraces = 10000;

// splitmix64 (Steele, Lea and Flood 2014, with Vigna's constants): 64 bits of state, integer
// arithmetic only, so the native and the WebAssembly builds draw the same numbers.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();                 // in (0, 1): never 0, so -ln(u) is finite
  double exponential(double rate);  // by inversion: -ln(u) / rate; infinity when rate is 0
 private:
  std::uint64_t state_;
};

// The seed of trace `trace` of job `job` for a request's `seed`: every policy replays one trace.
std::uint64_t trace_seed(std::uint64_t seed, std::uint64_t job, std::uint64_t trace);

// The job and the two pools it may run on (rates for all its instances).
struct Job {
  double work_hours = 0;      // the run on reliable capacity (the road's run_hours)
  double deadline_hours = 0;  // from the job's start
  double restart_hours =
      0;  // after an interruption or a switch: a replacement and a checkpoint load
  double checkpoint_write_hours =
      0;  // 0: progress is kept as it is made (batch inference's outputs)
};
struct Pools {
  double spot_usd_per_hour = 0;
  double on_demand_usd_per_hour = 0;
  double hazard_per_hour = 0;        // the job's: an interruption of any of its instances stops it
  double down_mean_hours = 0;        // mean time until the spot pool has capacity again
  double minimum_billing_hours = 0;  // each launch is billed at least this long
};

enum class Policy { kAllOnDemand, kAllSpot, kDeadlineAware, kUniformProgress };

// Work between checkpoints: Young/Daly sqrt(2 x write x MTBI); 0 when no checkpoint is written
// (no interruption to protect against, or progress kept continuously).
double checkpoint_interval_hours(const Job& job, const Pools& pools);

// One policy on one trace.
struct Run {
  double wall_hours = 0;  // infinity: gave up (all spot on a pool that never lets it finish)
  double usd = 0;
  int interruptions = 0;
  std::optional<double> switch_hours;  // when the job first moved to on demand
  double on_demand_hours = 0;          // billed on demand, over every stretch
  bool met = false;
};
Run simulate(const Job& job, const Pools& pools, Policy policy, std::uint64_t trace_seed);

struct Quantiles {
  double p10 = 0, p50 = 0, p90 = 0;
};
Quantiles quantiles(std::vector<double> values);  // linear between order statistics
// The same of `values` with `copies` more values equal to `repeated` (the traces that were one
// run).
Quantiles quantiles(std::vector<double> values, double repeated, std::size_t copies);

struct PlanSummary {
  Policy policy = Policy::kAllOnDemand;
  Quantiles usd, wall_hours;
  double p_meet_deadline = 0;
  double mean_interruptions = 0;
  double p_switched = 0;
  std::optional<Quantiles> switch_hours;  // over the traces that switched
  double mean_on_demand_hours = 0;
  double checkpoint_interval_hours = 0;
  std::vector<double> usd_by_trace;  // trace k's cost (one entry for all on demand)
};
// `traces` traces of job number `job` (1 .. kMaxTraces).
PlanSummary plan(const Job& job, const Pools& pools, Policy policy, std::uint64_t seed,
                 std::uint64_t job_index, int traces);

// Earliest deadline first onto `slots` jobs at once: jobs in order of deadline (then earliest
// start, then their order), each started when it may and a slot is free; `run` gives a job's
// hours from its start (and may read the start, which shortens its slack).
struct Queued {
  double earliest_start_hours = 0;
  double deadline_hours = 0;  // from time 0
};
struct Slot {
  std::size_t job = 0;
  double start_hours = 0;
  double end_hours = 0;
  int lane = 0;  // which of the slots
};
std::vector<Slot> edf_schedule(
    const std::vector<Queued>& jobs, int slots,
    const std::function<double(std::size_t job, double start_hours)>& run);

}  // namespace gpufleet::batch
