#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace gpufleet::report {

Json object(std::size_t members) {
  Json j = Json::object();
  j.get_ref<Json::object_t&>().reserve(members);
  return j;
}

double round_to(double value, int decimals) {
  if (!std::isfinite(value)) return 0;
  static constexpr double kScale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
  const double scale = kScale[decimals < 0 ? 0 : decimals > 6 ? 6 : decimals];
  const double r = std::round(value * scale) / scale;
  return r == 0 ? 0 : r;  // no "-0"
}

Json gb(double bytes) { return round_to(bytes / 1e9, 2); }

std::string short_number(double value) {
  const double rounded = round_to(value, 3);
  // Whole numbers (GPU, token and sequence counts) are most of them and need no printf.
  if (rounded == std::floor(rounded) && std::fabs(rounded) < 1e15) {
    return std::to_string(static_cast<long long>(rounded));
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", rounded);
  std::string text = buf;
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

Json report_optional(const std::optional<double>& value, int decimals) {
  return value ? Json(round_to(*value, decimals)) : Json(nullptr);
}

Json placement(const Placement& p) {
  const InstanceType& it = *p.instance;
  Json j = object(18);
  add(j, "requested", p.requested);
  add(j, "instance", it.name);
  add(j, "family", it.family_key);
  add(j, "provider", it.provider);
  add(j, "region", it.region);
  add(j, "accelerator_kind", it.accelerator_kind);
  add(j, "resolved_from_family", p.resolved_from_family);
  add(j, "gpu_type", it.gpu_type);
  add(j, "gpus_used", round_to(p.gpus, 3));
  add(j, "gpus_per_instance", round_to(it.gpus, 3));
  if (it.gpu_fraction < 1) add(j, "gpu_fraction", round_to(it.gpu_fraction, 3));
  add(j, "instance_count", p.instance_count);
  add(j, "memory_per_gpu_gb", gb(it.memory_per_gpu_bytes));
  add(j, "memory_per_gpu_basis", it.memory_is_usable_figure ? "usable memory as the cloud reports it"
                                 : "label memory (" + short_number(it.gpu_memory_gb) + " GiB)");
  if (p.resolved_from_family) {
    add(j, "note", "\"" + p.requested + "\" resolved to " + it.name + ", the family's smallest size with at least " +
                short_number(p.gpus) + " GPU" + (p.gpus == 1 ? "" : "s") +
                (p.instance_count > 1 ? " (x" + std::to_string(p.instance_count) + " instances)" : ""));
  }
  add(j, "source", it.source);
  add(j, "source_date", it.source_date);
  return j;
}

Json memory(const MemoryRequirement& need) {
  Json j = object(8);
  j["weights_gb"] = gb(need.weights_bytes);
  j["overhead_gb"] = gb(need.overhead_bytes);
  j["overhead_covers"] = need.overhead_label;
  j["multiplier"] = round_to(need.multiplier, 3);
  j["multiplier_source"] = need.multiplier_basis;
  j["total_gb"] = gb(need.total_bytes);
  j["total_bytes"] = round_to(need.total_bytes, 0);
  j["basis"] = "weights " + short_number(need.weights_bytes / 1e9) + " GB x " +
               short_number(need.multiplier) + " = " + short_number(need.total_bytes / 1e9) + " GB";
  return j;
}

Json fit(const Fit& f) {
  Json j = object(6);
  add(j, "fits", f.fits);
  add(j, "gpus", round_to(f.gpus, 3));
  add(j, "per_gpu_gb", gb(f.per_gpu_bytes));
  add(j, "capacity_per_gpu_gb", gb(f.capacity_per_gpu_bytes));
  add(j, "utilization_pct", round_to(100 * f.utilization, 1));
  add(j, "gpus_needed", round_to(f.gpus_needed, 0));
  return j;
}

Json cost(const Cost& c) {
  Json j = object(18);
  add(j, "provider", c.provider);
  add(j, "region", c.region);
  add(j, "pricing", c.pricing);
  add(j, "usd_per_hour", report_optional(c.usd_per_hour, 4));
  add(j, "monthly_hours", round_to(c.monthly_hours, 2));
  add(j, "schedule", c.schedule_basis);
  add(j, "usd_per_month", report_optional(c.usd_per_month, 2));
  add(j, "on_demand_usd_per_hour", report_optional(c.on_demand_usd_per_hour, 4));
  add(j, "spot_usd_per_hour", report_optional(c.spot_usd_per_hour, 4));
  add(j, "on_demand_usd_per_month", report_optional(c.on_demand_usd_per_month, 2));
  add(j, "spot_usd_per_month", report_optional(c.spot_usd_per_month, 2));
  add(j, "spot_savings_pct", report_optional(c.spot_savings_pct, 1));
  add(j, "spot_interruption_notice_s", report_optional(c.spot_interruption_notice_s, 0));
  Json commitments = Json::array();
  for (const auto& x : c.commitments) {
    Json term = object(4);
    add(term, "term", x.term);
    add(term, "discount_pct", round_to(x.discount_pct, 1));
    add(term, "usd_per_month", round_to(x.usd_per_month, 2));
    add(term, "break_even_utilization_pct", round_to(x.break_even_utilization_pct, 1));
    commitments.push_back(std::move(term));
  }
  add(j, "commitments", std::move(commitments));
  add(j, "basis", c.basis);
  if (!c.note.empty()) add(j, "note", c.note);
  return j;
}

Json excluded(const Excluded& e) {
  Json j = object(2);
  add(j, "family", e.family);
  add(j, "reason", e.reason);
  return j;
}

Json candidate(const Candidate& c) {
  Json j = object(13);
  add(j, "instance", c.placement.instance->name);
  add(j, "family", c.placement.instance->family_key);
  add(j, "sizing", c.sizing);
  add(j, "placement", placement(c.placement));
  add(j, "fit", fit(c.fit));
  add(j, "cost", cost(c.cost));
  Json perf = object(8);
  add(perf, "score", round_to(c.performance.score, 1));
  add(perf, "unit", c.performance.unit);
  add(perf, "bound", c.performance.bound);
  add(perf, "ratio_to_current", report_optional(c.performance_ratio, 3));
  add(perf, "usd_per_million_tokens", report_optional(c.performance.usd_per_million_tokens, 4));
  add(perf, "tokens_per_usd", c.performance.usd_per_million_tokens
                               ? Json(round_to(1e6 / *c.performance.usd_per_million_tokens, 0))
                               : Json(nullptr));
  add(perf, "time_per_output_token_ms", report_optional(c.performance.time_per_output_token_ms, 2));
  add(perf, "basis", c.performance.basis);
  add(j, "performance", std::move(perf));
  add(j, "savings_pct", report_optional(c.savings_pct, 1));
  add(j, "savings_usd_per_month", report_optional(c.savings_usd_per_month, 2));
  add(j, "risk_level", c.risk_level);
  add(j, "migration_complexity", c.migration_complexity);
  add(j, "reasons", c.reasons);
  return j;
}

Json ways_out(const Catalog& catalog, const Question& q, const WaysOut& w) {
  Json j;
  Json precisions = Json::array();
  for (const auto& key : w.lower_precisions) {
    const Precision* p = catalog.precision(key);
    const MemoryRequirement need = memory_requirement(catalog, q.model, q.workload, *p);
    precisions.push_back({{"precision", key}, {"total_gb", gb(need.total_bytes)}});
  }
  j["lower_precision"] = std::move(precisions);
  j["more_gpus"] = w.more_gpus ? placement(*w.more_gpus) : Json(nullptr);
  Json larger = Json::array();
  for (const auto& p : w.larger_gpus) larger.push_back(placement(p));
  j["larger_gpus"] = larger;
  std::string text;
  if (w.more_gpus) {
    text += "needs " + short_number(w.more_gpus->gpus) + " x " +
            w.more_gpus->instance->gpu_type + " (" + w.more_gpus->instance->name +
            (w.more_gpus->instance_count > 1 ? " x" + std::to_string(w.more_gpus->instance_count) : "") +
            ")";
  }
  for (const auto& key : w.lower_precisions) {
    text += (text.empty() ? "" : ", or ") + key + " on the same GPUs";
    break;  // the largest precision that fits is listed first in model_config order
  }
  if (!w.larger_gpus.empty()) {
    text += std::string(text.empty() ? "" : ", or ") + "an instance with more memory per GPU (";
    for (std::size_t i = 0; i < w.larger_gpus.size(); ++i) {
      text += (i ? ", " : "") + w.larger_gpus[i].instance->name;
    }
    text += ")";
  }
  j["summary"] = text.empty() ? "no instance in the catalog holds this workload" : text;
  return j;
}

Json question(const Question& q) {
  Json j = object(11);
  Json model;
  model["label"] = q.model.label;
  if (q.model.size) model["size"] = *q.model.size;
  model["parameters_billion"] = round_to(q.model.parameters / 1e9, 3);
  j["model"] = model;
  j["workload"] = to_string(q.workload);
  j["precision"] = q.precision->key;
  j["monthly_hours"] = round_to(q.billing.hours_per_month, 2);
  j["schedule"] = q.billing.schedule_basis;
  j["pricing"] = to_string(q.billing.mode);
  if (q.billing.mode == PaymentMode::kMixed) j["spot_share"] = round_to(q.billing.spot_share, 3);
  j["use_spot"] = q.billing.uses_spot();
  if (!q.providers.empty()) j["providers"] = q.providers;
  j["priority"] = to_string(q.priority);
  return j;
}

Json migration(const Catalog& catalog, const MigrationReport& r, const Question& q) {
  Json j;
  j["request"] = question(q);
  j["memory"] = memory(r.options.need);
  j["current"] = candidate(r.current);
  j["assessment"] = r.assessment;
  if (r.ways_out) j["ways_out"] = ways_out(catalog, q, *r.ways_out);
  Json alternatives = Json::array();
  for (const auto& c : r.options.ranked) alternatives.push_back(candidate(c));
  j["alternatives"] = std::move(alternatives);
  Json excluded = Json::array();
  for (const auto& e : r.options.excluded) excluded.push_back(report::excluded(e));
  j["excluded"] = std::move(excluded);
  Json best = Json::object();
  for (const auto& pick : r.best_by_priority) {
    best[to_string(pick.priority)] = r.options.ranked[pick.index].placement.instance->name;
  }
  j["best_by_priority"] = best;
  Json rec;
  rec["priority"] = to_string(q.priority);
  if (r.recommended) {
    const Candidate& c = r.options.ranked[*r.recommended];
    rec["action"] = "migrate";
    rec["instance"] = c.placement.instance->name;
    rec["family"] = c.placement.instance->family_key;
    rec["instance_count"] = c.placement.instance_count;
    rec["gpus_used"] = round_to(c.placement.gpus, 3);
    rec["pricing"] = c.cost.pricing;
    rec["usd_per_month"] = report_optional(c.cost.usd_per_month, 2);
    rec["savings_pct"] = report_optional(c.savings_pct, 1);
    rec["savings_usd_per_month"] = report_optional(c.savings_usd_per_month, 2);
    rec["performance_ratio"] = report_optional(c.performance_ratio, 3);
    rec["risk_level"] = c.risk_level;
    rec["migration_complexity"] = c.migration_complexity;
    std::string summary = "move to " + std::to_string(c.placement.instance_count) + " x " +
                          c.placement.instance->name;
    if (c.savings_pct) {
      summary += std::string(*c.savings_pct >= 0 ? ", saving " : ", costing ") +
                 usd(std::fabs(*c.savings_usd_per_month)) + "/month (" +
                 short_number(round_to(std::fabs(*c.savings_pct), 1)) + "%" +
                 (*c.savings_pct >= 0 ? "" : " more") + ")";
    }
    rec["usd_per_million_tokens"] = report_optional(c.performance.usd_per_million_tokens, 4);
    rec["current_usd_per_million_tokens"] =
        report_optional(r.current.performance.usd_per_million_tokens, 4);
    if (c.performance_ratio) {
      summary += " at " + short_number(round_to(*c.performance_ratio, 2)) + "x the performance";
      if (c.performance.usd_per_million_tokens && r.current.performance.usd_per_million_tokens)
        summary += ", $" + short_number(round_to(*c.performance.usd_per_million_tokens, 2)) +
                   " per 1M tokens against $" +
                   short_number(round_to(*r.current.performance.usd_per_million_tokens, 2)) +
                   " today";
    } else {
      summary += "; its performance is not estimated (no datasheet figures in the catalog)";
    }
    rec["summary"] = summary;
  } else {
    rec["action"] = r.options.ranked.empty() ? "none_fits" : "stay";
    rec["instance"] = r.current.placement.instance->name;
    rec["summary"] = r.options.ranked.empty()
                         ? "no instance in the catalog holds this workload"
                         : "the current setup is already the best for the " + to_string(q.priority) +
                               " priority";
  }
  j["recommendation"] = rec;
  j["warnings"] = r.warnings;
  return j;
}

}  // namespace gpufleet::report
