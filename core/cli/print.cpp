#include "print.hpp"
#include "print_parts.hpp"

#include "edges.hpp"
#include "table.hpp"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <ctime>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace gpufleet::cli {
namespace detail {

// The workload as the core understood it, with its stated defaults.
void print_request(std::ostream& out, const Json& q) {
  if (q["model"].contains("typed_name"))
    out << "Model \"" << text(q["model"]["typed_name"]["typed"]) << "\" is the catalog's " << text(q["model"]["key"]) << "\n";
  out << text(q["model"]["label"]) << ", " << text(q["workload"]) << ", " << text(q["weight_format"]) << " weights, "
      << text(q["engine"]) << ", memory " << text(q["memory_method"]);
  if (q.contains("monthly_hours")) out << ", " << text(q["schedule"]) << ", " << text(q["pricing"]);
  out << "\n";
  if (q["model"].contains("shape") && !q["model"].contains("key")) out << "  shape: " << text(q["model"]["shape"]) << "\n";
  const Json& d = q["demand"];
  if (d.contains("input_tokens")) {
    const std::string rate = d["requests_per_s"].is_number() ? num(d["requests_per_s"]) + " requests/s, "
                             : d["tokens_per_month"].is_number() ? num(d["tokens_per_month"], 0) + " output tokens a month, "
                             : d.contains("dataset_tokens") && d["dataset_tokens"].is_number() && d["deadline_days"].is_number()
                                 ? num(d["dataset_tokens"], 0) + " output tokens within " + num(d["deadline_days"]) + " days, "
                                 : std::string("no rate given (one instance's capacity), ");
    out << "  demand: " << rate
        << num(d["input_tokens"], 0) << " prompt + " << num(d["output_tokens"], 0) << " output tokens"
        << (d["max_ttft_ms"].is_number() ? ", p95 TTFT <= " + num(d["max_ttft_ms"], 0) + " ms" : "")
        << (d["max_tpot_ms"].is_number() ? ", TPOT <= " + num(d["max_tpot_ms"]) + " ms" : "")
        << (d["requests_per_s"].is_number() ? ", target utilization " + num(d["target_utilization"])
            : rate.rfind("no rate", 0) == 0 ? std::string() : std::string(", sized at full utilization")) << "\n";
  } else if (q.contains("recipe")) {
    const Json& rc = q["recipe"];
    out << "  recipe: " << text(rc["optimizer"]) << (rc["master_weights"].get<bool>() ? " with fp32 master weights" : "")
        << (rc["gradient_checkpointing"].get<bool>() ? ", activations recomputed" : "") << ", " << text(rc["sharding"])
        << ", micro-batch " << num(rc["micro_batch"], 0) << " x " << num(rc["sequence_length"], 0) << " tokens";
    if (d["dataset_tokens"].is_number()) out << "; " << num(d["dataset_tokens"], 0) << " tokens x " << num(d["epochs"]) << " epochs";
    if (d["deadline_days"].is_number()) out << " within " << num(d["deadline_days"]) << " days";
    out << "\n";
  }
}

}  // namespace detail

