// The auto-scaling question (docs/api.md, autoscale): a traffic profile on the road's deployment,
// each scaling policy simulated over it (fleet/autoscale.hpp), priced, with the recommended
// autoscaler settings and the committed base.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "api/answers.hpp"
#include "api/questions/questions.hpp"
#include "api/questions/traffic_profile.hpp"
#include "api/session.hpp"
#include "catalog/fields.hpp"
#include "fleet/autoscale.hpp"
#include "fleet/band.hpp"
#include "fleet/recommend.hpp"
#include "support/decimal.hpp"
#include "support/json_guard.hpp"

namespace gpufleet::detail {

Json answer_autoscale(const Catalog& catalog, Session& s, const Json& req);

namespace {

using report::round_to;

// Cold start defaults: estimates, not measurements (docs/api.md, autoscale, says so).
constexpr double kProvisioningS = 180;   // a GPU node launched and joined to the cluster
constexpr double kImagePullS = 60;       // a serving image of about 10 GB at about 200 MB/s
constexpr double kWeightsGbPerS = 1;     // weights read from object or network storage
constexpr double kWarmupS = 60;          // the engine's profiling run and CUDA graph capture

struct ColdStart {
  double provisioning_s = kProvisioningS, image_pull_s = kImagePullS, weights_gb_per_s = kWeightsGbPerS,
         warmup_s = kWarmupS, weights_gb = 0;
  double weights_load_s() const { return weights_gb / weights_gb_per_s; }
  double total_s() const { return provisioning_s + image_pull_s + weights_load_s() + warmup_s; }
};

std::optional<ColdStart> read_cold_start(const Reader& r, const Json* obj, double weights_bytes) {
  ColdStart c;
  c.weights_gb = weights_bytes / 1e9;
  if (obj) {
    const std::string path = "/cold_start";
    fields::check_fields(r, *obj, path, "cold_start");
    c.provisioning_s = r.number(*obj, "provisioning_s", path, false, {0, 3600}).value_or(c.provisioning_s);
    c.image_pull_s = r.number(*obj, "image_pull_s", path, false, {0, 3600}).value_or(c.image_pull_s);
    c.weights_gb_per_s = r.number(*obj, "weights_gb_per_s", path, false, {0, 1e4, true}).value_or(c.weights_gb_per_s);
    c.warmup_s = r.number(*obj, "warmup_s", path, false, {0, 3600}).value_or(c.warmup_s);
    if (!r.ok()) return std::nullopt;
    if (c.total_s() > 3600) {
      r.fail("out_of_range", path, "the cold start adds up to " + text::short_number(round_to(c.total_s(), 1)) +
                                       " s, more than an interval (3600 s)");
      return std::nullopt;
    }
  }
  return c;
}

// The road's deployment for the profile's peak: on the instance type asked, the cheapest of a
// family's, or the cheapest of every family (recommend's first).
std::optional<Deployment> deployment_for(const Catalog& catalog, const Reader& r, const Workload& w,
                                         const Billing& billing, const std::optional<std::string>& name) {
  std::optional<Deployment> best;
  auto keep = [&](Deployment d) {
    refuse_without_speed(d);
    if (!best || (d.runs() && !best->runs()) ||
        (d.runs() == best->runs() && d.cost.usd_per_month.value_or(1e300) < best->cost.usd_per_month.value_or(1e300)))
      best = std::move(d);
  };
  if (name) {
    if (const InstanceType* it = catalog.instance(*name)) {
      keep(best_on(catalog, w, billing, *it));
    } else if (const Family* f = catalog.family(*name)) {
      for (std::size_t index : f->instances) keep(best_on(catalog, w, billing, catalog.instances[index]));
    } else {
      r.fail("unknown_name", "/instance", "expected an instance family or instance type of gpu_instances.json, got \"" + *name + "\"");
      return std::nullopt;
    }
  } else {
    Question q;
    q.w = w;
    q.billing = billing;
    q.kinds = {"gpu", "inferentia"};
    Recommendation rec = recommend(catalog, q);
    for (auto& c : rec.ranked)
      if (c.d.runs() && c.d.inference) return std::move(c.d);
    r.fail("cannot_answer", "", "no family serves the model at the profile's peak");
    return std::nullopt;
  }
  if (!best || !best->runs() || !best->inference) {
    r.fail("cannot_answer", "/instance",
           "the model cannot be served there: " + (best ? best->refusal + (best->way_out.empty() ? "" : "; " + best->way_out) : std::string("no instance")));
    return std::nullopt;
  }
  return best;
}

// One instance of the deployment's type, priced the way `billing` asks (a flagged price comes from
// the nearest trustworthy region, and says so).
Cost instance_cost(const Catalog& catalog, const Deployment& d, const Billing& billing) {
  const InstanceType& it = *d.instance;
  return cost_of(catalog, Placement{&it, it.gpus, 1, it.name, false, ""}, billing, false, false);
}

std::string number_text(double v) { return text::short_number(v); }

Json rounded(const std::vector<double>& values, int decimals) {
  Json list = Json::array();
  for (double v : values) list.push_back(round_to(v, decimals));
  return list;
}


// The policy asked (its members over the defaults in `st`); false with the fault.
bool read_policy(Reader& r, const Json& policy, ScalingSettings& st, bool& target_asked) {
  const std::string path = "/policy";
  fields::check_fields(r, policy, path, "autoscale_policy");
  const std::string kind = lower(r.string(policy, "kind", path, false).value_or("target_tracking"));
  if (auto p = parse_scaling_policy(kind)) st.policy = *p;
  else r.fail("unknown_name", path + "/kind", "expected target_tracking, scheduled or oracle, got \"" + kind + "\"");
  const std::string metric = lower(r.string(policy, "metric", path, false).value_or("concurrency"));
  if (auto m = parse_scaling_metric(metric)) st.metric = *m;
  else r.fail("unknown_name", path + "/metric", "expected concurrency, queue_length or requests_per_s, got \"" + metric + "\"");
  auto target = r.number(policy, "target", path, false, {0, 1e7, true});
  auto lo = r.number(policy, "min_replicas", path, false, {0, 10000});
  auto hi = r.number(policy, "max_replicas", path, false, {1, 10000});
  st.control_period_s = r.number(policy, "control_period_s", path, false, {5, 3600}).value_or(st.control_period_s);
  st.scale_up_delay_s = r.number(policy, "scale_up_delay_s", path, false, {0, 86400}).value_or(st.scale_up_delay_s);
  st.scale_down_delay_s = r.number(policy, "scale_down_delay_s", path, false, {0, 86400}).value_or(st.scale_down_delay_s);
  st.tolerance = r.number(policy, "tolerance", path, false, {0, 1, false}).value_or(st.tolerance);
  if (!r.ok()) return false;
  if (lo) st.min_replicas = static_cast<int>(std::floor(*lo));
  if (hi) st.max_replicas = static_cast<int>(std::floor(*hi));
  if (st.min_replicas > st.max_replicas) {
    r.fail("out_of_range", path + (hi ? "/max_replicas" : "/min_replicas"),
           "expected min_replicas <= max_replicas, got " + decimal::whole(static_cast<std::size_t>(st.min_replicas)) + " and " +
               decimal::whole(static_cast<std::size_t>(st.max_replicas)));
    return false;
  }
  if (target) {
    st.target = *target;
    target_asked = true;
  }
  return true;
}

Json deployment_json(const Deployment& d, const AutoscaleQuestion& q, const Billing& billing, const Cost& above, double target_rps,
                     int peak) {
  Json dep = report::object(16);
  const InstanceType& it = *d.instance;
  dep["instance"] = it.name;
  dep["provider"] = it.provider;
  dep["region"] = it.region;
  dep["tensor_parallel"] = d.layout.tensor_parallel;
  dep["pipeline_parallel"] = d.layout.pipeline_parallel;
  dep["gpus_per_replica"] = round_to(q.replica.gpus, 3);
  dep["concurrency_per_replica"] = round_to(q.replica.concurrency, 1);
  dep["requests_per_s_per_replica"] = round_to(std::min(q.replica.copy_rps, q.replica.prefill_rps), 3);
  dep["target_requests_per_s_per_replica"] = round_to(target_rps, 3);
  dep["ttft_ms"] = round_to(q.replica.ttft_ms, 1);
  dep["pricing"] = billing.pricing();
  dep["replicas_per_instance"] = q.replica.copies_per_unit;
  dep["instances_per_replica"] = q.replica.instances_per_unit;
  dep["usd_per_instance_hour"] = round_to(q.replica.usd_per_unit_hour / q.replica.instances_per_unit, 4);
  if (!above.price_flags.empty())
    dep["priced_from_region"] = above.priced_from_region.empty() ? Json(nullptr) : Json(above.priced_from_region);
  dep["replicas_at_peak"] = peak;
  return dep;
}

Json profile_json(const Profile& profile, double peak_rps) {
  Json prof = report::object(8);
  prof["source"] = profile.source;
  prof["intervals"] = profile.rps.size();
  prof["interval_s"] = 3600;
  if (!profile.start.empty()) prof["start"] = profile.start;
  if (!profile.shape.empty()) {
    prof["shape"] = profile.shape;
    prof["shape_source"] = profile.shape_source;
    prof["synthetic"] = profile.shape_synthetic;
  }
  prof["time_zone"] = "UTC";
  prof["requests_per_s"] = rounded(profile.rps, 4);
  prof["peak_requests_per_s"] = round_to(peak_rps, 4);
  prof["month"] = profile.month;
  return prof;
}

Json cold_start_json(const ColdStart& cold) {
  Json cs = report::object(8);
  cs["provisioning_s"] = round_to(cold.provisioning_s, 1);
  cs["image_pull_s"] = round_to(cold.image_pull_s, 1);
  cs["weights_gb"] = round_to(cold.weights_gb, 2);
  cs["weights_gb_per_s"] = round_to(cold.weights_gb_per_s, 3);
  cs["weights_load_s"] = round_to(cold.weights_load_s(), 1);
  cs["warmup_s"] = round_to(cold.warmup_s, 1);
  cs["total_s"] = round_to(cold.total_s(), 1);
  cs["basis"] = "defaults are estimates, not measurements: a GPU node launched and joined to the cluster 180 s, a serving "
                "image of about 10 GB pulled 60 s, the weights read at 1 GB/s from object storage, the engine's "
                "profiling run and CUDA graph capture 60 s (docs/api.md, autoscale)";
  return cs;
}

Json policy_json(const ScalingSettings& st) {
  Json simulated = report::object(10);
  simulated["name"] = to_string(st.policy);
  simulated["metric"] = to_string(st.metric);
  simulated["target"] = round_to(st.target, 3);
  simulated["min_replicas"] = st.min_replicas;
  simulated["max_replicas"] = st.max_replicas;
  simulated["control_period_s"] = st.control_period_s;
  simulated["scale_up_delay_s"] = st.scale_up_delay_s;
  simulated["scale_down_delay_s"] = st.scale_down_delay_s;
  simulated["tolerance"] = st.tolerance;
  return simulated;
}

Json policies_json(const AutoscaleResult& res, const AutoscaleQuestion& q) {
  Json policies = Json::array();
  for (const PolicyRun& run : res.runs) {
    Json p = report::object(8);
    p["name"] = to_string(run.policy);
    p["replicas"] = rounded(run.replicas, 3);
    p["replica_hours_per_month"] = round_to(run.replica_hours * q.month_scale, 1);
    p["instance_hours_per_month"] = round_to(run.unit_hours * q.replica.instances_per_unit * q.month_scale, 1);
    p["usd_per_month"] = round_to(run.usd_per_month, 2);
    p["gpu_hours_idle"] = round_to(run.gpu_hours_idle, 1);
    p["slo_attainment"] = round_to(run.slo_attainment(), 4);
    policies.push_back(std::move(p));
  }
  return policies;
}

// The answer at the measured error of the copy's throughput (fleet/band.hpp): each policy's monthly
// cost and the peak's replicas at throughput / (1 - p90) (low) and / (1 + p90) (high), a null end
// unbounded; without a measured case, a text that says so.
Json band_json(const ErrorKind& kind, const AutoscaleResult& asked, const std::optional<AutoscaleResult>& slow,
               const std::optional<AutoscaleResult>& fast, Json& policies) {
  if (!slow) return report::no_band(kind);
  Json band = report::object(4);
  auto range = [](std::optional<double> low, double high) {
    return Json{{"low", low ? Json(*low) : Json(nullptr)}, {"high", high}};
  };
  for (std::size_t i = 0; i < asked.runs.size() && i < policies.size(); ++i)
    policies[i]["usd_per_month_band"] =
        range(fast ? std::optional<double>(round_to(fast->runs[i].usd_per_month, 2)) : std::nullopt,
              round_to(slow->runs[i].usd_per_month, 2));
  band["peak_replicas"] = range(fast ? std::optional<double>(fast->peak) : std::nullopt, slow->peak);
  const Json& last = policies[asked.runs.size() - 1];
  const Json& cost = last["usd_per_month_band"];
  auto span = [](const Json& r, const std::string& unit, bool money) {
    auto one = [&](const Json& v) { return money ? usd(v.get<double>()) : report::short_number(v.get<double>()); };
    return (r["low"].is_null() ? "up to " : one(r["low"]) + "-") + one(r["high"]) + unit;
  };
  band["text"] = span(band["peak_replicas"], " replicas at the peak", false) + ", " +
                 span(cost, "/month", true) + " under " + last["name"].get<std::string>() +
                 report::at_measured_error(*kind.measured);
  band["expected_error"] = report::band_error(kind);
  return band;
}

// The target-tracking policy advised: the profile's fewest and most replicas, no scale-up delay, a
// scale-down window at least the cold start.
Json recommended_json(const ScalingSettings& st, int least, int peak, const ColdStart& cold, double target_rps,
                      const ReplicaModel& replica, bool target_asked) {
  ScalingSettings advised = st;
  advised.policy = ScalingPolicy::kTargetTracking;
  advised.min_replicas = std::max(1, least);
  advised.max_replicas = peak;
  advised.scale_up_delay_s = 0;
  advised.scale_down_delay_s = std::max(300.0, std::ceil(cold.total_s()));
  Json rec = report::object(10);
  rec["min_replicas"] = advised.min_replicas;
  rec["max_replicas"] = advised.max_replicas;
  rec["metric"] = to_string(advised.metric);
  rec["threshold"] = round_to(advised.target, 2);
  rec["control_period_s"] = advised.control_period_s;
  rec["scale_up_delay_s"] = advised.scale_up_delay_s;
  rec["scale_down_delay_s"] = advised.scale_down_delay_s;
  rec["basis"] = advised.metric == ScalingMetric::kConcurrency && !target_asked
                     ? "threshold = requests in flight per replica at the target: the road's requests/s per replica at the target "
                       "utilization with the p95 TTFT met (" + number_text(round_to(target_rps, 3)) + ") x a slot's hold time (" +
                           number_text(round_to(replica.hold_s(), 3)) + " s); min and max: the fewest and most replicas the profile needs; "
                           "scale-down window at least the cold start"
                     : advised.metric == ScalingMetric::kRequestsPerS && !target_asked
                       ? "threshold = the road's requests/s per replica at the target utilization with the p95 TTFT met; min and max: "
                         "the fewest and most replicas the profile needs; scale-down window at least the cold start"
                   : advised.metric == ScalingMetric::kQueueLength && !target_asked
                       ? "threshold: one request waiting per replica, a default not derived from the road (give policy.target); "
                         "min and max: the fewest and most replicas the profile needs; scale-down window at least the cold start"
                       : "threshold as asked; min and max: the fewest and most replicas the profile needs; scale-down window at least the cold start";
  return rec;
}

Json base_json(const std::string& commitment, const AutoscaleResult& res, const ReplicaModel& replica) {
  Json base = report::object(6);
  base["commitment"] = commitment;
  base["replicas"] = res.base.replicas;
  base["instances"] = round_to(res.base.units * replica.instances_per_unit, 0);
  base["usd_per_month"] = report::report_optional(res.base.usd_per_month, 2);
  base["usd_per_instance_hour"] = replica.committed_usd_per_unit_hour
                                     ? Json(round_to(*replica.committed_usd_per_unit_hour / replica.instances_per_unit, 4))
                                     : Json(nullptr);
  base["break_even_utilization"] = report::report_optional(res.base.break_even_utilization, 4);
  base["basis"] = replica.committed_usd_per_unit_hour
                      ? "the most instances needed in more than a share c/o of the hours (c, o: the committed and the above-base "
                        "hourly rates), billed 730 h a month as every commitment is; the oracle's instances above it at the "
                        "above-base rate"
                      : "no public commitment price for this family: no base";
  return base;
}

// What the figures leave out: an uncalibrated replica, and target tracking below the oracle.
Json notes_of(const Deployment& d, const ErrorKind& throughput, const Profile& profile,
              const AutoscaleQuestion& q, const ScalingSettings& st, const AutoscaleResult& res) {
  Json notes = Json::array();
  if (!profile.gaps.empty()) notes.push_back(profile.gaps);
  if (d.uncalibrated) notes.push_back("the replica, " + report::uncalibrated_caveat(d, throughput));
  const PolicyRun& oracle = res.runs.front();
  for (const PolicyRun& run : res.runs)
    if (run.policy == ScalingPolicy::kTargetTracking && run.usd_per_month < oracle.usd_per_month - 0.005)
      notes.push_back("target_tracking costs less than the oracle: within the tolerance (" + number_text(st.tolerance * 100) +
                      " %) it leaves replicas above the target utilization the oracle sizes for (" +
                      number_text(q.replica.target_utilization * 100) + " %), at SLO attainment " +
                      number_text(round_to(run.slo_attainment() * 100, 2)) + " %");
  return notes;
}

}  // namespace

Json answer_autoscale(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  auto w = s.road_workload(req, "", false);
  auto billed = s.billing(req, "");
  const Json* profile_obj = r.object(req, "profile", "", true);
  const Json* policy_obj = r.object(req, "policy", "", false);
  const Json* cold_obj = r.object(req, "cold_start", "", false);
  auto instance = r.string(req, "instance", "", false);
  const std::string commitment = lower(r.string(req, "commitment", "", false).value_or("reserved_1y"));
  if (!w || !billed || !profile_obj || !r.ok()) return nullptr;
  if (w->task != WorkloadType::kInference) {
    r.fail("unknown_name", "/workload", "autoscale sizes online inference: expected inference, got \"" + to_string(w->task) + "\"");
    return nullptr;
  }
  if (w->demand.requests_per_s || w->demand.tokens_per_month) {
    r.fail("unknown_field", w->demand.requests_per_s ? "/demand/requests_per_s" : "/demand/tokens_per_month",
           "autoscale reads the rate from profile, not from the demand");
    return nullptr;
  }
  if (billed->committed()) {
    r.fail("unknown_name", "/pricing",
           "pricing is the way to pay above the committed base: on_demand, spot or mixed (the base's is \"commitment\")");
    return nullptr;
  }
  auto commit_mode = parse_payment_mode(commitment);
  if (!commit_mode || (*commit_mode != PaymentMode::kReserved1y && *commit_mode != PaymentMode::kReserved3y)) {
    r.fail("unknown_name", "/commitment", "expected reserved_1y or reserved_3y, got \"" + commitment + "\"");
    return nullptr;
  }
  auto profile = read_profile(r, *profile_obj);
  if (!profile) return nullptr;
  const double peak_rps = *std::max_element(profile->rps.begin(), profile->rps.end());
  if (!(peak_rps > 0)) {
    r.fail("out_of_range", "/profile", "the profile has no requests: nothing to scale");
    return nullptr;
  }

  // The road at the peak: the deployment, its copy's capacity and concurrency.
  Workload at_peak = *w;
  at_peak.demand.requests_per_s = peak_rps;
  auto d = deployment_for(catalog, r, at_peak, *billed, instance);
  if (!d) return nullptr;

  AutoscaleQuestion q;
  q.rps = profile->rps;
  q.month_scale = profile->month_scale;
  q.month_hours = kAlwaysOnHoursPerMonth;  // a commitment bills every hour: 730 h, as cost bills it
  q.replica = replica_model(*d, at_peak.demand);
  const Cost above = instance_cost(catalog, *d, *billed);
  if (!above.usd_per_hour) {
    r.fail("cannot_answer", "/instance", d->instance->name + " has no " + billed->pricing() + " price in " + d->instance->region);
    return nullptr;
  }
  q.replica.usd_per_unit_hour = *above.usd_per_hour * q.replica.instances_per_unit;
  Billing commit;
  commit.mode = *commit_mode;
  commit.hours_per_month = kAlwaysOnHoursPerMonth;
  if (const Cost c = instance_cost(catalog, *d, commit); c.usd_per_hour)
    q.replica.committed_usd_per_unit_hour = *c.usd_per_hour * q.replica.instances_per_unit;

  auto cold = read_cold_start(r, cold_obj, d->memory ? d->memory->weights_bytes : 0);
  if (!cold) return nullptr;

  // The need per interval, then the policy asked, its defaults from the need.
  std::vector<int> needed = needs_of(q);
  const int peak = *std::max_element(needed.begin(), needed.end());
  int least = peak;
  for (int n : needed) least = std::min(least, n);
  const double target_rps = target_rps_per_replica(q.replica);

  ScalingSettings& st = q.settings;
  st.cold_start_s = cold->total_s();
  st.min_replicas = std::max(1, least);
  st.max_replicas = peak;
  bool target_asked = false;
  if (policy_obj && !read_policy(r, *policy_obj, st, target_asked)) return nullptr;
  if (!(st.target > 0)) {
    st.target = st.metric == ScalingMetric::kConcurrency ? target_rps * q.replica.hold_s()
                : st.metric == ScalingMetric::kRequestsPerS ? target_rps
                                                            : 1.0;
  }
  const AutoscaleResult res = autoscale(q, std::move(needed));
  const ErrorKind kind = throughput_kind(catalog, *w, *d->instance);
  std::optional<AutoscaleResult> slow, fast;
  if (kind.measured) {
    const bool derived_bounds = st.min_replicas == std::max(1, least) && st.max_replicas == peak;
    const double p90 = kind.measured->p90_abs_err_pct / 100;
    slow = autoscale_at_throughput(q, 1 / (1 + p90), derived_bounds, !target_asked);
    if (p90 < 1) fast = autoscale_at_throughput(q, 1 / (1 - p90), derived_bounds, !target_asked);
  }

  Json result = report::object(12);
  result["request"] = report::workload(*w);
  result["deployment"] = deployment_json(*d, q, *billed, above, target_rps, peak);
  result["profile"] = profile_json(*profile, peak_rps);
  result["cold_start"] = cold_start_json(*cold);
  result["policy"] = policy_json(st);
  Json needed_json = Json::array();
  for (int n : res.needed) needed_json.push_back(n);
  result["needed_replicas"] = std::move(needed_json);

  result["policies"] = policies_json(res, q);
  result["band"] = band_json(kind, res, slow, fast, result["policies"]);
  result["recommended"] = recommended_json(st, least, peak, *cold, target_rps, q.replica, target_asked);
  result["committed_base"] = base_json(commitment, res, q.replica);
  result["basis"] = "needed replicas per hour: the road's rule (ceil(requests/s / (capacity x target utilization)), then more until "
                    "the p95 TTFT target is met); target_tracking simulated every control period as the Kubernetes HPA "
                    "(ceil(replicas x metric / target), tolerance, stabilization windows), new replicas serving after the cold "
                    "start and billed from their launch; scheduled: each hour of the day the most any day needs, started a cold "
                    "start ahead; slo_attainment: the share of requests arriving while the replicas up meet the p95 TTFT target; "
                    "monthly: " + profile->month + " x the whole instances the replicas occupy x the instance-hour rate";
  // The engine labels its metrics with the served model's name: the Hugging Face id it loads.
  result["recommended"]["keda_scaled_object"] = keda_for_autoscale(catalog, result);
  result["notes"] = notes_of(*d, kind, *profile, q, st, res);
  return report::price_flags_first(std::move(result), above);
}

}  // namespace gpufleet::detail
