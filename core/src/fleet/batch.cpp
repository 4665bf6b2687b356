#include "fleet/batch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "fleet/spot.hpp"

namespace gpufleet::batch {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }

double SplitMix64::exponential(double rate) {
  const double u = uniform();
  if (rate <= 0) return std::numeric_limits<double>::infinity();
  return -std::log(u) / rate;
}

std::uint64_t trace_seed(std::uint64_t seed, std::uint64_t job, std::uint64_t trace) {
  SplitMix64 a(seed);
  SplitMix64 b(a.next() ^ (job * 0xD1B54A32D192ED03ULL));
  SplitMix64 c(b.next() ^ (trace * 0x8CB92BA72F3D8DD7ULL));
  return c.next();
}

double checkpoint_interval_hours(const Job& job, const Pools& pools) {
  if (job.checkpoint_write_hours <= 0 || pools.hazard_per_hour <= 0) return 0;
  return spot::young_daly_interval_s(job.checkpoint_write_hours * 3600,
                                     3600 / pools.hazard_per_hour) /
         3600;
}

namespace {

constexpr double kEps = 1e-9;
constexpr double kMinSegmentHours = 1.0 / 60;  // the shortest segment the safety net shortens to
constexpr int kMaxEvents = 10000;  // per trace: all spot on a pool that is rarely up gives up
constexpr double kForever = std::numeric_limits<double>::infinity();

// The spot pool's up and down periods, drawn as the simulation reaches them. It starts up with its
// steady-state probability MTBI / (MTBI + down), so a trace needs no warm-up.
class Availability {
 public:
  Availability(const Pools& p, std::uint64_t seed)
      : rng_(seed),
        up_rate_(p.hazard_per_hour),
        down_rate_(p.down_mean_hours > 0 ? 1 / p.down_mean_hours : 0) {
    up_ = rng_.uniform() < spot::p_up(up_rate_, p.down_mean_hours);
    change_ = duration();
  }
  // A pool that is up for ever: the run of a trace no interruption reaches.
  static Availability always_up() { return Availability(); }
  bool up_at(double t) {
    while (change_ <= t) {
      up_ = !up_;
      change_ += duration();
    }
    return up_;
  }
  double next_change() const { return change_; }

 private:
  Availability() : rng_(0), up_rate_(0), down_rate_(0), change_(kForever) {}
  double duration() {
    if (up_) return rng_.exponential(up_rate_);
    return down_rate_ > 0 ? rng_.exponential(down_rate_) : 0;
  }
  SplitMix64 rng_;
  double up_rate_, down_rate_;
  bool up_ = true;
  double change_ = 0;
};

// One run of the job under a policy on one trace.
class Simulation {
 public:
  Simulation(const Job& job, const Pools& pools, Policy policy, Availability trace)
      : job_(job),
        pools_(pools),
        aware_(policy == Policy::kDeadlineAware || policy == Policy::kUniformProgress),
        uniform_(policy == Policy::kUniformProgress),
        trace_(trace),
        tau_(checkpoint_interval_hours(job, pools)),
        continuous_(job.checkpoint_write_hours <= 0) {}

  Run run() {
    const double horizon = 1000 * std::max({job_.work_hours, job_.deadline_hours, 1.0});
    for (int events = 0; !done_; ++events) {
      if (events > kMaxEvents || t_ > horizon) {
        out_.wall_hours = std::numeric_limits<double>::infinity();
        return out_;
      }
      if (aware_ && !safe_to_launch(t_)) {
        on_demand(t_);
        break;
      }
      if (!trace_.up_at(t_)) {
        const double back = trace_.next_change();
        if (uniform_ && behind_from() < back) {
          if (!safe_to_launch(std::max(t_, behind_from()))) {
            on_demand(t_);
            break;
          }
          t_ = std::max(t_, behind_from());
          catch_up();
          continue;
        }
        if (aware_ && !safe_to_launch(back)) {
          on_demand(t_);
          break;
        }
        t_ = back;
        continue;
      }
      on_spot();
    }
    out_.met = out_.wall_hours <= job_.deadline_hours + kEps;
    return out_;
  }
  // The latest moment the run compared with the end of an up period: a trace whose first up
  // period lasts at least this long runs as on a pool that never goes down.
  double reached() const { return reached_; }

