#include "print.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <iomanip>
#include <set>
#include <sstream>
#include <cstdio>
#include <string>
#include <vector>

namespace gpufleet::cli {
namespace {

using Row = std::vector<std::string>;

PrintOptions g_options;  // set once per print() call; the CLI prints one response per run
std::ostream* g_tables = nullptr;  // CSV: where tables go while the prose is discarded

// printf's "%.*f" at any magnitude (1e308 has 309 digits).
std::string fixed(double x, int decimals) {
  const int size = std::snprintf(nullptr, 0, "%.*f", decimals, x);
  std::string text(static_cast<std::size_t>(std::max(size, 0)) + 1, '\0');
  std::snprintf(text.data(), text.size(), "%.*f", decimals, x);
  text.resize(static_cast<std::size_t>(std::max(size, 0)));
  return text;
}

std::string num(const Json& value, int decimals = 2) {
  if (!value.is_number()) return "-";
  return fixed(value.get<double>(), decimals);
}

std::string money(const Json& value) {
  if (!value.is_number()) return g_options.format == Format::kCsv ? "" : "n/a";
  const double x = value.get<double>();
  if (g_options.format == Format::kCsv) return num(value, 2);  // machine-readable: no $ or commas
  const std::string digits = fixed(x < 0 ? -x : x, 2);
  const std::size_t point = std::min(digits.find('.'), digits.size());
  std::string whole = digits.substr(0, point), grouped;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
    grouped += whole[i];
  }
  return std::string(x < 0 ? "-$" : "$") + grouped + digits.substr(point);
}

std::string text(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "-";
  return value.dump();
}

// A text a spreadsheet would run as a formula (=, +, -, @, tab or CR first; not a plain number or
// the lone "-" of an empty cell) gets a leading apostrophe (OWASP, CSV injection).
bool formula_like(const std::string& field) {
  if (field.empty() || field == "-" || std::string("=+-@\t\r").find(field[0]) == std::string::npos) return false;
  std::size_t i = field[0] == '+' || field[0] == '-' ? 1 : 0, digits = 0, dots = 0;
  for (; i < field.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(field[i]))) ++digits;
    else if (field[i] == '.' && dots == 0 && digits > 0) ++dots;
    else return true;
  }
  return digits == 0;
}

std::string csv_field(const std::string& text) {
  const std::string field = formula_like(text) ? "'" + text : text;
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string quoted = "\"";
  for (char c : field) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string md_field(const std::string& field) {
  std::string out;
  for (char c : field) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string paint(const std::string& text, const char* colour) {
  return g_options.colour ? std::string("\x1b[") + colour + "m" + text + "\x1b[0m" : text;
}

void table(std::ostream& prose_out, const Row& header, const std::vector<Row>& rows) {
  std::ostream& out = g_tables ? *g_tables : prose_out;
  if (g_options.format == Format::kCsv) {
    static int tables_written = 0;
    if (tables_written++ > 0) out << "\r\n";  // a blank line between tables
    for (const Row* row : {&header}) {
      for (std::size_t c = 0; c < row->size(); ++c) out << (c ? "," : "") << csv_field((*row)[c]);
      out << "\r\n";
    }
    for (const auto& row : rows) {
      for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << csv_field(row[c]);
      out << "\r\n";
    }
    return;
  }
  if (g_options.format == Format::kMarkdown) {
    out << "\n|";
    for (const auto& h : header) out << " " << md_field(h) << " |";
    out << "\n|";
    for (std::size_t c = 0; c < header.size(); ++c) out << " --- |";
    out << "\n";
    for (const auto& row : rows) {
      out << "|";
      for (const auto& f : row) out << " " << md_field(f) << " |";
      out << "\n";
    }
    out << "\n";
    return;
  }
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
  auto line = [&](const Row& row) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out << row[c];
      if (c + 1 < row.size()) out << std::string(width[c] - row[c].size() + 2, ' ');
    }
    out << "\n";
  };
  line(header);
  Row rule;
  for (auto w : width) rule.push_back(std::string(w, '-'));
  line(rule);
  for (const auto& row : rows) line(row);
}

