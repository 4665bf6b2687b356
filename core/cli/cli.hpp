#pragma once
// The command line as one object: every subcommand's options (their defaults as the CLI documents
// them), defined (define.cpp), turned into one request (requests.cpp), parsed and answered
// (main.cpp), each step a member function.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "catalog_files.hpp"
#include "gpufleet/analyzer.hpp"
#include "options.hpp"
#include "print.hpp"

namespace gpufleet::cli {

class Cli {
 public:
  int run(int argc, char** argv);

 private:
  void define_globals(char** argv);
  void define_sizing();
  void define_tools();
  void define_reports();
  void define_fleet();
  void define_operations();  // autoscale, deploy
  void define_catalog_and_help();  // workloads, catalog, schema, completion, man
  void finish_definitions();
  std::optional<int> parse(int argc, char** argv);
  std::optional<int> print_without_catalog(char** argv);
  Json workload_request(const char* question, const WorkloadArgs& w, bool task_required);
  std::optional<int> build_request();
  std::optional<int> memory_request();
  std::optional<int> road_request();
  std::optional<int> tools_request();
  std::optional<int> other_request();
  int answer(const CatalogLocation& location, const PrintOptions& print_options);

  std::string hf_config_file;  // a sizing request's config.json, read once the request is made
  CLI::App app{
      "gpufleet: GPU fleet sizing and cost calculator (memory, cost, performance, migration)"};
  std::string config_dir;  // empty: found by find_catalog_dir
  bool as_json = false;
  std::string format = "table";
  bool no_colour = false;
  Json request;
  CLI::App* analyze = nullptr;
  std::string request_file;
  CLI::App* precisions = nullptr;
  std::string p_size;
  double p_params = 0;
  CLI::App* fit = nullptr;
  WorkloadArgs f_work;
  std::string f_instance;
  double f_gpus = 0;
  BillingArgs f_billing;
  std::string f_gpu, f_mode, f_optimizer, f_sharding;
  double f_context = 0, f_batch = 0, f_new = -1, f_tp = 0, f_pp = 0, f_lora_rank = 0;
  bool f_gc = false, f_offload = false;
  CLI::App* cost = nullptr;
  std::string c_instance;
  double c_gpus = 1;
  BillingArgs c_billing;
  CLI::App* perf = nullptr;
  std::vector<std::string> pf_instances;
  double pf_gpus = 1;
  WorkloadArgs pf_work;  // with a model: tokens/s from the road instead of a relative score
  BillingArgs pf_billing;
  CLI::App* rec = nullptr;
  WorkloadArgs r_work;
  std::string r_priority = "cost";
  double r_budget = 0, r_limit = 0;
  BillingArgs r_billing;
  std::vector<std::string> r_families, r_kinds;
  CLI::App* sp = nullptr;
  WorkloadArgs sp_work;
  double sp_target = 0, sp_replace = -1, sp_ckpt = -1, sp_restart = -1;
  std::string sp_reading;
  std::vector<std::string> sp_types;
  BillingArgs sp_billing;
  CLI::App* bt = nullptr;
  WorkloadArgs bt_work;
  double bt_deadline = 0, bt_earliest = -1, bt_ckpt = -1, bt_restart = -1, bt_replace = -1,
         bt_seed = -1, bt_traces = 0, bt_budget = 0, bt_concurrent = 0;
  std::string bt_reading, bt_jobs;
  std::vector<std::string> bt_types;
  BillingArgs bt_billing;
  CLI::App* rg = nullptr;
  WorkloadArgs rg_work;
  std::string rg_instance, rg_geo, rg_dataset_region;
  std::vector<std::string> rg_users, rg_allowed;
  bool rg_failover = false;
  double rg_dataset = 0;
  BillingArgs rg_billing;
  CLI::App* mig = nullptr;
  WorkloadArgs m_work;
  std::string m_current, m_priority = "cost";
  double m_gpus = 1;
  BillingArgs m_billing;
  std::vector<std::string> m_kinds;
  CLI::App* rs = nullptr;
  std::vector<std::string> rs_models;
  std::string rs_format = "fp16", rs_mode = "inference", rs_engine;
  double rs_context = 0, rs_batch = 0, rs_beams = 0;
  BillingArgs rs_billing;  // the right_size question prices on demand: hours, regions and providers
  CLI::App* est = nullptr;
  std::string e_model, e_format = "bf16", e_gpu, e_instance, e_kv, e_engine, e_attention,
                       e_phase = "inference";
  double e_input = 0, e_output = 0, e_concurrency = -1, e_tp = 0, e_gpus = 0, e_tokens = 0,
         e_epochs = 0, e_seq = 0;
  bool e_recompute = false;
  bool e_rank = false;
  double e_max_ttft = 0, e_max_tpot = 0;
  CLI::Option* e_rank_flag = nullptr;
  BillingArgs
      e_billing;  // the estimate question prices on demand in a region; a ranking takes providers
  CLI::App* acc = nullptr;
  std::vector<std::string> acc_files;
  CLI::App* plan = nullptr;
  std::string plan_file;
  BillingArgs plan_billing;  // each workload of a plan carries its own hours and way to pay
  CLI::App* placement = nullptr;
  std::vector<std::string> pl_models;
  std::string pl_instance, pl_precision = "fp16";
  BillingArgs pl_billing;
  CLI::App* dec = nullptr;
  WorkloadArgs d_work;
  std::string d_framework = "pytorch", d_kind = "transformer", d_goal = "cost";
  double d_latency = 0;
  bool d_edge = false, d_batch = false;
  BillingArgs d_billing;
  CLI::App* as = nullptr;
  WorkloadArgs as_work;
  std::string as_instance, as_csv, as_csv_values, as_policy, as_metric, as_commitment;
  std::vector<double> as_rps;
  double as_target = 0, as_min = -1, as_max = 0, as_period = 0, as_up = -1, as_down = -1,
         as_cold = -1;
  std::string as_shape;
  double as_peak = 0;
  BillingArgs as_billing;
  CLI::App* dep = nullptr;
  std::string dep_target, dep_from, dep_out, dep_packing;
  double dep_candidate = -1;
  CLI::App* wl = nullptr;
  std::string wl_id;
  CLI::App* ws = nullptr;
  std::string ws_id;
  CLI::App* wls = nullptr;
  CLI::App* cat = nullptr;
  CLI::App* check = nullptr;
  CLI::App* show = nullptr;
  std::string section = "all";
  BillingArgs show_billing;  // the prices shown are a region's
  CLI::App* sch = nullptr;
  std::string schema_name;
  bool schema_markdown = false;
  CLI::App* completion = nullptr;
  std::string shell;
  CLI::App* man = nullptr;
};

}  // namespace gpufleet::cli
