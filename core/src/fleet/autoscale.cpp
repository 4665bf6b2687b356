#include "fleet/autoscale.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <utility>

#include "model/queueing.hpp"

namespace gpufleet {
namespace {

constexpr double kNever = 1e12;  // ms: a saturated queue, or no replica up
constexpr int kUnreachable = 1 << 30;

int clamp_int(int v, int lo, int hi) { return std::max(lo, std::min(hi, v)); }

int ceil_int(double x) {
  if (!(x > 0)) return 0;
  if (x >= kUnreachable) return kUnreachable;
  return static_cast<int>(std::ceil(x - 1e-9));
}

}  // namespace

std::string to_string(ScalingPolicy p) {
  switch (p) {
    case ScalingPolicy::kTargetTracking: return "target_tracking";
    case ScalingPolicy::kScheduled: return "scheduled";
    case ScalingPolicy::kOracle: return "oracle";
    case ScalingPolicy::kAlwaysPeak: return "always_peak";
  }
  return "oracle";
}

std::string to_string(ScalingMetric m) {
  switch (m) {
    case ScalingMetric::kConcurrency: return "concurrency";
    case ScalingMetric::kQueueLength: return "queue_length";
    case ScalingMetric::kRequestsPerS: return "requests_per_s";
  }
  return "concurrency";
}

std::optional<ScalingPolicy> parse_scaling_policy(const std::string& text) {
  for (ScalingPolicy p : {ScalingPolicy::kTargetTracking, ScalingPolicy::kScheduled, ScalingPolicy::kOracle})
    if (text == to_string(p)) return p;
  return std::nullopt;
}

std::optional<ScalingMetric> parse_scaling_metric(const std::string& text) {
  for (ScalingMetric m : {ScalingMetric::kConcurrency, ScalingMetric::kQueueLength, ScalingMetric::kRequestsPerS})
    if (text == to_string(m)) return m;
  return std::nullopt;
}

ReplicaModel replica_model(const Deployment& d, const Demand& demand) {
  ReplicaModel m;
  const InferenceEstimate& e = *d.inference;
  const double pp = d.layout.pipeline_parallel;
  m.concurrency = d.concurrency;
  m.copy_rps = e.tpot_ms > 0 ? d.concurrency * 1e3 / e.tpot_ms / demand.output_tokens : 0;
  m.prefill_rps = e.first_token.seconds > 0 ? pp / e.first_token.seconds : m.copy_rps;
  m.prefill_s = e.first_token.seconds / pp;
  m.ttft_ms = e.ttft_ms;
  m.target_utilization = demand.target_utilization;
  m.max_ttft_ms = demand.max_ttft_ms;
  m.gpus = d.layout.gpus_per_copy();
  // Copies share an instance of several GPUs; a copy wider than its instance spans several; a
  // fractional GPU's instance holds one copy.
  const double instance_gpus = d.instance ? std::max(0.0, d.instance->gpus) : m.gpus;
  if (instance_gpus > 0 && m.gpus > instance_gpus + 1e-9) {
    m.instances_per_unit = std::ceil(m.gpus / instance_gpus - 1e-9);
  } else if (instance_gpus > 0 && m.gpus > 0) {
    m.copies_per_unit = std::max(1, static_cast<int>(std::floor(instance_gpus / m.gpus + 1e-9)));
  }
  m.gpus_per_unit = std::max(m.copies_per_unit * m.gpus, m.instances_per_unit * instance_gpus);
  return m;
}

int ReplicaModel::units(int copies) const {
  return copies > 0 ? (copies + copies_per_unit - 1) / copies_per_unit : 0;
}
double p95_ttft_ms(const ReplicaModel& m, double rps, double replicas) {
  if (!(rps > 0)) return m.ttft_ms;
  if (!(replicas > 0) || !(m.copy_rps > 0)) return kNever;
  const QueueDelay delay = queue_delay(rps / replicas, m.concurrency, m.hold_s(), m.prefill_s);
  if (delay.p95_wait_s >= 1e8) return kNever;
  return m.ttft_ms + delay.p95_wait_s * 1e3;
}

int replicas_needed(const ReplicaModel& m, double rps) {
  if (!(rps > 0)) return 0;
  const double capacity = std::min(m.copy_rps, m.prefill_rps) * m.target_utilization;
  if (!(capacity > 0)) return kUnreachable;
  // As the road: the utilization's copies, then one more at a time until the p95 target is met.
  double copies = std::max(1.0, std::ceil(rps / capacity - 1e-9));
  if (copies >= kUnreachable) return kUnreachable;
  for (int step = 0; step < 256; ++step) {
    const QueueDelay delay = queue_delay(rps / copies, m.concurrency, m.hold_s(), m.prefill_s);
    const bool saturated = delay.p95_wait_s >= 1e8;
    if (!saturated && (!m.max_ttft_ms || m.ttft_ms + delay.p95_wait_s * 1e3 <= *m.max_ttft_ms)) break;
    copies += 1;
  }
  return static_cast<int>(copies);
}

int replicas_meeting_slo(const ReplicaModel& m, double rps) {
  if (!(rps > 0)) return 0;
  auto met = [&](int r) {
    const double p95 = p95_ttft_ms(m, rps, r);
    return p95 < kNever && (!m.max_ttft_ms || p95 <= *m.max_ttft_ms);
  };
  if (m.max_ttft_ms && m.ttft_ms > *m.max_ttft_ms) return kUnreachable;
  int hi = 1;
  while (!met(hi)) {
    if (hi >= (1 << 24)) return kUnreachable;
    hi *= 2;
  }
  int lo = hi / 2;  // not met (or 0)
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (met(mid) ? hi : lo) = mid;
  }
  return hi;
}

