// gpufleet: the native CLI. Parses arguments into a request, asks the Analyzer, prints the answer.

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "catalog_files.hpp"
#include "completion.hpp"
#include "edges.hpp"
#include "examples.hpp"
#include "exit_codes.hpp"
#include "suggest.hpp"
#include "gpufleet/analyzer.hpp"
#include "gpufleet/schema.hpp"
#include "inputs.hpp"
#include "options.hpp"
#include "print.hpp"

namespace {

using gpufleet::Json;
using namespace gpufleet::cli;

// deploy's files: printed (one file as it is, several each after a "==> NAME <==" line), or
// written under `dir`, each path a name the core gave (relative, no "..").
bool write_deploy_files(const Json& files, const std::string& dir) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string name = files[i].value("name", ""), content = files[i].value("content", "");
    if (dir.empty()) {
      if (files.size() > 1) std::cout << (i ? "\n" : "") << "==> " << name << " <==\n";
      std::cout << content;
      continue;
    }
    const std::filesystem::path rel(name);
    if (rel.is_absolute() || name.find("..") != std::string::npos) {
      std::cerr << "gpufleet: refusing to write " << name << "\n";
      return false;
    }
    const std::filesystem::path path = std::filesystem::path(dir) / rel;
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    out << content;
    if (ec || !out) {
      std::cerr << "gpufleet: cannot write " << path.string() << "\n";
      return false;
    }
    std::cout << path.string() << "\n";
  }
  return true;
}

// NAME=GB, NAME:PARAMS_B, REGION=SHARE: the number after `separator` by the numeric option rule.
double suffix_number(const std::string& option, const std::string& spec, std::size_t separator,
                     const std::string& form) {
  const std::string number = spec.substr(separator + 1);
  if (const std::string fault = number_fault(number); !fault.empty())
    throw CLI::ValidationError(option, "expected " + form + ", got \"" + spec + "\": " + fault);
  return std::strtod(number.c_str(), nullptr);
}

// The command line: every subcommand's options (their defaults as the CLI documents them),
// defined, parsed, turned into one request and answered, each step a member function.
class Cli {
 public:
  int run(int argc, char** argv);

 private:
  void define_globals(char** argv);
  void define_sizing();
  void define_tools();
  void define_reports();
  void define_fleet();
  void define_catalog();
  void finish_definitions();
  std::optional<int> parse(int argc, char** argv);
  std::optional<int> print_without_catalog(char** argv);
  Json workload_request(const char* question, const WorkloadArgs& w, bool task_required);
  std::optional<int> build_request();
  std::optional<int> memory_request();
  std::optional<int> road_request();
  std::optional<int> tools_request();
  std::optional<int> other_request();
  int answer(const gpufleet::cli::CatalogLocation& location, const gpufleet::cli::PrintOptions& print_options);

