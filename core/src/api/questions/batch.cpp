// The batch question (issue 35): jobs with deadlines planned on spot and on-demand pools. Each
// job's work comes from the road (its run on one deployment), each pool's interruptions from the
// spot question's bands; fleet/batch.cpp simulates the policies on seeded traces and queues the
// jobs earliest deadline first. docs/batch.md states the model.
#include "fleet/batch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

#include "api/answers.hpp"
#include "api/questions/questions.hpp"
#include "catalog/batch_api.hpp"
#include "catalog/fields.hpp"
#include "fleet/band.hpp"
#include "fleet/road.hpp"
#include "fleet/spot.hpp"
#include "pricing/prices.hpp"
#include "support/decimal.hpp"
#include "support/text.hpp"

namespace gpufleet::detail {
namespace {

using report::round_to;

constexpr std::size_t kMaxJobs = 64;
constexpr std::size_t kMaxTypes =
    4;  // instance types simulated per job (the cheapest runs on demand)
constexpr double kMaxHours = 87600;  // ten years

// The pools one instance type offers a job: its cheapest on-demand offer, and the cheapest spot
// offer with a published interruption band.
struct TypePools {
  const InstanceType* type = nullptr;
  const InstanceType* on_demand = nullptr;
  const InstanceType* spot = nullptr;
};

struct Settings {
  spot::Reading reading = spot::Reading::kReclaimedFraction;
  double replacement_h = 10.0 / 60;
  double restart_s = 600;
  std::uint64_t seed = 1;
  int traces = batch::kDefaultTraces;
};

// A job as asked.
struct JobAsk {
  std::string path;  // "" for a single job, else /jobs/i
  std::string name;
  Workload w;
  double deadline_h = 0, earliest_h = 0;
  std::optional<double> checkpoint_write_s;  // as given; else from the model and the storage
};

// A job on one instance type: the road's deployment and its plans at a start.
struct JobOnType {
  const TypePools* pools = nullptr;
  Deployment d;
  batch::Job job;
  double checkpoint_write_s = 0;
  std::string checkpoint_basis;
  batch::Pools rates;
  std::vector<batch::PlanSummary> plans;  // all_on_demand, all_spot, deadline_aware, uniform_progress
};

Json finite(double v, int decimals) {
  return std::isfinite(v) ? Json(round_to(v, decimals)) : Json(nullptr);
}
Json quantiles(const batch::Quantiles& q, int decimals) {
  return {{"p10", finite(q.p10, decimals)},
          {"p50", finite(q.p50, decimals)},
          {"p90", finite(q.p90, decimals)}};
}

bool usable(const InstanceType& o) { return o.price_flags.empty() && o.on_demand_usd_per_hour; }

std::vector<TypePools> pools_of(const Catalog& catalog, const RegionChoice& choice,
                                const std::vector<std::string>& only,
                                const std::vector<std::string>& providers) {
  std::vector<TypePools> out;
  for (const InstanceType& it : catalog.instances) {
    if (!only.empty() && std::none_of(only.begin(), only.end(),
                                      [&](const std::string& n) { return iequals(n, it.name); }))
      continue;
    if (!providers.empty() &&
        std::find(providers.begin(), providers.end(), it.provider) == providers.end())
      continue;
    if (it.accelerator_kind == "cpu") continue;
    TypePools t;
    t.type = &it;
    for (const InstanceType* o : offers_in(catalog, it.name, choice)) {
      if (o->family_key != it.family_key || !usable(*o)) continue;
      if (!t.on_demand || *o->on_demand_usd_per_hour < *t.on_demand->on_demand_usd_per_hour)
        t.on_demand = o;
      if (o->spot_usd_per_hour && o->interruption_band &&
          *o->spot_usd_per_hour < *o->on_demand_usd_per_hour &&
          (!t.spot || *o->spot_usd_per_hour < *t.spot->spot_usd_per_hour))
        t.spot = o;
    }
    if (t.on_demand && t.spot) out.push_back(t);
  }
  return out;
}

double hazard_of(const InstanceType& spot, const Settings& s) {
  const InterruptionBand& b = *spot.interruption_band;
  return spot::hazard_per_hour(spot::band_point_pct(b.low_pct, b.high_pct), s.reading);
}

// Seconds to write one checkpoint of the job on `d` and why: as given; 0 for batch inference, which
// keeps each output; else the weights (a full run's) and the optimizer states (with fp32 master
// weights) the checkpoint holds, over the write speed of the provider's default storage.
std::pair<double, std::string> checkpoint_write(const Catalog& catalog, const JobAsk& ask,
                                                const Deployment& d) {
  if (ask.checkpoint_write_s) return {*ask.checkpoint_write_s, "given (checkpoint_write_s)"};
  if (!ask.w.trains()) return {0, "batch inference keeps each output as it is written"};
  const ProviderTerms* terms = catalog.provider(d.instance->provider);
  auto opt = catalog.memory.optimizers.find(ask.w.recipe.optimizer);
  if (!d.memory || !terms || !terms->checkpoint_write_mib_per_s ||
      opt == catalog.memory.optimizers.end())
    return {60, "60 s, a flat default: the catalog gives no checkpoint storage speed for " +
                    d.instance->provider};
  const bool adapters = ask.w.task == WorkloadType::kLora || ask.w.task == WorkloadType::kQlora;
  const double trainable = d.memory->trainable_parameters;
  const double weights = adapters ? trainable * 2 : d.memory->weights_bytes;
  const double states = trainable * (opt->second.bytes_per_parameter +
                                     (ask.w.recipe.master_weights && !adapters ? 4 : 0));
  const double bytes_per_s = *terms->checkpoint_write_mib_per_s * 1048576;
  const auto size = [](double bytes) {  // decimal GB, or MB below a GB
    return bytes >= 1e9 ? text::short_number(std::round(bytes / 1e8) / 10) + " GB"
                        : text::short_number(std::round(bytes / 1e5) / 10) + " MB";
  };
  return {(weights + states) / bytes_per_s,
          size(weights + states) + " (" + (adapters ? "16-bit adapter weights " : "weights ") +
              size(weights) + " + " + opt->first + " states" +
              (ask.w.recipe.master_weights && !adapters ? " and fp32 master weights " : " ") +
              size(states) + ") / " + text::short_number(*terms->checkpoint_write_mib_per_s) +
              " MiB/s: " + terms->checkpoint_write_source + " (" +
              terms->checkpoint_write_source_date + ")"};
}

// The road's deployment of the job on each type, the cheapest runs on demand first.
std::vector<JobOnType> deployments(const Catalog& catalog, const JobAsk& ask,
                                   const Billing& billing, const std::vector<TypePools>& types,
                                   const Settings& s) {
  std::vector<JobOnType> out;
  for (const TypePools& t : types) {
    JobOnType j;
    j.pools = &t;
    j.d = best_on(catalog, ask.w, billing, *t.on_demand);
    if (!j.d.runs() || !j.d.run_hours || !j.d.cost.usd_per_hour || *j.d.run_hours <= 0) continue;
    const double n = std::max(1, j.d.instance_count);
    const ProviderTerms* terms = catalog.provider(t.on_demand->provider);
    std::tie(j.checkpoint_write_s, j.checkpoint_basis) = checkpoint_write(catalog, ask, j.d);
    j.job = {*j.d.run_hours, 0, s.restart_s / 3600, j.checkpoint_write_s / 3600};
    j.rates = {*t.spot->spot_usd_per_hour * n, *t.on_demand->on_demand_usd_per_hour * n,
               hazard_of(*t.spot, s) * n, s.replacement_h,
               terms ? terms->minimum_billing_seconds / 3600 : 0};
    out.push_back(std::move(j));
  }
  std::stable_sort(out.begin(), out.end(), [](const JobOnType& a, const JobOnType& b) {
    return *a.d.run_hours * a.rates.on_demand_usd_per_hour <
           *b.d.run_hours * b.rates.on_demand_usd_per_hour;
  });
  if (out.size() > kMaxTypes) out.resize(kMaxTypes);
  return out;
}

// The type whose deadline-aware plan costs least at the median over a window of `window_h` from
// the job's start, among those that can meet the window; only the chosen type's other plans are
// simulated, since only its plans are shown.
JobOnType& choose(std::vector<JobOnType>& options, double window_h, std::size_t index,
                  const Settings& s) {
  JobOnType* best = nullptr;
  const auto rank = [&](const JobOnType& x) {
    return std::make_pair(x.job.work_hours > window_h + 1e-9, x.plans[0].usd.p50);
  };
  for (JobOnType& o : options) {
    o.job.deadline_hours = window_h;
    o.plans.assign(
        1, batch::plan(o.job, o.rates, batch::Policy::kDeadlineAware, s.seed, index, s.traces));
    if (!best || rank(o) < rank(*best)) best = &o;
  }
  batch::PlanSummary aware = std::move(best->plans[0]);
  best->plans.clear();
  for (batch::Policy p : {batch::Policy::kAllOnDemand, batch::Policy::kAllSpot})
    best->plans.push_back(batch::plan(best->job, best->rates, p, s.seed, index, s.traces));
  best->plans.push_back(std::move(aware));
  best->plans.push_back(batch::plan(best->job, best->rates, batch::Policy::kUniformProgress, s.seed,
                                    index, s.traces));
  return *best;
}

const char* kPlanNames[] = {"all_on_demand", "all_spot", "deadline_aware", "uniform_progress"};

Json plan_json(const batch::PlanSummary& p, const JobOnType& j) {
  Json o = report::object(10);
  const int i = static_cast<int>(p.policy);
  o["name"] = kPlanNames[i];
  o["cost_usd"] = quantiles(p.usd, 2);
  o["wall_hours"] = quantiles(p.wall_hours, 2);
  o["p_meet_deadline"] = round_to(p.p_meet_deadline, 4);
  o["checkpoint_interval_s"] = p.policy == batch::Policy::kAllOnDemand
                                   ? Json(nullptr)
                                   : Json(round_to(p.checkpoint_interval_hours * 3600, 1));
  o["expected_interruptions"] = round_to(p.mean_interruptions, 4);
  o["expected_on_demand_hours"] = round_to(p.mean_on_demand_hours, 4);
  Json sw = report::object(4);
  if (p.policy == batch::Policy::kAllOnDemand) {
    sw["rule"] = "on demand from the start";
  } else if (p.policy == batch::Policy::kAllSpot) {
    sw["rule"] = "never: waits for spot capacity";
  } else if (p.policy == batch::Policy::kUniformProgress) {
    sw["rule"] =
        "whenever spot is down and the job is behind an even pace to the deadline (work x hours / "
        "deadline), until it is ahead of the pace two restarts later and spot is up again; for the "
        "rest when the deadline-aware policy would";
    sw["latest_hours"] =
        round_to(std::max(0.0, j.job.deadline_hours - j.job.work_hours - j.job.restart_hours), 2);
  } else {
    sw["rule"] =
        "when a spot run lost just before its next checkpoint would leave less than a restart plus "
        "the remaining work before the deadline";
    sw["latest_hours"] =
        round_to(std::max(0.0, j.job.deadline_hours - j.job.work_hours - j.job.restart_hours), 2);
  }
  sw["p_switched"] = round_to(p.p_switched, 4);
  sw["hours"] = p.switch_hours && (p.policy == batch::Policy::kDeadlineAware ||
                                   p.policy == batch::Policy::kUniformProgress)
                    ? quantiles(*p.switch_hours, 2)
                    : Json(nullptr);
  o["switch_to_on_demand"] = std::move(sw);
  return o;
}

// The job's workload in brief (report::workload says every stated default, once per job).
Json workload_json(const Workload& w) {
  const Json full = report::workload(w);
  const Json& m = full["model"];
  Json o = report::object(6);
  o["model"] = m.contains("key") ? m["key"] : m.contains("label") ? m["label"] : Json(nullptr);
  o["workload"] = full["workload"];
  o["weight_format"] = full["weight_format"];
  o["dataset_tokens"] = *w.demand.dataset_tokens;
  o["epochs"] = w.demand.epochs;
  return o;
}

Json pool_json(const InstanceType& o, double usd_per_hour) {
  return {{"instance", o.name},
          {"region", o.region},
          {"provider", o.provider},
          {"usd_per_hour", round_to(usd_per_hour, 4)}};
}

// A batch-inference job's tokens at each provider's batch API (the catalog's
// providers.<p>.batch_api, stated once in result.batch_apis): a hosted model's price, beside the
// GPU plans; refused, with the reason, where the catalog carries no real-time token price of the
// job's model at that service to take the discount off.
Json batch_api_json(const std::vector<BatchApi>& apis, const JobAsk& ask) {
  const Workload& w = ask.w;
  const std::string model = w.model.named ? w.model.named->key : "";
  const double output = *w.demand.dataset_tokens;
  const double input = output * w.demand.input_tokens / std::max(1.0, w.demand.output_tokens);
  Json offers = Json::array();
  for (const BatchApi& api : apis) {
    Json o = report::object(6);
    o["provider"] = api.provider;
    o["service"] = api.name;
    const auto price = model.empty() ? api.token_prices.end() : api.token_prices.find(model);
    if (price == api.token_prices.end()) {
      o["cost_usd"] = nullptr;
      o["refused"] = "the catalog carries no real-time token price of " +
                     (model.empty() ? std::string("a model given by its size") : model) +
                     " at this service to take its discount off (result.batch_apis says why)";
    } else {
      const TokenPrice& t = price->second;
      o["list_usd_per_million_tokens"] = {{"input", t.input_usd_per_million_tokens},
                                          {"output", t.output_usd_per_million_tokens},
                                          {"source", t.source},
                                          {"source_date", t.source_date}};
      o["cost_usd"] = round_to(
          (input * t.input_usd_per_million_tokens + output * t.output_usd_per_million_tokens) /
              1e6 * (1 - api.discount_pct / 100),
          2);
    }
    offers.push_back(std::move(o));
  }
  return {{"input_tokens", round_to(input, 0)},
          {"output_tokens", round_to(output, 0)},
          {"offers", std::move(offers)}};
}

// The batch APIs the jobs' batch_api offers price at, each with its discount and source, once.
Json batch_apis_json(const std::vector<BatchApi>& apis) {
  Json out = Json::array();
  for (const BatchApi& api : apis) {
    out.push_back(
        {{"provider", api.provider},
         {"service", api.name},
         {"discount_pct", api.discount_pct},
         {"turnaround_hours", api.turnaround_hours ? Json(*api.turnaround_hours) : Json(nullptr)},
         {"applies_to", api.applies_to},
         {"source", api.source},
         {"source_date", api.source_date},
         {"token_prices_notes", api.token_prices_notes},
         {"basis",
          "a hosted model's tokens, not a GPU plan: the model's real-time list price per "
          "token at the service less this discount"}});
  }
  return out;
}

Json job_json(const Catalog& catalog, const JobAsk& ask, const JobOnType& j, double start_h,
              double minimum_h, const std::string& fastest) {
  Json o = report::object(16);
  o["name"] = ask.name;
  o["workload"] = workload_json(ask.w);
  o["earliest_start_hours"] = round_to(ask.earliest_h, 2);
  o["deadline_hours"] = round_to(ask.deadline_h, 2);
  o["start_hours"] = round_to(start_h, 2);
  o["work_hours"] = round_to(j.job.work_hours, 4);
  o["work_gpu_hours"] = round_to(j.job.work_hours * j.d.gpus, 2);
  o["minimum_deadline_hours"] = {{"hours", round_to(minimum_h, 2)}, {"instance", fastest}};
  o["deployment"] = {
      {"instance", j.d.instance->name}, {"instances", j.d.instance_count}, {"gpus", j.d.gpus}};
  Json spot_pool = pool_json(*j.pools->spot, j.rates.spot_usd_per_hour);
  if (const std::string basis = spot_zone_basis(*j.pools->spot); !basis.empty())
    spot_pool["spot_basis"] = basis;
  const InterruptionBand& b = *j.pools->spot->interruption_band;
  spot_pool["interruption_band"] = report::interruption_band(b, catalog);
  spot_pool["job_hazard_per_hour"] = round_to(j.rates.hazard_per_hour, 8);
  spot_pool["p_up"] = round_to(spot::p_up(j.rates.hazard_per_hour, j.rates.down_mean_hours), 6);
  o["pools"] = {{"on_demand", pool_json(*j.pools->on_demand, j.rates.on_demand_usd_per_hour)},
                {"spot", std::move(spot_pool)}};
  o["checkpoint_write_s"] = round_to(j.checkpoint_write_s, 2);
  o["checkpoint_write_basis"] = j.checkpoint_basis;
  Json plans = Json::array();
  for (const batch::PlanSummary& p : j.plans) plans.push_back(plan_json(p, j));
  o["plans"] = std::move(plans);
  if (ask.w.task == WorkloadType::kBatchInference)
    o["batch_api"] = batch_api_json(batch_apis(catalog), ask);
  return o;
}

// The chosen plan at the measured error of the job's throughput: the work at each end of the band,
// simulated with the same deadline-aware policy, traces and seed; its median cost and its chance
// of meeting the deadline at each end.
Json job_band(const Catalog& catalog, const JobAsk& ask, const JobOnType& j, std::size_t index,
              const Settings& set) {
  // The job keeps its instances: only its work changes, W x (1 + p90) slow and W x (1 - p90) fast
  // (none left when p90 reaches 100 %), never a fleet resized for the demand as a serving band is.
  const ErrorKind kind = throughput_kind(catalog, ask.w, *j.d.instance);
  if (!kind.measured) return report::no_band(kind);
  const double p90 = kind.measured->p90_abs_err_pct / 100;
  const double fast_h = j.job.work_hours * std::max(0.0, 1 - p90),
               slow_h = j.job.work_hours * (1 + p90);
  Json out = report::object(5);
  const auto at = [&](double work_h) {
    batch::Job job = j.job;
    job.work_hours = work_h;
    return batch::plan(job, j.rates, batch::Policy::kDeadlineAware, set.seed, index, set.traces);
  };
  const batch::PlanSummary fast = at(fast_h), slow = at(slow_h);
  out["work_hours"] = {{"low", round_to(fast_h, 2)}, {"high", round_to(slow_h, 2)}};
  out["deadline_aware_usd_p50"] = {{"low", finite(fast.usd.p50, 2)},
                                   {"high", finite(slow.usd.p50, 2)}};
  out["p_meet_deadline"] = {{"low", round_to(slow.p_meet_deadline, 4)},
                            {"high", round_to(fast.p_meet_deadline, 4)}};
  std::string text = text::short_number(round_to(fast_h, 1)) + "-" +
                     text::short_number(round_to(slow_h, 1)) + " h of work, " +
                     usd(round_to(fast.usd.p50, 2)) + "-" + usd(round_to(slow.usd.p50, 2)) +
                     " (deadline-aware, median)";
  if (slow.p_meet_deadline < 1)
    text += ", on time in " + text::short_number(round_to(100 * slow.p_meet_deadline, 1)) +
            " % of the traces at the slow end";
  out["text"] = text + report::at_measured_error(*kind.measured);
  out["expected_error"] = report::band_error(kind);
  return out;
}

// What every job's simulation assumed, in words and figures.
Json assumptions_json(const Settings& set) {
  return {
      {"band_reading", spot::to_string(set.reading)},
      {"band_reading_formula", spot::reading_formula(set.reading)},
      {"band_point", "the band's midpoint; the open top band (>20 %, written 20-100) at 25 %"},
      {"availability",
       "the spot pool alternates up (exponential, the job's hazard: the instance's x its "
       "instances) and down (exponential, "
       "mean replacement_minutes); it starts up with its steady-state probability"},
      {"replacement_minutes", round_to(set.replacement_h * 60, 2)},
      {"restart_s", set.restart_s},
      {"checkpoints",
       "Young/Daly: every sqrt(2 x write x MTBI) of work; an interruption loses the work since the "
       "last one; batch inference "
       "keeps each output as it is written (checkpoint_write_s 0)"},
      {"on_demand",
       "always obtainable; the first start of a job costs no restart, every later start (after an "
       "interruption or a switch) one"},
      {"billing",
       "each launch billed per second after the provider's minimum; waiting for spot capacity is "
       "not billed"},
      {"schedule",
       "earliest deadline first; a slot is held to the job's 90th percentile end under the "
       "deadline-aware plan"}};
}

// The settings every job shares.
std::optional<Settings> settings(Reader& r, const Json& req) {
  Settings s;
  if (auto text = r.string(req, "band_reading", "", false)) {
    if (auto parsed = spot::parse_reading(lower(*text)))
      s.reading = *parsed;
    else
      r.fail("unknown_name", "/band_reading",
             "expected reclaimed_fraction or events_per_month, got \"" + *text + "\"");
  }
  s.replacement_h =
      r.number(req, "replacement_minutes", "", false, {0, 1440, true}).value_or(10) / 60;
  s.restart_s = r.number(req, "restart_s", "", false, {0, 86400}).value_or(600);
  const auto seed = r.number(req, "seed", "", false, {0, 9007199254740991.0});
  if (seed && *seed != std::floor(*seed))
    r.fail("out_of_range", "/seed", "expected a whole number from 0 to 2^53 - 1");
  s.seed = static_cast<std::uint64_t>(seed.value_or(1));
  const auto traces =
      r.number(req, "traces", "", false, {1, static_cast<double>(batch::kMaxTraces)});
  if (traces && *traces != std::floor(*traces))
    r.fail("out_of_range", "/traces", "expected a whole number of traces");
  s.traces = static_cast<int>(traces.value_or(batch::kDefaultTraces));
  if (!r.ok()) return std::nullopt;
  return s;
}

std::optional<JobAsk> read_job(Session& s, const Json& obj, const std::string& path,
                               std::size_t index) {
  Reader& r = s.reader();
  JobAsk ask;
  ask.path = path;
  ask.name = r.string(obj, "name", path, false).value_or("job " + decimal::whole(index + 1));
  auto w = s.road_workload(obj, path, true);
  const auto deadline = r.number(obj, "deadline_hours", path, true, {0, kMaxHours, true});
  ask.earliest_h = r.number(obj, "earliest_start_hours", path, false, {0, kMaxHours}).value_or(0);
  const auto write = r.number(obj, "checkpoint_write_s", path, false, {0, 86400});
  if (!w || !deadline) return std::nullopt;
  if (w->task == WorkloadType::kInference) {
    r.fail("out_of_range", path + "/workload",
           "a batch job is batch_inference, fine_tuning, lora, qlora or training; real-time "
           "inference is "
           "the spot, recommend or autoscale question's");
    return std::nullopt;
  }
  if (!w->demand.dataset_tokens) {
    r.fail(
        "missing_field", path + "/demand/dataset_tokens",
        w->trains()
            ? "a training job needs its dataset's tokens (demand.dataset_tokens, with "
              "demand.epochs)"
            : "a batch inference job needs the output tokens it generates (demand.dataset_tokens)");
    return std::nullopt;
  }
  if (w->demand.tokens_per_month) {
    r.fail("out_of_range", path + "/demand/tokens_per_month",
           "a batch job is a dataset (demand.dataset_tokens), not a monthly stream");
    return std::nullopt;
  }
  if (*deadline <= ask.earliest_h) {
    r.fail("out_of_range", path + "/deadline_hours",
           "expected a deadline after the earliest start (" + decimal::general(ask.earliest_h) +
               " h)");
    return std::nullopt;
  }
  ask.deadline_h = *deadline;
  // Training writes its weights and optimizer state; batch inference keeps each output as it is
  // made.
  ask.checkpoint_write_s = write;
  ask.w = std::move(*w);
  ask.w.explain = false;
  return ask;
}

std::vector<JobAsk> read_jobs(Session& s, const Json& req) {
  Reader& r = s.reader();
  std::vector<JobAsk> jobs;
  if (!req.contains("jobs")) {
    if (auto one = read_job(s, req, "", 0)) jobs.push_back(std::move(*one));
    return jobs;
  }
  for (const char* own : {"model", "workload", "demand", "deadline_hours", "earliest_start_hours",
                          "recipe", "precision", "checkpoint_write_s", "name"}) {
    if (req.contains(own))
      r.fail("wrong_type", std::string("/") + own,
             "give one job at the top level or a list of them in \"jobs\", not both: move it into "
             "each job");
  }
  const Json& list = req["jobs"];
  if (!list.is_array() || list.empty()) {
    r.fail("wrong_type", "/jobs",
           "expected an array of 1 to 64 jobs, got " + Reader::describe(list));
    return jobs;
  }
  if (!r.at_most(list, "/jobs", kMaxJobs, "jobs")) return jobs;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "/jobs/" + decimal::whole(i);
    if (!r.expect_object(list[i], path) || !fields::check_fields(r, list[i], path, "batch_job"))
      continue;
    if (auto one = read_job(s, list[i], path, i)) jobs.push_back(std::move(*one));
  }
  return jobs;
}

}  // namespace