double target_rps_per_replica(const ReplicaModel& m) {
  const double cap = std::min(m.copy_rps, m.prefill_rps) * m.target_utilization;
  if (!m.max_ttft_ms || !(cap > 0)) return cap;
  auto met = [&](double x) {
    const double p95 = p95_ttft_ms(m, x, 1);
    return p95 < kNever && p95 <= *m.max_ttft_ms;
  };
  if (met(cap) || !met(cap * 1e-9)) return cap;
  double lo = 0, hi = cap;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (met(mid) ? lo : hi) = mid;
  }
  return lo;
}

int committed_base_replicas(const std::vector<int>& needed, double committed_rate, double above_rate) {
  if (needed.empty() || !(above_rate > 0) || !(committed_rate >= 0)) return 0;
  const double share = committed_rate / above_rate;
  const int peak = *std::max_element(needed.begin(), needed.end());
  int base = 0;
  for (int b = 1; b <= peak; ++b) {
    const auto reached = std::count_if(needed.begin(), needed.end(), [&](int n) { return n >= b; });
    if (static_cast<double>(reached) / needed.size() > share + 1e-12) base = b;
    else break;
  }
  return base;
}

namespace {

// The metric's recommendation at one control step, as the HPA computes it: ceil(current x metric
// / target) over the ready replicas (the offered concurrency, by Little's law, and the mean queue
// per replica), or ceil(total / target) for requests/s; within the tolerance, no change.
class Recommender {
 public:
  explicit Recommender(const AutoscaleQuestion& q) : m_(q.replica), s_(q.settings) {}

  int operator()(double rps, int ready, int current) {
    const double target = s_.target;
    double ratio = 1, desired = current;
    switch (s_.metric) {
      case ScalingMetric::kRequestsPerS:
        ratio = current > 0 ? rps / (target * current) : (rps > 0 ? 1e18 : 1);
        desired = rps / target;
        break;
      case ScalingMetric::kConcurrency: {
        const double total = rps * m_.hold_s();
        ratio = ready > 0 ? total / (target * ready) : (total > 0 ? 1e18 : 1);
        desired = total / target;
        break;
      }
      case ScalingMetric::kQueueLength: {
        if (ready == 0) return rps > 0 ? std::max(current, 1) : current;
        const double queue = queue_per_replica(rps, ready);
        if (queue >= 1e17) return s_.max_replicas;
        ratio = queue / target;
        desired = ratio * ready;
        break;
      }
    }
    if (std::fabs(ratio - 1) <= s_.tolerance) return current;
    return ceil_int(desired);
  }

 private:
  // Mean requests waiting per replica (Little's law on the queue model's mean wait).
  double queue_per_replica(double rps, int ready) {
    const auto key = std::make_pair(rps, ready);
    auto found = queue_.find(key);
    if (found != queue_.end()) return found->second;
    const double rate = rps / ready;
    const QueueDelay d = queue_delay(rate, m_.concurrency, m_.hold_s(), m_.prefill_s);
    const double queue = d.mean_wait_s >= 1e8 ? 1e18 : rate * d.mean_wait_s;
    if (queue_.size() > 100000) queue_.clear();
    return queue_[key] = queue;
  }

