// The tools' answers in words and tables: plan, autoscale, batch, placement, decide, spot, regions.
#include <string>
#include <vector>

#include "print_parts.hpp"
#include "table.hpp"

namespace gpufleet::cli::detail {

void print_plan(std::ostream& out, const Json& r) {
  out << "Fleet plan: " << text(r["name"]) << "\n";
  std::vector<Row> rows;
  for (const auto& e : r["environments"]) {
    for (const auto& w : e["workloads"]) {
      std::string alts;
      for (const auto& a : w["alternatives"])
        if (a["provider"] != w["provider"]) alts += (alts.empty() ? "" : ", ") + text(a["provider"]) + " " + text(a["instance"]) + " " + money(a["usd_per_month"]);
      rows.push_back({cell(e["name"]), cell(w["name"]),
                      cell(text(w["count"]) + " x " + text(w["instance"]) + " (" + text(w["provider"]) + ")",
                           {w["count"], w["instance"], w["provider"]}),
                      cell(w["cost"]["schedule"]), usd(w["cost"]["usd_per_month"]), cell(alts, {alts})});
    }
    rows.push_back({cell("", {e["name"]}), cell("", {"(environment total)"}), cell("", {}), cell("environment total", {}),
                    usd(e["usd_per_month"]), cell("", {})});
  }
  table(out, {{"environment", {"environment"}, 0, true}, {"workload", {"workload"}, 0, true},
              {"instances", {"count", "instance", "provider"}, 0, true}, {"schedule", {"schedule"}, 0, true},
              {"monthly", {"usd_per_month"}}, {"elsewhere", {"elsewhere"}, 1, true}},
        rows);
  out << "\nTotal: " << money(r["total_usd_per_month"]) << "/month\nWhole plan per provider:";
  for (const auto& [k, v] : r["by_provider_usd_per_month"].items()) out << "  " << k << " " << (v.is_null() ? "n/a" : money(v));
  out << "\nCheapest provider mix: " << money(r["cheapest_mix"]["usd_per_month"]);
  if (r["cheapest_mix"].contains("savings_pct")) out << " (" << num(r["cheapest_mix"]["savings_pct"], 1) << "% less)";
  out << "\n";
}

void print_autoscale(std::ostream& out, const Json& r) {
  const Json& d = r["deployment"];
  const Json& pr = r["profile"];
  out << "Replica: " << text(d["instance"]) << " (" << text(d["provider"]) << ", " << text(d["region"]) << "), "
      << num(d["concurrency_per_replica"], 0) << " sequences, " << num(d["target_requests_per_s_per_replica"], 2)
      << " requests/s at the target, " << text(d["replicas_per_instance"]) << " per instance at "
      << money(d["usd_per_instance_hour"]) << "/h (" << text(d["pricing"]) << ", whole instances)\n"
      << "Profile: " << text(pr["intervals"]) << " h (" << text(pr["source"]) << "), peak " << num(pr["peak_requests_per_s"], 1)
      << " requests/s; " << text(pr["month"]) << "; cold start " << num(r["cold_start"]["total_s"], 0) << " s (estimates)\n";
  if (pr.contains("shape_source")) out << "Shape: " << text(pr["shape_source"]) << "\n";
  std::vector<Row> rows;
  for (const auto& p : r["policies"])
    rows.push_back({cell(p["name"]), usd(p["usd_per_month"]), quantity(p["gpu_hours_idle"], 0, " GPU-h"),
                    quantity(p["slo_attainment"].is_number() ? Json(100 * p["slo_attainment"].get<double>()) : Json(), 2, "%")});
  table(out, {{"policy", {"policy"}}, {"monthly", {"usd_per_month"}}, {"idle", {"gpu_hours_idle"}}, {"within p95 target", {"slo_attainment_pct"}}}, rows);
  out << "At the measured error: " << text(r["band"]["text"]) << "\n";
  const Json& rec = r["recommended"];
  out << "Recommended: " << text(rec["min_replicas"]) << " to " << text(rec["max_replicas"]) << " replicas on " << text(rec["metric"])
      << ", target " << num(rec["threshold"], 2) << " per replica, scale up after " << num(rec["scale_up_delay_s"], 0)
      << " s, down after " << num(rec["scale_down_delay_s"], 0) << " s\n";
  const Json& base = r["committed_base"];
  out << "Committed base: " << text(base["instances"]) << " instances, " << text(base["replicas"]) << " replicas (" << text(base["commitment"]) << "), "
      << money(base["usd_per_month"]) << "/month with the rest above it\n"
      << "KEDA ScaledObject: --json, result.recommended.keda_scaled_object (not wrapped there)\n";
  for (const auto& note : r.value("notes", Json::array())) out << "Note: " << text(note) << "\n";
}

void print_batch(std::ostream& out, const Json& r) {
  for (const auto& j : r["jobs"]) {
    const Json& d = j["deployment"];
    const Json& pools = j["pools"];
    out << text(j["name"]) << ": " << num(j["work_hours"], 2) << " h of work on " << text(d["instances"]) << " x " << text(d["instance"]) << " ("
        << num(j["work_gpu_hours"], 1) << " GPU-hours), deadline " << num(j["deadline_hours"], 1) << " h, starts at " << num(j["start_hours"], 1)
        << " h; spot in " << text(pools["spot"]["region"]) << " " << money(pools["spot"]["usd_per_hour"]) << "/h (band "
        << text(pools["spot"]["interruption_band"]["label"]) << " as of " << text(pools["spot"]["interruption_band"]["as_of"])
        << (pools["spot"]["interruption_band"].value("stale", false) ? ", STALE" : "") << "), on demand in " << text(pools["on_demand"]["region"]) << " "
        << money(pools["on_demand"]["usd_per_hour"]) << "/h\n";
    std::vector<Row> rows;
    for (const auto& p : j["plans"]) {
      const Json& c = p["cost_usd"];
      rows.push_back({cell(p["name"]), usd(c["p10"]), usd(c["p50"]), usd(c["p90"]),
                      quantity(p["p_meet_deadline"].is_number() ? Json(100 * p["p_meet_deadline"].get<double>()) : Json(), 1, "%"),
                      quantity(p["expected_interruptions"], 3), quantity(p["expected_on_demand_hours"], 2, " h"),
                      p["checkpoint_interval_s"] == 0 ? cell("each output", {p["checkpoint_interval_s"]})
                      : p["name"] != "all_spot" && p["checkpoint_interval_s"].is_number()
                          ? cell("<= " + num(p["checkpoint_interval_s"], 0) + " s", {p["checkpoint_interval_s"]})
                          : quantity(p["checkpoint_interval_s"], 0, " s"),
                      quantity(p["switch_to_on_demand"]["p_switched"].is_number() ? Json(100 * p["switch_to_on_demand"]["p_switched"].get<double>()) : Json(), 1, "%")});
    }
    table(out, {{"plan", {"plan"}}, {"p10", {"cost_usd_p10"}}, {"p50", {"cost_usd_p50"}}, {"p90", {"cost_usd_p90"}}, {"on time", {"p_meet_deadline_pct"}},
                {"interruptions", {"expected_interruptions"}}, {"on demand", {"expected_on_demand_hours"}}, {"checkpoint every", {"checkpoint_interval_s"}}, {"switched", {"p_switched_pct"}}},
          rows);
    if (j.contains("band")) out << "Band: " << text(j["band"]["text"]) << "\n";
  }
  std::vector<Row> rows;
  for (const auto& x : r["schedule"])
    rows.push_back({cell(x["job"]), quantity(x["start_hours"], 2, " h"), quantity(x["end_hours"], 2, " h"), quantity(x["deadline_hours"], 2, " h"),
                    cell(text(x["pool"]["kind"]) + " " + text(x["pool"]["instance"]) + " " + text(x["pool"]["region"]),
                         {x["pool"]["kind"], x["pool"]["instance"], x["pool"]["region"]})});
  out << "Schedule (earliest deadline first):\n";
  table(out, {{"job", {"job"}}, {"start", {"start_hours"}}, {"end (p50)", {"end_hours"}}, {"deadline", {"deadline_hours"}},
              {"pool", {"kind", "instance", "region"}, 0, true}},
        rows);
  const Json& t = r["total"]["cost_usd"];
  out << "Total (deadline-aware): " << money(t["p50"]) << " [" << money(t["p10"]) << ", " << money(t["p90"]) << "] p10-p90 over "
      << text(r["simulation"]["traces"]) << " traces (seed " << text(r["simulation"]["seed"]) << ")";
  if (r["total"].contains("p_within_budget"))
    out << "; within the budget of " << money(r["total"]["max_usd"]) << " in " << num(100 * r["total"]["p_within_budget"].get<double>(), 1) << "% of them";
  out << "\n";
  for (const auto& a : r["jobs_at_risk"]) out << "At risk: " << text(a["job"]) << ": " << text(a["reason"]) << "\n";
}

void print_placement(std::ostream& out, const Json& r) {
  out << "Models:\n";
  for (const auto& m : r["models"]) out << "  " << text(m["name"]) << ": " << num(m["memory_gb"]) << " GB (" << text(m["basis"]) << ")\n";
  auto show = [&](const char* title, const Json& p) {
    if (p.is_null()) {
      out << "\n" << title << ": none holds all the models\n";
      return;
    }
    out << "\n" << title << ": " << text(p["instance_count"]) << " x " << text(p["instance"]) << " (" << text(p["provider"])
        << ", " << text(p["gpu_type"]) << ") " << (p["fits"].get<bool>() ? "holds them" : "does NOT hold them") << ", "
        << money(p["cost"]["usd_per_month"]) << "/month\n";
    std::vector<Row> rows;
    for (const auto& g : p["gpus"]) {
      std::string models;
      for (const auto& m : g["models"]) models += (models.empty() ? "" : ", ") + text(m);
      rows.push_back({cell(text(g["instance"]) + "/" + text(g["gpu"]), {g["instance"], g["gpu"]}),
                      cell(num(g["used_gb"], 1) + " / " + num(g["capacity_gb"], 1) + " GB", {g["used_gb"], g["capacity_gb"]}),
                      cell(models, {g["models"]})});
    }
    table(out, {{"instance/gpu", {"instance", "gpu"}}, {"memory", {"used_gb", "capacity_gb"}}, {"models", {"models"}, 0, true}}, rows);
    if (!p["unplaced"].empty()) out << "unplaced: " << p["unplaced"].dump() << "\n";
    if (p.contains("note")) out << "Note: " << text(p["note"]) << "\n";
  };
  if (r.contains("on_instance")) show("On the requested instance", r["on_instance"]);
  show("Cheapest single instance", r["cheapest_single_instance"]);
  show("Cheapest split", r["cheapest_split"]);
}

void print_decide(std::ostream& out, const Json& r) {
  out << "Decision tree (Compute Resource Selection guide): " << text(r["decision_tree"]) << "\n  " << text(r["branch"]) << "\n";
  print_request(out, r["request"]);
  if (r.contains("prices_disagree")) out << "Prices disagree: " << text(r["prices_disagree"]) << "\n";
  std::vector<Row> rows;
  for (const auto& o : r["options"]) {
    const Json& c = o["cheapest_instance"];
    const Json none;
    rows.push_back({cell((o["recommended"].get<bool>() ? "* " : "  ") + text(o["name"]), {o["name"], o["recommended"]}),
                    cell(o["suitable"].get<bool>() ? "yes" : "no", {o["suitable"]}),
                    c.is_null() ? cell("-", {none, none, none})
                                : cell(text(c["instance"]) + " x" + c["instance_count"].dump() + " (" + text(c["provider"]) + ")",
                                       {c["instance"], c["instance_count"], c["provider"]}),
                    c.is_null() ? quantity(none, 0) : usd(c["cost"]["usd_per_month"]), cell(o["migration_complexity"]), cell(o["risk_level"])});
  }
  table(out, {{"option", {"option", "recommended"}}, {"suitable", {"suitable"}},
              {"cheapest valid deployment", {"instance", "instance_count", "provider"}}, {"monthly", {"usd_per_month"}},
              {"complexity", {"complexity"}, 1}, {"risk", {"risk"}, 2}},
        rows);
  for (const auto& o : r["options"]) {
    out << "\n" << text(o["name"]) << ":\n";
    for (const auto& reason : o["reasons"]) out << "  - " << text(reason) << "\n";
    const Json& c = o["cheapest_instance"];
    if (!c.is_null() && c.contains("band")) out << "  - at the measured error: " << text(c["band"]["text"]) << "\n";
  }
}

void print_spot(std::ostream& out, const Json& r) {
  std::vector<Row> rows;
  bool zoned = false;
  for (const auto& p : r["pools"]) {
    const Json& b = p["interruption_band"];
    zoned = zoned || p.contains("spot_basis");
    rows.push_back(
        {cell(p["instance"]), cell(p["region"]), usd(p["on_demand_usd_per_hour"]),
         usd(p["spot_usd_per_hour"]), usd(p.value("spot_zone_median_usd_per_hour", Json())),
         cell(text(b["label"]) + (b.contains("as_of") ? " (as of " + text(b["as_of"]) + ")" : ""),
              {b["label"], b.value("as_of", Json())}),
         quantity(p["notice_s"], 0, " s"), quantity(p["same_accelerator_instance_types"], 0)});
  }
  table(out,
        {{"instance", {"instance"}},
         {"region", {"region"}},
         {"on-demand $/h", {"on_demand_usd_per_hour"}},
         {"spot $/h", {"spot_usd_per_hour"}},
         {"zones median", {"spot_zone_median_usd_per_hour"}},
         {"interruption band", {"band", "as_of"}, 0, true},
         {"notice", {"notice_s"}},
         {"same GPU", {"same_accelerator_instance_types"}}},
        rows);
  if (zoned)
    out << "Spot $/h is each region's cheapest zone with spot (plans price it); zones median: "
           "their median\n";
  if (r.contains("plan")) {
    const Json& pl = r["plan"];
    out << "Plan (" << text(pl["instance"]) << ", target " << num(pl["target_availability"], 4) << "): " << num(pl["on_demand"]["replicas"], 0)
        << " on demand in " << text(pl["on_demand"]["region"]);
    for (const auto& x : pl["spot"]) out << " + " << num(x["replicas"], 0) << " spot in " << text(x["region"]);
    out << "; P(capacity met) " << num(pl["p_capacity_met"], 6) << "; " << money(pl["usd_per_month"]["point"]) << "/month ["
        << money(pl["usd_per_month"]["low"]) << ", " << money(pl["usd_per_month"]["high"]) << "] over the band; capacity left if the largest pool is lost "
        << num(pl["capacity_if_largest_pool_lost_pct"], 1) << "%\n";
    out << "All on demand " << money(r["all_on_demand"]["usd_per_month"]) << "/month; all spot " << money(r["all_spot"]["usd_per_month"]) << "/month\n";
    if (pl.contains("band")) out << "Band: " << text(pl["band"]["text"]) << "\n";
  }
  if (r.contains("jobs")) {
    for (const auto& j : r["jobs"]) {
      out << text(j["instance"]) << " " << text(j["region"]) << ": checkpoint every " << num(j["checkpoint_interval_s"]["point"], 0)
          << " s, " << num(j["expected_interruptions"]["point"], 2) << " interruptions, " << num(j["wall_hours"]["point"], 2) << " h, spot "
          << money(j["spot_usd"]["point"]) << " vs on demand " << money(j["on_demand_usd"]) << "; break-even discount "
          << num(j["break_even_discount_pct"]["high"], 1) << "% at the band's high end\n";
      if (j.contains("band")) out << "  band: " << text(j["band"]["text"]) << "\n";
    }
  }
  if (r["data"].contains("warning")) out << "Note: " << text(r["data"]["warning"]) << "\n";
}

void print_regions(std::ostream& out, const Json& r) {
  std::vector<Row> rows;
  for (const auto& c : r["regions_chosen"]) {
    const Json meets = c.value("meets_ttft", Json());
    rows.push_back({cell(c["region"]), quantity(c["replicas"], 0), quantity(c["instances"], 0), usd(c["usd_per_month"]),
                    quantity(c.value("rtt_ms_estimate", Json()), 1, " ms"), quantity(c.value("p95_ttft_with_rtt_ms", Json()), 1, " ms"),
                    cell(meets.is_boolean() ? (meets.get<bool>() ? "yes" : "NO") : "-", {meets}), usd(c["egress_usd_per_month"])});
  }
  table(out, {{"region", {"region"}}, {"replicas", {"replicas"}}, {"instances", {"instances"}}, {"compute monthly", {"usd_per_month"}},
              {"RTT (estimate)", {"rtt_ms_estimate"}}, {"p95 TTFT + RTT", {"p95_ttft_with_rtt_ms"}}, {"meets TTFT", {"meets_ttft"}},
              {"egress monthly", {"egress_usd_per_month"}}},
        rows);
  for (const auto& note : r.value("notes", Json::array())) out << "Note: " << text(note) << "\n";
  if (r.contains("totals")) {
    out << "Instance " << text(r["instance"]) << "; total " << money(r["totals"]["usd_per_month"]) << "/month, one-time " << money(r["totals"]["one_time_usd"]) << "\n";
    if (r.contains("band")) out << "Band: " << text(r["band"]["text"]) << "\n";
  }
  if (r.contains("failover")) out << "N+1 premium: " << money(r["failover"]["premium_usd_per_month"]) << "/month\n";
  if (r.contains("refusal")) out << text(r["status"]) << ": " << text(r["refusal"]) << "; " << text(r["way_out"]) << "\n";
}

}  // namespace gpufleet::cli::detail