 private:
  double left() const { return job_.work_hours - committed_; }
  double segment() const { return continuous_ || tau_ <= 0 ? left() : std::min(tau_, left()); }
  // A checkpoint after every segment but the last.
  double write_after(double seg) const {
    return !continuous_ && seg < left() - kEps ? job_.checkpoint_write_hours : 0;
  }
  double restart() const { return launched_ ? job_.restart_hours : 0; }

  // The safety net: a spot run starting (or going on) at `t` may lose the segment it is in, just
  // before its checkpoint, and then run the rest on demand after a restart. The deadline-aware
  // policy shortens the segment (checkpoints more often) to what that worst case leaves room for;
  // 0 when no segment of at least a checkpoint's write (one minute without one) fits.
  double segment_at(double t, double startup) const {
    const double seg = segment();
    if (!aware_) return seg;
    const double rest = t + startup + job_.restart_hours + left();
    if (continuous_) return rest <= job_.deadline_hours + kEps ? seg : 0;
    if (rest + seg + write_after(seg) <= job_.deadline_hours + kEps) return seg;
    const double room = job_.deadline_hours - rest - job_.checkpoint_write_hours;
    return room >= std::max(job_.checkpoint_write_hours, kMinSegmentHours) ? std::min(seg, room)
                                                                           : 0;
  }
  bool safe_to_launch(double t) const { return segment_at(t, restart()) > 0; }
  bool safe_to_go_on(double t) const { return continuous_ || segment_at(t, 0) > 0; }

  void bill(double hours, double usd_per_hour) {
    out_.usd += std::max(hours, pools_.minimum_billing_hours) * usd_per_hour;
  }

  void bill_on_demand(double hours, double from) {
    bill(hours, pools_.on_demand_usd_per_hour);
    out_.on_demand_hours += hours;
    if (!out_.switch_hours) out_.switch_hours = from;
  }

  void on_demand(double from) {
    const double hours = restart() + left();
    bill_on_demand(hours, from);
    out_.wall_hours = from + hours;
    done_ = true;
  }

  // Uniform progress (Wu et al., "Can't Be Late", NSDI '24, section 5): the even pace to the
  // deadline has done work x t / deadline by t; an idle job behind it runs on demand.
  double pace_at(double t) const { return job_.work_hours * t / job_.deadline_hours; }
  // When an idle job falls behind the pace (it never catches up while idle).
  double behind_from() const {
    return job_.work_hours > 0 ? committed_ * job_.deadline_hours / job_.work_hours : kForever;
  }

  // An on-demand stretch from t_: it keeps every hour of progress and, by the paper's hysteresis,
  // ends only when the pool is up and the job is ahead of the pace 2 restarts later; leaving takes
  // a checkpoint write, and a stretch the safety net would not let go of runs to the end.
  void catch_up() {
    const double from = t_, boot = restart(), start = t_ + boot;
    launched_ = true;
    const double end = start + left(), w = job_.work_hours, d = job_.deadline_hours;
    // committed + (t - start) >= pace_at(t + 2 restarts), solved for t.
    const double ahead = w < d ? std::max(start, (2 * job_.restart_hours * w / d - committed_ + start) /
                                                     (1 - w / d))
                               : kForever;
    double leave = kForever;
    if (ahead < end) leave = trace_.up_at(ahead) ? ahead : trace_.next_change();
    const double write = continuous_ ? 0 : job_.checkpoint_write_hours;
    const double kept = committed_ + (leave - start);
    if (leave + write >= end || !leaves_safely(leave + write, kept)) {
      bill_on_demand(boot + left(), from);
      out_.wall_hours = end;
      done_ = true;
      return;
    }
    bill_on_demand(leave + write - from, from);
    committed_ = kept;
    t_ = leave + write;
  }
  bool leaves_safely(double t, double kept) {
    const double before = committed_;
    committed_ = kept;
    const bool safe = safe_to_launch(t);
    committed_ = before;
    return safe;
  }