namespace {

using namespace detail;


std::string layout_text(const Json& c) {
  const Json& l = c["layout"];
  std::string t = "TP" + num(l["tensor_parallel"], 0);
  if (l["pipeline_parallel"].get<double>() > 1) t += " PP" + num(l["pipeline_parallel"], 0);
  return t + " x" + num(l["replicas"], 0);
}

// A deployment as a table row.
Row candidate_row(const Json& c) {
  const bool serving = c.contains("output_tokens_per_s");
  const bool training = c.contains("tokens_per_s");
  const Json none;
  Cell speed = quantity(none, 0), detail{"-", {none, none, none, none, none}};
  if (serving) {
    speed = quantity(c["output_tokens_per_s"], 0, " tok/s");
    detail = cell("c" + num(c["concurrency_per_replica"], 0) + " p95 TTFT " + num(c["p95_time_to_first_token_ms"], 0) +
                      " ms, TPOT " + num(c["time_per_output_token_ms"], 1) + " ms",
                  {c["concurrency_per_replica"], c["p95_time_to_first_token_ms"], c["time_per_output_token_ms"], none, none});
  } else if (training) {
    speed = quantity(c["tokens_per_s"], 0, " tok/s");
    if (c["run_days"].is_number())
      detail = cell(num(c["run_days"], 1) + " days, " + money(c["usd_per_run"]) + " per run",
                    {none, none, none, c["run_days"], c["usd_per_run"]});
  }
  const Json& l = c["layout"];
  const int count = c["instance_count"].get<int>();
  const bool uncalibrated = c["uncalibrated"].get<bool>();
  return {cell(text(c["instance"]) + (count > 1 ? " x" + std::to_string(count) : ""), {c["instance"], count}),
          cell(c["region"]),
          cell(text(c["gpu_type"]) + (uncalibrated ? " (uncalibrated)" : ""), {c["gpu_type"], uncalibrated}),
          cell(num(c["gpus"], 0) + " " + layout_text(c), {c["gpus"], l["tensor_parallel"], l["pipeline_parallel"], l["replicas"]}),
          cell(num(c["memory_per_gpu_gb"], 1) + "/" + num(c["capacity_per_gpu_gb"], 0) + " GB",
               {c["memory_per_gpu_gb"], c["capacity_per_gpu_gb"]}),
          speed,
          detail,
          quantity(c.value("utilization_pct", Json()), 0, "%"),
          cell(money(c["usd_per_month"]) + (c["cost"]["pricing"] == "spot" ? " (spot)" : ""), {c["usd_per_month"], c["cost"]["pricing"]}),
          quantity(c["performance"]["usd_per_million_tokens"], 2),
          quantity(c["savings_pct"], 1, "%"),
          cell(c["risk_level"])};
}

// The candidate table's columns; on a narrow terminal the later-numbered `detail` columns move
// under each row first.
const std::vector<Column> kCandidateColumns{
    {"instance", {"instance", "instance_count"}},
    {"region", {"region"}, 7},
    {"accelerator", {"accelerator", "uncalibrated"}, 1},
    {"gpus layout", {"gpus", "tensor_parallel", "pipeline_parallel", "replicas"}, 2},
    {"memory/GPU", {"memory_per_gpu_gb", "capacity_per_gpu_gb"}, 6},
    {"capacity", {"tokens_per_s"}},
    {"latency or run", {"concurrency_per_replica", "p95_ttft_ms", "tpot_ms", "run_days", "usd_per_run"}, 5},
    {"util", {"utilization_pct"}, 8},
    {"monthly", {"usd_per_month", "pricing"}},
    {"$/1M tok", {"usd_per_million_tokens"}, 3},
    {"savings", {"savings_pct"}, 4},
    {"risk", {"risk"}, 9},
};

// "10 x g6e.xlarge (7-14 at the measured error)": a candidate's count with its band's, if any.
std::string count_with_band(const Json& c) {
  std::string line = num(c["instance_count"], 0) + " x " + text(c["instance"]);
  if (!c.contains("band") || !c["band"].contains("instance_count")) return line;
  const Json& n = c["band"]["instance_count"];
  const std::string range = n["low"].is_null()    ? "up to " + num(n["high"], 0)
                            : n["high"].is_null() ? "at least " + num(n["low"], 0)
                            : n["low"] == n["high"] ? num(n["low"], 0)
                                                    : num(n["low"], 0) + "-" + num(n["high"], 0);
  return line + " (" + range + " at the measured error)";
}

// Each candidate's band in words, one line each, after a table of candidates.
void print_bands(std::ostream& out, const Json& candidates) {
  bool any = false;
  for (const auto& c : candidates) {
    if (!c.contains("band")) continue;
    if (!any) out << "At the measured error of each throughput (leave one source out):\n";
    any = true;
    out << "  " << text(c["instance"]) << ": " << text(c["band"]["text"]) << "\n";
  }
}

void print_excluded(std::ostream& out, const Json& list) {
  for (const auto& e : list) {
    out << "  excluded " << text(e["family"]) << ": " << text(e["reason"]);
    if (!e["way_out"].get<std::string>().empty()) out << " (way out: " << text(e["way_out"]) << ")";
    out << "\n";
  }
}

void print_migration(std::ostream& out, const Json& r) {
  out << "Migration report: ";
  print_request(out, r["request"]);
  out << "Current: " << text(r["current"]["instance"]) << " x" << r["current"]["instance_count"].dump() << ", "
      << num(r["current"]["gpus"], 0) << " GPUs " << layout_text(r["current"]) << "\n";
  out << "Assessment: " << text(r["assessment"]) << "\n";
  if (r.contains("ways_out")) out << "Ways out: " << text(r["ways_out"]["summary"]) << "\n";
  // A first column that CSV alone shows says which row is today's setup.
  std::vector<Column> columns{{"", {"role"}}};
  columns.insert(columns.end(), kCandidateColumns.begin(), kCandidateColumns.end());
  std::vector<Row> rows{candidate_row(r["current"])};
  rows.front().front().shown = "today: " + rows.front().front().shown;
  for (const auto& c : r["alternatives"]) rows.push_back(candidate_row(c));
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].insert(rows[i].begin(), cell("", {i == 0 ? "current" : "alternative"}));
  out << "\nAlternatives (ranked for " << text(r["request"]["priority"]) << "):\n";
  table(out, columns, rows);
  Json banded = Json::array({r["current"]});
  for (const auto& c : r["alternatives"]) banded.push_back(c);
  print_bands(out, banded);
  print_excluded(out, r["excluded"]);
  out << "\nBest by priority: ";
  for (const auto& [k, v] : r["best_by_priority"].items()) out << k << " " << text(v) << "  ";
  out << "\nRecommendation: " << text(r["recommendation"]["summary"]) << "\n";
  if (!r["alternatives"].empty() && r["recommendation"]["action"] == "migrate") {
    for (const auto& c : r["alternatives"]) {
      if (c["instance"] == r["recommendation"]["instance"]) {
        for (const auto& reason : c["reasons"]) out << "  - " << text(reason) << "\n";
        break;
      }
    }
  }
  for (const auto& w : r["warnings"]) out << paint("WARNING", "33;1") << ": " << text(w) << "\n";
}

