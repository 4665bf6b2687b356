#include "fleet/recommend.hpp"

#include <algorithm>
#include <cmath>

#include "support/json_reader.hpp"
#include "support/text.hpp"
#include "support/small_sort.hpp"

namespace gpufleet {
namespace {

std::string num(double x) { return text::short_number(x); }
std::string pct(double x) { return num(std::round(x)) + "%"; }
int level(const std::string& name) { return name == "high" ? 2 : name == "medium" ? 1 : 0; }
const char* level_name(int level) { return level >= 2 ? "high" : level == 1 ? "medium" : "low"; }

bool serving_demand(const Workload& w) { return w.demand.requests_per_s || w.demand.tokens_per_month; }

// Lower is better: what the priority pays for.
double cost_key(const Question&, const Deployment& d) {
  if (d.usd_per_run) return *d.usd_per_run;  // a job: what the run costs, not a month
  return d.cost.usd_per_month.value_or(1e300);
}

// True when a is better than b for the priority; unpriced deployments sort last.
bool better(const Question& q, Priority priority, const Candidate& a, const Candidate& b) {
  const bool pa = a.d.cost.usd_per_month.has_value(), pb = b.d.cost.usd_per_month.has_value();
  if (pa != pb) return pa;
  const double ca = cost_key(q, a.d), cb = cost_key(q, b.d);
  const double sa = speed(a.d), sb = speed(b.d);
  switch (priority) {
    case Priority::kCost:
    case Priority::kReliability:
      if (ca != cb) return ca < cb;
      return sa > sb;
    case Priority::kPerformance:
      if (sa != sb) return sa > sb;
      return ca < cb;
    case Priority::kBalanced: {
      const auto ua = usd_per_million_tokens(a.d), ub = usd_per_million_tokens(b.d);
      const double va = ua.value_or(1e300), vb = ub.value_or(1e300);
      if (va != vb) return va < vb;
      return ca < cb;
    }
  }
  return false;
}

void compare_with_current(const Catalog& catalog, const Question& q, const Candidate& current, Candidate& c) {
  if (speed(current.d) > 0 && speed(c.d) > 0) c.performance_ratio = speed(c.d) / speed(current.d);
  if (c.d.inference && current.d.inference && current.d.output_tokens_per_s > 0)
    c.capacity_ratio = c.d.output_tokens_per_s / current.d.output_tokens_per_s;
  if (current.d.cost.usd_per_month && c.d.cost.usd_per_month && *current.d.cost.usd_per_month > 0) {
    c.savings_usd_per_month = *current.d.cost.usd_per_month - *c.d.cost.usd_per_month;
    c.savings_pct = 100.0 * *c.savings_usd_per_month / *current.d.cost.usd_per_month;
  }
  const InstanceType& it = *c.d.instance;
  const InstanceType& cur = *current.d.instance;
  int complexity = 0;
  if (it.family_key != cur.family_key) {
    complexity = it.gpu_type == cur.gpu_type ? 0 : 1;
    c.reasons.push_back("moves from " + cur.gpu_type + " (" + cur.family_key + ") to " + it.gpu_type + " (" +
                        it.family_key + "): revalidate drivers, kernels and serving images on the new GPU");
  } else if (it.name != cur.name) {
    c.reasons.push_back("same family, different size: " + cur.name + " -> " + it.name);
  }
  if (it.accelerator_kind != cur.accelerator_kind) {
    complexity = 2;
    c.reasons.push_back(it.accelerator_kind == "trainium" || it.accelerator_kind == "inferentia"
                            ? "moves to AWS Neuron hardware: PyTorch or TensorFlow only, and a compile step before "
                              "the first run (the Compute Resource Selection guide)"
                            : "moves from " + cur.accelerator_kind + " to " + it.accelerator_kind +
                                  " hardware: new runtime, new performance profile");
  }
  if (it.provider != cur.provider) {
    complexity = std::max(complexity, 1);
    c.reasons.push_back("moves from " + catalog.provider_name(cur.provider) + " to " + catalog.provider_name(it.provider) +
                        ": new account, network, images and data transfer");
  }
  if (c.d.layout.pipeline_parallel > 1 || (c.d.instance_count > 1 && current.d.instance_count <= 1 && c.d.layout.replicas <= 1)) {
    complexity = 2;
  }
  const bool same = it.name == cur.name && c.d.instance_count == current.d.instance_count;
  c.migration_complexity = same ? "none" : level_name(complexity);
  if (same && c.d.gpus < current.d.gpus) c.reasons.push_back("uses " + num(c.d.gpus) + " of the GPUs already paid for");
  if (c.savings_pct) {
    c.reasons.push_back(std::string(*c.savings_pct >= 0 ? "saves " : "costs ") + pct(std::fabs(*c.savings_pct)) + " (" +
                        usd(std::fabs(*c.savings_usd_per_month)) + "/month) " +
                        (*c.savings_pct >= 0 ? "against" : "more than") + " the current deployment");
  }
  // Without a demand each side is one instance's capacity: the saving compares fleets that do not
  // serve the same traffic. Said first, with the factor.
  if (c.capacity_ratio && !serving_demand(q.w) && (*c.capacity_ratio < 0.95 || *c.capacity_ratio > 1.05)) {
    c.risk_level = level_name(std::max(level(c.risk_level), *c.capacity_ratio < 0.5 ? 2 : 1));
    c.reasons.insert(c.reasons.begin(),
                     "serves " + num(text::round_to(c.d.output_tokens_per_s, 0)) + " output tokens/s against the current " +
                         num(text::round_to(current.d.output_tokens_per_s, 0)) + " (" + num(text::round_to(*c.capacity_ratio, 3)) +
                         "x): not the same capacity, so the saving is not like for like; give a demand (requests/s) to "
                         "compare fleets sized for the same traffic");
  }
  if (c.performance_ratio && *c.performance_ratio < 0.5) {
    c.risk_level = level_name(std::max(level(c.risk_level), 1));
    c.reasons.push_back("speed drops below half of today's: check latency targets");
  }
}

bool wanted(const Question& q, const Family& family, const std::string& kind, std::vector<Excluded>& excluded) {
  auto in = [](const std::vector<std::string>& list, const std::string& x) {
    return std::any_of(list.begin(), list.end(), [&](const std::string& y) { return detail::iequals(x, y); });
  };
  if (!q.families.empty() && !in(q.families, family.key)) return false;
  if (!q.providers.empty() && !in(q.providers, family.provider)) return false;
  if (!q.kinds.empty()) return in(q.kinds, kind);
  if (kind == "cpu") {
    excluded.push_back({family.key, "CPU-only: no throughput figures for transformer serving or training", "ask for the cpu kind (CLI --kind cpu, request \"kinds\") to see it"});
    return false;
  }
  if (kind == "trainium" && q.w.serving()) {
    excluded.push_back({family.key, "Trainium is built for training", "ask for the trainium kind (CLI --kind trainium, request \"kinds\") to rank it"});
    return false;
  }
  if (kind == "inferentia" && q.w.trains()) {
    excluded.push_back({family.key, "Inferentia serves inference only", ""});
    return false;
  }
  return true;
}

// Reliability: on-demand only, headroom and a spare copy.
std::optional<std::string> unreliable(const Question& q, const Deployment& d) {
  if (q.priority != Priority::kReliability) return std::nullopt;
  if (d.memory_per_gpu_bytes > 0.9 * d.capacity_per_gpu_bytes)
    return "less than 10 % memory headroom per GPU (" + num(text::round_to(100 * d.memory_per_gpu_bytes / d.capacity_per_gpu_bytes, 1)) + " % used)";
  return std::nullopt;
}

}  // namespace

std::string to_string(Priority priority) {
  switch (priority) {
    case Priority::kCost: return "cost";
    case Priority::kPerformance: return "performance";
    case Priority::kBalanced: return "balanced";
    case Priority::kReliability: return "reliability";
  }
  return "cost";
}

std::optional<Priority> parse_priority(const std::string& text) {
  const std::string t = detail::lower(text);
  if (t == "cost") return Priority::kCost;
  if (t == "performance") return Priority::kPerformance;
  if (t == "balanced" || t == "cost_per_token") return Priority::kBalanced;
  if (t == "reliability") return Priority::kReliability;
  return std::nullopt;
}

double speed(const Deployment& d) {
  if (d.inference) return d.inference->tpot_ms > 0 ? 1000 / d.inference->tpot_ms : 0;
  return d.output_tokens_per_s;
}

std::optional<double> usd_per_million_tokens(const Deployment& d) {
  if (d.usd_per_million_output_tokens) return d.usd_per_million_output_tokens;
  if (d.training && d.cost.usd_per_hour && d.output_tokens_per_s > 0)
    return *d.cost.usd_per_hour / (d.output_tokens_per_s * 3600) * 1e6;
  return std::nullopt;
}

Candidate as_candidate(const Catalog& catalog, const Question& q, Deployment d) {
  Candidate c;
  c.sizing = "right_sized";
  const InstanceType& it = *d.instance;
  int risk = 0;
  if (d.runs()) {
    const double share = d.capacity_per_gpu_bytes > 0 ? d.memory_per_gpu_bytes / d.capacity_per_gpu_bytes : 0;
    c.reasons.push_back("fits: " + num(text::round_to(d.memory_per_gpu_bytes / 1e9, 2)) + " GB per " + device_name(it) + " of " +
                        num(text::round_to(d.capacity_per_gpu_bytes / 1e9, 2)) + " GB (" + pct(100 * share) + ") on " +
                        num(d.gpus) + " x " + it.gpu_type);
    if (share > 0.9) {
      risk = 1;
      c.reasons.push_back("less than 10% memory headroom");
    }
  } else {
    risk = 2;
    c.reasons.push_back(d.refusal);
  }
  if (d.instance_count * std::max(1.0, it.gpus) > d.gpus + 1e-9)
    c.reasons.push_back("uses " + num(d.gpus) + " of the " + num(d.instance_count * std::max(1.0, it.gpus)) + " " + device_name(it) + "s bought");
  if (d.cost.pricing == "spot" || d.cost.pricing == "mixed") {
    const bool serving = q.w.task == WorkloadType::kInference;
    risk = std::max(risk, serving ? 2 : 1);
    const double notice = d.cost.spot_interruption_notice_s.value_or(0);
    const std::string when = notice >= 60 && std::fmod(notice, 60) == 0
                                 ? num(notice / 60) + (notice == 60 ? " minute's notice" : " minutes' notice")
                             : notice > 0 ? num(notice) + " seconds' notice"
                                          : "short notice";
    c.reasons.push_back("spot capacity can be reclaimed with " + when + (serving ? ": interrupts serving" : ": checkpoint often"));
    if (!serving) {
      if (const ProviderTerms* terms = catalog.provider(it.provider); terms && terms->spot_training_restart_overhead_pct)
        c.reasons.push_back("budget about " + num(*terms->spot_training_restart_overhead_pct) +
                            "% more hours for restarts after interruptions (estimate)");
    }
  }
  if (!d.cost.way.empty())
    c.reasons.push_back("a commitment is billed every hour for its whole term, used or not");
  if (!d.cost.note.empty()) c.reasons.push_back(d.cost.note);
  for (const auto& note : d.notes) c.reasons.push_back(note);
  if (d.uncalibrated) risk = std::max(risk, 1);
  c.risk_level = level_name(risk);
  if (d.runs() && (d.inference || d.training)) c.band = deployment_band(catalog, q.w, q.billing, d);
  c.d = std::move(d);
  return c;
}

Recommendation recommend(const Catalog& catalog, const Question& q, const Candidate* current) {
  Recommendation rec;
  Question asked = q;
  if (q.priority == Priority::kReliability) {
    asked.billing.mode = PaymentMode::kOnDemand;
    asked.w.max_memory_share = 0.9;
  }
  Workload& w = asked.w;
  w.explain = false;  // a candidate's figures are shown without the basis of its estimates
  for (const Family& family : catalog.families) {
    const InstanceType& sample = catalog.instances[family.instances.front()];
    if (!wanted(asked, family, sample.accelerator_kind, rec.excluded)) continue;
    std::optional<Candidate> best;
    std::optional<Deployment> refused;
    std::string flagged;
    for (std::size_t index : family.instances) {
      const InstanceType& it = catalog.instances[index];
      if (!it.price_flags.empty()) {
        flagged = it.name + " has a suspect price (" + price_flag_name(it.price_flags.front()) + "); see the catalog warnings";
        continue;
      }
      Deployment d = best_on(catalog, w, asked.billing, it);
      if (d.runs() && q.min_gpus > 0 && d.gpus < q.min_gpus) {
        d = deploy_on_gpus(catalog, w, asked.billing, it, std::ceil(q.min_gpus));
      }
      refuse_without_speed(d);
      if (d.runs()) {
        if (auto why = unreliable(asked, d)) {
          d.refusal = *why;
          d.way_out = "a larger layout or GPUs with more memory";
        }
      }
      if (d.runs() && q.priority == Priority::kReliability && w.serving()) {
        // N+1: one more copy than the demand needs, so one can fail or be drained.
        Layout spare = d.layout;
        spare.replicas += 1;
        Deployment n1 = deploy(catalog, w, asked.billing, it, spare, 1);
        if (n1.runs()) {
          n1.sized_for_demand = d.sized_for_demand;
          n1.demand_rps = d.demand_rps;
          n1.copy_rps = d.copy_rps;
          n1.copies_beyond_demand = d.copies_beyond_demand + 1;
          n1.notes.push_back("N+1: " + num(spare.replicas) + " model copies, one more than the demand needs");
          d = std::move(n1);
        }
      }
      if (!d.runs()) {
        if (!refused || d.gpus >= refused->gpus) refused = std::move(d);
        continue;
      }
      if (current && it.name == current->d.instance->name && d.instance_count == current->d.instance_count &&
          d.gpus == current->d.gpus)
        continue;  // the same deployment as today
      Candidate c;
      c.d = std::move(d);
      if (!best || better(asked, asked.priority, c, *best)) best = std::move(c);
    }
    if (best) {
      // The family's pick, explained: its price's basis, its reasons, its comparison with today.
      price(catalog, asked.billing, true, best->d);
      best = as_candidate(catalog, asked, std::move(best->d));
      if (current) compare_with_current(catalog, asked, *current, *best);
    }
    if (!best) {
      if (refused) {
        rec.excluded.push_back({family.key, refused->instance->name + ": " + refused->refusal, refused->way_out});
      } else if (!flagged.empty()) {
        rec.excluded.push_back(
            {family.key, flagged,
             "ask over every region of its provider (--regions all), or correct the price in "
             "config/prices/overrides.json"});
      }
      continue;
    }
    if (q.max_usd_per_month && best->d.cost.usd_per_month && *best->d.cost.usd_per_month > *q.max_usd_per_month) {
      rec.excluded.push_back({family.key, best->d.instance->name + " costs " + usd(*best->d.cost.usd_per_month) +
                                              "/month, above the budget of " + usd(*q.max_usd_per_month), ""});
      continue;
    }
    rec.ranked.push_back(std::move(*best));
  }
  std::vector<std::size_t> order(rec.ranked.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  detail::small_stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return better(asked, asked.priority, rec.ranked[a], rec.ranked[b]);
  });
  std::vector<Candidate> ranked;
  ranked.reserve(order.size());
  for (std::size_t i : order) ranked.push_back(std::move(rec.ranked[i]));
  rec.ranked = std::move(ranked);
  return rec;
}