  const ReplicaModel& m_;
  const ScalingSettings& s_;
  std::map<std::pair<double, int>, double> queue_;
};

// The fewest replicas that meet the p95 target at each interval's rate (cached by rate).
std::vector<int> slo_replicas(const AutoscaleQuestion& q) {
  std::map<double, int> cache;
  std::vector<int> out;
  out.reserve(q.rps.size());
  for (double rps : q.rps) {
    auto found = cache.find(rps);
    if (found == cache.end()) found = cache.emplace(rps, replicas_meeting_slo(q.replica, rps)).first;
    out.push_back(found->second);
  }
  return out;
}

void account(const AutoscaleQuestion& q, PolicyRun& run, double rps, double billed_units, double up, int slo_need,
             double seconds) {
  const double busy = q.replica.copy_rps > 0 ? std::min(up, rps / q.replica.copy_rps) : 0;
  run.gpu_hours_idle +=
      std::max(0.0, billed_units * q.replica.gpus_per_unit - busy * q.replica.gpus) * seconds / 3600;
  run.requests += rps * seconds;
  if (up >= slo_need) run.requests_within += rps * seconds;
}

PolicyRun run_planned(const AutoscaleQuestion& q, ScalingPolicy policy, const std::vector<int>& up,
                      const std::vector<int>& slo_need, bool started_ahead) {
  PolicyRun run;
  run.policy = policy;
  const std::size_t n = up.size();
  run.replicas.assign(n, 0);
  std::vector<double> units(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    run.replicas[i] = up[i];
    units[i] = q.replica.units(up[i]);
  }
  // Replicas a schedule adds start a cold start ahead of their interval: billed in the one before
  // (the profile repeats: the first interval's come at the end of the last).
  if (started_ahead && n > 1) {
    const double share = std::min(1.0, q.settings.cold_start_s / q.interval_s);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t before = (i + n - 1) % n;
      if (up[i] > up[before]) run.replicas[before] += (up[i] - up[before]) * share;
      const int more = q.replica.units(up[i]) - q.replica.units(up[before]);
      if (more > 0) units[before] += more * share;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    run.replica_hours += run.replicas[i] * q.interval_s / 3600;
    run.unit_hours += units[i] * q.interval_s / 3600;
    account(q, run, q.rps[i], units[i], up[i], slo_need[i], q.interval_s);
  }
  return run;
}

PolicyRun run_reactive(const AutoscaleQuestion& q, const std::vector<int>& slo_need) {
  const ScalingSettings& s = q.settings;
  PolicyRun run;
  run.policy = ScalingPolicy::kTargetTracking;
  const std::size_t n = q.rps.size();
  run.replicas.assign(n, 0);
  if (n == 0) return run;
  const long steps = std::max(1L, std::lround(q.interval_s / s.control_period_s));
  const double dt = q.interval_s / steps;
  Recommender recommend(q);
  // The first interval starts settled: its recommendation, every replica up.
  int current = clamp_int(recommend(q.rps[0], 0, 0), s.min_replicas, s.max_replicas);
  if (s.metric == ScalingMetric::kQueueLength)
    current = clamp_int(replicas_needed(q.replica, q.rps[0]), s.min_replicas, s.max_replicas);
  std::deque<double> launched(static_cast<std::size_t>(current), -1e300);  // launch times, oldest first
  std::deque<std::pair<double, int>> history;
  const double window = std::max(s.scale_up_delay_s, s.scale_down_delay_s);
  auto ready_at = [&](double t) {
    const double cutoff = t - s.cold_start_s + 1e-6;
    return static_cast<int>(std::upper_bound(launched.begin(), launched.end(), cutoff) - launched.begin());
  };
  for (std::size_t i = 0; i < n; ++i) {
    const double rps = q.rps[i];
    double billed = 0, billed_units = 0;
    for (long k = 0; k < steps; ++k) {
      const double t = static_cast<double>(i) * q.interval_s + static_cast<double>(k) * dt;
      int ready = ready_at(t);
      const int rec = clamp_int(recommend(rps, ready, current), s.min_replicas, s.max_replicas);
      history.emplace_back(t, rec);
      while (!history.empty() && history.front().first < t - window - 1e-6) history.pop_front();
      // HPA's stabilization: up to the lowest recommendation of the scale-up window, down to the
      // highest of the scale-down window.
      int up = rec, down = rec;
      for (const auto& [when, value] : history) {
        const double age = t - when;
        if (age < s.scale_up_delay_s - 1e-6) up = std::min(up, value);
        if (age < s.scale_down_delay_s - 1e-6) down = std::max(down, value);
      }
      int next = current;
      if (next < up) next = up;
      if (next > down) next = down;
      for (int j = current; j < next; ++j) launched.push_back(t);
      for (int j = next; j < current; ++j) launched.pop_back();  // the newest first: those starting
      current = next;
      ready = ready_at(t);
      billed += current * dt;
      billed_units += q.replica.units(current) * dt;
      account(q, run, rps, q.replica.units(current), ready, slo_need[i], dt);
    }
    run.replicas[i] = billed / q.interval_s;
    run.replica_hours += billed / 3600;
    run.unit_hours += billed_units / 3600;
  }
  return run;
}

}  // namespace