void print_workload(std::ostream& out, const Json& w) {
  out << "=== " << text(w["id"]) << ": " << text(w["name"]) << " ===\n";
  if (!w["description"].get<std::string>().empty()) out << text(w["description"]) << "\n";
  out << "Expected outcome: " << text(w["expected_outcome"]) << "\n";
  print_migration(out, w["report"]);
  out << "\n";
}

// A row of an estimate: the figure, its value (money with decimals < 0) and unit, and how it was
// obtained; CSV gets the value, its unit and the explanation in three columns.
Row figure(const std::string& name, const Json& value, int decimals, const std::string& unit, const std::string& how,
           const std::string& csv_unit = "") {
  const std::string shown = decimals < 0 ? money(value) : num(value, decimals) + (unit.empty() ? "" : " " + unit);
  return {cell(name, {name}), cell(value.is_number() ? shown : "-", {value.is_number() ? value : Json(), csv_unit.empty() ? unit : csv_unit}),
          cell(how, {how})};
}

const std::vector<Column> kFigureColumns{{"figure", {"figure"}}, {"value", {"value", "unit"}}, {"how", {"how"}, 0, true}};

void print_result(std::ostream& out, const std::string& question, const Json& r);

void print_precisions(std::ostream& out, const Json& r) {
  out << "Weights of " << text(r["model"]["label"]) << " by precision (GB = 1e9 bytes):\n";
  std::vector<Row> rows;
  for (const auto& p : r["precisions"]) {
    std::string families;
    for (const auto& f : p["native_on_families"]) families += (families.empty() ? "" : " ") + text(f);
    rows.push_back({cell(p["name"]), quantity(p["bytes_per_parameter"], 0), quantity(p["weights_gb"], 0, " GB"),
                    cell(families, {families})});
  }
  table(out, {{"precision", {"precision"}}, {"bytes/param", {"bytes_per_parameter"}}, {"weights", {"weights_gb"}},
              {"native on", {"native_on_families"}, 0, true}},
        rows);
}

