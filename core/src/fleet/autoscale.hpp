#pragma once
// Auto-scaling over a traffic profile: the road's replicas for each interval (the oracle), a
// reactive policy simulated in discrete time (Kubernetes HPA / KEDA target tracking: a metric per
// replica against a target, its tolerance and stabilization windows, capacity arriving after the
// cold start), a daily schedule and a fleet sized for the peak; each priced, with the share of
// requests served while the p95 time to first token met its target, and the committed base that
// minimises commitment + on-demand cost. Structs in, structs out: no JSON, no prose beyond names.

#include <optional>
#include <string>
#include <vector>

#include "fleet/road.hpp"

namespace gpufleet {

// What one model copy (the unit that scales) of the road's deployment serves, and what its
// instances cost: copies are packed on whole instances (a "unit": one instance holding
// copies_per_unit copies, or the instances one pipeline-parallel copy spans), billed whole.
struct ReplicaModel {
  double concurrency = 1;    // sequence slots (the road's concurrency)
  double copy_rps = 0;       // requests/s at that concurrency (decode capacity, Little's law)
  double prefill_rps = 0;    // prompts/s its prefill passes (x pipeline stages); 0: copy_rps
  double prefill_s = 0;      // one prompt's prefill per stage: the M/D/1 service time
  double ttft_ms = 0;        // one prompt's time to first token, alone
  double target_utilization = 0.7;
  std::optional<double> max_ttft_ms;  // p95, queueing included
  double gpus = 1;                 // per copy
  int copies_per_unit = 1;         // copies one unit of whole instances holds
  double instances_per_unit = 1;
  double gpus_per_unit = 1;        // the unit's GPUs, billed whether busy or not
  double usd_per_unit_hour = 0;    // the way to pay above the base (on-demand, spot or mixed)
  std::optional<double> committed_usd_per_unit_hour;  // the commitment's effective rate
  double hold_s() const { return copy_rps > 0 ? concurrency / copy_rps : 0; }
  int units(int copies) const;  // whole units holding `copies`
};

// The copy of a serving deployment of the road (its figures at its concurrency) and its unit of
// whole instances; prices are set by the caller. Requires d.runs() and d.inference.
ReplicaModel replica_model(const Deployment& d, const Demand& demand);

// The road's copies for `rps` (road.cpp, size_serving): ceil(rps / (capacity x target
// utilization)), then one more at a time (up to 256) until the p95 TTFT meets the target; 0 for
// no traffic.
int replicas_needed(const ReplicaModel& m, double rps);
// p95 TTFT (ms) of `rps` spread over `replicas` copies; 1e12 when saturated or none is up.
double p95_ttft_ms(const ReplicaModel& m, double rps, double replicas);
// The fewest copies whose p95 TTFT meets the target (without one: that are not saturated).
int replicas_meeting_slo(const ReplicaModel& m, double rps);
// Requests/s one copy takes at the target utilization with the p95 TTFT target met: the
// threshold a target-tracking policy keeps each replica under.
double target_rps_per_replica(const ReplicaModel& m);

enum class ScalingPolicy { kTargetTracking, kScheduled, kOracle, kAlwaysPeak };
enum class ScalingMetric { kConcurrency, kQueueLength, kRequestsPerS };
std::string to_string(ScalingPolicy p);
std::string to_string(ScalingMetric m);
std::optional<ScalingPolicy> parse_scaling_policy(const std::string& text);  // not always_peak
std::optional<ScalingMetric> parse_scaling_metric(const std::string& text);

struct ScalingSettings {
  ScalingPolicy policy = ScalingPolicy::kTargetTracking;
  ScalingMetric metric = ScalingMetric::kConcurrency;
  double target = 0;           // the metric's value per replica the policy keeps
  int min_replicas = 1;
  int max_replicas = 1;
  double control_period_s = 30;     // KEDA's default pollingInterval
  double scale_up_delay_s = 0;      // HPA scaleUp stabilizationWindowSeconds default
  double scale_down_delay_s = 300;  // HPA scaleDown stabilizationWindowSeconds default
  double tolerance = 0.1;           // HPA's default tolerance
  double cold_start_s = 0;          // from the decision to a replica serving
};

struct AutoscaleQuestion {
  std::vector<double> rps;    // demand per interval, requests/s
  double interval_s = 3600;
  ReplicaModel replica;
  ScalingSettings settings;
  double month_scale = 1;     // months per profile: a month's hours / the profile's hours
  double month_hours = 730;   // the hours a commitment bills a month (every hour)
};

struct PolicyRun {
  ScalingPolicy policy = ScalingPolicy::kOracle;
  std::vector<double> replicas;  // per interval: copies billed, mean over the interval
  double replica_hours = 0;      // over the profile
  double unit_hours = 0;         // over the profile: whole units billed (x instances_per_unit)
  double gpu_hours_idle = 0;     // over the profile: billed GPU time beyond the busy share
  double requests = 0;
  double requests_within = 0;    // served while the p95 TTFT met the target
  double usd_per_month = 0;
  double slo_attainment() const { return requests > 0 ? requests_within / requests : 1.0; }
};

struct CommittedBase {
  int units = 0;                // whole units committed (x instances_per_unit instances)
  int replicas = 0;             // the copies they hold
  std::optional<double> usd_per_month;      // the base committed + the rest above it, a month
  std::optional<double> break_even_utilization;  // c / o: share of hours a committed copy must be needed
};

struct AutoscaleResult {
  std::vector<int> needed;    // the oracle's copies per interval
  int peak = 0;
  std::vector<PolicyRun> runs;  // oracle, always_peak, then the asked policy (when another)
  CommittedBase base;
};

// One policy over the profile (needed: replicas_needed per interval).
PolicyRun run_policy(const AutoscaleQuestion& q, ScalingPolicy policy, const std::vector<int>& needed);

// The base b minimising b x c + o x sum(max(0, n_i - b)) / intervals: the largest b whose need
// is reached in more than a share c / o of the intervals.
int committed_base_replicas(const std::vector<int>& needed, double committed_rate, double above_rate);

// The copies each interval of the profile needs (replicas_needed), the oracle's.
std::vector<int> needs_of(const AutoscaleQuestion& q);
// The policies over the profile, given its needs (needs_of).
AutoscaleResult autoscale(const AutoscaleQuestion& q, std::vector<int> needed);

// The same question at `factor` x the copy's throughput (an end of its measured error, fleet/band.hpp):
// the copy's capacity and prefill scale by it, the need per interval follows, and so do the
// policy's replica bounds and a requests/s target where they were derived from the need
// (`derived_bounds`, `derived_target`); what the request set stays.
AutoscaleResult autoscale_at_throughput(AutoscaleQuestion q, double factor, bool derived_bounds, bool derived_target);

}  // namespace gpufleet
