#include "gpufleet/recommend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "json_reader.hpp"
#include "small_sort.hpp"

namespace gpufleet {
namespace {

std::string pct(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", x);
  return buf;
}

std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  return buf;
}

std::string ratio_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", r);
  return buf;
}

std::string report_seconds(double seconds) {
  char buf[32];
  if (seconds >= 60 && static_cast<long>(seconds) % 60 == 0) {
    std::snprintf(buf, sizeof buf, "%.0f minute%s", seconds / 60, seconds == 60 ? "" : "s");
  } else {
    std::snprintf(buf, sizeof buf, "%.0f seconds", seconds);
  }
  return buf;
}

std::string report_ms(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  return buf;
}

std::string report_count(double gpus) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", gpus);
  return buf;
}

int level(const std::string& name) { return name == "high" ? 2 : name == "medium" ? 1 : 0; }
const char* level_name(int level) { return level >= 2 ? "high" : level == 1 ? "medium" : "low"; }

// Higher is better for the priority; unpriced candidates sort last, and so do candidates whose
// performance is unknown (score 0) when the priority needs it.
bool better(Priority priority, const Candidate& a, const Candidate& b) {
  const bool pa = a.cost.usd_per_month.has_value(), pb = b.cost.usd_per_month.has_value();
  if (pa != pb) return pa;
  if (priority != Priority::kCost) {
    const bool ka = a.performance.score > 0, kb = b.performance.score > 0;
    if (ka != kb) return ka;
  }
  const double ca = a.cost.usd_per_month.value_or(0), cb = b.cost.usd_per_month.value_or(0);
  const double sa = a.performance.score, sb = b.performance.score;
  switch (priority) {
    case Priority::kCost:
      if (ca != cb) return ca < cb;
      return sa > sb;
    case Priority::kPerformance:
      if (sa != sb) return sa > sb;
      return ca < cb;
    case Priority::kBalanced: {
      const double va = ca > 0 ? sa / ca : sa, vb = cb > 0 ? sb / cb : sb;
      if (va != vb) return va > vb;
      return ca < cb;
    }
  }
  return false;
}

void compare_with_current(const Question& q, const Candidate& current, Candidate& c) {
  if (current.performance.score > 0 && c.performance.score > 0) {
    c.performance_ratio = c.performance.score / current.performance.score;
  } else if (c.performance.score <= 0) {
    c.risk_level = level_name(std::max(level(c.risk_level), 1));
    c.reasons.push_back(c.performance.basis);
  }
  if (current.cost.usd_per_month && c.cost.usd_per_month && *current.cost.usd_per_month > 0) {
    c.savings_usd_per_month = *current.cost.usd_per_month - *c.cost.usd_per_month;
    c.savings_pct = 100.0 * *c.savings_usd_per_month / *current.cost.usd_per_month;
  }
  const InstanceType& it = *c.placement.instance;
  const InstanceType& cur = *current.placement.instance;
  int complexity = 0;
  if (it.family_key != cur.family_key) {
    complexity = it.gpu_type == cur.gpu_type ? 0 : 1;
    c.reasons.push_back("moves from " + cur.gpu_type + " (" + cur.family_key + ") to " +
                        it.gpu_type + " (" + it.family_key + "): revalidate drivers, kernels and " +
                        "serving images on the new GPU");
  } else if (it.name != cur.name) {
    c.reasons.push_back("same family, different size: " + cur.name + " -> " + it.name);
  }
  if (it.accelerator_kind != cur.accelerator_kind) {
    complexity = 2;
    c.reasons.push_back(it.accelerator_kind == "trainium" || it.accelerator_kind == "inferentia"
                            ? "moves to AWS Neuron hardware: PyTorch or TensorFlow only, and a compile "
                              "step before the first run (seed 002)"
                            : "moves from " + cur.accelerator_kind + " to " + it.accelerator_kind +
                                  " hardware: new runtime, new performance profile");
  }
  if (it.provider != cur.provider) {
    complexity = std::max(complexity, 1);
    c.reasons.push_back("moves from " + cur.provider + " to " + it.provider +
                        ": new account, network, images and data transfer");
  }
  if (c.placement.instance_count > 1) {
    complexity = 2;
    c.reasons.push_back("spans " + std::to_string(c.placement.instance_count) +
                        " instances: needs multi-node parallelism over the network");
  }
  if (it.family_key == cur.family_key && it.name == cur.name &&
      c.placement.instance_count == current.placement.instance_count) {
    c.migration_complexity = "none";
  } else {
    c.migration_complexity = level_name(complexity);
  }
  if (c.savings_pct) {
    c.reasons.push_back(std::string(*c.savings_pct >= 0 ? "saves " : "costs ") +
                        pct(std::fabs(*c.savings_pct)) + " (" + usd(std::fabs(*c.savings_usd_per_month)) +
                        "/month) " + (*c.savings_pct >= 0 ? "against" : "more than") +
                        " the current setup");
  }
  if (c.performance_ratio) {
    c.reasons.push_back("relative performance " + ratio_text(*c.performance_ratio) +
                        " of the current setup (" + c.performance.bound + " bound)");
    if (*c.performance_ratio < 0.5) {
      c.risk_level = level_name(std::max(level(c.risk_level), 1));
      c.reasons.push_back("performance drops below half of today's: check latency targets");
    }
  }
  (void)q;
}

}  // namespace