// The workload as the core understood it, with its stated defaults.
void print_request(std::ostream& out, const Json& q) {
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

std::string layout_text(const Json& c) {
  const Json& l = c["layout"];
  std::string t = "TP" + num(l["tensor_parallel"], 0);
  if (l["pipeline_parallel"].get<double>() > 1) t += " PP" + num(l["pipeline_parallel"], 0);
  return t + " x" + num(l["replicas"], 0);
}

Row candidate_row(const Json& c) {
  const bool serving = c.contains("output_tokens_per_s");
  const bool training = c.contains("tokens_per_s");
  std::string speed = "-", detail = "-";
  if (serving) {
    speed = num(c["output_tokens_per_s"], 0) + " tok/s";
    detail = "c" + num(c["concurrency_per_replica"], 0) + " p95 TTFT " + num(c["p95_time_to_first_token_ms"], 0) + " ms, TPOT " +
             num(c["time_per_output_token_ms"], 1) + " ms";
  } else if (training) {
    speed = num(c["tokens_per_s"], 0) + " tok/s";
    detail = c["run_days"].is_number() ? num(c["run_days"], 1) + " days, " + money(c["usd_per_run"]) + " per run" : "-";
  }
  const Json& per_million = c["performance"]["usd_per_million_tokens"];
  return {text(c["instance"]) + (c["instance_count"].get<int>() > 1 ? " x" + c["instance_count"].dump() : ""),
          text(c["region"]),
          text(c["gpu_type"]) + (c["uncalibrated"].get<bool>() ? " (uncalibrated)" : ""),
          num(c["gpus"], 0) + " " + layout_text(c),
          num(c["memory_per_gpu_gib"], 1) + "/" + num(c["capacity_per_gpu_gib"], 0) + " GiB",
          speed,
          detail,
          c.contains("utilization_pct") && c["utilization_pct"].is_number() ? num(c["utilization_pct"], 0) + "%" : "-",
          money(c["usd_per_month"]) + (c["cost"]["pricing"] == "spot" ? " (spot)" : ""),
          per_million.is_number() ? money(per_million) : "-",
          c["savings_pct"].is_number() ? num(c["savings_pct"], 1) + "%" : "-",
          text(c["risk_level"])};
}

const Row kCandidateHeader{"instance", "region", "accelerator", "gpus layout", "memory/GPU", "capacity", "latency or run",
                           "util", "monthly", "$/1M tok", "savings", "risk"};

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
  std::vector<Row> rows{candidate_row(r["current"])};
  rows.front().front() = "today: " + rows.front().front();
  for (const auto& c : r["alternatives"]) rows.push_back(candidate_row(c));
  out << "\nAlternatives (ranked for " << text(r["request"]["priority"]) << "):\n";
  table(out, kCandidateHeader, rows);
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

void print_result(std::ostream& out, const std::string& question, const Json& r) {
  if (question == "precisions") {
    out << "Weights of " << text(r["model"]["label"]) << " by precision (GB = 1e9 bytes):\n";
    std::vector<Row> rows;
    for (const auto& p : r["precisions"]) {
      std::string families;
      for (const auto& f : p["native_on_families"]) families += (families.empty() ? "" : " ") + text(f);
      rows.push_back({text(p["name"]), num(p["bytes_per_parameter"], 0), num(p["weights_gb"], 0) + " GB", families});
    }
    table(out, {"precision", "bytes/param", "weights", "native on"}, rows);
  } else if (question == "fit") {
    out << text(r["placement"]["instance"]) << ": "
        << paint(text(r["status"]), r["status"] == "FITS" ? "32;1" : "31;1") << "\n";
    if (r["placement"].contains("note")) out << "  " << text(r["placement"]["note"]) << "\n";
    print_request(out, r["request"]);
    const Json& d = r["deployment"];
    if (!d["runs"].get<bool>()) out << "Why: " << text(d["refusal"]) << "\n";
    out << "Layout: " << num(d["gpus"], 0) << " GPU(s), " << layout_text(d) << "; per GPU " << num(d["memory_per_gpu_gib"]) << " of "
        << num(d["capacity_per_gpu_gib"]) << " GiB (" << num(d["memory_utilization_pct"], 1) << "%)\n";
    if (d.contains("memory_per_gpu")) {
      std::vector<Row> rows;
      for (const auto& l : d["memory_per_gpu"]) rows.push_back({text(l["label"]), num(l["gib"]) + " GiB"});
      table(out, {"memory per GPU", "size"}, rows);
    } else if (r["memory"].contains("multiplier")) {
      const Json& m = r["memory"];
      out << "Memory (seed method): weights " << num(m["weights_gb"]) << " GB + " << text(m["overhead_covers"]) << " " << num(m["overhead_gb"])
          << " GB = " << num(m["total_gb"]) << " GB  (x" << num(m["multiplier"], 2) << ", " << text(m["multiplier_source"]) << ")\n";
    }
    if (d.contains("output_tokens_per_s") && d["runs"].get<bool>())
      out << "Serving: " << num(d["concurrency_per_replica"], 0) << " sequences per copy (KV cache holds " << num(d["max_concurrency_by_kv_cache"], 0)
          << "), " << num(d["output_tokens_per_s"], 0) << " output tokens/s, TTFT " << num(d["time_to_first_token_ms"], 1) << " ms, TPOT "
          << num(d["time_per_output_token_ms"], 2) << " ms\n";
    if (d.contains("tokens_per_s") && d["runs"].get<bool>()) out << "Training: " << num(d["tokens_per_s"], 0) << " tokens/s\n";
    for (const auto& n : d["notes"]) out << "Note: " << text(n) << "\n";
    if (r.contains("ways_out")) out << "Ways out: " << text(d["way_out"]) << (text(d["way_out"]).empty() ? "" : "; ") << text(r["ways_out"]["summary"]) << "\n";
    out << "Cost: " << (r["cost"]["basis"].get<std::string>().empty() ? text(r["cost"].value("note", Json("unknown"))) : text(r["cost"]["basis"])) << "\n";
  } else if (question == "cost") {
    out << text(r["placement"].value("note", r["placement"]["instance"])) << "\n";
    const Json& c = r["cost"];
    out << "Schedule: " << text(c["schedule"]) << "\n";
    std::vector<Row> rows{{"chosen: " + text(c["pricing"]), money(c["usd_per_hour"]), money(c["usd_per_month"]), text(c["basis"])},
                          {"on-demand", money(c["on_demand_usd_per_hour"]), money(c["on_demand_usd_per_month"]), ""},
                          {"spot", money(c["spot_usd_per_hour"]), money(c["spot_usd_per_month"]),
                           c["spot_interruption_notice_s"].is_number() ? "interruption notice " + num(c["spot_interruption_notice_s"], 0) + " s" : ""}};
    for (const auto& x : c["commitments"]) {
      const std::string upfront = text(x["upfront"]) == "none" ? "no" : text(x["upfront"]);
      const std::string what = text(x["name"]) + " " + text(x["term"]) + " " + upfront + " upfront";
      if (!x["discount_pct"].is_number()) {
        rows.push_back({what, "", "", text(x.value("note", Json("")))});
        continue;
      }
      std::string basis = "-" + num(x["discount_pct"], 1) + "%, 730 h billed; break-even at " + num(x["break_even_utilization_pct"], 0) + "% utilization";
      if (x["upfront_usd"].is_number() && x["upfront_usd"].get<double>() > 0)
        basis += "; " + money(x["upfront_usd"]) + " upfront" +
                 (x["recurring_usd_per_month"].get<double>() > 0 ? " + " + money(x["recurring_usd_per_month"]) + "/month" : "");
      rows.push_back({what, money(x["usd_per_hour"]), money(x["usd_per_month"]), basis});
    }
    table(out, {"pricing", "USD/hour", "USD/month", "basis"}, rows);
    if (c.contains("note")) out << "Note: " << text(c["note"]) << "\n";
    if (c["spot_savings_pct"].is_number()) out << "Spot saves " << num(c["spot_savings_pct"], 1) << "% against on-demand\n";
    out << text(r["pricing_note"]) << "\n";
    if (r.contains("by_region")) {
      const Json& b = r["by_region"];
      std::vector<Row> regions;
      for (const auto& x : b["regions"]) {
        const bool compared = x.contains("difference_pct");
        regions.push_back({text(x["region"]), money(x["usd_per_hour"]), money(x["usd_per_month"]),
                           compared ? money(x["difference_usd_per_month"]) : "-",
                           compared ? num(x["difference_pct"], 1) + "%" : "-",
                           x.contains("suspect") ? "suspect price: " + text(x["suspect"][0]) : text(x.value("note", Json("")))});
      }
      out << "By region (against " << text(b["reference_region"]) << "):\n";
      table(out, {"region", "USD/hour", "USD/month", "difference/month", "difference", "note"}, regions);
    }
  } else if (question == "performance") {
    std::vector<Row> rows;
    for (const auto& s : r["setups"]) {
      const Json& d = s.contains("deployment") ? s["deployment"] : Json::object();
      rows.push_back({text(s["placement"]["instance"]), num(s["score"], 1) + " " + text(s["unit"]), num(s["ratio_to_first"], 2) + "x",
                      s.contains("basis") ? text(s["basis"]) : d["runs"].get<bool>() ? layout_text(d) + ", " + text(s["bound"]) : text(d["refusal"])});
    }
    table(out, {"instance", "score", "ratio", "basis"}, rows);
  } else if (question == "recommend") {
    print_request(out, r["request"]);
    std::vector<Row> rows;
    for (const auto& c : r["candidates"]) rows.push_back(candidate_row(c));
    out << "Candidates (" << text(r["ranking"]) << "):\n";
    table(out, kCandidateHeader, rows);
    print_excluded(out, r["excluded"]);
    out << text(r["pricing_note"]) << "\n";
  } else if (question == "migrate") {
    print_migration(out, r);
  } else if (question == "workload") {
    print_workload(out, r);
  } else if (question == "workload_set") {
    out << "Workload set " << text(r["id"]) << " (" << r["reports"].size() << " scenarios)\n\n";
    for (const auto& w : r["reports"]) print_workload(out, w);
  } else if (question == "plan") {
    out << "Fleet plan: " << text(r["name"]) << "\n";
    std::vector<Row> rows;
    for (const auto& e : r["environments"]) {
      for (const auto& w : e["workloads"]) {
        std::string alts;
        for (const auto& a : w["alternatives"])
          if (a["provider"] != w["provider"]) alts += (alts.empty() ? "" : ", ") + text(a["provider"]) + " " + text(a["instance"]) + " " + money(a["usd_per_month"]);
        rows.push_back({text(e["name"]), text(w["name"]), text(w["count"]) + " x " + text(w["instance"]) + " (" + text(w["provider"]) + ")",
                        text(w["cost"]["schedule"]), money(w["cost"]["usd_per_month"]), alts});
      }
      rows.push_back({"", "", "", "environment total", money(e["usd_per_month"]), ""});
    }
    table(out, {"environment", "workload", "instances", "schedule", "monthly", "elsewhere"}, rows);
    out << "\nTotal: " << money(r["total_usd_per_month"]) << "/month\nWhole plan per provider:";
    for (const auto& [k, v] : r["by_provider_usd_per_month"].items()) out << "  " << k << " " << (v.is_null() ? "n/a" : money(v));
    out << "\nCheapest provider mix: " << money(r["cheapest_mix"]["usd_per_month"]);
    if (r["cheapest_mix"].contains("savings_pct")) out << " (" << num(r["cheapest_mix"]["savings_pct"], 1) << "% less)";
    out << "\n";
  } else if (question == "placement") {
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
        rows.push_back({text(g["instance"]) + "/" + text(g["gpu"]), num(g["used_gb"], 1) + " / " + num(g["capacity_gb"], 1) + " GB", models});
      }
      table(out, {"instance/gpu", "memory", "models"}, rows);
      if (!p["unplaced"].empty()) out << "unplaced: " << p["unplaced"].dump() << "\n";
    };
    if (r.contains("on_instance")) show("On the requested instance", r["on_instance"]);
    show("Cheapest single instance", r["cheapest_single_instance"]);
    show("Cheapest split", r["cheapest_split"]);
  } else if (question == "decide") {
    out << "Seed 002 decision tree: " << text(r["decision_tree"]) << "\n  " << text(r["branch"]) << "\n";
    print_request(out, r["request"]);
    if (r.contains("prices_disagree")) out << "Prices disagree: " << text(r["prices_disagree"]) << "\n";
    std::vector<Row> rows;
    for (const auto& o : r["options"]) {
      const Json& c = o["cheapest_instance"];
      rows.push_back({(o["recommended"].get<bool>() ? "* " : "  ") + text(o["name"]), o["suitable"].get<bool>() ? "yes" : "no",
                      c.is_null() ? "-" : text(c["instance"]) + " x" + c["instance_count"].dump() + " (" + text(c["provider"]) + ")", c.is_null() ? "-" : money(c["cost"]["usd_per_month"]),
                      text(o["migration_complexity"]), text(o["risk_level"])});
    }
    table(out, {"option", "suitable", "cheapest valid deployment", "monthly", "complexity", "risk"}, rows);
    for (const auto& o : r["options"]) {
      out << "\n" << text(o["name"]) << ":\n";
      for (const auto& reason : o["reasons"]) out << "  - " << text(reason) << "\n";
    }
  } else if (question == "workloads") {
    std::vector<Row> rows;
    for (const auto& w : r["workloads"]) {
      const Json& s = w["scenario"];
      rows.push_back({text(w["id"]), text(s["current_instance"]) + " x" + num(s["current_gpu_count"], 0),
                      text(s["workload_type"]), text(s["model_size"]), text(s["precision"]), text(w["expected_outcome"])});
    }
    table(out, {"id", "current", "workload", "model", "precision", "expected outcome"}, rows);
    out << "\nWorkload sets:\n";
    for (const auto& [k, v] : r["workload_sets"].items()) {
      std::string members;
      for (const auto& m : v) members += (members.empty() ? "" : ", ") + text(m);
      out << "  " << k << ": " << members << "\n";
    }
  } else if (question == "validate") {
    out << "catalog OK:";
    for (const auto& [k, v] : r["counts"].items()) out << " " << v.dump() << " " << k << ";";
    out << "\n";
    if (!r["instances_without_on_demand_price"].empty())
      out << "no on-demand price in the usual regions (absent in the source data): " << r["instances_without_on_demand_price"].dump() << "\n";
    if (!r["warnings"].empty()) {
      out << r["warnings"].size() << " suspect price" << (r["warnings"].size() == 1 ? "" : "s") << ", left out of rankings:\n";
      std::vector<Row> rows;
      for (const auto& w : r["warnings"]) rows.push_back({text(w["code"]), text(w["file"]) + " " + text(w["path"]), text(w["message"])});
      table(out, {"code", "where", "why"}, rows);
    }
  } else if (question == "catalog") {
    if (r.contains("instances")) {
      std::vector<Row> rows;
      for (const auto& i : r["instances"])
        rows.push_back({text(i["family"]), text(i["instance"]), text(i["gpu_type"]), num(i["gpus"], 0),
                        num(i["memory_per_gpu_gb"], 1) + " GB", num(i["memory_bandwidth_gb_per_s"], 0),
                        money(i["on_demand_usd_per_hour"]), money(i["spot_usd_per_hour"]), text(i["source_date"])});
      table(out, {"family", "instance", "gpu", "gpus", "mem/gpu", "GB/s", "on-demand/h", "spot/h", "date"}, rows);
      out << "\n";
    }
    if (r.contains("model_sizes")) {
      std::vector<Row> rows;
      for (const auto& m : r["model_sizes"])
        rows.push_back({text(m["size"]), num(m["parameter_count_billion"], 0) + "B", num(m["memory_overhead_multiplier"], 2), text(m["description"])});
      table(out, {"size", "parameters", "overhead", "description"}, rows);
      out << "\n";
    }
    if (r.contains("precision_formats")) {
      std::vector<Row> rows;
      for (const auto& [k, p] : r["precision_formats"].items()) rows.push_back({k, num(p["bytes_per_parameter"], 0), text(p["description"])});
      table(out, {"precision", "bytes/param", "description"}, rows);
      out << "\n";
    }
    if (r.contains("workloads")) print_result(out, "workloads", r["workloads"]);
  } else if (question == "memory") {
    const Json& m = r["model"];
    out << text(m["name"]) << ": " << num(m["parameters_billion"], 3) << " B parameters";
    if (m.contains("active_parameters_billion")) out << " (" << num(m["active_parameters_billion"], 3) << " B active)";
    out << ", KV cache " << num(m["kv_cache_kib_per_token"], 1) << " KiB per token\n";
    const Json& st = r["settings"];
    out << text(st["mode"]) << ", " << text(st["weight_format"]) << " weights, " << text(st["compute_precision"]) << " compute, batch "
        << num(st["batch"], 0) << ", context " << num(st["context"], 0) << ", engine " << text(st["engine"]) << ", " << num(st["gpus"], 0)
        << " GPU(s)\n";
    std::vector<Row> rows;
    for (const auto& l : r["per_gpu"]) rows.push_back({text(l["label"]), num(l["gib"], 2) + " GiB", text(l["basis"])});
    rows.push_back({"Total per GPU", num(r["total_gib"], 2) + " GiB", "tensors " + num(r["tensors_gib"], 2) + " GiB + runtime"});
    table(out, {"memory per GPU", "size", "how"}, rows);
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
    }
    std::string fitting;
    for (const auto& g : r["gpus"]) if (g["fits"].get<bool>()) fitting += (fitting.empty() ? "" : ", ") + text(g["gpu"]);
    out << "GPUs that hold it: " << (fitting.empty() ? "none at this GPU count" : fitting) << "\n";
  } else if (question == "estimate" && r.contains("ranked")) {
    out << text(r["model"]["name"]) << ": " << num(r["settings"]["input_tokens"], 0) << " tokens in, " << num(r["settings"]["output_tokens"], 0)
        << " out; " << num(r["candidates"], 0) << " instances meet the targets, cheapest per token first\n";
    std::vector<Row> rows;
    for (const auto& c : r["ranked"]) {
      rows.push_back({text(c["instance"]), text(c["provider"]), text(c["gpu"]) + " x" + num(c["gpus"], 0), "TP " + num(c["tensor_parallel"], 0),
                      num(c["time_to_first_token_ms"], 1) + " ms", num(c["time_per_output_token_ms"], 2) + " ms", num(c["output_tokens_per_s"], 0),
                      money(c["usd_per_million_output_tokens"]), num(c["output_tokens_per_usd"], 0)});
    }
    table(out, {"instance", "provider", "gpus", "layout", "TTFT", "TPOT", "out tok/s", "$/1M out", "tokens per $"}, rows);
    out << text(r["basis"]) << "\n";
  } else if (question == "estimate") {
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
    if (r.contains("inference")) {
      const Json& e = r["inference"];
      std::vector<Row> rows{
          {"Time to first token", num(e["time_to_first_token_ms"], 1) + " ms", text(e["prefill"]["bound"]) + " bound; " + text(e["prefill"]["basis"])},
          {"Time per output token", num(e["time_per_output_token_ms"], 2) + " ms", text(e["decode"]["bound"]) + " bound; " + text(e["decode"]["basis"])},
          {"End-to-end latency", num(e["end_to_end_latency_ms"], 0) + " ms", "first token + (output - 1) x time per token"},
          {"Output tokens/s", num(e["output_tokens_per_s"], 0), "at concurrency " + num(e["concurrency"], 0) + " (the KV cache holds " +
                                                                    num(e["max_concurrency_by_kv_cache"], 0) + ")"},
          {"Single stream", num(e["single_stream_tokens_per_s"], 1) + " tokens/s", "one request alone"}};
      if (!e["usd_per_million_output_tokens"].is_null()) {
        rows.push_back({"$ per 1M output tokens", money(e["usd_per_million_output_tokens"]), text(e["cost_basis"])});
        if (!e["usd_per_million_output_tokens_spot"].is_null()) rows.push_back({"  on spot", money(e["usd_per_million_output_tokens_spot"]), ""});
        if (!e["usd_per_million_input_tokens"].is_null()) rows.push_back({"$ per 1M input tokens", money(e["usd_per_million_input_tokens"]), "$/h over the prompt tokens prefill processes per hour"});
      }
      table(out, {"figure", "value", "how"}, rows);
      out << "Limit: " << text(e["limit"]) << "\n";
    } else {
      const Json& t = r["training"];
      std::vector<Row> rows{{"Tokens/s per GPU", num(t["tokens_per_s_per_gpu"], 0), text(t["basis"])},
                            {"TFLOPS per GPU", num(t["tflops_per_gpu"], 1), "compute bound"}};
      if (t.contains("hours")) rows.push_back({"Time to train", num(t["hours"], 1) + " h", num(t["gpu_hours"], 0) + " GPU-hours"});
      if (t.contains("usd_on_demand")) rows.push_back({"Cost on demand", money(t["usd_on_demand"]), ""});
      if (t.contains("usd_spot")) rows.push_back({"Cost on spot", money(t["usd_spot"]), "plus restarts after interruptions"});
      table(out, {"figure", "value", "how"}, rows);
    }
  } else if (question == "right_size") {
    std::vector<Row> rows;
    for (const auto& m : r["models"]) {
      const Json& c = m["cheapest_instance"];
      rows.push_back({text(m["model"]), num(m["weights_gb"], 2) + " GB", num(m["min_vram_gb"], 2) + " GB", text(m["smallest_gpu"]),
                      c.is_null() ? "-" : text(c["instance"]) + " (" + num(c["gpus_used"], 0) + " x " + text(c["gpu_type"]) + ")",
                      c.is_null() ? "-" : money(c["usd_per_month"])});
    }
    table(out, {"model", "weights", "min VRAM", "smallest GPU", "cheapest instance", "monthly"}, rows);
    out << "Monthly = on-demand price x " << num(r["hours_per_month"], 0) << " h; " << text(r["basis"]) << "\n";
  } else if (question == "accuracy") {
    std::vector<Row> rows;
    for (const auto& c : r["cases"]) {
      if (c.contains("skipped")) {
        rows.push_back({text(c["id"]), text(c["confidence"]), "-", num(c["measured"], 4) + " " + text(c["unit"]), "skipped: " + text(c["skipped"])});
      } else {
        rows.push_back({text(c["id"]), text(c["confidence"]), num(c["predicted"], 4), num(c["measured"], 4) + " " + text(c["unit"]),
                        num(c["error_pct"], 1) + "%"});
      }
    }
    table(out, {"id", "confidence", "predicted", "measured", "error"}, rows);
    for (const char* q : {"memory", "throughput"}) {
      const Json& s = r["summary"][q];
      out << q << ": n=" << num(s["n"], 0) << " median_abs_err_pct=" << num(s["median_abs_err_pct"], 2)
          << " p90_abs_err_pct=" << num(s["p90_abs_err_pct"], 2) << " max_abs_err_pct=" << num(s["max_abs_err_pct"], 2)
          << " skipped=" << num(s["skipped"], 0) << "\n";
    }
  } else {
    out << r.dump(2) << "\n";
  }
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
  print_result(out, question, response["result"]);
  static const std::set<std::string> kPriced{"fit", "cost", "performance", "recommend", "migrate", "plan", "decide",
                                             "placement", "right_size", "estimate", "workload", "workload_set"};
  if (kPriced.count(question)) out << prices_line(response["catalog"].value("prices_as_of", Json())) << "\n";
}

}  // namespace gpufleet::cli