  // A spot launch at t_ (the pool is up): segments until the job ends, the pool goes down, or the
  // safety net moves the rest to on demand.
  void on_spot() {
    const double launch = t_;
    const double down = trace_.next_change();
    double now = t_ + restart();
    launched_ = true;
    while (true) {
      const double seg = segment_at(now, 0) > 0 ? segment_at(now, 0) : segment();
      const double end = now + seg + write_after(seg);
      reached_ = std::max(reached_, end);
      if (down < end || down < now) {
        if (continuous_) committed_ += std::max(0.0, down - now);
        bill(down - launch, pools_.spot_usd_per_hour);
        ++out_.interruptions;
        t_ = down;
        return;
      }
      now = end;
      committed_ += seg;
      if (left() <= kEps) {
        bill(now - launch, pools_.spot_usd_per_hour);
        out_.wall_hours = now;
        done_ = true;
        return;
      }
      if (aware_ && !safe_to_go_on(now)) {
        bill(now - launch, pools_.spot_usd_per_hour);
        on_demand(now);
        return;
      }
    }
  }

  const Job& job_;
  const Pools& pools_;
  const bool aware_, uniform_;
  Availability trace_;
  const double tau_;
  const bool continuous_;
  double t_ = 0, committed_ = 0, reached_ = 0;
  bool launched_ = false, done_ = false;
  Run out_;
};

}  // namespace

Run simulate(const Job& job, const Pools& pools, Policy policy, std::uint64_t seed) {
  if (policy == Policy::kAllOnDemand) {
    Run out;
    out.wall_hours = job.work_hours;
    out.usd = std::max(job.work_hours, pools.minimum_billing_hours) * pools.on_demand_usd_per_hour;
    out.switch_hours = 0;
    out.on_demand_hours = job.work_hours;
    out.met = job.work_hours <= job.deadline_hours + kEps;
    return out;
  }
  return Simulation(job, pools, policy, Availability(pools, seed)).run();
}

Quantiles quantiles(std::vector<double> v, double repeated, std::size_t copies) {
  const std::size_t n = v.size() + copies;
  if (n == 0) return {};
  std::sort(v.begin(), v.end());
  // The k-th of the sorted values with the copies of `repeated` in their place.
  const std::size_t below =
      static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), repeated) - v.begin());
  const auto nth = [&](std::size_t k) {
    return k < below ? v[k] : k < below + copies ? repeated : v[k - copies];
  };
  const auto at = [&](double q) {
    const double x = q * static_cast<double>(n - 1);
    const std::size_t i = static_cast<std::size_t>(std::floor(x));
    if (i + 1 >= n) return nth(n - 1);
    if (!std::isfinite(nth(i + 1))) return nth(i + 1);
    return nth(i) + (x - static_cast<double>(i)) * (nth(i + 1) - nth(i));
  };
  return {at(0.1), at(0.5), at(0.9)};
}

Quantiles quantiles(std::vector<double> values) { return quantiles(std::move(values), 0, 0); }

