// The subcommands and their options, each group of questions in one member function.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli.hpp"
#include "completion.hpp"
#include "examples.hpp"
#include "exit_codes.hpp"
#include "gpufleet/schema.hpp"
#include "options.hpp"

namespace gpufleet::cli {

void Cli::define_globals(char** argv) {
  app.set_version_flag("--version", [this, argv] {
    return std::string("gpufleet ") + GPUFLEET_VERSION + "\n" +
           gpufleet::cli::describe(gpufleet::cli::find_catalog_dir(config_dir, argv[0]));
  });
  app.add_option(
      "--config", config_dir,
      "catalog directory (gpu_instances.json, model_config.json, workloads.json, prices/); "
      "default: $GPUFLEET_CONFIG, else the installed catalogs, else the source tree's");
  app.add_flag("--json", as_json, "print the exact JSON response (same as --format json)");
  app.add_option("--format", format, "table | json | csv | markdown")
      ->check(CLI::IsMember({"table", "json", "csv", "markdown"}))
      ->capture_default_str();
  app.add_flag("--no-color", no_colour,
               "no ANSI colour even on a terminal (NO_COLOR is honoured too)");
  app.require_subcommand(0, 1);
  app.footer(
      "With no command, runs the basic_demos workload set.\nQuestions a raw request asks (gpufleet "
      "analyze, docs/api.md): " +
      question_names() +
      "\nExample:\n  gpufleet recommend --model Llama-3.1-8B-Instruct --requests-per-s 20\nExit "
      "codes: " +
      kExitCodesText + ".");
}

void Cli::define_sizing() {
  analyze = app.add_subcommand("analyze",
                               "answer a raw JSON request (docs/api.md) from FILE or - (stdin)");
  analyze->add_option("FILE", request_file, "request JSON file, or - for standard input")
      ->type_name("FILE")
      ->required();

  precisions =
      app.add_subcommand("precisions", "memory of the model weights in every precision format");
  precisions->add_option("--size", p_size, "model size class")
      ->excludes(precisions->add_option("--params-b", p_params, "model parameters in billions"));

  fit = app.add_subcommand("fit", "does the workload fit N GPUs of an instance");
  f_work.add(fit);
  fit->add_option("--instance", f_instance,
                  "instance family (P5) or type (p5.48xlarge): the deployment on its GPUs");
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
  fit->add_option("--sharding", f_sharding, "training state sharding")
      ->check(choices("memory.sharding"));
  fit->add_flag("--cpu-offload", f_offload,
                "optimizer states (and with zero3/fsdp parameters) on the CPU");
  fit->add_flag("--gradient-checkpointing", f_gc, "recompute activations in backward");
  fit->add_option("--lora-rank", f_lora_rank, "LoRA rank (with --mode lora or qlora)");

  cost = app.add_subcommand("cost",
                            "hourly and monthly cost of N GPUs of an instance, on-demand and spot");
  cost->add_option("--instance", c_instance, "instance family or type")->required();
  cost->add_option("--gpus", c_gpus, "GPUs needed")->capture_default_str();
  c_billing.add(cost);

  perf = app.add_subcommand("performance", "relative performance of instances for a workload type");
  perf->add_option("--instance", pf_instances,
                   "instances to compare (repeat; first is the reference)")
      ->required();
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
  rec->add_option("--kind", r_kinds, "only these accelerator kinds (repeat)")
      ->check(choices("kinds"));
  rec->add_option("--budget", r_budget, "maximum USD per month");
}

void Cli::define_tools() {
  sp = app.add_subcommand(
      "spot",
      "spot pools with interruption bands, and the cheapest on-demand + spot plan for a target "
      "availability (or a training job's checkpoints and cost on spot)");
  sp_work.add(sp);
  sp->add_option("--target-availability", sp_target,
                 "probability the replicas up cover the demand, in (0, 1) (default 0.999)");
  sp->add_option("--replacement-minutes", sp_replace,
                 "minutes from a reclaim to a serving replacement (default 10)");
  sp->add_option("--band-reading", sp_reading, "how a band's % becomes a hazard")
      ->check(choices("spot.band_reading"));
  sp->add_option("--checkpoint-write-s", sp_ckpt,
                 "training: seconds to write a checkpoint (default 60)");
  sp->add_option("--restart-s", sp_restart,
                 "training: seconds from an interruption to training again (default 600)");
  sp->add_option("--instance-type", sp_types, "only these instance types (repeat)");
  sp_billing.add(sp, BillingArgs::kRegion | BillingArgs::kHours | BillingArgs::kSchedule |
                         BillingArgs::kProviders);

  bt = app.add_subcommand("batch",
                          "jobs with deadlines on spot and on demand: each job's plans (all on "
                          "demand, all spot, deadline-aware, uniform progress) with their cost and "
                          "odds of finishing on time, and an earliest-deadline-first schedule");
  bt_work.add(bt);
  bt->add_option("--deadline-hours", bt_deadline,
                 "one job: hours from now by which it must finish");
  bt->add_option("--earliest-start-hours", bt_earliest,
                 "one job: hours from now before which it may not start (default 0)");
  bt->add_option("--checkpoint-write-s", bt_ckpt,
                 "one job: seconds to write a checkpoint (default 60 training, 0 batch inference)");
  bt->add_option("--jobs", bt_jobs,
                 "a JSON array of jobs ({name, model, workload, demand, deadline_hours, ...}: "
                 "docs/batch.md), or - for standard input")
      ->type_name("FILE");
  bt->add_option("--restart-s", bt_restart,
                 "seconds from an interruption or a switch to working again (default 600)");
  bt->add_option("--replacement-minutes", bt_replace,
                 "mean minutes a reclaimed spot pool stays without capacity (default 10)");
  bt->add_option("--band-reading", bt_reading, "how a band's % becomes a hazard")
      ->check(choices("batch.band_reading"));
  bt->add_option("--instance-type", bt_types, "only these instance types (repeat)");
  bt->add_option("--seed", bt_seed, "the availability traces' seed (default 1)");
  bt->add_option("--traces", bt_traces, "simulated availability traces, 1 to 10000 (default 1000)");
  bt->add_option("--budget", bt_budget, "a budget for all the jobs, USD");
  bt->add_option("--concurrent-jobs", bt_concurrent,
                 "jobs run at once (default: each when it may start)");
  bt_billing.add(bt, BillingArgs::kRegion | BillingArgs::kProviders);

  rg = app.add_subcommand("regions",
                          "per region: prices, spot band, round trip from the users; the cheapest "
                          "placement with residency, egress and N+1");
  rg_work.add(rg);
  rg->add_option("--instance", rg_instance,
                 "the instance type to place (default: the road's cheapest)");
  rg->add_option("--user", rg_users, "where demand comes from: REGION or REGION=SHARE (repeat)");
  rg->add_option("--residency-region", rg_allowed, "regions the workload may run in (repeat)");
  rg->add_option("--geo", rg_geo,
                 "a geography every region must be in (eu, europe, us, north_america, ...)");
  rg->add_flag("--failover", rg_failover, "survive the loss of any one region (N+1)");
  rg->add_option("--dataset-gb", rg_dataset, "a dataset copied once into each region chosen, GB");
  rg->add_option("--dataset-region", rg_dataset_region, "where the dataset is now");
  rg_billing.add(rg, BillingArgs::kAll);
}

void Cli::define_reports() {
  mig = app.add_subcommand(
      "migrate", "migration report: what a current setup should move to, with savings and risk");
  m_work.add(mig);
  mig->add_option("--current", m_current, "current instance family or type")->required();
  mig->add_option("--gpus", m_gpus, "GPUs in use today")->required();
  m_billing.add(mig, BillingArgs::kAll);
  mig->add_option("--kind", m_kinds, "only these accelerator kinds (repeat)")
      ->check(choices("kinds"));
  mig->add_option("--priority", m_priority, "what to rank by (balanced = cost_per_token)")
      ->check(choices("priority"))
      ->capture_default_str();

  rs = app.add_subcommand("right-size",
                          "right-sizing: memory, smallest GPU and cheapest instance per model");
  rs->add_option("--model", rs_models, "a model of model_config.json (repeat)")->required();
  rs->add_option("--precision", rs_format,
                 "weight format (fp16, bf16, int8, nf4, gguf_q4_k_m, ...)")
      ->capture_default_str();
  rs->add_option("--mode", rs_mode, "what the memory is for")
      ->check(choices("memory.mode"))
      ->capture_default_str();
  rs->add_option(
      "--engine", rs_engine,
      "transformers | vllm | llama.cpp | ctranslate2 | whisper.cpp | openai-whisper | ...");
  rs->add_option("--context", rs_context, "tokens per sequence");
  rs->add_option("--batch", rs_batch, "sequences per batch");
  rs->add_option("--beams", rs_beams, "beam width (speech models)");
  rs_billing.add(rs, BillingArgs::kHours | BillingArgs::kRegion | BillingArgs::kProviders);

  est = app.add_subcommand(
      "estimate",
      "throughput, latency and cost per token (or training time and cost) on a GPU or instance");
  est->add_option("--model", e_model, "a model of model_config.json")->required();
  est->add_option("--precision", e_format,
                  "weight format (bf16, fp16, fp8, int8, gptq_int4, gguf_q4_k_m, ...)")
      ->capture_default_str();
  est->add_option("--gpu", e_gpu, "a GPU of gpu_instances.json (H100, A100-80GB, L4, ...)");
  est->add_option("--instance", e_instance,
                  "an instance type or family (priced); default: the cheapest with the GPU");
  est->add_option("--tp", e_tp, "tensor-parallel GPUs per model copy");
  est->add_option("--input", e_input, "prompt tokens per request (default 500)");
  est->add_option("--output", e_output, "output tokens per request (default 200)");
  est->add_option("--concurrency", e_concurrency,
                  "concurrent requests (default: as many as the KV cache holds, up to 512)");
  est->add_option("--kv-cache", e_kv, "KV-cache format (fp16, fp8, ...)");
  est->add_option(
      "--engine", e_engine,
      "serving or training engine (default vllm for serving, transformers for training)");
  est->add_option("--attention", e_attention,
                  "transformers' attention implementation (default sdpa)")
      ->check(choices("attention"));
  est->add_option("--phase", e_phase, "what to estimate: serving or a training run")
      ->transform(CLI::IsMember({"inference", "training"}, CLI::ignore_case))
      ->capture_default_str();
  est->add_option("--tokens", e_tokens, "training: dataset tokens");
  est->add_option("--epochs", e_epochs, "training: passes over the dataset");
  est->add_option("--seq", e_seq, "training: sequence length");
  est->add_option("--gpus", e_gpus,
                  "training: GPUs of the run (default: all of a named instance's)");
  est->add_flag(
      "--full-recompute", e_recompute,
      "training: activations recomputed in backward (8 x N FLOPs per token on the hardware)");
  e_rank_flag =
      est->add_flag("--rank", e_rank,
                    "rank every priced GPU instance by $ per 1M output tokens (instead of --gpu)");
  est->add_option("--max-ttft-ms", e_max_ttft,
                  "with --rank: latency target for the time to first token")
      ->needs(e_rank_flag);
  est->add_option("--max-tpot-ms", e_max_tpot,
                  "with --rank: latency target for the time per output token")
      ->needs(e_rank_flag);
  e_billing.add(est, BillingArgs::kRegion | BillingArgs::kProviders);
  est->get_option("--provider")
      ->description("with --rank: only these providers (repeat)")
      ->needs(e_rank_flag);
  e_rank_flag->excludes("--gpu")->excludes("--instance");
}

void Cli::define_fleet() {
  acc = app.add_subcommand(
      "accuracy",
      "predict measurement cases (tests/data/cases/CASES.md) and compare with the measurements");
  acc->add_option("FILE", acc_files, "case files (JSON arrays of cases)")
      ->type_name("FILE")
      ->required();

  plan = app.add_subcommand(
      "plan", "monthly cost of a fleet plan (environments of workloads), per provider");
  plan->add_option(
          "FILE", plan_file,
          "plan JSON file (environments of workloads, docs/api.md), or - for standard input")
      ->type_name("FILE")
      ->required();
  plan_billing.add(plan, BillingArgs::kRegion);

  placement = app.add_subcommand(
      "placement", "place several models on the GPUs of one instance, or find the cheapest");
  placement
      ->add_option("--model", pl_models,
                   "NAME=GB (memory it needs) or NAME:PARAMS_B (billions of parameters, served at "
                   "--precision); repeat")
      ->required();
  placement->add_option("--instance", pl_instance, "place onto this instance type or family");
  placement->add_option("--precision", pl_precision, "precision of models given by parameters")
      ->capture_default_str();
  pl_billing.add(placement, BillingArgs::kAll);

  dec = app.add_subcommand(
      "decide", "GPU, Trainium, Inferentia or CPU? a decision by workload, framework and goal");
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

void Cli::define_operations() {
  as = app.add_subcommand(
      "autoscale",
      "auto-scaling over a traffic profile: replicas, cost and SLO of each scaling policy");
  as_work.add(as, false);
  as->add_option("--instance", as_instance,
                 "an instance type or family (default: the road's cheapest)");
  as->add_option("--profile", as_rps, "24 or 168 hourly requests/s values (comma-separated)")
      ->delimiter(',');
  as->add_option(
        "--csv", as_csv,
        "a timestamp,requests CSV export (Prometheus, CloudWatch), or - for standard input")
      ->type_name("FILE");
  as->add_option("--csv-values", as_csv_values, "what the CSV's numbers are")
      ->check(choices("autoscale_profile.csv_values"));
  as->add_option("--shape", as_shape, "a synthetic shape of config/traffic_shapes.json")
      ->check(choices("autoscale_profile.shape"));
  as->add_option("--peak-requests-per-s", as_peak, "with --shape: the requests/s of its peak");
  as->add_option("--policy", as_policy, "the policy to evaluate")
      ->check(choices("autoscale_policy.kind"));
  as->add_option("--metric", as_metric, "target tracking's metric")
      ->check(choices("autoscale_policy.metric"));
  as->add_option("--target", as_target, "the metric's target per replica (default: the road's)");
  as->add_option("--min-replicas", as_min, "fewest replicas");
  as->add_option("--max-replicas", as_max, "most replicas");
  as->add_option("--control-period-s", as_period, "seconds between scaling decisions (default 30)");
  as->add_option("--scale-up-delay-s", as_up, "scale-up stabilization window (default 0)");
  as->add_option("--scale-down-delay-s", as_down, "scale-down stabilization window (default 300)");
  as->add_option("--provisioning-s", as_cold,
                 "cold start: node provisioning seconds (default 180, an estimate)");
  as->add_option("--commitment", as_commitment, "the committed base's way to pay")
      ->check(choices("autoscale.commitment"));
  as_billing.add(as, BillingArgs::kPay | BillingArgs::kRegion);

  dep = app.add_subcommand("deploy",
                           "write a chosen deployment as files: Kubernetes, KEDA, Karpenter, "
                           "eksctl, Terraform, ECS, SkyPilot, Infracost (docs/deploy.md)");
  dep->add_option("--target", dep_target, "the files to write (all: every target that applies)")
      ->check(choices("deploy.target"))
      ->required();
  dep->add_option("--from", dep_from,
                  "a fit, recommend, migrate, autoscale, spot, placement, decide, regions or plan "
                  "request (JSON file, or - for standard input)")
      ->type_name("FILE")
      ->required();
  dep->add_option(
      "--candidate", dep_candidate,
      "with a recommend request: the row of its candidates (default 0); with decide: its option");
  dep->add_option("--packing", dep_packing, "with a placement request: the packing to write")
      ->check(choices("deploy.packing"));
  dep->add_option("--out", dep_out, "write the files under DIR instead of printing them")
      ->type_name("DIR");
}

void Cli::define_catalog_and_help() {
  wl = app.add_subcommand("workload", "run one workload scenario of workloads.json");
  wl->add_option("ID", wl_id, "workload id")->required();
  ws = app.add_subcommand("workload-set", "run a workload set of workloads.json");
  ws->add_option("ID", ws_id, "workload set id")->required();
  wls = app.add_subcommand("workloads", "list the workload scenarios and sets");

  cat = app.add_subcommand("catalog", "show or check the catalog");
  cat->require_subcommand(1);
  check = cat->add_subcommand(
      "check", "validate the catalog files and the price files; list suspect prices");
  show = cat->add_subcommand("show", "show what the catalog holds");
  show->add_option("SECTION", section, "what to show")
      ->check(CLI::IsMember({"instances", "models", "precisions", "workloads", "all"}))
      ->capture_default_str();
  show_billing.add(show, BillingArgs::kRegion);

  sch = app.add_subcommand("schema",
                           "print the JSON Schema (draft 2020-12) of a catalog file, the price "
                           "files, requests or responses");
  sch->add_option("NAME", schema_name,
                  "gpu_instances | model_config | workloads | prices | request | response")
      ->required()
      ->check(CLI::IsMember(gpufleet::schema_names()));
  sch->add_flag("--markdown", schema_markdown,
                "with request: docs/api.md's field reference in Markdown instead");

  completion =
      app.add_subcommand("completion", "print the shell completion script for bash or zsh");
  completion->add_option("SHELL", shell, "the shell")
      ->check(CLI::IsMember({"bash", "zsh"}))
      ->required();
  man = app.add_subcommand("man", "print the manual page (roff: man -l <(gpufleet man))");
}

void Cli::finish_definitions() {
  for (const char* name : {"--config", "--json", "--format", "--no-color"})
    app.get_option(name)->group("Global options");
  app.get_option("--config")->type_name("DIR");
  for (CLI::App* sub : app.get_subcommands({}))
    share_global_options(app, *sub, config_dir, as_json, format, no_colour);
  check_numbers(app);
  add_examples(app);
}

}  // namespace gpufleet::cli