void print_fit(std::ostream& out, const Json& r) {
  out << text(r["placement"]["instance"]) << ": "
      << paint(text(r["status"]), r["status"] == "FITS" ? "32;1" : "31;1") << "\n";
  if (r["placement"].contains("note")) out << "  " << text(r["placement"]["note"]) << "\n";
  print_request(out, r["request"]);
  const Json& d = r["deployment"];
  if (!d["runs"].get<bool>()) out << "Why: " << text(d["refusal"]) << "\n";
  out << "Layout: " << num(d["gpus"], 0) << " GPU(s), " << layout_text(d) << "; per GPU " << num(d["memory_per_gpu_gb"]) << " of "
      << num(d["capacity_per_gpu_gb"]) << " GB (" << num(d["memory_utilization_pct"], 1) << "%)\n";
  if (d.contains("memory_per_gpu")) {
    std::vector<Row> rows;
    // The memory model's lines are in GiB (2^30 bytes); said in GB as every other size here.
    for (const auto& l : d["memory_per_gpu"])
      rows.push_back({cell(l["label"]), quantity(std::round(l["gib"].get<double>() * 107.3741824) / 100, 2, " GB")});
    table(out, {{"memory per GPU", {"memory_per_gpu"}}, {"size", {"size_gb"}}}, rows);
  } else if (r["memory"].contains("multiplier")) {
    const Json& m = r["memory"];
    out << "Memory (rule of thumb): weights " << num(m["weights_gb"]) << " GB + " << text(m["overhead_covers"]) << " " << num(m["overhead_gb"])
        << " GB = " << num(m["total_gb"]) << " GB  (x" << num(m["multiplier"], 2) << ", " << text(m["multiplier_source"]) << ")\n";
  }
  if (d.contains("output_tokens_per_s") && d["runs"].get<bool>())
    out << "Serving: " << num(d["concurrency_per_replica"], 0) << " sequences per copy (KV cache holds " << num(d["max_concurrency_by_kv_cache"], 0)
        << "), " << num(d["output_tokens_per_s"], 0) << " output tokens/s, TTFT " << num(d["time_to_first_token_ms"], 1) << " ms, TPOT "
        << num(d["time_per_output_token_ms"], 2) << " ms\n";
  if (d.contains("tokens_per_s") && d["runs"].get<bool>()) out << "Training: " << num(d["tokens_per_s"], 0) << " tokens/s\n";
  if (r["fit"].contains("fit_band")) out << "Memory at the measured error: " << text(r["fit"]["fit_band"]["text"]) << "\n";
  if (r.contains("band")) {
    const Json& b = r["band"];
    const Json& speed = b.contains("output_tokens_per_s") ? b["output_tokens_per_s"] : b.value("tokens_per_s", Json());
    std::string capacity;
    if (speed.is_object() && speed["low"].is_number())
      capacity = num(speed["low"], 0) + (speed["high"].is_number() ? "-" + num(speed["high"], 0) : " or more") +
                 (b.contains("output_tokens_per_s") ? " output tokens/s; " : " tokens/s; ");
    out << "Capacity at the measured error: " << capacity << text(b["text"]) << "\n";
  }
  for (const auto& n : d["notes"]) out << "Note: " << text(n) << "\n";
  if (r.contains("ways_out")) out << "Ways out: " << text(d["way_out"]) << (text(d["way_out"]).empty() ? "" : "; ") << text(r["ways_out"]["summary"]) << "\n";
  const bool job = d.contains("usd_per_run") && d["usd_per_run"].is_number();
  if (job)
    out << "Run: " << num(d["run_hours"], 2) << " h x " << money(d["usd_per_hour"]) << "/h = " << money(d["usd_per_run"])
        << " (the job's cost)\n";
  out << (job ? "Kept all month instead: " : "Cost: ")
      << (r["cost"]["basis"].get<std::string>().empty() ? text(r["cost"].value("note", Json("unknown"))) : text(r["cost"]["basis"])) << "\n";
  out << "Expected error (memory): " << text(r["expected_error"]["text"]) << "\n";
}

// The spot row's basis: which zone's price it is, and the notice.
std::string spot_cost_basis(const Json& c) {
  std::string basis = c.contains("spot_basis") ? text(c["spot_basis"]) : "";
  if (c["spot_interruption_notice_s"].is_number()) {
    basis += (basis.empty() ? "" : "; ") + std::string("interruption notice ") +
             num(c["spot_interruption_notice_s"], 0) + " s";
  }
  return basis;
}