WaysOut ways_out(const Catalog& catalog, const Question& q, const InstanceType& it, double gpus) {
  WaysOut out;
  const double bits = [&] {
    auto f = catalog.memory.weight_formats.find(q.w.weight_format);
    return f != catalog.memory.weight_formats.end() ? f->second.linear_bits : 16.0;
  }();
  for (const char* format : {"fp16", "bf16", "fp8", "int8", "awq_int4", "gptq_int4"}) {
    auto f = catalog.memory.weight_formats.find(format);
    if (f == catalog.memory.weight_formats.end() || f->second.linear_bits >= bits || format == q.w.weight_format) continue;
    Workload w = q.w;
    w.weight_format = format;
    w.precision = catalog.precision(format);
    if (deploy_on_gpus(catalog, w, q.billing, it, gpus).runs()) out.formats.push_back(format);
  }
  if (const Family* family = catalog.family(it.family_key)) {
    for (std::size_t index : family->instances) {
      const InstanceType& other = catalog.instances[index];
      if (!other.price_flags.empty()) continue;
      Deployment d = best_on(catalog, q.w, q.billing, other);
      if (d.runs() && (!out.more_gpus || cost_key(q, d) < cost_key(q, *out.more_gpus))) out.more_gpus = std::move(d);
    }
  }
  Question others = q;
  others.providers = {it.provider};
  others.kinds = {it.accelerator_kind};
  Recommendation rec = recommend(catalog, others);
  for (auto& c : rec.ranked) {
    if (c.d.instance->family_key == it.family_key) continue;
    out.other_families.push_back(std::move(c.d));
    if (out.other_families.size() >= 3) break;
  }
  return out;
}