std::string to_string(Priority priority) {
  switch (priority) {
    case Priority::kCost: return "cost";
    case Priority::kPerformance: return "performance";
    case Priority::kBalanced: return "balanced";
  }
  return "cost";
}

std::optional<Priority> parse_priority(const std::string& text) {
  const std::string t = detail::lower(text);
  if (t == "cost") return Priority::kCost;
  if (t == "performance") return Priority::kPerformance;
  if (t == "balanced" || t == "cost_per_token") return Priority::kBalanced;
  return std::nullopt;
}

Candidate evaluate(const Catalog& catalog, const Question& q, const Placement& placement,
                   const MemoryRequirement& need) {
  Candidate c;
  c.placement = placement;
  c.fit = fit_on(*placement.instance, placement.gpus, need);
  c.cost = cost_of(catalog, placement, q.billing);
  c.performance = performance_of(catalog, placement, q.workload, *q.precision, q.model.parameters);
  c.performance.usd_per_million_tokens = usd_per_million_tokens(c.performance, c.cost.usd_per_hour);
  const InstanceType& it = *placement.instance;
  int risk = 0;
  if (c.fit.fits) {
    c.reasons.push_back("fits: " + gb(need.total_bytes) + " needed, " +
                        gb(c.fit.capacity_per_gpu_bytes * placement.gpus) + " on " +
                        std::to_string(static_cast<int>(std::ceil(placement.gpus))) + " x " +
                        it.gpu_type + " (" + pct(100 * c.fit.utilization) + " used)");
    if (c.fit.utilization > 0.9) {
      risk = std::max(risk, 1);
      c.reasons.push_back("less than 10% memory headroom");
    }
  } else {
    risk = 2;
    c.reasons.push_back("does not fit: " + gb(need.total_bytes) + " needed, " +
                        gb(c.fit.capacity_per_gpu_bytes * placement.gpus) + " available");
  }
  const double bought = it.gpus * placement.instance_count;
  if (bought > placement.gpus + 1e-9) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "uses %g of the %g GPUs bought", placement.gpus, bought);
    c.reasons.push_back(buf);
  }
  if (c.cost.pricing == "spot" || c.cost.pricing == "mixed") {
    const bool serving = q.workload == WorkloadType::kInference;
    risk = std::max(risk, serving ? 2 : 1);
    const std::string notice = c.cost.spot_interruption_notice_s
                                   ? report_seconds(*c.cost.spot_interruption_notice_s) + "' notice"
                                   : "short notice";
    c.reasons.push_back("spot capacity can be reclaimed with " + notice +
                        (serving ? ": interrupts serving" : ": checkpoint often"));
    if (!serving) {
      if (const ProviderTerms* terms = catalog.provider(it.provider);
          terms && terms->spot_training_restart_overhead_pct) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "budget about %.0f%% more hours for restarts after interruptions (estimate)",
                      *terms->spot_training_restart_overhead_pct);
        c.reasons.push_back(buf);
      }
    }
  }
  if (c.cost.pricing == "reserved_1y" || c.cost.pricing == "reserved_3y") {
    c.reasons.push_back("a commitment is billed every hour for its whole term, used or not");
  }
  if (!c.cost.note.empty()) c.reasons.push_back(c.cost.note);
  if (!catalog.precision_native(*q.precision, it)) {
    risk = 2;
    c.reasons.push_back(q.precision->name + " is not native on " + it.gpu_type + " (" + it.arch +
                        ")");
  }
  c.risk_level = level_name(risk);
  c.migration_complexity = "none";
  return c;
}