void print_cost(std::ostream& out, const Json& r) {
  out << text(r["placement"].value("note", r["placement"]["instance"])) << "\n";
  const Json& c = r["cost"];
  out << "Schedule: " << text(c["schedule"]) << "\n";
  const Json none;
  std::vector<Row> rows{
      {cell("chosen: " + text(c["pricing"]), {c["pricing"], true, none}), usd(c["usd_per_hour"]),
       usd(c["usd_per_month"]), cell(c["basis"]), blank(), blank()},
      {cell("on-demand", {"on_demand", false, none}), usd(c["on_demand_usd_per_hour"]),
       usd(c["on_demand_usd_per_month"]), cell("", {""}), blank(), blank()},
      {cell("spot", {"spot", false, none}), usd(c["spot_usd_per_hour"]),
       usd(c["spot_usd_per_month"]), cell(spot_cost_basis(c), {""}),
       quantity(c["spot_interruption_notice_s"], 0), blank()}};
  for (const auto& x : c["commitments"]) {
    const std::string upfront = text(x["upfront"]) == "none" ? "no" : text(x["upfront"]);
    const std::string what = text(x["name"]) + " " + text(x["term"]) + " " + upfront + " upfront";
    if (!x["discount_pct"].is_number()) {
      rows.push_back({cell(what, {text(x["way"]), false, x["discount_pct"]}), cell("", {none}), cell("", {none}),
                      cell(text(x.value("note", Json(""))), {text(x.value("note", Json("")))}), blank(), blank()});
      continue;
    }
    std::string basis = "-" + num(x["discount_pct"], 1) + "%, 730 h billed; break-even at " + num(x["break_even_utilization_pct"], 0) + "% utilization";
    if (x["upfront_usd"].is_number() && x["upfront_usd"].get<double>() > 0)
      basis += "; " + money(x["upfront_usd"]) + " upfront" +
               (x["recurring_usd_per_month"].get<double>() > 0 ? " + " + money(x["recurring_usd_per_month"]) + "/month" : "");
    rows.push_back({cell(what, {text(x["way"]), false, x["discount_pct"]}), usd(x["usd_per_hour"]), usd(x["usd_per_month"]),
                    cell(basis, {basis}), blank(), quantity(x["break_even_utilization_pct"], 0)});
  }
  table(out, {{"pricing", {"pricing", "chosen", "discount_pct"}}, {"USD/hour", {"usd_per_hour"}}, {"USD/month", {"usd_per_month"}},
              {"basis", {"basis"}, 0, true}, {"", {"interruption_notice_s"}}, {"", {"break_even_utilization_pct"}}},
        rows);
  if (c.contains("note")) out << "Note: " << text(c["note"]) << "\n";
  if (c["spot_savings_pct"].is_number()) out << "Spot saves " << num(c["spot_savings_pct"], 1) << "% against on-demand\n";
  out << text(r["pricing_note"]) << "\n";
  if (r.contains("by_region")) {
    const Json& b = r["by_region"];
    std::vector<Row> regions;
    for (const auto& x : b["regions"]) {
      const bool compared = x.contains("difference_pct");
      regions.push_back({cell(x["region"]), usd(x["usd_per_hour"]), usd(x["usd_per_month"]),
                         compared ? usd(x["difference_usd_per_month"]) : quantity(Json(), 0),
                         compared ? quantity(x["difference_pct"], 1, "%") : quantity(Json(), 0),
                         x.contains("suspect") ? cell("suspect price: " + text(x["suspect_reason"]), {"suspect price: " + text(x["suspect_reason"])})
                                               : cell(x.value("note", Json("")))});
    }
    out << "By region (against " << text(b["reference_region"]) << "):\n";
    table(out, {{"region", {"region"}}, {"USD/hour", {"usd_per_hour"}}, {"USD/month", {"usd_per_month"}},
                {"difference/month", {"difference_usd_per_month"}}, {"difference", {"difference_pct"}}, {"note", {"note"}, 0, true}},
          regions);
  }
}

void print_performance(std::ostream& out, const Json& r) {
  std::vector<Row> rows;
  for (const auto& s : r["setups"]) {
    const Json& d = s.contains("deployment") ? s["deployment"] : Json::object();
    const std::string basis =
        s.contains("basis") ? text(s["basis"]) : d["runs"].get<bool>() ? layout_text(d) + ", " + text(s["bound"]) : text(d["refusal"]);
    rows.push_back({cell(s["placement"]["instance"]), cell(num(s["score"], 1) + " " + text(s["unit"]), {s["score"], s["unit"]}),
                    quantity(s["ratio_to_first"], 2, "x"), cell(basis, {basis})});
  }
  table(out, {{"instance", {"instance"}}, {"score", {"score", "unit"}}, {"ratio", {"ratio_to_first"}}, {"basis", {"basis"}, 0, true}},
        rows);
  for (const auto& s : r["setups"]) {
    if (!s.contains("band") || !s["band"].contains("score")) continue;
    const Json& range = s["band"]["score"];
    out << text(s["placement"]["instance"]) << " at the measured error: " << num(range["low"], 1)
        << "-" << (range["high"].is_null() ? std::string("unbounded") : num(range["high"], 1))
        << " " << text(s["unit"]) << "; " << text(s["band"]["text"]) << "\n";
  }
}

void print_recommend(std::ostream& out, const Json& r) {
  print_request(out, r["request"]);
  std::vector<Row> rows;
  for (const auto& c : r["candidates"]) rows.push_back(candidate_row(c));
  if (!r["candidates"].empty()) out << "First pick: " << count_with_band(r["candidates"][0]) << "\n";
  out << "Candidates (" << text(r["ranking"]) << "):\n";
  table(out, kCandidateColumns, rows);
  print_bands(out, r["candidates"]);
  print_excluded(out, r["excluded"]);
  out << text(r["pricing_note"]) << "\n";
}

void print_migrate(std::ostream& out, const Json& r) {
  print_migration(out, r);
}

void print_workload_answer(std::ostream& out, const Json& r) {
  print_workload(out, r);
}

void print_workload_set(std::ostream& out, const Json& r) {
  out << "Workload set " << text(r["id"]) << " (" << r["reports"].size() << " scenarios)\n\n";
  for (const auto& w : r["reports"]) print_workload(out, w);
}