  std::string hf_config_file;  // a sizing request's config.json, read once the request is made
  CLI::App app{"gpufleet: GPU fleet sizing and cost calculator (memory, cost, performance, migration)"};
  std::string config_dir;  // empty: found by gpufleet::cli::find_catalog_dir
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
  double bt_deadline = 0, bt_earliest = -1, bt_ckpt = -1, bt_restart = -1, bt_replace = -1, bt_seed = -1, bt_traces = 0, bt_budget = 0,
         bt_concurrent = 0;
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
  std::string e_model, e_format = "bf16", e_gpu, e_instance, e_kv, e_phase = "inference";
  double e_input = 0, e_output = 0, e_concurrency = -1, e_tp = 0, e_tokens = 0, e_epochs = 0, e_seq = 0;
  bool e_recompute = false;
  bool e_rank = false;
  double e_max_ttft = 0, e_max_tpot = 0;
  CLI::Option* e_rank_flag = nullptr;
  BillingArgs e_billing;  // the estimate question prices on demand in a region; a ranking takes providers
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
  double as_target = 0, as_min = -1, as_max = 0, as_period = 0, as_up = -1, as_down = -1, as_cold = -1;
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

void Cli::define_globals(char** argv) {
  app.set_version_flag("--version", [this, argv] {
    return std::string("gpufleet ") + GPUFLEET_VERSION + "\n" +
           gpufleet::cli::describe(gpufleet::cli::find_catalog_dir(config_dir, argv[0]));
  });
  app.add_option("--config", config_dir,
                 "catalog directory (gpu_instances.json, model_config.json, workloads.json, prices/); "
                 "default: $GPUFLEET_CONFIG, else the installed catalogs, else the source tree's");
  app.add_flag("--json", as_json, "print the exact JSON response (same as --format json)");
  app.add_option("--format", format, "table | json | csv | markdown")
      ->check(CLI::IsMember({"table", "json", "csv", "markdown"}))
      ->capture_default_str();
  app.add_flag("--no-color", no_colour, "no ANSI colour even on a terminal (NO_COLOR is honoured too)");
  app.require_subcommand(0, 1);
  app.footer("With no command, runs the basic_demos workload set.\nQuestions a raw request asks (gpufleet analyze, docs/api.md): " +
             question_names() + "\nExample:\n  gpufleet recommend --model Llama-3.1-8B-Instruct --requests-per-s 20\nExit codes: " + kExitCodesText + ".");


}

void Cli::define_sizing() {
  analyze = app.add_subcommand("analyze", "answer a raw JSON request (docs/api.md) from FILE or - (stdin)");
  analyze->add_option("FILE", request_file, "request JSON file, or - for standard input")->type_name("FILE")->required();

  precisions = app.add_subcommand("precisions", "memory of the model weights in every precision format");
  precisions->add_option("--size", p_size, "model size class")->excludes(precisions->add_option("--params-b", p_params, "model parameters in billions"));

  fit = app.add_subcommand("fit", "does the workload fit N GPUs of an instance");
  f_work.add(fit);
  fit->add_option("--instance", f_instance, "instance family (P5) or type (p5.48xlarge): the deployment on its GPUs");
  fit->add_option("--gpus", f_gpus, "GPUs used (default: the whole instance; with --gpu, 1)");
  f_billing.add(fit);
  // Without --instance: the memory breakdown of a concrete model on a GPU (the "memory" question).
  fit->add_option("--gpu", f_gpu, "a GPU of gpu_instances.json (A100-40GB, H100, L4, ...)");
  fit->add_option("--context", f_context, "tokens per sequence (prompt, or training length)");
  fit->add_option("--batch", f_batch, "sequences per batch");
  fit->add_option("--new-tokens", f_new, "generated tokens per sequence");
  fit->add_option("--mode", f_mode, "what the memory is for (default from --workload)")
      ->check(choices("memory.mode"));
  fit->add_option("--optimizer", f_optimizer, "training optimizer")
      ->check(choices("memory.optimizer"));
  fit->add_option("--tp", f_tp, "tensor-parallel GPUs");
  fit->add_option("--pp", f_pp, "pipeline stages");
  fit->add_option("--sharding", f_sharding, "training state sharding")->check(choices("memory.sharding"));
  fit->add_flag("--cpu-offload", f_offload, "optimizer states (and with zero3/fsdp parameters) on the CPU");
  fit->add_flag("--gradient-checkpointing", f_gc, "recompute activations in backward");
  fit->add_option("--lora-rank", f_lora_rank, "LoRA rank (with --mode lora or qlora)");

  cost = app.add_subcommand("cost", "hourly and monthly cost of N GPUs of an instance, on-demand and spot");
  cost->add_option("--instance", c_instance, "instance family or type")->required();
  cost->add_option("--gpus", c_gpus, "GPUs needed")->capture_default_str();
  c_billing.add(cost);

  perf = app.add_subcommand("performance", "relative performance of instances for a workload type");
  perf->add_option("--instance", pf_instances, "instances to compare (repeat; first is the reference)")->required();
  perf->add_option("--gpus", pf_gpus, "GPUs used on each")->capture_default_str();
  pf_work.add(perf);
  pf_billing.add(perf);

  rec = app.add_subcommand("recommend", "rank every instance that holds the workload");
  r_work.add(rec);
  rec->add_option("--priority", r_priority, "what to rank by (balanced = cost_per_token)")
      ->check(choices("priority"))
      ->capture_default_str();
  rec->add_option("--limit", r_limit, "at most this many candidates");
  r_billing.add(rec, BillingArgs::kAll);
  rec->add_option("--family", r_families, "only these families (repeat)");
  rec->add_option("--kind", r_kinds, "only these accelerator kinds (repeat)")->check(choices("kinds"));
  rec->add_option("--budget", r_budget, "maximum USD per month");
}

void Cli::define_tools() {
  sp = app.add_subcommand("spot", "spot pools with interruption bands, and the cheapest on-demand + spot plan for a target availability (or a training job's checkpoints and cost on spot)");
  sp_work.add(sp);
  sp->add_option("--target-availability", sp_target, "probability the replicas up cover the demand, in (0, 1) (default 0.999)");
  sp->add_option("--replacement-minutes", sp_replace, "minutes from a reclaim to a serving replacement (default 10)");
  sp->add_option("--band-reading", sp_reading, "how a band's % becomes a hazard")->check(choices("spot.band_reading"));
  sp->add_option("--checkpoint-write-s", sp_ckpt, "training: seconds to write a checkpoint (default 60)");
  sp->add_option("--restart-s", sp_restart, "training: seconds from an interruption to training again (default 600)");
  sp->add_option("--instance-type", sp_types, "only these instance types (repeat)");
  sp_billing.add(sp, BillingArgs::kRegion | BillingArgs::kHours | BillingArgs::kSchedule | BillingArgs::kProviders);

  bt = app.add_subcommand("batch", "jobs with deadlines on spot and on demand: each job's plans (all on demand, all spot, deadline-aware, uniform progress) with their cost and odds of finishing on time, and an earliest-deadline-first schedule");
  bt_work.add(bt);
  bt->add_option("--deadline-hours", bt_deadline, "one job: hours from now by which it must finish");
  bt->add_option("--earliest-start-hours", bt_earliest, "one job: hours from now before which it may not start (default 0)");
  bt->add_option("--checkpoint-write-s", bt_ckpt, "one job: seconds to write a checkpoint (default 60 training, 0 batch inference)");
  bt->add_option("--jobs", bt_jobs, "a JSON array of jobs ({name, model, workload, demand, deadline_hours, ...}: docs/batch.md), or - for standard input")
      ->type_name("FILE");
  bt->add_option("--restart-s", bt_restart, "seconds from an interruption or a switch to working again (default 600)");
  bt->add_option("--replacement-minutes", bt_replace, "mean minutes a reclaimed spot pool stays without capacity (default 10)");
  bt->add_option("--band-reading", bt_reading, "how a band's % becomes a hazard")->check(choices("batch.band_reading"));
  bt->add_option("--instance-type", bt_types, "only these instance types (repeat)");
  bt->add_option("--seed", bt_seed, "the availability traces' seed (default 1)");
  bt->add_option("--traces", bt_traces, "simulated availability traces, 1 to 10000 (default 1000)");
  bt->add_option("--budget", bt_budget, "a budget for all the jobs, USD");
  bt->add_option("--concurrent-jobs", bt_concurrent, "jobs run at once (default: each when it may start)");
  bt_billing.add(bt, BillingArgs::kRegion | BillingArgs::kProviders);

  rg = app.add_subcommand("regions", "per region: prices, spot band, round trip from the users; the cheapest placement with residency, egress and N+1");
  rg_work.add(rg);
  rg->add_option("--instance", rg_instance, "the instance type to place (default: the road's cheapest)");
  rg->add_option("--user", rg_users, "where demand comes from: REGION or REGION=SHARE (repeat)");
  rg->add_option("--residency-region", rg_allowed, "regions the workload may run in (repeat)");
  rg->add_option("--geo", rg_geo, "a geography every region must be in (eu, europe, us, north_america, ...)");
  rg->add_flag("--failover", rg_failover, "survive the loss of any one region (N+1)");
  rg->add_option("--dataset-gb", rg_dataset, "a dataset copied once into each region chosen, GB");
  rg->add_option("--dataset-region", rg_dataset_region, "where the dataset is now");
  rg_billing.add(rg, BillingArgs::kAll);
}

void Cli::define_reports() {
  mig = app.add_subcommand("migrate", "migration report: what a current setup should move to, with savings and risk");
  m_work.add(mig);
  mig->add_option("--current", m_current, "current instance family or type")->required();
  mig->add_option("--gpus", m_gpus, "GPUs in use today")->required();
  m_billing.add(mig, BillingArgs::kAll);
  mig->add_option("--kind", m_kinds, "only these accelerator kinds (repeat)")->check(choices("kinds"));
  mig->add_option("--priority", m_priority, "what to rank by (balanced = cost_per_token)")
      ->check(choices("priority"))
      ->capture_default_str();

  rs = app.add_subcommand("right-size", "right-sizing: memory, smallest GPU and cheapest instance per model");
  rs->add_option("--model", rs_models, "a model of model_config.json (repeat)")->required();
  rs->add_option("--precision", rs_format, "weight format (fp16, bf16, int8, nf4, gguf_q4_k_m, ...)")->capture_default_str();
  rs->add_option("--mode", rs_mode, "what the memory is for")
      ->check(choices("memory.mode"))
      ->capture_default_str();
  rs->add_option("--engine", rs_engine, "transformers | vllm | llama.cpp | ctranslate2 | whisper.cpp | openai-whisper | ...");
  rs->add_option("--context", rs_context, "tokens per sequence");
  rs->add_option("--batch", rs_batch, "sequences per batch");
  rs->add_option("--beams", rs_beams, "beam width (speech models)");
  rs_billing.add(rs, BillingArgs::kHours | BillingArgs::kRegion | BillingArgs::kProviders);

  est = app.add_subcommand("estimate", "throughput, latency and cost per token (or training time and cost) on a GPU or instance");
  est->add_option("--model", e_model, "a model of model_config.json")->required();
  est->add_option("--precision", e_format, "weight format (bf16, fp16, fp8, int8, gptq_int4, gguf_q4_k_m, ...)")->capture_default_str();
  est->add_option("--gpu", e_gpu, "a GPU of gpu_instances.json (H100, A100-80GB, L4, ...)");
  est->add_option("--instance", e_instance, "an instance type or family (priced); default: the cheapest with the GPU");
  est->add_option("--tp", e_tp, "tensor-parallel GPUs per model copy");
  est->add_option("--input", e_input, "prompt tokens per request (default 500)");
  est->add_option("--output", e_output, "output tokens per request (default 200)");
  est->add_option("--concurrency", e_concurrency, "concurrent requests (default: as many as the KV cache holds, up to 512)");
  est->add_option("--kv-cache", e_kv, "KV-cache format (fp16, fp8, ...)");
  est->add_option("--phase", e_phase, "what to estimate: serving or a training run")
      ->transform(CLI::IsMember({"inference", "training"}, CLI::ignore_case))
      ->capture_default_str();
  est->add_option("--tokens", e_tokens, "training: dataset tokens");
  est->add_option("--epochs", e_epochs, "training: passes over the dataset");
  est->add_option("--seq", e_seq, "training: sequence length");
  est->add_flag("--full-recompute", e_recompute, "training: activations recomputed in backward (8 x N FLOPs per token on the hardware)");
  e_rank_flag = est->add_flag("--rank", e_rank, "rank every priced GPU instance by $ per 1M output tokens (instead of --gpu)");
  est->add_option("--max-ttft-ms", e_max_ttft, "with --rank: latency target for the time to first token")->needs(e_rank_flag);
  est->add_option("--max-tpot-ms", e_max_tpot, "with --rank: latency target for the time per output token")->needs(e_rank_flag);
  e_billing.add(est, BillingArgs::kRegion | BillingArgs::kProviders);
  est->get_option("--provider")->description("with --rank: only these providers (repeat)")->needs(e_rank_flag);
  e_rank_flag->excludes("--gpu")->excludes("--instance");
}

void Cli::define_fleet() {
  acc = app.add_subcommand("accuracy", "predict measurement cases (tests/data/cases/CASES.md) and compare with the measurements");
  acc->add_option("FILE", acc_files, "case files (JSON arrays of cases)")->type_name("FILE")->required();

  plan = app.add_subcommand("plan", "monthly cost of a fleet plan (environments of workloads), per provider");
  plan->add_option("FILE", plan_file, "plan JSON file (environments of workloads, docs/api.md), or - for standard input")
      ->type_name("FILE")
      ->required();
  plan_billing.add(plan, BillingArgs::kRegion);

  placement = app.add_subcommand("placement", "place several models on the GPUs of one instance, or find the cheapest");
  placement->add_option("--model", pl_models, "NAME=GB (memory it needs) or NAME:PARAMS_B (billions of parameters, served at --precision); repeat")->required();
  placement->add_option("--instance", pl_instance, "place onto this instance type or family");
  placement->add_option("--precision", pl_precision, "precision of models given by parameters")->capture_default_str();
  pl_billing.add(placement, BillingArgs::kAll);

  dec = app.add_subcommand("decide", "GPU, Trainium, Inferentia or CPU? a decision by workload, framework and goal");
  d_work.add(dec);
  dec->add_option("--framework", d_framework, "the training or serving framework")
      ->check(choices("decide.framework"))
      ->capture_default_str();
  dec->add_option("--model-kind", d_kind, "the kind of model")
      ->check(choices("decide.model_kind"))
      ->capture_default_str();
  dec->add_option("--goal", d_goal, "what matters most")
      ->check(choices("decide.goal"))
      ->capture_default_str();
  dec->add_option("--latency-ms", d_latency, "per-request latency target in ms");
  dec->add_flag("--edge", d_edge, "edge deployment");
  dec->add_flag("--batch", d_batch, "batch processing");
  d_billing.add(dec, BillingArgs::kAll);
}

void Cli::define_catalog() {
  as = app.add_subcommand("autoscale", "auto-scaling over a traffic profile: replicas, cost and SLO of each scaling policy");
  as_work.add(as, false);
  as->add_option("--instance", as_instance, "an instance type or family (default: the road's cheapest)");
  as->add_option("--profile", as_rps, "24 or 168 hourly requests/s values (comma-separated)")->delimiter(',');
  as->add_option("--csv", as_csv, "a timestamp,requests CSV export (Prometheus, CloudWatch), or - for standard input")->type_name("FILE");
  as->add_option("--csv-values", as_csv_values, "what the CSV's numbers are")->check(choices("autoscale_profile.csv_values"));
  as->add_option("--shape", as_shape, "a synthetic shape of config/traffic_shapes.json")->check(choices("autoscale_profile.shape"));
  as->add_option("--peak-requests-per-s", as_peak, "with --shape: the requests/s of its peak");
  as->add_option("--policy", as_policy, "the policy to evaluate")->check(choices("autoscale_policy.kind"));
  as->add_option("--metric", as_metric, "target tracking's metric")->check(choices("autoscale_policy.metric"));
  as->add_option("--target", as_target, "the metric's target per replica (default: the road's)");
  as->add_option("--min-replicas", as_min, "fewest replicas");
  as->add_option("--max-replicas", as_max, "most replicas");
  as->add_option("--control-period-s", as_period, "seconds between scaling decisions (default 30)");
  as->add_option("--scale-up-delay-s", as_up, "scale-up stabilization window (default 0)");
  as->add_option("--scale-down-delay-s", as_down, "scale-down stabilization window (default 300)");
  as->add_option("--provisioning-s", as_cold, "cold start: node provisioning seconds (default 180, an estimate)");
  as->add_option("--commitment", as_commitment, "the committed base's way to pay")->check(choices("autoscale.commitment"));
  as_billing.add(as, BillingArgs::kPay | BillingArgs::kRegion);

  dep = app.add_subcommand("deploy", "write a chosen deployment as files: Kubernetes, KEDA, Karpenter, eksctl, Terraform, ECS, SkyPilot, Infracost (docs/deploy.md)");
  dep->add_option("--target", dep_target, "the files to write (all: every target that applies)")->check(choices("deploy.target"))->required();
  dep->add_option("--from", dep_from, "a fit, recommend, migrate, autoscale, spot, placement, decide, regions or plan request (JSON file, or - for standard input)")
      ->type_name("FILE")
      ->required();
  dep->add_option("--candidate", dep_candidate, "with a recommend request: the row of its candidates (default 0); with decide: its option");
  dep->add_option("--packing", dep_packing, "with a placement request: the packing to write")->check(choices("deploy.packing"));
  dep->add_option("--out", dep_out, "write the files under DIR instead of printing them")->type_name("DIR");

  wl = app.add_subcommand("workload", "run one workload scenario of workloads.json");
  wl->add_option("ID", wl_id, "workload id")->required();
  ws = app.add_subcommand("workload-set", "run a workload set of workloads.json");
  ws->add_option("ID", ws_id, "workload set id")->required();
  wls = app.add_subcommand("workloads", "list the workload scenarios and sets");

  cat = app.add_subcommand("catalog", "show or check the catalog");
  cat->require_subcommand(1);
  check = cat->add_subcommand("check", "validate the catalog files and the price files; list suspect prices");
  show = cat->add_subcommand("show", "show what the catalog holds");
  show->add_option("SECTION", section, "what to show")
      ->check(CLI::IsMember({"instances", "models", "precisions", "workloads", "all"}))
      ->capture_default_str();
  show_billing.add(show, BillingArgs::kRegion);

  sch = app.add_subcommand("schema", "print the JSON Schema (draft 2020-12) of a catalog file, the price files, requests or responses");
  sch->add_option("NAME", schema_name, "gpu_instances | model_config | workloads | prices | request | response")
      ->required()
      ->check(CLI::IsMember(gpufleet::schema_names()));
  sch->add_flag("--markdown", schema_markdown, "with request: docs/api.md's field reference in Markdown instead");

  completion = app.add_subcommand("completion", "print the shell completion script for bash or zsh");
  completion->add_option("SHELL", shell, "the shell")->check(CLI::IsMember({"bash", "zsh"}))->required();
  man = app.add_subcommand("man", "print the manual page (roff: man -l <(gpufleet man))");
}

void Cli::finish_definitions() {
  for (const char* name : {"--config", "--json", "--format", "--no-color"}) app.get_option(name)->group("Global options");
  app.get_option("--config")->type_name("DIR");
  for (CLI::App* sub : app.get_subcommands({})) share_global_options(app, *sub, config_dir, as_json, format, no_colour);
  check_numbers(app);
  add_examples(app);
}

// Parses; an exit code when the command line is refused (or only asked for help).
std::optional<int> Cli::parse(int argc, char** argv) {
  try {
    app.parse(argc, argv);
    // Options the question would not honour in the form asked: usage errors, not silence.
    std::vector<std::string> billing = BillingArgs::kOptionNames;
    const bool memory_fit = f_instance.empty() && (!f_work.model.empty() || !f_work.hf_config.empty());
    std::vector<std::string> memory_only{"--gpu", "--context", "--batch", "--new-tokens", "--mode", "--optimizer", "--tp", "--pp",
                                         "--sharding", "--cpu-offload", "--gradient-checkpointing", "--lora-rank"};
    refuse(fit, memory_only, !f_instance.empty(),
           "applies to fit without --instance (a concrete model's memory on a GPU); with --instance the workload "
           "options apply");
    std::vector<std::string> not_memory = billing;
    not_memory.insert(not_memory.end(), kDemandOptions.begin(), kDemandOptions.end());
    not_memory.push_back("--seed-memory");
    refuse(fit, not_memory, memory_fit,
           "fit without --instance gives a concrete model's memory on a GPU and prices nothing; add --instance to "
           "size and price a deployment");
    std::vector<std::string> with_model{"--engine", "--kv-cache", "--seed-memory"};
    with_model.insert(with_model.end(), kDemandOptions.begin(), kDemandOptions.end());
    refuse(perf, with_model, !pf_work.given(),
           "applies to performance with a model (--model, --hf-config, --size or --params-b); without one the "
           "score is relative (GB/s or TFLOPS)");
    const bool training = e_phase == "training";
    refuse(est, {"--rank"}, training, "a ranking compares serving costs; it does not apply to --phase training");
    refuse(est, {"--input", "--output", "--concurrency"}, training,
           "applies to serving; --phase training takes --seq, --tokens and --epochs");
    refuse(est, {"--tokens", "--epochs", "--seq", "--full-recompute"}, !training, "applies only with --phase training");
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    if (code != 0)
      if (const std::string hint = did_you_mean(app, argc, argv); !hint.empty()) std::cerr << hint << "\n";
    return code == 0 ? kExitOk : kExitUsage;
  }
  return std::nullopt;
}

// schema, completion and man need no catalog: printed, with the exit code.
std::optional<int> Cli::print_without_catalog(char** argv) {
  if (*sch) {
    if (schema_markdown && schema_name != "request") {
      std::cerr << "gpufleet: schema --markdown: only the request has a field reference\n";
      return kExitUsage;
    }
    std::cout << (schema_markdown ? gpufleet::request_markdown() : gpufleet::json_schema(schema_name));
    return kExitOk;
  }
  if (*completion) {
    const CatalogNames names = catalog_names(config_dir, argv[0]);
    std::cout << (shell == "bash" ? gpufleet::cli::bash_completion(app, names) : gpufleet::cli::zsh_completion(app, names));
    return kExitOk;
  }
  if (*man) {
    std::cout << gpufleet::cli::man_page(app, GPUFLEET_VERSION);
    return kExitOk;
  }
  return std::nullopt;
}

// A sizing request: the workload's fields, its config.json (untrusted text, spliced in for the
// guarded parser) when one is given.
Json Cli::workload_request(const char* question, const WorkloadArgs& w, bool task_required) {
  if (!w.given()) throw CLI::RequiredError("--model, --hf-config, --size or --params-b");
  if (task_required && w.workload.empty()) throw CLI::RequiredError("--workload");
  Json r = {{"question", question}};
  w.apply(r);
  hf_config_file = w.hf_config;
  return r;
}

// Each part of the request chain makes `request` for the subcommands it knows (an exit code when
// a file it reads cannot be used); build_request asks them in turn.
std::optional<int> Cli::memory_request() {
  if (*analyze) {
    // Raw door: the request text goes to the analyzer untouched, the answer comes back as is.
    auto text = read_input(request_file);
    if (!text) return kExitInvalid;
    const std::string answer = ask_raw(config_dir, *text);
    std::cout << answer << "\n";
    return answer_exit_code(Json::parse(answer));
  } else if (*precisions) {
    if (p_size.empty() && p_params == 0) throw CLI::RequiredError("--size or --params-b");
    request = {{"question", "precisions"}, {"model", p_size.empty() ? Json{{"params_b", p_params}} : Json{{"size", p_size}}}};
  } else if (*fit && f_instance.empty() && (!f_work.model.empty() || !f_work.hf_config.empty())) {
    request = {{"question", "memory"}, {"weight_format", f_work.precision}};
    if (f_gpus > 0) request["gpus"] = f_gpus;
    if (f_pp > 0) request["pipeline_parallel"] = f_pp;
    const std::string& fw = f_work.workload;
    const std::string mode = !f_mode.empty() ? f_mode
                             : fw == "training" ? "pretraining"
                             : fw == "fine_tuning" ? "full_finetune"
                             : fw.empty() || fw == "batch_inference" ? "inference" : fw;
    request["mode"] = mode;
    if (!f_work.model.empty()) request["model"] = {{"name", f_work.model}};
    if (!f_gpu.empty()) request["gpu"] = f_gpu;
    if (f_context > 0) request["context"] = f_context;
    if (f_batch > 0) request["batch"] = f_batch;
    if (f_new >= 0) request["new_tokens"] = f_new;
    if (!f_optimizer.empty()) request["optimizer"] = f_optimizer;
    if (!f_work.engine.empty()) request["engine"] = f_work.engine;
    if (!f_work.kv.empty()) request["kv_cache_format"] = f_work.kv;
    if (f_tp > 0) request["tensor_parallel"] = f_tp;
    if (!f_sharding.empty()) request["sharding"] = f_sharding;
    if (f_offload) request["cpu_offload"] = true;
    if (f_gc) request["gradient_checkpointing"] = true;
    if (f_lora_rank > 0) request["lora"] = {{"rank", f_lora_rank}};
    hf_config_file = f_work.hf_config;
  } else if (*rs) {
    Json list = Json::array();
    for (const auto& name : rs_models) {
      Json m = {{"model", {{"name", name}}}, {"weight_format", rs_format}, {"mode", rs_mode}};
      if (!rs_engine.empty()) m["engine"] = rs_engine;
      if (rs_context > 0) m["context"] = rs_context;
      if (rs_batch > 0) m["batch"] = rs_batch;
      if (rs_beams > 0) m["beams"] = rs_beams;
      list.push_back(m);
    }
    request = {{"question", "right_size"}, {"models", list}};
    rs_billing.apply(request);
  } else if (*est) {
    request = {{"question", "estimate"}, {"model", {{"name", e_model}}}, {"weight_format", e_format}, {"phase", e_phase}};
    if (!e_gpu.empty()) request["gpu"] = e_gpu;
    if (!e_instance.empty()) request["instance"] = e_instance;
    if (e_tp > 0) {
      request["tensor_parallel"] = e_tp;
      request["gpus"] = e_tp;
    }
    if (e_input > 0) request["input_tokens"] = e_input;
    if (e_output > 0) request["output_tokens"] = e_output;
    if (e_concurrency >= 0) request["concurrency"] = e_concurrency;
    if (!e_kv.empty()) request["kv_cache_format"] = e_kv;
    if (e_tokens > 0) request["dataset_tokens"] = e_tokens;
    if (e_epochs > 0) request["epochs"] = e_epochs;
    if (e_seq > 0) request["context"] = e_seq;
    if (e_recompute) request["gradient_checkpointing"] = true;
    if (e_rank) request["rank"] = true;
    if (e_max_ttft > 0) request["max_ttft_ms"] = e_max_ttft;
    if (e_max_tpot > 0) request["max_tpot_ms"] = e_max_tpot;
    e_billing.apply(request);
  } else if (*acc) {
    Json cases = Json::array();
    for (const std::string& file : acc_files) {
      auto value = read_value(file);
      if (!value) return kExitInvalid;
      cases.push_back(std::move(*value));
    }
    request = {{"question", "accuracy"}, {"cases", std::move(cases)}};
  }
  return std::nullopt;
}

std::optional<int> Cli::road_request() {
  if (*fit) {
    if (f_instance.empty()) throw CLI::RequiredError("--instance (or --model / --hf-config with --gpu)");
    WorkloadArgs w = f_work;
    if (w.workload.empty()) w.workload = "inference";
    request = workload_request("fit", w, true);
    request["instance"] = f_instance;
    if (f_gpus > 0) request["gpus"] = f_gpus;
    f_billing.apply(request);
  } else if (*cost) {
    request = {{"question", "cost"}, {"instance", c_instance}, {"gpus", c_gpus}};
    c_billing.apply(request);
  } else if (*perf) {
    Json list = Json::array();
    for (const auto& name : pf_instances) list.push_back({{"instance", name}, {"gpus", pf_gpus}});
    if (pf_work.given()) {
      request = workload_request("performance", pf_work, false);
    } else {
      request = {{"question", "performance"}, {"workload", pf_work.workload.empty() ? "inference" : pf_work.workload}, {"precision", pf_work.precision}};
    }
    request["instances"] = list;
    pf_billing.apply(request);
  } else if (*rec) {
    WorkloadArgs w = r_work;
    if (w.workload.empty()) w.workload = "inference";
    request = workload_request("recommend", w, true);
    request["priority"] = r_priority;
    r_billing.apply(request);
    if (!r_families.empty()) request["families"] = r_families;
    if (!r_kinds.empty()) request["kinds"] = r_kinds;
    if (r_budget > 0) request["max_usd_per_month"] = r_budget;
    if (r_limit > 0) request["limit"] = r_limit;
  }
  return std::nullopt;
}

std::optional<int> Cli::tools_request() {
  if (*sp) {
    WorkloadArgs w = sp_work;
    if (w.workload.empty()) w.workload = "inference";
    request = workload_request("spot", w, true);
    sp_billing.apply(request);
    if (sp_target != 0) request["target_availability"] = sp_target;
    if (sp_replace >= 0) request["replacement_minutes"] = sp_replace;
    if (!sp_reading.empty()) request["band_reading"] = sp_reading;
    if (sp_ckpt >= 0) request["checkpoint_write_s"] = sp_ckpt;
    if (sp_restart >= 0) request["restart_s"] = sp_restart;
    if (!sp_types.empty()) request["instance_types"] = sp_types;
  } else if (*bt) {
    if (!bt_jobs.empty()) {
      if (bt_work.given()) throw CLI::ExcludesError("--jobs", "--model");
      auto jobs = read_value(bt_jobs);
      if (!jobs) return kExitInvalid;
      request = {{"question", "batch"}, {"jobs", std::move(*jobs)}};
    } else {
      request = workload_request("batch", bt_work, true);
      if (bt_deadline <= 0) throw CLI::RequiredError("--deadline-hours (or --jobs FILE)");
      request["deadline_hours"] = bt_deadline;
      if (bt_earliest >= 0) request["earliest_start_hours"] = bt_earliest;
      if (bt_ckpt >= 0) request["checkpoint_write_s"] = bt_ckpt;
    }
    bt_billing.apply(request);
    if (bt_restart >= 0) request["restart_s"] = bt_restart;
    if (bt_replace >= 0) request["replacement_minutes"] = bt_replace;
    if (!bt_reading.empty()) request["band_reading"] = bt_reading;
    if (!bt_types.empty()) request["instance_types"] = bt_types;
    if (bt_seed >= 0) request["seed"] = bt_seed;
    if (bt_traces != 0) request["traces"] = bt_traces;
    if (bt_budget != 0) request["max_usd"] = bt_budget;
    if (bt_concurrent != 0) request["concurrent_jobs"] = bt_concurrent;
  } else if (*rg) {
    WorkloadArgs w = rg_work;
    if (w.workload.empty()) w.workload = "inference";
    request = workload_request("regions", w, true);
    rg_billing.apply(request);
    if (!rg_instance.empty()) request["instance"] = rg_instance;
    if (!rg_users.empty()) {
      Json users = Json::array();
      for (const auto& u : rg_users) {
        const auto eq = u.find('=');
        Json g = {{"region", u.substr(0, eq)}};
        if (eq != std::string::npos) {
          g["share"] = suffix_number("--user", u, eq, "REGION or REGION=SHARE");
        }
        users.push_back(std::move(g));
      }
      request["users"] = std::move(users);
    }
    Json residency = Json::object();
    if (!rg_allowed.empty()) residency["regions"] = rg_allowed;
    if (!rg_geo.empty()) residency["geo"] = rg_geo;
    if (!residency.empty()) request["residency"] = std::move(residency);
    if (rg_failover) request["failover"] = true;
    if (rg_dataset > 0) request["dataset_gb"] = rg_dataset;
    if (!rg_dataset_region.empty()) request["dataset_region"] = rg_dataset_region;
  } else if (*mig) {
    request = workload_request("migrate", m_work, true);
    request["current"] = {{"instance", m_current}, {"gpus", m_gpus}};
    request["priority"] = m_priority;
    m_billing.apply(request);
    if (!m_kinds.empty()) request["kinds"] = m_kinds;
  } else if (*plan) {
    auto value = read_value(plan_file);
    if (!value) return kExitInvalid;
    request = {{"question", "plan"}, {"plan", std::move(*value)}};
    plan_billing.apply(request);
  }
  return std::nullopt;
}

std::optional<int> Cli::other_request() {
  if (*placement) {
    Json models = Json::array();
    for (const auto& spec : pl_models) {
      const auto eq = spec.find('='), colon = spec.find(':');
      const std::string form = "NAME=GB or NAME:PARAMS_B";
      if (eq != std::string::npos) {
        models.push_back({{"name", spec.substr(0, eq)}, {"memory_gb", suffix_number("--model", spec, eq, form)}});
      } else if (colon != std::string::npos) {
        models.push_back({{"name", spec.substr(0, colon)},
                          {"model", {{"params_b", suffix_number("--model", spec, colon, form)}}},
                          {"workload", "inference"},
                          {"precision", pl_precision}});
      } else {
        throw CLI::ValidationError("--model", "expected " + form + ", got \"" + spec + "\"");
      }
    }
    request = {{"question", "placement"}, {"models", models}};
    if (!pl_instance.empty()) request["instance"] = pl_instance;
    pl_billing.apply(request);
  } else if (*dec) {
    request = workload_request("decide", d_work, true);
    request["framework"] = d_framework;
    request["model_kind"] = d_kind;
    request["goal"] = d_goal;
    if (d_latency > 0) request["latency_ms"] = d_latency;
    if (d_edge) request["edge"] = true;
    if (d_batch) request["batch"] = true;
    d_billing.apply(request);
  } else if (*as) {
    request = workload_request("autoscale", as_work, false);
    if (!as_instance.empty()) request["instance"] = as_instance;
    Json profile = Json::object();
    if (!as_rps.empty()) profile["requests_per_s"] = as_rps;
    if (!as_csv.empty()) {
      auto text = read_input(as_csv);
      if (!text) return kExitInvalid;
      // One string a line: the request's strings are at most 4 KiB each (docs/api.md, Limits).
      Json lines = Json::array();
      std::size_t start = 0;
      while (start < text->size()) {
        std::size_t end = text->find('\n', start);
        if (end == std::string::npos) end = text->size();
        lines.push_back(text->substr(start, end - start));
        start = end + 1;
      }
      profile["csv"] = std::move(lines);
    }
    if (!as_csv_values.empty()) profile["csv_values"] = as_csv_values;
    if (!as_shape.empty()) profile["shape"] = as_shape;
    if (as_peak > 0) profile["peak_requests_per_s"] = as_peak;
    if (profile.empty()) throw CLI::RequiredError("--profile, --csv or --shape");
    request["profile"] = profile;
    Json policy = Json::object();
    if (!as_policy.empty()) policy["kind"] = as_policy;
    if (!as_metric.empty()) policy["metric"] = as_metric;
    if (as_target > 0) policy["target"] = as_target;
    if (as_min >= 0) policy["min_replicas"] = as_min;
    if (as_max > 0) policy["max_replicas"] = as_max;
    if (as_period > 0) policy["control_period_s"] = as_period;
    if (as_up >= 0) policy["scale_up_delay_s"] = as_up;
    if (as_down >= 0) policy["scale_down_delay_s"] = as_down;
    if (!policy.empty()) request["policy"] = policy;
    if (as_cold >= 0) request["cold_start"] = {{"provisioning_s", as_cold}};
    if (!as_commitment.empty()) request["commitment"] = as_commitment;
    as_billing.apply(request);
  } else if (*dep) {
    auto from = read_value(dep_from);
    if (!from) return kExitInvalid;
    request = {{"question", "deploy"}, {"target", dep_target}, {"from", std::move(*from)}};
    if (dep_candidate >= 0) request["candidate"] = dep_candidate;
    if (!dep_packing.empty()) request["packing"] = dep_packing;
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
    show_billing.apply(request);
  }
  return std::nullopt;
}

std::optional<int> Cli::build_request() {
  for (auto part : {&Cli::memory_request, &Cli::road_request, &Cli::tools_request, &Cli::other_request}) {
    if (const auto code = (this->*part)()) return code;
    if (!request.is_null()) return std::nullopt;
  }
    request = {{"question", "workload_set"}, {"id", "basic_demos"}};
  return std::nullopt;
}

// The request asked through the analyzer, its answer printed; the exit code.
int Cli::answer(const gpufleet::cli::CatalogLocation& location, const gpufleet::cli::PrintOptions& print_options) {
  if (!hf_config_file.empty()) {
    auto config = read_value(hf_config_file);
    if (!config) return kExitInvalid;
    request["model"] = {{"hf_config", std::move(*config)}};
  }
  auto files = gpufleet::cli::read_catalog_dir(config_dir, &request);
  Json response;
  if (!files.errors.empty()) {
    response = Json::parse(gpufleet::errors_json(files.errors));
  } else {
    // Through the same text door as every other: the request limits and the answer cap apply.
    gpufleet::Analyzer analyzer(files.sources);
    response = Json::parse(analyzer.analyze_json(request.dump()));
  }
  if (*dep && !as_json && response.value("ok", false)) {
    return write_deploy_files(response["result"]["files"], dep_out) ? kExitOk : kExitOutput;
  }
  if (as_json) {
    std::cout << response.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    // catalog check says which catalogs it checked (table output only: csv and markdown stay data).
    if (*cat && *check && format == "table") std::cout << gpufleet::cli::describe(location) << "\n";
    gpufleet::cli::print(std::cout, std::cerr, response, print_options);
  }
  return answer_exit_code(response);
}

int Cli::run(int argc, char** argv) {
  define_globals(argv);
  define_sizing();
  define_tools();
  define_reports();
  define_fleet();
  define_catalog();
  finish_definitions();
  if (const auto code = parse(argc, argv)) return *code;
  if (const auto code = print_without_catalog(argv)) return *code;
  if (format == "json") as_json = true;
  const auto location = gpufleet::cli::find_catalog_dir(config_dir, argv[0]);
  if (location.dir.empty()) {
    if (as_json) {
      std::cout << gpufleet::errors_json({{"missing_file", "", "", gpufleet::cli::describe(location)}}, 2) << "\n";
    } else {
      std::cerr << "gpufleet: " << gpufleet::cli::describe(location) << "\n";
    }
    return kExitInvalid;
  }
  config_dir = location.dir;
  gpufleet::cli::PrintOptions print_options;
  print_options.format = format == "csv"        ? gpufleet::cli::Format::kCsv
                         : format == "markdown" ? gpufleet::cli::Format::kMarkdown
                                                : gpufleet::cli::Format::kTable;
  print_options.width = gpufleet::cli::terminal_width();
  print_options.colour = !no_colour && std::getenv("NO_COLOR") == nullptr && isatty(STDOUT_FILENO) &&
                         format == "table";

  try {
    if (const auto code = build_request()) return *code;
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  return answer(location, print_options);
}

}  // namespace

int main(int argc, char** argv) {
  // A closed pipe is a write error to report, not a signal that ends the program silently.
  std::signal(SIGPIPE, SIG_IGN);
  if (const std::string bad = invalid_utf8_argument(argc, argv); !bad.empty()) {
    std::cerr << "gpufleet: " << bad << "\n";
    return kExitUsage;
  }
  int code = kExitUsage;
  try {
    code = Cli().run(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A file named by an option or argument that cannot be used (read_input): a usage error.
    std::cerr << "gpufleet: " << e.what() << "\n";
    code = kExitUsage;
  }
  return output_written() ? code : kExitOutput;
}