PolicyRun run_policy(const AutoscaleQuestion& q, ScalingPolicy policy, const std::vector<int>& needed) {
  const ScalingSettings& s = q.settings;
  const std::vector<int> slo_need = slo_replicas(q);
  PolicyRun run;
  const std::size_t n = needed.size();
  switch (policy) {
    case ScalingPolicy::kOracle: {
      std::vector<int> up(n);
      for (std::size_t i = 0; i < n; ++i) up[i] = std::min(needed[i], s.max_replicas);
      run = run_planned(q, policy, up, slo_need, false);
      break;
    }
    case ScalingPolicy::kAlwaysPeak: {
      const int peak = n ? *std::max_element(needed.begin(), needed.end()) : 0;
      run = run_planned(q, policy, std::vector<int>(n, std::min(std::max(peak, s.min_replicas), s.max_replicas)),
                        slo_need, false);
      break;
    }
    case ScalingPolicy::kScheduled: {
      // A daily schedule (a cron scaler): each hour of the day gets the most any day needs then.
      std::map<long, int> by_hour;
      std::vector<long> hour(n);
      for (std::size_t i = 0; i < n; ++i) {
        hour[i] = std::lround(std::floor(static_cast<double>(i) * q.interval_s / 3600)) % 24;
        by_hour[hour[i]] = std::max(by_hour[hour[i]], needed[i]);
      }
      std::vector<int> up(n);
      for (std::size_t i = 0; i < n; ++i) up[i] = clamp_int(by_hour[hour[i]], s.min_replicas, s.max_replicas);
      run = run_planned(q, policy, up, slo_need, true);
      break;
    }
    case ScalingPolicy::kTargetTracking: run = run_reactive(q, slo_need); break;
  }
  run.usd_per_month = run.unit_hours * q.replica.usd_per_unit_hour * q.month_scale;
  run.gpu_hours_idle *= q.month_scale;
  return run;
}

std::vector<int> needs_of(const AutoscaleQuestion& q) {
  std::vector<int> needed;
  std::map<double, int> cache;
  for (double rps : q.rps) {
    auto found = cache.find(rps);
    if (found == cache.end()) found = cache.emplace(rps, replicas_needed(q.replica, rps)).first;
    needed.push_back(found->second);
  }
  return needed;
}

AutoscaleResult autoscale(const AutoscaleQuestion& q, std::vector<int> needed) {
  AutoscaleResult out;
  out.needed = std::move(needed);
  out.peak = out.needed.empty() ? 0 : *std::max_element(out.needed.begin(), out.needed.end());
  out.runs.push_back(run_policy(q, ScalingPolicy::kOracle, out.needed));
  out.runs.push_back(run_policy(q, ScalingPolicy::kAlwaysPeak, out.needed));
  if (q.settings.policy != ScalingPolicy::kOracle)
    out.runs.push_back(run_policy(q, q.settings.policy, out.needed));
  if (q.replica.committed_usd_per_unit_hour && q.replica.usd_per_unit_hour > 0 && !q.rps.empty()) {
    const double c = *q.replica.committed_usd_per_unit_hour, o = q.replica.usd_per_unit_hour;
    CommittedBase& base = out.base;
    // Commitments buy whole instances: the base is counted in the units the needs fill.
    std::vector<int> needed_units;
    for (int need : out.needed) needed_units.push_back(q.replica.units(need));
    base.units = committed_base_replicas(needed_units, c, o);
    base.replicas = base.units * q.replica.copies_per_unit;
    double above_hours = 0;
    for (int units : needed_units) above_hours += std::max(0, units - base.units) * q.interval_s / 3600;
    // A commitment bills every hour of the month; the rest is paid as the profile's hours.
    base.usd_per_month = base.units * c * q.month_hours + above_hours * o * q.month_scale;
    base.break_even_utilization = c / o;
  }
  return out;
}

AutoscaleResult autoscale_at_throughput(AutoscaleQuestion q, double factor, bool derived_bounds, bool derived_target) {
  ReplicaModel& m = q.replica;
  m.copy_rps *= factor;
  m.prefill_rps *= factor;
  m.prefill_s /= factor;
  m.ttft_ms /= factor;
  ScalingSettings& st = q.settings;
  if (derived_target && st.metric == ScalingMetric::kRequestsPerS) st.target *= factor;
  std::vector<int> needed = needs_of(q);
  if (derived_bounds && !needed.empty()) {
    const auto [least, peak] = std::minmax_element(needed.begin(), needed.end());
    st.min_replicas = std::max(1, *least);
    st.max_replicas = std::max(st.min_replicas, *peak);
  }
  return autoscale(q, std::move(needed));
}

}  // namespace gpufleet