void print_memory(std::ostream& out, const Json& r) {
  const Json& m = r["model"];
  if (m.contains("typed_name"))
    out << "Model \"" << text(m["typed_name"]["typed"]) << "\" is the catalog's " << text(m["key"]) << "\n";
  out << text(m["name"]) << ": " << num(m["parameters_billion"], 3) << " B parameters";
  if (m.contains("active_parameters_billion")) out << " (" << num(m["active_parameters_billion"], 3) << " B active)";
  out << ", KV cache " << num(m["kv_cache_kib_per_token"], 1) << " KiB per token\n";
  const Json& st = r["settings"];
  out << text(st["mode"]) << ", " << text(st["weight_format"]) << " weights, " << text(st["compute_precision"]) << " compute, batch "
      << num(st["batch"], 0) << ", context " << num(st["context"], 0) << ", engine " << text(st["engine"]) << ", " << num(st["gpus"], 0)
      << " GPU(s)\n";
  std::vector<Row> rows;
  for (const auto& l : r["per_gpu"]) rows.push_back({cell(l["label"]), quantity(l["gib"], 2, " GiB"), cell(l["basis"])});
  const std::string total_how = "tensors " + num(r["tensors_gib"], 2) + " GiB + runtime";
  rows.push_back({cell("Total per GPU", {"Total per GPU"}), quantity(r["total_gib"], 2, " GiB"), cell(total_how, {total_how})});
  table(out, {{"memory per GPU", {"memory_per_gpu"}}, {"size", {"gib"}}, {"how", {"basis"}, 0, true}}, rows);
  if (r.contains("kv_cache_capacity")) {
    const Json& kv = r["kv_cache_capacity"];
    out << "KV-cache pool: " << num(kv["tokens"], 0) << " tokens (" << num(kv["gib"], 2) << " GiB), "
        << num(kv["concurrent_sequences"], 0) << " sequences at full length\n";
  }
  if (r.contains("gpu")) {
    const Json& g = r["gpu"];
    out << text(g["gpu"]) << ": " << paint(g["fits"].get<bool>() ? "FITS" : "DOES NOT FIT", g["fits"].get<bool>() ? "32;1" : "31;1")
        << ", " << num(g["used_gib"], 2) << " of " << num(g["capacity_gib"], 2) << " GiB (" << num(g["utilization_pct"], 1) << "%)";
    if (g.contains("largest_batch")) out << "; largest batch " << num(g["largest_batch"], 0) << ", largest context " << num(g["largest_context"], 0);
    if (g.contains("kv_cache_tokens_that_fit")) out << "; room for " << num(g["kv_cache_tokens_that_fit"], 0) << " KV tokens";
    out << "\n";
    if (g.contains("fit_band")) out << "At the measured error: " << text(g["fit_band"]["text"]) << "\n";
  }
  std::string fitting;
  for (const auto& g : r["gpus"]) if (g["fits"].get<bool>()) fitting += (fitting.empty() ? "" : ", ") + text(g["gpu"]);
  out << "GPUs that hold it: " << (fitting.empty() ? "none at this GPU count" : fitting) << "\n";
  if (r.contains("expected_error")) out << "Expected error: " << text(r["expected_error"]["text"]) << "\n";
}

void print_estimate_ranking(std::ostream& out, const Json& r) {
  out << text(r["model"]["name"]) << ": " << num(r["settings"]["input_tokens"], 0) << " tokens in, " << num(r["settings"]["output_tokens"], 0)
      << " out; " << num(r["candidates"], 0) << " instances meet the targets, cheapest per token first\n";
  std::vector<Row> rows;
  for (const auto& c : r["ranked"]) {
    rows.push_back({cell(c["instance"]), cell(c["provider"]), cell(text(c["gpu"]) + " x" + num(c["gpus"], 0), {c["gpu"], c["gpus"]}),
                    cell("TP " + num(c["tensor_parallel"], 0), {c["tensor_parallel"]}), quantity(c["time_to_first_token_ms"], 1, " ms"),
                    quantity(c["time_per_output_token_ms"], 2, " ms"), quantity(c["output_tokens_per_s"], 0),
                    usd(c["usd_per_million_output_tokens"]), quantity(c["output_tokens_per_usd"], 0)});
  }
  table(out, {{"instance", {"instance"}}, {"provider", {"provider"}, 3}, {"gpus", {"gpu", "gpus"}, 0, true}, {"layout", {"tensor_parallel"}, 2},
              {"TTFT", {"ttft_ms"}, 1}, {"TPOT", {"tpot_ms"}}, {"out tok/s", {"output_tokens_per_s"}},
              {"$/1M out", {"usd_per_million_output_tokens"}}, {"tokens per $", {"output_tokens_per_usd"}, 4}},
        rows);
  out << text(r["basis"]) << "\n";
}