Recommendation recommend(const Catalog& catalog, const Question& q, const Candidate* current) {
  Recommendation rec;
  rec.need = memory_requirement(catalog, q.model, q.workload, *q.precision);
  for (const Family& family : catalog.families) {
    if (!q.families.empty() &&
        std::none_of(q.families.begin(), q.families.end(), [&](const std::string& f) {
          return detail::lower(f) == detail::lower(family.key);
        })) {
      continue;
    }
    if (!q.providers.empty() &&
        std::none_of(q.providers.begin(), q.providers.end(), [&](const std::string& p) {
          return detail::lower(p) == family.provider;
        })) {
      continue;
    }
    const InstanceType& sample = catalog.instances[family.instances.front()];
    const std::string& kind = sample.accelerator_kind;
    if (!q.kinds.empty()) {
      if (std::find(q.kinds.begin(), q.kinds.end(), kind) == q.kinds.end()) continue;
    } else if (kind == "cpu") {
      rec.excluded.push_back({family.key, "CPU-only: add \"cpu\" to kinds to rank CPU instances"});
      continue;
    } else if (kind == "trainium" && q.workload == WorkloadType::kInference) {
      rec.excluded.push_back({family.key, "Trainium is built for training; add \"trainium\" to kinds to rank it"});
      continue;
    } else if (kind == "inferentia" && q.workload != WorkloadType::kInference) {
      rec.excluded.push_back({family.key, "Inferentia serves inference only"});
      continue;
    }
    if (!catalog.precision_native(*q.precision, sample)) {
      rec.excluded.push_back({family.key, q.precision->name + " is not supported natively by " +
                                              family.gpu_type +
                                              (sample.arch.empty() ? "" : " (" + sample.arch + ")")});
      continue;
    }
    const double needed = std::max(fit_on(sample, 1, rec.need).gpus_needed, q.min_gpus);
    if (needed <= 0) {
      rec.excluded.push_back({family.key, "no usable GPU memory in the catalog entry"});
      continue;
    }
    std::vector<std::pair<double, std::string>> sizings{{needed, "right_sized"}};
    if (current && current->placement.gpus > needed) {
      sizings.emplace_back(current->placement.gpus, "same_gpu_count");
    }
    for (const auto& [gpus, sizing] : sizings) {
      Placement p = place_in_family(catalog, family, gpus);
      if (!p.instance) continue;
      if (p.instance->gpu_fraction < 1 && gpus > 1) {
        rec.excluded.push_back({family.key, "a fractional GPU hosts only a model that fits one partition (" +
                                                gb(sample.memory_per_gpu_bytes) + ")"});
        continue;
      }
      if (p.instance_count > 1 && (q.workload == WorkloadType::kInference || p.instance->interconnect_multiplier < 1)) {
        rec.excluded.push_back({family.key, "needs " + report_count(gpus) + " " + family.gpu_type +
                                                " across " + std::to_string(p.instance_count) + " x " +
                                                p.instance->name + "; one model spans instances only for "
                                                "training on NVSwitch-class families"});
        continue;
      }
      if (current && p.instance == current->placement.instance &&
          p.instance_count == current->placement.instance_count) {
        continue;  // the same purchase as the current setup
      }
      if (!p.instance->price_flags.empty()) {
        rec.excluded.push_back({family.key, p.instance->name + " has a suspect price (" +
                                                p.instance->price_flags.front() +
                                                "); see the catalog warnings"});
        continue;
      }
      Candidate c = evaluate(catalog, q, p, rec.need);
      c.sizing = sizing;
      if (!c.fit.fits) continue;
      if (current) compare_with_current(q, *current, c);
      if (q.max_usd_per_month && c.cost.usd_per_month && *c.cost.usd_per_month > *q.max_usd_per_month) {
        rec.excluded.push_back({family.key, p.instance->name + " costs " + usd(*c.cost.usd_per_month) +
                                                "/month, above the budget of " +
                                                usd(*q.max_usd_per_month)});
        continue;
      }
      if (q.max_tpot_ms && q.workload == WorkloadType::kInference &&
          !(c.performance.time_per_output_token_ms &&
            *c.performance.time_per_output_token_ms <= *q.max_tpot_ms)) {
        rec.excluded.push_back(
            {family.key, p.instance->name + " " +
                             (c.performance.time_per_output_token_ms
                                  ? "takes " + report_ms(*c.performance.time_per_output_token_ms)
                                  : std::string("has no speed estimate")) +
                             " per output token, above the target of " +
                             report_ms(*q.max_tpot_ms)});
        continue;
      }
      rec.ranked.push_back(std::move(c));
    }
  }
  // Candidates are large: their indices are sorted, then each candidate moved once.
  std::vector<std::size_t> order(rec.ranked.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  detail::small_stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return better(q.priority, rec.ranked[a], rec.ranked[b]);
  });
  std::vector<Candidate> ranked;
  ranked.reserve(order.size());
  for (std::size_t i : order) ranked.push_back(std::move(rec.ranked[i]));
  rec.ranked = std::move(ranked);
  return rec;
}

