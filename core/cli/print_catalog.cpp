// The catalog's answers in tables: its instances, models, sizes and formats, the seed's workloads,
// validate's suspect prices and the accuracy harness.
#include <map>
#include <string>
#include <vector>

#include "print_parts.hpp"
#include "table.hpp"

namespace gpufleet::cli::detail {

namespace {

// The catalog's instances. The price date most rows share (an undated snapshot's explanation, say)
// is said once under the table; a row shows its date only when it differs (CSV keeps every date).
void print_instances(std::ostream& out, const Json& instances) {
  std::map<std::string, int> dates;
  for (const auto& i : instances) ++dates[text(i["source_date"])];
  std::string common;
  int most = 0;
  for (const auto& [date, count] : dates)
    if (count > most) common = date, most = count;
  std::vector<Row> rows;
  for (const auto& i : instances) {
    const std::string date = text(i["source_date"]);
    rows.push_back({cell(i["family"]), cell(i["instance"]), cell(i["gpu_type"]),
                    quantity(i["gpus"], 0), quantity(i["memory_per_gpu_gb"], 1, " GB"),
                    quantity(i["memory_bandwidth_gb_per_s"], 0), usd(i["on_demand_usd_per_hour"]),
                    usd(i["spot_usd_per_hour"]),
                    cell(date == common ? "" : date, {i["source_date"]})});
  }
  table(out,
        {{"family", {"family"}, 2},
         {"instance", {"instance"}},
         {"gpu", {"gpu"}, 0, true},
         {"gpus", {"gpus"}},
         {"mem/gpu", {"memory_per_gpu_gb"}},
         {"GB/s", {"memory_bandwidth_gb_per_s"}, 1},
         {"on-demand/h", {"on_demand_usd_per_hour"}},
         {"spot/h", {"spot_usd_per_hour"}},
         {dates.size() == 1 ? "" : "date", {"source_date"}, 3}},
        rows);
  if (!instances.empty())
    out << (dates.size() == 1 ? "Price date of every row: "
                              : "Price date of the rows that show none: ")
        << common << "\n";
  out << "\n";
}

// The concrete models of model_config.json: the names --model takes.
void print_concrete_models(std::ostream& out, const Json& models) {
  std::vector<Row> rows;
  for (const auto& m : models)
    rows.push_back({cell(m["key"]), cell(m["name"]), cell(m["hf_id"]),
                    quantity(m["parameters_billion"], 3, "B"), cell(m["model_type"]),
                    quantity(m["max_context"], 0)});
  table(out,
        {{"model", {"key"}},
         {"name", {"name"}, 0, true},
         {"hugging face id", {"hf_id"}, 1},
         {"parameters", {"parameters_billion"}},
         {"type", {"model_type"}, 2},
         {"context", {"max_context"}, 3}},
        rows);
  out << "--model takes these keys, their Hugging Face ids (with or without the organisation) and "
         "common "
         "spellings (Llama-3.1-8B-Instruct, llama3 8b); a model not listed: --hf-config "
         "config.json\n\n";
}

}  // namespace

void print_workloads(std::ostream& out, const Json& r) {
  std::vector<Row> rows;
  for (const auto& w : r["workloads"]) {
    const Json& s = w["scenario"];
    rows.push_back({cell(w["id"]),
                    cell(text(s["current_instance"]) + " x" + num(s["current_gpu_count"], 0),
                         {s["current_instance"], s["current_gpu_count"]}),
                    cell(s["workload_type"]), cell(s["model_size"]), cell(s["precision"]),
                    cell(w["expected_outcome"])});
  }
  table(out,
        {{"id", {"id"}},
         {"current", {"current_instance", "current_gpus"}},
         {"workload", {"workload"}},
         {"model", {"model_size"}},
         {"precision", {"precision"}, 1},
         {"expected outcome", {"expected_outcome"}, 0, true}},
        rows);
  out << "\nWorkload sets:\n";
  for (const auto& [k, v] : r["workload_sets"].items()) {
    std::string members;
    for (const auto& m : v) members += (members.empty() ? "" : ", ") + text(m);
    out << "  " << k << ": " << members << "\n";
  }
}

void print_validate(std::ostream& out, const Json& r) {
  out << "catalog OK:";
  for (const auto& [k, v] : r["counts"].items()) out << " " << v.dump() << " " << k << ";";
  out << "\n";
  if (!r["instances_without_on_demand_price"].empty())
    out << "no on-demand price in the usual regions (absent in the source data): "
        << r["instances_without_on_demand_price"].dump() << "\n";
  if (!r["warnings"].empty()) {
    out << r["warnings"].size() << " suspect price" << (r["warnings"].size() == 1 ? "" : "s")
        << ", left out of rankings:\n";
    std::vector<Row> rows;
    for (const auto& w : r["warnings"])
      rows.push_back({cell(w["code"]),
                      cell(text(w["file"]) + " " + text(w["path"]), {w["file"], w["path"]}),
                      cell(w["message"])});
    table(out, {{"code", {"code"}}, {"where", {"file", "path"}, 1}, {"why", {"message"}, 0, true}},
          rows);
  }
}

void print_catalog(std::ostream& out, const Json& r) {
  if (r.contains("instances")) print_instances(out, r["instances"]);
  if (r.contains("concrete_models")) print_concrete_models(out, r["concrete_models"]);
  if (r.contains("model_sizes")) {
    std::vector<Row> rows;
    for (const auto& m : r["model_sizes"])
      rows.push_back({cell(m["size"]), quantity(m["parameter_count_billion"], 0, "B"),
                      quantity(m["memory_overhead_multiplier"], 2), cell(m["description"])});
    table(out,
          {{"size", {"size"}},
           {"parameters", {"parameters_billion"}},
           {"overhead", {"memory_overhead_multiplier"}},
           {"description", {"description"}, 0, true}},
          rows);
    out << "\n";
  }
  if (r.contains("precision_formats")) {
    std::vector<Row> rows;
    for (const auto& [k, p] : r["precision_formats"].items())
      rows.push_back({cell(k, {k}), quantity(p["bytes_per_parameter"], 0), cell(p["description"])});
    table(out,
          {{"precision", {"precision"}},
           {"bytes/param", {"bytes_per_parameter"}},
           {"description", {"description"}, 0, true}},
          rows);
    out << "\n";
  }
  if (r.contains("workloads")) print_workloads(out, r["workloads"]);
}

void print_accuracy(std::ostream& out, const Json& r) {
  std::vector<Row> rows;
  for (const auto& c : r["cases"]) {
    if (c.contains("skipped")) {
      rows.push_back(
          {cell(c["id"]), cell(c["confidence"]), quantity(Json(), 0),
           cell(num(c["measured"], 4) + " " + text(c["unit"]), {c["measured"], c["unit"]}),
           cell("skipped: " + text(c["skipped"]), {Json(), c["skipped"]})});
    } else {
      rows.push_back(
          {cell(c["id"]), cell(c["confidence"]), quantity(c["predicted"], 4),
           cell(num(c["measured"], 4) + " " + text(c["unit"]), {c["measured"], c["unit"]}),
           cell(num(c["error_pct"], 1) + "%", {c["error_pct"], Json()})});
    }
  }
  table(out,
        {{"id", {"id"}},
         {"confidence", {"confidence"}},
         {"predicted", {"predicted"}},
         {"measured", {"measured", "unit"}},
         {"error", {"error_pct", "skipped"}, 0, true}},
        rows);
  for (const char* q : {"memory", "throughput"}) {
    const Json& s = r["summary"][q];
    out << q << ": n=" << num(s["n"], 0)
        << " median_abs_err_pct=" << num(s["median_abs_err_pct"], 2)
        << " p90_abs_err_pct=" << num(s["p90_abs_err_pct"], 2)
        << " max_abs_err_pct=" << num(s["max_abs_err_pct"], 2)
        << " skipped=" << num(s["skipped"], 0) << "\n";
  }
}

}  // namespace gpufleet::cli::detail