Json answer_batch(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  const auto set = settings(r, req);
  const std::vector<std::string> providers = s.providers(req, "");
  const std::vector<std::string> only = r.strings(req, "instance_types", "", false);
  for (std::size_t i = 0; i < only.size(); ++i) {
    if (!catalog.instance(only[i]))
      r.fail("unknown_name", "/instance_types/" + decimal::whole(i),
             "expected an instance type of gpu_instances.json, got \"" + only[i] + "\"");
  }
  const auto budget = r.number(req, "max_usd", "", false, {0, 1e12, true});
  const auto concurrent =
      r.number(req, "concurrent_jobs", "", false, {1, static_cast<double>(kMaxJobs)});
  if (concurrent && *concurrent != std::floor(*concurrent))
    r.fail("out_of_range", "/concurrent_jobs", "expected a whole number of jobs at once");
  const int slots = static_cast<int>(concurrent.value_or(0));
  auto choice = req.contains("region") || req.contains("regions")
                    ? read_region_choice(catalog, req, r)
                    : std::optional<RegionChoice>(RegionChoice{});
  std::vector<JobAsk> asks = read_jobs(s, req);
  if (!set || !choice || !r.ok() || asks.empty()) return nullptr;

  const std::vector<TypePools> types = pools_of(catalog, *choice, only, providers);
  if (types.empty()) {
    r.fail("cannot_answer", only.empty() ? "" : "/instance_types",
           "no instance type asked has both an on-demand price and a spot price with a published "
           "interruption band in the regions asked "
           "(Azure and Google publish no bands): name AWS instance types, more regions "
           "(\"regions\": \"all\") or drop the filters");
    return nullptr;
  }
  Billing billing;
  billing.mode = PaymentMode::kOnDemand;

  // Each job on each type; a deadline shorter than the job on its fastest pool is refused.
  std::vector<std::vector<JobOnType>> options;
  std::vector<std::pair<double, std::string>> fastest;
  for (const JobAsk& ask : asks) {
    options.push_back(deployments(catalog, ask, billing, types, *set));
    if (options.back().empty()) {
      r.fail("cannot_answer", ask.path.empty() ? "/model" : ask.path + "/model",
             "the job runs on none of the instance types asked (each refused by memory, format or "
             "price): a smaller model or format, "
             "or other instance_types");
      continue;
    }
    const auto quickest = std::min_element(
        options.back().begin(), options.back().end(),
        [](const JobOnType& a, const JobOnType& b) { return *a.d.run_hours < *b.d.run_hours; });
    fastest.emplace_back(*quickest->d.run_hours, quickest->d.instance->name);
    const double window = ask.deadline_h - ask.earliest_h;
    if (window < fastest.back().first - 1e-9) {
      r.fail("out_of_range", ask.path + "/deadline_hours",
             "the job needs " + decimal::general(round_to(fastest.back().first, 2)) +
                 " hours on its fastest pool (" + fastest.back().second +
                 "): a deadline of at least " +
                 decimal::general(round_to(ask.earliest_h + fastest.back().first, 2)) +
                 " hours, or more instances per job (demand.deadline_days sizes the deployment for "
                 "it)");
    }
  }
  if (!r.ok()) return nullptr;

  std::vector<batch::Queued> queued;
  for (const JobAsk& a : asks) queued.push_back({a.earliest_h, a.deadline_h});
  std::vector<JobOnType*> chosen(asks.size(), nullptr);
  const auto slots_used = batch::edf_schedule(queued, slots, [&](std::size_t i, double start) {
    chosen[i] = &choose(options[i], asks[i].deadline_h - start, i, *set);
    return chosen[i]->plans[2].wall_hours.p90;  // a slot is held to the job's 90th percentile end
  });

  Json jobs = Json::array();
  std::vector<double> total_by_trace(static_cast<std::size_t>(set->traces), 0.0);
  Json schedule = Json::array();
  Json at_risk = Json::array();
  std::vector<double> starts(asks.size(), 0);
  for (const batch::Slot& slot : slots_used) starts[slot.job] = slot.start_hours;
  for (std::size_t i = 0; i < asks.size(); ++i) {
    jobs.push_back(
        job_json(catalog, asks[i], *chosen[i], starts[i], fastest[i].first, fastest[i].second));
    jobs.back()["band"] = job_band(catalog, asks[i], *chosen[i], i, *set);
    for (std::size_t k = 0; k < total_by_trace.size(); ++k)
      total_by_trace[k] += chosen[i]->plans[2].usd_by_trace[k];
  }
  for (const batch::Slot& slot : slots_used) {
    const JobOnType& j = *chosen[slot.job];
    const batch::PlanSummary& aware = j.plans[2];
    const bool on_demand_from_start =
        aware.switch_hours && aware.p_switched >= 1 && aware.switch_hours->p90 <= 0;
    Json row = report::object(10);
    row["job"] = asks[slot.job].name;
    row["lane"] = slot.lane;
    row["start_hours"] = round_to(slot.start_hours, 2);
    row["end_hours"] = finite(slot.start_hours + aware.wall_hours.p50, 2);
    row["end_p90_hours"] = finite(slot.end_hours, 2);
    row["deadline_hours"] = round_to(asks[slot.job].deadline_h, 2);
    const InstanceType& pool = on_demand_from_start ? *j.pools->on_demand : *j.pools->spot;
    row["pool"] = {{"instance", pool.name},
                   {"region", pool.region},
                   {"kind", on_demand_from_start ? "on_demand" : "spot"}};
    row["switch_to_on_demand_hours"] = aware.switch_hours && !on_demand_from_start
                                           ? finite(slot.start_hours + aware.switch_hours->p50, 2)
                                           : Json(nullptr);
    row["p_meet_deadline"] = round_to(aware.p_meet_deadline, 4);
    schedule.push_back(std::move(row));
    if (aware.p_meet_deadline < 1) {
      at_risk.push_back({{"job", asks[slot.job].name},
                         {"p_meet_deadline", round_to(aware.p_meet_deadline, 4)},
                         {"reason", "starts at " + decimal::general(round_to(slot.start_hours, 2)) +
                                        " h behind the jobs due earlier and needs " +
                                        decimal::general(round_to(j.job.work_hours, 2)) +
                                        " h on demand, past its deadline of " +
                                        decimal::general(round_to(asks[slot.job].deadline_h, 2)) +
                                        " h: more concurrent_jobs, or a later deadline"}});
    }
  }
  const batch::Quantiles total = batch::quantiles(total_by_trace);

  Json result = report::object(10);
  result["jobs"] = std::move(jobs);
  result["schedule"] = std::move(schedule);
  Json t = report::object(4);
  t["cost_usd"] = quantiles(total, 2);
  t["makespan_hours"] = round_to(
      std::accumulate(slots_used.begin(), slots_used.end(), 0.0,
                      [&](double m, const batch::Slot& x) {
                        return std::max(m, x.start_hours + chosen[x.job]->plans[2].wall_hours.p50);
                      }),
      2);
  if (budget) {
    const double within =
        static_cast<double>(std::count_if(total_by_trace.begin(), total_by_trace.end(),
                                          [&](double v) { return v <= *budget + 1e-9; }));
    t["max_usd"] = *budget;
    t["p_within_budget"] = round_to(within / static_cast<double>(total_by_trace.size()), 4);
  }
  result["total"] = std::move(t);
  result["jobs_at_risk"] = std::move(at_risk);
  result["simulation"] = {
      {"seed", set->seed},
      {"traces", set->traces},
      {"generator", "splitmix64; exponential draws by inversion, -ln(u) / rate"},
      {"concurrent_jobs", slots > 0 ? Json(slots) : Json("unlimited")}};
  result["assumptions"] = assumptions_json(*set);
  if (std::any_of(asks.begin(), asks.end(), [](const JobAsk& a) { return !a.w.trains(); }))
    result["batch_apis"] = batch_apis_json(batch_apis(catalog));
  return result;
}

}  // namespace gpufleet::detail