void print_estimate(std::ostream& out, const Json& r) {
  const Json& m = r["model"];
  const Json& d = r["device"];
  out << text(m["name"]) << " on " << text(d["gpu"]) << " (" << text(d["precision"]) << ", " << num(d["peak_tflops"], 1) << " TFLOPS, "
      << num(d["bandwidth_gb_per_s"], 0) << " GB/s" << (d["tensor_parallel"].get<double>() > 1 ? ", TP " + num(d["tensor_parallel"], 0) : "")
      << "): weights " << num(m["weights_gb"], 2) << " GB, KV " << num(m["kv_cache_kib_per_token"], 1) << " KiB per token\n";
  if (r.contains("instance")) {
    const Json& it = r["instance"];
    out << "Priced on " << text(it["instance"]) << " (" << text(it["provider"]) << ", " << money(it["usd_per_hour"]) << "/h, "
        << num(it["model_copies"], 0) << (it["model_copies"].get<double>() == 1 ? " model copy" : " model copies") << ")\n";
  }
  if (d.contains("layout_note")) out << "  " << text(d["layout_note"]) << "\n";
  if (d.contains("link_basis") && d["tensor_parallel"].get<double>() > 1) out << "Link: " << text(d["link_basis"]) << "\n";
  if (r.contains("inference")) {
    const Json& e = r["inference"];
    std::vector<Row> rows{
        figure("Time to first token", e["time_to_first_token_ms"], 1, "ms", text(e["prefill"]["bound"]) + " bound; " + text(e["prefill"]["basis"])),
        figure("Time per output token", e["time_per_output_token_ms"], 2, "ms", text(e["decode"]["bound"]) + " bound; " + text(e["decode"]["basis"])),
        figure("End-to-end latency", e["end_to_end_latency_ms"], 0, "ms", "first token + (output - 1) x time per token"),
        figure("Output tokens/s", e["output_tokens_per_s"], 0, "", "at concurrency " + num(e["concurrency"], 0) + " (the KV cache holds " +
                                                                  num(e["max_concurrency_by_kv_cache"], 0) + ")", "tokens/s"),
        figure("Single stream", e["single_stream_tokens_per_s"], 1, "tokens/s", "one request alone")};
    if (!e["usd_per_million_output_tokens"].is_null()) {
      rows.push_back(figure("$ per 1M output tokens", e["usd_per_million_output_tokens"], -1, "USD", text(e["cost_basis"])));
      if (!e["usd_per_million_output_tokens_spot"].is_null())
        rows.push_back(figure("  on spot", e["usd_per_million_output_tokens_spot"], -1, "USD", ""));
      if (!e["usd_per_million_input_tokens"].is_null())
        rows.push_back(figure("$ per 1M input tokens", e["usd_per_million_input_tokens"], -1, "USD", "$/h over the prompt tokens prefill processes per hour"));
    }
    table(out, kFigureColumns, rows);
    out << "Limit: " << text(e["limit"]) << "\n";
  } else {
    const Json& t = r["training"];
    std::vector<Row> rows{figure("Tokens/s per GPU", t["tokens_per_s_per_gpu"], 0, "", text(t["basis"]), "tokens/s"),
                          figure("TFLOPS per GPU", t["tflops_per_gpu"], 1, "", "compute bound", "TFLOPS")};
    if (t.contains("hours")) rows.push_back(figure("Time to train", t["hours"], 1, "h", num(t["gpu_hours"], 0) + " GPU-hours"));
    if (t.contains("usd_on_demand")) rows.push_back(figure("Cost on demand", t["usd_on_demand"], -1, "USD", ""));
    if (t.contains("usd_spot")) rows.push_back(figure("Cost on spot", t["usd_spot"], -1, "USD", "plus restarts after interruptions"));
    table(out, kFigureColumns, rows);
  }
  if (r.contains("expected_error")) out << "Expected error: " << text(r["expected_error"]["text"]) << "\n";
}

void print_right_size(std::ostream& out, const Json& r) {
  std::vector<Row> rows;
  for (const auto& m : r["models"]) {
    const Json& c = m["cheapest_instance"];
    const Json none;
    rows.push_back({cell(m["model"]), quantity(m["weights_gb"], 2, " GB"), quantity(m["min_vram_gb"], 2, " GB"), cell(m["smallest_gpu"]),
                    c.is_null() ? cell("-", {none, none, none})
                                : cell(text(c["instance"]) + " (" + num(c["gpus_used"], 0) + " x " + text(c["gpu_type"]) + ")",
                                       {c["instance"], c["gpus_used"], c["gpu_type"]}),
                    c.is_null() ? quantity(none, 0) : usd(c["usd_per_month"])});
  }
  table(out, {{"model", {"model"}, 0, true}, {"weights", {"weights_gb"}, 2}, {"min VRAM", {"min_vram_gb"}},
              {"smallest GPU", {"smallest_gpu"}, 1}, {"cheapest instance", {"instance", "gpus_used", "gpu_type"}, 0, true},
              {"monthly", {"usd_per_month"}}},
        rows);
  out << "Monthly = on-demand price x " << num(r["hours_per_month"], 0) << " h; " << text(r["basis"]) << "\n";
}