MigrationReport migration_report(const Catalog& catalog, const Question& q, const InstanceType& it, double gpus) {
  MigrationReport report;
  report.current = as_candidate(catalog, q, deploy_on_gpus(catalog, q.w, q.billing, it, gpus));
  report.current.sizing = "current";
  report.current.performance_ratio = 1.0;
  Question scoped = q;
  if (scoped.providers.empty()) scoped.providers.push_back(it.provider);
  if (scoped.kinds.empty()) scoped.kinds.push_back(it.accelerator_kind);
  report.options = recommend(catalog, scoped, &report.current);

  const Candidate& cur = report.current;
  std::string a = q.w.model.label + " " + to_string(q.w.task) + " at " + q.w.weight_format + ": ";
  if (!cur.d.runs()) {
    a += "the current " + num(gpus) + " x " + it.gpu_type + " (" + it.name + ") cannot run it: " + cur.d.refusal + ".";
    report.ways_out = ways_out(catalog, q, it, gpus);
  } else {
    const double share = cur.d.memory_per_gpu_bytes / cur.d.capacity_per_gpu_bytes;
    a += "the current " + num(cur.d.instance_count) + " x " + it.name + " holds it at " + pct(100 * share) +
         " of GPU memory (" + num(cur.d.layout.tensor_parallel) + "-way tensor parallel, " +
         num(cur.d.layout.replicas) + (q.w.serving() ? " model copies)" : " data-parallel groups)");
    a += share < 0.5 && cur.d.layout.tensor_parallel > 1 ? " (over-provisioned)." : ".";
    if (serving_demand(q.w) && cur.d.utilization > 1) a += " It does not meet the demand: " + cur.d.notes.back() + ".";
  }
  if (cur.d.cost.usd_per_month) a += " Current cost: " + cur.d.cost.basis + ".";
  report.assessment = a;

  for (Priority p : {Priority::kCost, Priority::kPerformance, Priority::kBalanced}) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < report.options.ranked.size(); ++i) {
      if (!best || better(scoped, p, report.options.ranked[i], report.options.ranked[*best])) best = i;
    }
    if (best) report.best_by_priority.push_back({p, *best});
  }
  if (!report.options.ranked.empty()) {
    const Candidate& top = report.options.ranked.front();
    const bool meets = cur.d.runs() && !(serving_demand(q.w) && cur.d.utilization > 1);
    const bool stay = meets && cur.d.cost.usd_per_month && !better(scoped, q.priority, top, cur);
    if (!stay) report.recommended = 0;
  }
  if (q.billing.uses_spot() && q.w.task == WorkloadType::kInference)
    report.warnings.push_back(
        "spot instances for production inference: capacity can be reclaimed at short notice; keep on-demand "
        "capacity for serving and use spot for batch work");
  if (q.billing.uses_spot() && q.w.trains())
    report.warnings.push_back("spot for " + to_string(q.w.task) +
                              ": checkpoint regularly so an interruption loses minutes, not days");
  if (!cur.d.cost.usd_per_month) report.warnings.push_back("the current deployment has no known price: " + cur.d.cost.note);
  if (report.options.ranked.empty())
    report.warnings.push_back("no instance of " + scoped.providers.front() + " runs this workload at " + q.w.weight_format);
  return report;
}

}  // namespace gpufleet
