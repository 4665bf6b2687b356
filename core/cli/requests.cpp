// The command line turned into one request: each part of the chain knows some subcommands.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "edges.hpp"
#include "exit_codes.hpp"
#include "inputs.hpp"
#include "options.hpp"

namespace gpufleet::cli {

namespace {

// NAME=GB, NAME:PARAMS_B, REGION=SHARE: the number after `separator` by the numeric option rule.
double suffix_number(const std::string& option, const std::string& spec, std::size_t separator,
                     const std::string& form) {
  const std::string number = spec.substr(separator + 1);
  if (const std::string fault = number_fault(number); !fault.empty())
    throw CLI::ValidationError(option, "expected " + form + ", got \"" + spec + "\": " + fault);
  return std::strtod(number.c_str(), nullptr);
}

}  // namespace

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
    const std::string answer = ask(config_dir, *text, 2);
    std::cout << answer << "\n";
    return answer_exit_code(Json::parse(answer));
  } else if (*precisions) {
    if (p_size.empty() && p_params == 0) throw CLI::RequiredError("--size or --params-b");
    request = {{"question", "precisions"},
               {"model", p_size.empty() ? Json{{"params_b", p_params}} : Json{{"size", p_size}}}};
  } else if (*fit && f_instance.empty() && (!f_work.model.empty() || !f_work.hf_config.empty())) {
    request = {{"question", "memory"}, {"weight_format", f_work.precision}};
    if (f_gpus > 0) request["gpus"] = f_gpus;
    if (f_pp > 0) request["pipeline_parallel"] = f_pp;
    const std::string& fw = f_work.workload;
    const std::string mode = !f_mode.empty()                         ? f_mode
                             : fw == "training"                      ? "pretraining"
                             : fw == "fine_tuning"                   ? "full_finetune"
                             : fw.empty() || fw == "batch_inference" ? "inference"
                                                                     : fw;
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
    request = {{"question", "estimate"},
               {"model", {{"name", e_model}}},
               {"weight_format", e_format},
               {"phase", e_phase}};
    if (!e_gpu.empty()) request["gpu"] = e_gpu;
    if (!e_instance.empty()) request["instance"] = e_instance;
    if (e_tp > 0) {
      request["tensor_parallel"] = e_tp;
      request["gpus"] = e_tp;
    }
    if (e_gpus > 0) request["gpus"] = e_gpus;
    if (e_input > 0) request["input_tokens"] = e_input;
    if (e_output > 0) request["output_tokens"] = e_output;
    if (e_concurrency >= 0) request["concurrency"] = e_concurrency;
    if (!e_kv.empty()) request["kv_cache_format"] = e_kv;
    if (!e_engine.empty()) request["engine"] = e_engine;
    if (!e_attention.empty()) request["attention"] = e_attention;
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
    if (f_instance.empty())
      throw CLI::RequiredError("--instance (or --model / --hf-config with --gpu)");
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
      request = {{"question", "performance"},
                 {"workload", pf_work.workload.empty() ? "inference" : pf_work.workload},
                 {"precision", pf_work.precision}};
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
      // --deadline-days alone is the job's deadline too (days x 24 hours from now).
      const double deadline_h = bt_deadline > 0 ? bt_deadline : bt_work.deadline * 24;
      if (deadline_h <= 0)
        throw CLI::RequiredError("--deadline-hours or --deadline-days (or --jobs FILE)");
      request["deadline_hours"] = deadline_h;
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
        models.push_back({{"name", spec.substr(0, eq)},
                          {"memory_gb", suffix_number("--model", spec, eq, form)}});
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
  for (auto part :
       {&Cli::memory_request, &Cli::road_request, &Cli::tools_request, &Cli::other_request}) {
    if (const auto code = (this->*part)()) return code;
    if (!request.is_null()) return std::nullopt;
  }
  request = {{"question", "workload_set"}, {"id", "basic_demos"}};
  return std::nullopt;
}

}  // namespace gpufleet::cli