// The printer of each question's answer; others print their JSON.
void print_result(std::ostream& out, const std::string& question, const Json& r) {
  using Printer = void (*)(std::ostream&, const Json&);
  static const std::pair<const char*, Printer> kPrinters[] = {
      {"precisions", print_precisions},
      {"fit", print_fit},
      {"cost", print_cost},
      {"performance", print_performance},
      {"recommend", print_recommend},
      {"migrate", print_migrate},
      {"workload", print_workload_answer},
      {"workload_set", print_workload_set},
      {"plan", print_plan},
      {"autoscale", print_autoscale},
      {"batch", print_batch},
      {"placement", print_placement},
      {"decide", print_decide},
      {"workloads", print_workloads},
      {"validate", print_validate},
      {"catalog", print_catalog},
      {"memory", print_memory},
      {"estimate", print_estimate},
      {"right_size", print_right_size},
      {"spot", print_spot},
      {"regions", print_regions},
      {"accuracy", print_accuracy},
  };
  if (question == "estimate" && r.contains("ranked")) return print_estimate_ranking(out, r);
  for (const auto& [name, print] : kPrinters)
    if (question == name) return print(out, r);
  out << r.dump(2) << "\n";
}

// When the prices are from, and a warning when that is unknown or over 30 days ago.
std::string prices_line(const Json& as_of) {
  if (!as_of.is_string() || as_of.get<std::string>().empty()) return "Prices: none in this catalog";
  const std::string date = as_of.get<std::string>();
  if (date == "unknown") {
    return paint("Prices as of an unknown date", "33;1") +
           ": the upstream snapshots are not dated (their commits: config/prices/index.json); check current prices before acting";
  }
  std::tm day{};
  std::istringstream(date) >> std::get_time(&day, "%Y-%m-%d");
  const std::time_t then = timegm(&day);
  const long days = static_cast<long>((std::time(nullptr) - then) / 86400);
  std::string line = "Prices as of " + date + " (" + std::to_string(days) + " day" + (days == 1 ? "" : "s") + " ago)";
  return days > 30 ? paint(line, "33;1") + ": older than 30 days, check current prices before acting" : line;
}


}  // namespace


void print(std::ostream& out, std::ostream& err, const Json& response, const PrintOptions& options) {
  g_options = options;
  if (!response.value("ok", false)) {
    for (const auto& e : response["errors"]) {
      err << paint("error", "31;1") << " [" << text(e["code"]) << "] " << text(e["file"]);
      if (!e["path"].get<std::string>().empty()) err << " at " << text(e["path"]);
      err << ": " << text(e["message"]) << "\n";
    }
    return;
  }
  if (options.format == Format::kCsv) {
    // CSV carries the tables only: the prose goes to a stream nobody reads.
    std::ostringstream prose;
    g_tables = &out;
    print_result(prose, response["question"].get<std::string>(), response["result"]);
    g_tables = nullptr;
    return;
  }
  const std::string question = response["question"].get<std::string>();
  std::ostringstream text;
  // A flagged price is said first, before any figure priced from elsewhere.
  if (const Json& r = response["result"]; r.is_object() && r.contains("price_flags")) {
    for (const auto& f : r["price_flags"])
      text << paint("suspect price", "33;1") << ": " << gpufleet::cli::text(f["name"]) << " (" << gpufleet::cli::text(f["code"])
           << "); not used, see the cost's note\n";
  }
  if (const Json& r = response["result"]; r.is_object() && r.contains("first_pick_caveat"))
    text << paint("caveat", "33;1") << ": " << gpufleet::cli::text(r["first_pick_caveat"]) << "\n";
  print_result(text, question, response["result"]);
  static const std::set<std::string> kPriced{"fit", "cost", "performance", "recommend", "migrate", "plan", "decide",
                                             "placement", "right_size", "estimate", "workload", "workload_set", "autoscale", "spot", "regions", "batch"};
  if (kPriced.count(question)) text << prices_line(response["catalog"].value("prices_as_of", Json())) << "\n";
  // The accuracy summary lines are read by scripts: never broken.
  const bool fit_prose = options.format == Format::kTable && question != "accuracy" && options.width > 0;
  // Catalog and request strings reach a terminal here: no control character passes raw (colour
  // only where the printer painted it, and only when colour is on).
  out << escape_terminal(wrap_prose(text.str(), fit_prose ? static_cast<std::size_t>(options.width) : std::string::npos),
                         options.colour);
}

}  // namespace gpufleet::cli