WaysOut ways_out(const Catalog& catalog, const Question& q, const Placement& placement) {
  WaysOut out;
  const InstanceType& it = *placement.instance;
  for (const Precision& p : catalog.precisions) {
    if (p.bytes_per_parameter >= q.precision->bytes_per_parameter) continue;
    if (!catalog.precision_native(p, it)) continue;
    const MemoryRequirement need = memory_requirement(catalog, q.model, q.workload, p);
    if (fit_on(it, placement.gpus, need).fits) out.lower_precisions.push_back(p.key);
  }
  const MemoryRequirement need = memory_requirement(catalog, q.model, q.workload, *q.precision);
  const Fit fit = fit_on(it, placement.gpus, need);
  if (fit.gpus_needed > 0) {
    if (const Family* family = catalog.family(it.family_key)) {
      out.more_gpus = place_in_family(catalog, *family, fit.gpus_needed);
    }
  }
  for (const Family& family : catalog.families) {
    const InstanceType& sample = catalog.instances[family.instances.front()];
    if (family.key == it.family_key || !catalog.precision_native(*q.precision, sample)) continue;
    if (fit_on(sample, placement.gpus, need).fits) {
      out.larger_gpus.push_back(place_in_family(catalog, family, placement.gpus));
    }
  }
  return out;
}

MigrationReport migration_report(const Catalog& catalog, const Question& q,
                                 const Placement& current) {
  MigrationReport report;
  const MemoryRequirement need = memory_requirement(catalog, q.model, q.workload, *q.precision);
  report.current = evaluate(catalog, q, current, need);
  Question scoped = q;
  if (scoped.providers.empty()) scoped.providers.push_back(current.instance->provider);
  if (scoped.kinds.empty()) scoped.kinds.push_back(current.instance->accelerator_kind);
  report.current.sizing = "current";
  report.current.performance_ratio = 1.0;
  report.options = recommend(catalog, scoped, &report.current);

  const Candidate& cur = report.current;
  const InstanceType& it = *current.instance;
  std::string a = q.model.label + " " + to_string(q.workload) + " at " + q.precision->name + " needs " +
                  gb(need.total_bytes) + "; ";
  if (!cur.fit.fits) {
    a += "CANNOT FIT MODEL on " + std::to_string(static_cast<int>(current.gpus)) + " x " +
         it.gpu_type + " (" + gb(cur.fit.capacity_per_gpu_bytes * current.gpus) + ").";
    report.ways_out = ways_out(catalog, q, current);
  } else {
    a += "the current " + std::to_string(current.instance_count) + " x " + it.name + " holds it at " +
         pct(100 * cur.fit.utilization) + " of GPU memory";
    a += cur.fit.utilization < 0.5 ? " (over-provisioned)." : ".";
  }
  if (cur.cost.usd_per_month) a += " Current cost: " + cur.cost.basis + ".";
  report.assessment = a;

  for (Priority p : {Priority::kCost, Priority::kPerformance, Priority::kBalanced}) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < report.options.ranked.size(); ++i) {
      if (!best || better(p, report.options.ranked[i], report.options.ranked[*best])) best = i;
    }
    if (best) report.best_by_priority.push_back({p, *best});
  }
  // The chosen priority's pick, unless staying put is better for that priority.
  if (!report.options.ranked.empty()) {
    const Candidate& top = report.options.ranked.front();
    const bool stay = cur.fit.fits && cur.cost.usd_per_month && better(q.priority, cur, top);
    if (!stay) report.recommended = 0;
  }
  if (q.billing.uses_spot() && q.workload == WorkloadType::kInference) {
    report.warnings.push_back(
        "spot instances for production inference: capacity can be reclaimed at short notice; "
        "keep on-demand capacity for serving and use spot for batch work");
  }
  if (q.billing.uses_spot() && q.workload != WorkloadType::kInference) {
    report.warnings.push_back("spot for " + to_string(q.workload) +
                              ": checkpoint regularly so an interruption loses minutes, not days");
  }
  if (!cur.cost.usd_per_month) {
    report.warnings.push_back("the current setup has no known price: " + cur.cost.note);
  }
  if (report.options.ranked.empty()) {
    report.warnings.push_back("no instance in the catalog holds this workload at " +
                              q.precision->name);
  }
  return report;
}

}  // namespace gpufleet
