// gpufleet: the native CLI. Parses arguments into a request, asks the Analyzer, prints the answer.

#include <cstdlib>
#include <iostream>
#include <iterator>

#include <CLI/CLI.hpp>

#include "catalog_files.hpp"
#include "gpufleet/analyzer.hpp"
#include "print.hpp"

namespace {

using gpufleet::Json;

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitInvalid = 3;

struct ModelArgs {
  std::string size;
  double params_b = 0;
  void add(CLI::App* cmd) {
    auto* s = cmd->add_option("--size", size, "model size class (small, medium, large, massive, ...)");
    auto* p = cmd->add_option("--params-b", params_b, "model parameters in billions");
    s->excludes(p);
  }
  bool given() const { return !size.empty() || params_b != 0; }
  Json json() const {
    if (!size.empty()) return {{"size", size}};
    return {{"params_b", params_b}};
  }
};

std::string default_config_dir() {
  if (const char* env = std::getenv("GPUFLEET_CONFIG")) return env;
  return GPUFLEET_DEFAULT_CONFIG_DIR;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpufleet: GPU fleet sizing and cost calculator (memory, cost, performance, migration)"};
  app.set_version_flag("--version", std::string("gpufleet ") + GPUFLEET_VERSION);
  std::string config_dir = default_config_dir();
  bool as_json = false;
  app.add_option("--config", config_dir, "catalog directory (gpu_instances.json, model_config.json, workloads.json)")
      ->capture_default_str();
  app.add_flag("--json", as_json, "print the exact JSON response");
  app.require_subcommand(0, 1);
  app.footer("With no command, runs the basic_demos workload set.\nExit codes: 0 ok, 2 usage error, 3 invalid catalog or request.");

  Json request;

  auto* analyze = app.add_subcommand("analyze", "answer a raw JSON request (docs/api.md) from FILE or - (stdin)");
  std::string request_file;
  analyze->add_option("FILE", request_file, "request JSON file, or - for standard input")->required();

  auto* precisions = app.add_subcommand("precisions", "memory of the model weights in every precision format");
  ModelArgs p_model;
  p_model.add(precisions);

  auto* fit = app.add_subcommand("fit", "does the workload fit N GPUs of an instance");
  ModelArgs f_model;
  f_model.add(fit);
  std::string f_workload = "inference", f_precision = "fp16", f_instance;
  double f_gpus = 1;
  fit->add_option("--workload", f_workload, "inference | fine_tuning | training")->capture_default_str();
  fit->add_option("--precision", f_precision, "fp32 | fp16 | bf16 | fp8 | int8")->capture_default_str();
  fit->add_option("--instance", f_instance, "instance family (P5) or type (p5.48xlarge)")->required();
  fit->add_option("--gpus", f_gpus, "GPUs used")->capture_default_str();

  auto* cost = app.add_subcommand("cost", "hourly and monthly cost of N GPUs of an instance, on-demand and spot");
  std::string c_instance;
  double c_gpus = 1, c_hours = 720;
  cost->add_option("--instance", c_instance, "instance family or type")->required();
  cost->add_option("--gpus", c_gpus, "GPUs needed")->capture_default_str();
  cost->add_option("--hours", c_hours, "hours per month")->capture_default_str();

  auto* perf = app.add_subcommand("performance", "relative performance of instances for a workload type");
  std::string pf_workload = "inference", pf_precision = "fp16";
  std::vector<std::string> pf_instances;
  double pf_gpus = 1;
  perf->add_option("--workload", pf_workload, "inference | fine_tuning | training")->capture_default_str();
  perf->add_option("--precision", pf_precision, "precision format")->capture_default_str();
  perf->add_option("--instance", pf_instances, "instances to compare (repeat; first is the reference)")->required();
  perf->add_option("--gpus", pf_gpus, "GPUs used on each")->capture_default_str();

  auto* rec = app.add_subcommand("recommend", "rank every instance that holds the workload");
  ModelArgs r_model;
  r_model.add(rec);
  std::string r_workload, r_precision = "fp16", r_priority = "cost";
  bool r_spot = false;
  double r_hours = 720, r_budget = 0;
  std::vector<std::string> r_families;
  rec->add_option("--workload", r_workload, "inference | fine_tuning | training")->required();
  rec->add_option("--precision", r_precision, "precision format")->capture_default_str();
  rec->add_option("--priority", r_priority, "cost | performance | balanced")->capture_default_str();
  rec->add_flag("--spot", r_spot, "price with spot where known");
  rec->add_option("--hours", r_hours, "hours per month")->capture_default_str();
  rec->add_option("--family", r_families, "only these families (repeat)");
  rec->add_option("--budget", r_budget, "maximum USD per month");

  auto* mig = app.add_subcommand("migrate", "migration report from a current setup (seed 004)");
  ModelArgs m_model;
  m_model.add(mig);
  std::string m_current, m_workload, m_precision = "fp16", m_priority = "cost";
  double m_gpus = 1, m_hours = 720;
  bool m_spot = false;
  mig->add_option("--current", m_current, "current instance family or type")->required();
  mig->add_option("--gpus", m_gpus, "GPUs in use today")->required();
  mig->add_option("--workload", m_workload, "inference | fine_tuning | training")->required();
  mig->add_option("--precision", m_precision, "precision format")->capture_default_str();
  mig->add_option("--hours", m_hours, "hours per month")->capture_default_str();
  mig->add_flag("--spot", m_spot, "price with spot where known");
  mig->add_option("--priority", m_priority, "cost | performance | balanced")->capture_default_str();

  auto* plan = app.add_subcommand("plan", "monthly cost of a fleet plan (environments of workloads), per provider");
  std::string plan_file;
  plan->add_option("FILE", plan_file, "plan JSON file (see tests/cases/plans/seed001.json), or -")->required();

  auto* wl = app.add_subcommand("workload", "run one workload scenario of workloads.json");
  std::string wl_id;
  wl->add_option("ID", wl_id, "workload id")->required();
  auto* ws = app.add_subcommand("workload-set", "run a workload set of workloads.json");
  std::string ws_id;
  ws->add_option("ID", ws_id, "workload set id")->required();
  auto* wls = app.add_subcommand("workloads", "list the workload scenarios and sets");

  auto* cat = app.add_subcommand("catalog", "show or check the catalog");
  cat->require_subcommand(1);
  auto* check = cat->add_subcommand("check", "validate the three catalog files");
  auto* show = cat->add_subcommand("show", "show what the catalog holds");
  std::string section = "all";
  show->add_option("SECTION", section, "instances | models | precisions | workloads | all")
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  auto need_model = [](const ModelArgs& m) {
    if (!m.given()) throw CLI::RequiredError("--size or --params-b");
    return m.json();
  };
  try {
    if (*analyze) {
      std::string text;
      if (request_file == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
      } else if (!gpufleet::cli::read_text(request_file, text)) {
        std::cerr << "gpufleet: cannot read " << request_file << "\n";
        return kExitInvalid;
      }
      // Raw door: the request text goes to the analyzer untouched.
      auto files = gpufleet::cli::read_catalog_dir(config_dir);
      if (!files.errors.empty()) {
        std::cout << gpufleet::errors_response(files.errors).dump(2) << "\n";
        return kExitInvalid;
      }
      gpufleet::Analyzer analyzer(files.sources);
      const std::string answer = analyzer.analyze_json(text);
      std::cout << answer << "\n";
      return Json::parse(answer).value("ok", false) ? kExitOk : kExitInvalid;
    } else if (*precisions) {
      request = {{"question", "precisions"}, {"model", need_model(p_model)}};
    } else if (*fit) {
      request = {{"question", "fit"},        {"model", need_model(f_model)}, {"workload", f_workload},
                 {"precision", f_precision}, {"instance", f_instance},       {"gpus", f_gpus}};
    } else if (*cost) {
      request = {{"question", "cost"}, {"instance", c_instance}, {"gpus", c_gpus}, {"hours_per_month", c_hours}};
    } else if (*perf) {
      Json list = Json::array();
      for (const auto& name : pf_instances) list.push_back({{"instance", name}, {"gpus", pf_gpus}});
      request = {{"question", "performance"}, {"workload", pf_workload}, {"precision", pf_precision},
                 {"instances", list}};
    } else if (*rec) {
      request = {{"question", "recommend"}, {"model", need_model(r_model)}, {"workload", r_workload},
                 {"precision", r_precision}, {"priority", r_priority},      {"use_spot", r_spot},
                 {"hours_per_month", r_hours}};
      if (!r_families.empty()) request["families"] = r_families;
      if (r_budget > 0) request["max_usd_per_month"] = r_budget;
    } else if (*mig) {
      request = {{"question", "migrate"},
                 {"current", {{"instance", m_current}, {"gpus", m_gpus}}},
                 {"model", need_model(m_model)},
                 {"workload", m_workload},
                 {"precision", m_precision},
                 {"hours_per_month", m_hours},
                 {"use_spot", m_spot},
                 {"priority", m_priority}};
    } else if (*plan) {
      std::string text;
      if (plan_file == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
      } else if (!gpufleet::cli::read_text(plan_file, text)) {
        std::cerr << "gpufleet: cannot read " << plan_file << "\n";
        return kExitInvalid;
      }
      // The plan file is untrusted text: the analyzer's guarded parser reads it.
      text = "{\"question\": \"plan\", \"plan\": " + text + "\n}";
      auto files = gpufleet::cli::read_catalog_dir(config_dir);
      Json response = files.errors.empty()
                          ? Json::parse(gpufleet::Analyzer(files.sources).analyze_json(text))
                          : gpufleet::errors_response(files.errors);
      if (as_json) {
        std::cout << response.dump(2) << "\n";
      } else {
        gpufleet::cli::print(std::cout, std::cerr, response);
      }
      return response.value("ok", false) ? kExitOk : kExitInvalid;
    } else if (*wl) {
      request = {{"question", "workload"}, {"id", wl_id}};
    } else if (*ws) {
      request = {{"question", "workload_set"}, {"id", ws_id}};
    } else if (*wls) {
      request = {{"question", "workloads"}};
    } else if (*cat && *check) {
      request = {{"question", "validate"}};
    } else if (*cat && *show) {
      request = {{"question", "catalog"}, {"section", section}};
    } else {
      request = {{"question", "workload_set"}, {"id", "basic_demos"}};
    }
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }

  auto files = gpufleet::cli::read_catalog_dir(config_dir);
  Json response;
  if (!files.errors.empty()) {
    response = gpufleet::errors_response(files.errors);
  } else {
    gpufleet::Analyzer analyzer(files.sources);
    response = analyzer.analyze(request);
  }
  if (as_json) {
    std::cout << response.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    gpufleet::cli::print(std::cout, std::cerr, response);
  }
  return response.value("ok", false) ? kExitOk : kExitInvalid;
}