PlanSummary plan(const Job& job, const Pools& pools, Policy policy, std::uint64_t seed,
                 std::uint64_t job_index, int traces) {
  PlanSummary s;
  s.policy = policy;
  s.checkpoint_interval_hours =
      policy == Policy::kAllOnDemand ? 0 : checkpoint_interval_hours(job, pools);
  const int n = policy == Policy::kAllOnDemand ? 1 : std::clamp(traces, 1, kMaxTraces);
  // Every trace's cost (the schedule's total adds them trace by trace); the quantiles read the
  // simulated traces' figures beside the count of traces that were the clean run.
  std::vector<double> usd, usd_simulated, wall, switched;
  usd.reserve(static_cast<std::size_t>(n));
  std::size_t met = 0, clean_runs = 0;
  long interruptions = 0;
  double on_demand_hours = 0;
  // Most traces of a reliable pool are up from the start until after the job is done: each such
  // trace gives the run on a pool that never goes down, simulated once. A trace is one of them when
  // it starts up and its first up period, -ln(u) / hazard, reaches the run's last comparison: u at
  // most exp(-hazard x reached), with a margin for rounding; any other trace is simulated.
  Simulation probe(job, pools, policy, Availability::always_up());
  const Run clean = policy == Policy::kAllOnDemand ? Run{} : probe.run();
  const double p_up = spot::p_up(pools.hazard_per_hour, pools.down_mean_hours);
  const double clean_u = pools.hazard_per_hour > 0
                             ? std::exp(-pools.hazard_per_hour * probe.reached()) * (1 - 1e-9)
                             : 1.0;
  for (int k = 0; k < n; ++k) {
    const std::uint64_t ks = trace_seed(seed, job_index, static_cast<std::uint64_t>(k));
    SplitMix64 first(ks);
    if (policy != Policy::kAllOnDemand && first.uniform() < p_up && first.uniform() <= clean_u) {
      usd.push_back(clean.usd);
      ++clean_runs;
      continue;
    }
    const Run run = simulate(job, pools, policy, ks);
    usd.push_back(run.usd);
    usd_simulated.push_back(run.usd);
    wall.push_back(run.wall_hours);
    if (run.switch_hours) switched.push_back(*run.switch_hours);
    met += run.met ? 1 : 0;
    interruptions += run.interruptions;
    on_demand_hours += run.on_demand_hours;
  }
  const std::size_t clean_switched = clean.switch_hours ? clean_runs : 0;
  met += clean.met ? clean_runs : 0;
  s.usd = quantiles(std::move(usd_simulated), clean.usd, clean_runs);
  s.usd_by_trace = std::move(usd);
  s.wall_hours = quantiles(std::move(wall), clean.wall_hours, clean_runs);
  s.p_meet_deadline = static_cast<double>(met) / n;
  s.mean_interruptions = static_cast<double>(interruptions) / n;
  s.p_switched = static_cast<double>(switched.size() + clean_switched) / n;
  s.mean_on_demand_hours = (on_demand_hours + clean.on_demand_hours * clean_runs) / n;
  if (!switched.empty() || clean_switched)
    s.switch_hours = quantiles(std::move(switched), clean.switch_hours.value_or(0), clean_switched);
  return s;
}

std::vector<Slot> edf_schedule(const std::vector<Queued>& jobs, int slots,
                               const std::function<double(std::size_t, double)>& run) {
  std::vector<std::size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (jobs[a].deadline_hours != jobs[b].deadline_hours)
      return jobs[a].deadline_hours < jobs[b].deadline_hours;
    return jobs[a].earliest_start_hours < jobs[b].earliest_start_hours;
  });
  const std::size_t lanes =
      slots > 0 ? static_cast<std::size_t>(slots) : std::max<std::size_t>(1, jobs.size());
  std::vector<double> free_at(lanes, 0.0);
  std::vector<Slot> out;
  for (std::size_t i : order) {
    // The lane free soonest for this job (the lowest-numbered among equals).
    std::size_t lane = 0;
    for (std::size_t l = 1; l < lanes; ++l) {
      if (std::max(free_at[l], jobs[i].earliest_start_hours) <
          std::max(free_at[lane], jobs[i].earliest_start_hours))
        lane = l;
    }
    Slot s;
    s.job = i;
    s.lane = static_cast<int>(lane);
    s.start_hours = std::max(free_at[lane], jobs[i].earliest_start_hours);
    s.end_hours = s.start_hours + run(i, s.start_hours);
    free_at[lane] = s.end_hours;
    out.push_back(s);
  }
  return out;
}

}  // namespace gpufleet::batch
