// The "estimate" question: how fast a model runs on a GPU or instance and what it costs per token
// (the roofline throughput model), or every priced instance ranked by $ per 1M output tokens.
#include <algorithm>
#include <cmath>
#include <utility>

#include "api/answers.hpp"
#include "api/questions/memory.hpp"
#include "api/request_fields.hpp"
#include "fleet/band.hpp"
#include "fleet/rank.hpp"
#include "fleet/road.hpp"
#include "pricing/prices.hpp"

namespace gpufleet::detail {
namespace {

using report::round_to;

// A request's prompt and output lengths and concurrency (the road's shape by default).
TokenShape read_tokens(Reader& r, const Json& req) {
  TokenShape t;
  t.input = r.number(req, "input_tokens", "", false, {1, kMaxTokens}).value_or(t.input);
  t.output = r.number(req, "output_tokens", "", false, {1, kMaxTokens}).value_or(t.output);
  t.concurrency = r.number(req, "concurrency", "", false, {0, 1e6}).value_or(0);
  return t;
}

// The whole model's weights and KV cache per token (no parallel split: the throughput model
// splits them over its ranks), or nullopt with the faults recorded.
std::optional<MemoryEstimate> whole_model_memory(const Catalog& catalog, Reader& r,
                                                 MemoryQuestion mq) {
  mq.mode = TrainMode::kLoadOnly;
  mq.tensor_parallel = mq.pipeline_parallel = mq.gpus = 1;
  MemoryAnswer ma = estimate_memory(catalog.memory, mq);
  for (const auto& [field, message] : ma.faults) r.fail("unknown_name", "/" + field, message);
  return ma.estimate;
}

// The ranking as the answer shows it: the `limit` cheapest rows, and the instances left out.
Json ranking(const Catalog& catalog, Reader& r, const Json& req, const ModelChoice& model,
             const MemoryQuestion& mq, const TokenShape& t, const std::vector<std::string>& providers) {
  const auto whole = whole_model_memory(catalog, r, mq);
  if (!whole) return nullptr;
  const double weights = whole->weights_bytes, kv = whole->kv_bytes_per_token;
  const double limit = r.number(req, "limit", "", false, {1, 1000}).value_or(20);
  const PerTokenRanking ranked = rank_per_token(catalog, mq, t, providers, weights, kv);
  Json rows = Json::array();
  for (const RankedOffer& x : ranked.ranked) {
    if (rows.size() >= static_cast<std::size_t>(limit)) break;  // a limit of 2.5 keeps 2 rows
    const InstanceType& it = *x.instance;
    const InferenceEstimate& e = x.estimate;
    const double price = *it.on_demand_usd_per_hour;
    Json row = report::object(17);
    report::add(row, "instance", it.name);
    report::add(row, "provider", it.provider);
    report::add(row, "region", it.region);
    report::add(row, "gpu", x.gpu->name);
    report::add(row, "gpus", it.gpus);
    report::add(row, "tensor_parallel", x.tensor_parallel);
    report::add(row, "model_copies", x.copies);
    report::add(row, "concurrency_per_copy", e.batch);
    report::add(row, "time_to_first_token_ms", round_to(e.ttft_ms, 2));
    report::add(row, "time_per_output_token_ms", round_to(e.tpot_ms, 3));
    report::add(row, "output_tokens_per_s", round_to(x.output_tokens_per_s, 1));
    report::add(row, "usd_per_hour", price);
    report::add(row, "usd_per_million_output_tokens", round_to(x.usd_per_million_output_tokens, 4));
    report::add(row, "output_tokens_per_usd", round_to(x.output_tokens_per_s * 3600 / price, 0));
    report::add(row, "bound", e.limit);
    report::add(row, "estimate_note", it.accelerator_kind == "gpu"
                                          ? Json(nullptr)
                                          : Json(it.accelerator_kind +
                                                 ": datasheet peaks with the GPU efficiency factors, not "
                                                 "calibrated on Neuron measurements"));
    report::add(row, "price_source", it.source);
    rows.push_back(std::move(row));
  }
  Json excluded = Json::array();
  for (const UnrankedOffer& x : ranked.excluded) {
    Json out = report::object(2);
    report::add(out, "instance", x.instance->name);
    report::add(out, "reason", x.reason);
    excluded.push_back(std::move(out));
  }
  Json result;
  result["model"] = {{"name", model.label},
                     {"weights_gb", report::gb(weights)},
                     {"kv_cache_kib_per_token", round_to(kv / 1024, 3)}};
  result["settings"] = {{"input_tokens", t.input},
                        {"output_tokens", t.output},
                        {"concurrency", t.concurrency},
                        {"max_ttft_ms", t.max_ttft_ms ? Json(*t.max_ttft_ms) : Json(nullptr)},
                        {"max_tpot_ms", t.max_tpot_ms ? Json(*t.max_tpot_ms) : Json(nullptr)}};
  result["ranked"] = std::move(rows);
  result["candidates"] = static_cast<double>(ranked.ranked.size());
  result["excluded"] = std::move(excluded);
  result["basis"] =
      "every priced GPU, Inferentia and Trainium instance, each model copy on the fewest devices "
      "that hold the weights and one "
      "full sequence, every copy of the instance serving; ranked by on-demand $ per 1M output "
      "tokens";
  return result;
}

// Fields of an estimate that apply only to a ranking or to training: elsewhere they would be
// silently ignored, so they are a mistake to name, not a default.
// The switches are read first: a bad switch is named at itself, not at the fields that depend on it.
bool only_where_they_apply(Reader& r, const Json& req) {
  const bool rank = r.boolean(req, "rank", "", false).value_or(false);
  const auto phase = pick(r, "estimate", req, "phase");
  if (!r.ok()) return false;
  const bool training = phase == "training";
  struct Only {
    const char* field;
    bool applies;
    const char* when;
  };
  const Only only[] = {
      {"max_ttft_ms", rank, "with \"rank\": true"},  {"max_tpot_ms", rank, "with \"rank\": true"},
      {"providers", rank, "with \"rank\": true"},    {"limit", rank, "with \"rank\": true"},
      {"gpu", !rank, "without \"rank\" (a ranking tries every GPU)"},
      {"instance", !rank, "without \"rank\" (a ranking tries every instance)"},
      {"dataset_tokens", training, "with \"phase\": \"training\""}, {"epochs", training, "with \"phase\": \"training\""},
      {"concurrency", !training, "to inference"},
      {"input_tokens", !training, "to inference (training takes \"context\")"},
      {"output_tokens", !training, "to inference"},
  };
  for (const Only& o : only) {
    if (!o.applies && req.contains(o.field))
      r.fail("unknown_field", Reader::child("", o.field), std::string("\"") + o.field + "\" applies only " + o.when);
  }
  if (rank && training) r.fail("unknown_field", "/rank", "a ranking compares serving costs; it does not apply to training");
  return r.ok();
}

// The device estimated: the instance named (a family: its smallest size with a GPU per
// tensor-parallel rank) and its GPU, or the GPU named, priced on the cheapest instance that has it.
bool pick_device(const Catalog& catalog, Reader& r, const Json& req, const MemoryQuestion* mq,
                 const GpuSpec*& gpu, const InstanceType*& instance) {
  // An instance names the GPU too; a GPU alone is priced on the cheapest instance that has it.
  if (auto name = r.string(req, "instance", "", false)) {
    instance = catalog.instance(*name);
    if (!instance) {
      // A family: its smallest size with a GPU per tensor-parallel rank.
      if (const Family* f = catalog.family(*name)) {
        for (std::size_t i : f->instances) {
          const InstanceType& it = catalog.instances[i];
          if (it.gpus >= mq->tensor_parallel && (!instance || it.gpus < instance->gpus))
            instance = &it;
        }
        if (!instance) {
          r.fail("cannot_answer", "/tensor_parallel",
                 "no size of " + f->key + " has " + report::short_number(mq->tensor_parallel) +
                     " GPUs");
          return false;
        }
      }
    }
    if (!instance) {
      r.fail("unknown_name", "/instance",
             "expected an instance type or family of gpu_instances.json, got \"" + *name + "\"");
      return false;
    }
    if (instance->gpus < mq->tensor_parallel) {
      r.fail("cannot_answer", "/tensor_parallel",
             instance->name + " has " + report::short_number(instance->gpus) +
                 " GPU(s), fewer than " + report::short_number(mq->tensor_parallel) +
                 " tensor-parallel ranks");
      return false;
    }
    if (gpu && !instance->gpu_model.empty() && gpu->name != instance->gpu_model) {
      r.fail("wrong_type", "/instance",
             instance->name + " carries " + instance->gpu_model + ", not the " + gpu->name +
                 " asked for in \"gpu\"");
      return false;
    }
    if (!gpu && !instance->gpu_model.empty()) gpu = catalog.gpu(instance->gpu_model);
  }
  if (!gpu) {
    r.fail("missing_field", "/gpu",
           "expected \"gpu\" (a GPU of gpu_instances.json) or an \"instance\" whose GPU the "
           "catalog knows");
    return false;
  }
  if (!gpu->memory_bandwidth_gb_per_s || gpu->tflops.empty()) {
    r.fail("cannot_answer", "/gpu",
           gpu->name +
               " has no memory bandwidth or TFLOPS in gpu_instances.json: its speed cannot be "
               "estimated");
    return false;
  }
  // The GPUs one instance must hold: a model copy's, or a training run's.
  const double need = std::max(mq->tensor_parallel, mq->gpus);
  if (!instance) {
    for (const auto& it : catalog.instances) {
      // A partition of the GPU (AWS g6f's 1/4 L4) is not the GPU asked for.
      if (it.gpu_model != gpu->name || it.gpus < need || it.gpu_fraction < 1 ||
          !priced_on_demand(it))
        continue;
      if (!instance || *it.on_demand_usd_per_hour < *instance->on_demand_usd_per_hour)
        instance = &it;
    }
  }
  return true;
}


// Whether the estimate runs on the device: the instance's formats, the road's memory and layout
// rules, the engines' sharding, one whole sequence per rank. Sets the instance's device and link.
bool runs(const Catalog& catalog, Reader& r, const ModelChoice* model, const MemoryQuestion* mq,
          const GpuSpec* gpu, const InstanceType* instance, bool training, ThroughputQuestion& q,
          std::optional<TensorLink>& link) {
  const double tp = mq->tensor_parallel;
  if (instance) {
    // The instance's device (its share of the GPU, its GPU-to-GPU link) and the formats it runs,
    // as every other question sees them.
    q.device = instance_device(catalog, *instance, tp);
    link = tensor_link(*instance, tp);
    Workload w;
    w.task = training ? WorkloadType::kTraining : WorkloadType::kInference;
    w.weight_format = mq->weight_format;
    const FormatSupport fmt = format_support(catalog, w, *instance);
    if (!fmt.refusal.empty()) {
      r.fail("cannot_answer", "/weight_format", fmt.refusal + "; " + fmt.way_out);
      return false;
    }
    // The matmuls' precision on this device is the road's (fp8 weights on a GPU without fp8
    // compute run weight-only, in 16 bits).
    q.compute = fmt.compute;
    {
      // A setup the road cannot run (memory, layout) is refused here too, not priced.
      w.model.arch = model->arch;
      w.model.label = model->label;
      w.model.parameters = count_parameters(model->arch).total;
      w.kv_format = mq->kv_format;
      w.engine = mq->engine;
      w.demand.input_tokens = q.input_tokens;
      w.demand.output_tokens = q.output_tokens;
      const Deployment d = training ? deploy_on_gpus(catalog, w, Billing{}, *instance, std::max(1.0, mq->gpus))
                                    : deploy(catalog, w, Billing{}, *instance, Layout{tp, 1, 1}, 1);
      if (!d.runs() && d.refusal.rfind("misses", 0) != 0) {
        r.fail("cannot_answer", "/instance", d.refusal + (d.way_out.empty() ? "" : "; " + d.way_out));
        return false;
      }
      // The sequences a copy's KV cache holds are the road's (the memory model on this device), as
      // fit, recommend and migrate report them.
      if (!training) q.kv_sequences = d.max_concurrency_by_kv;
    }
    if (instance->gpu_fraction < 1 && tp > 1) {
      r.fail("cannot_answer", "/tensor_parallel", instance->name + " is a fraction of one GPU: no tensor parallelism");
      return false;
    }
  }
  if (std::string why = tp_refusal(model->arch, tp); !why.empty()) {
    r.fail("cannot_answer", "/tensor_parallel", why + "; use " + kTpWayOut);
    return false;
  }
  if (!instance && !training) {
    // No instance sells the GPU: the sequences a copy holds are the memory model's on the GPU
    // alone, as the memory question sizes them.
    const TokenShape shape{q.input_tokens, q.output_tokens};
    q.kv_sequences = sequences_on(catalog, *mq, shape, tp, gpu->usable_bytes(), gpu->name, catalog.gpu_has_nvlink(gpu->name));
    if (*q.kv_sequences < 1) {
      r.fail("cannot_answer", "/gpu",
             "does not fit: " + report::short_number(tp) + " x " + gpu->name + " cannot hold the weights, the runtime and one " +
                 report::short_number(q.input_tokens + q.output_tokens) +
                 "-token sequence; use more tensor parallelism (tensor_parallel) or a smaller weight format");
      return false;
    }
  }
  return true;
}

// The training step's recipe: the question's, and the road's where this question has no field
// for it (its check that the run fits is the road's): states sharded over the data-parallel GPUs,
// fp32 master weights.
void take_road_recipe(const Catalog& catalog, MemoryQuestion recipe, ThroughputQuestion& q) {
  const bool adapters = recipe.mode == TrainMode::kLora || recipe.mode == TrainMode::kQlora;
  recipe.sharding = Recipe{}.sharding;
  recipe.master_weights = Recipe{}.master_weights && !adapters;
  const MemoryAnswer states = adapters ? estimate_memory(catalog.memory, recipe) : MemoryAnswer{};
  take_training_recipe(catalog.memory, recipe,
                       states.estimate ? states.estimate->trainable_parameters : 0, q);
}

// The instance's price and its model copies.
struct Price {
  double usd_per_hour = 0, spot_per_hour = 0, replicas = 1;
};

Json per_million(double usd_hour, double tokens_per_s) {
  return usd_hour > 0 && tokens_per_s > 0 ? Json(round_to(usd_hour / (tokens_per_s * 3600) * 1e6, 4)) : Json(nullptr);
}

Json training_figures(const Catalog& catalog, const ThroughputQuestion& q, const InstanceType* instance,
                      const Price& p) {
  const double usd_per_hour = p.usd_per_hour, spot_per_hour = p.spot_per_hour;
  const TrainingEstimate t = estimate_training(catalog.throughput, q);
  Json tr = {{"tokens_per_s_per_gpu", round_to(t.tokens_per_s_per_gpu, 1)},
             {"tokens_per_s", round_to(t.tokens_per_s, 1)},
             {"tflops_per_gpu", round_to(t.tflops_per_gpu, 1)},
             {"mfu", round_to(t.mfu, 4)},
             {"hfu", round_to(t.hfu, 4)},
             {"gflop_per_token", round_to(t.flops_per_token / 1e9, 3)},
             {"bound", "compute"},
             {"basis", t.basis}};
  if (t.seconds) {
    tr["hours"] = round_to(*t.seconds / 3600, 2);
    tr["gpu_hours"] = round_to(*t.gpu_hours, 1);
    if (instance && instance->on_demand_usd_per_hour) {
      const double per_gpu_hour = usd_per_hour / std::max(1.0, instance->gpus);
      tr["usd_on_demand"] = round_to(*t.gpu_hours * per_gpu_hour, 2);
      if (spot_per_hour > 0)
        tr["usd_spot"] =
            round_to(*t.gpu_hours * spot_per_hour / std::max(1.0, instance->gpus), 2);
    }
  }
  return tr;
}

// nullopt (with the fault) when the concurrency asked exceeds what the KV cache holds.
std::optional<Json> inference_figures(const Catalog& catalog, Reader& r, const ThroughputQuestion& q,
                                      const Price& p) {
  const double usd_per_hour = p.usd_per_hour, spot_per_hour = p.spot_per_hour, replicas = p.replicas;
  const InferenceEstimate e = estimate_inference(catalog.throughput, q);
  if (q.batch > e.max_batch_by_kv) {
    r.fail("cannot_answer", "/concurrency",
           report::short_number(q.batch) + " concurrent sequences of " + report::short_number(q.input_tokens + q.output_tokens) +
               " tokens exceed what the KV cache holds (" + report::short_number(e.max_batch_by_kv) +
               "); lower the concurrency, add tensor parallelism or use an fp8 KV cache");
    return std::nullopt;
  }
  Json inf;
  inf["concurrency"] = e.batch;
  inf["max_concurrency_by_kv_cache"] = e.max_batch_by_kv;
  inf["time_to_first_token_ms"] = round_to(e.ttft_ms, 2);
  inf["time_per_output_token_ms"] = round_to(e.tpot_ms, 3);
  inf["decode_step_ms"] = round_to(e.decode_step_ms, 3);
  inf["end_to_end_latency_ms"] = round_to(e.e2e_ms, 1);
  inf["output_tokens_per_s"] = round_to(e.output_tokens_per_s, 1);
  inf["output_tokens_per_s_per_gpu"] = round_to(e.output_tokens_per_s_per_gpu, 1);
  inf["single_stream_tokens_per_s"] = round_to(e.batch1_decode_tokens_per_s, 1);
  inf["prefill"] = {{"bound", e.first_token.bound},
                    {"compute_ms", round_to(e.first_token.compute_s * 1e3, 3)},
                    {"memory_ms", round_to(e.first_token.memory_s * 1e3, 3)},
                    {"interconnect_ms", round_to(e.first_token.comm_s * 1e3, 3)},
                    {"basis", e.first_token.basis}};
  inf["batch_prefill_ms"] = round_to(e.prefill.seconds * 1e3, 2);
  inf["decode"] = {{"bound", e.decode.bound},
                   {"compute_ms", round_to(e.decode.compute_s * 1e3, 3)},
                   {"memory_ms", round_to(e.decode.memory_s * 1e3, 3)},
                   {"interconnect_ms", round_to(e.decode.comm_s * 1e3, 3)},
                   {"basis", e.decode.basis}};
  inf["limit"] = e.limit;
  if (usd_per_hour > 0) {
    const double system_tps = e.output_tokens_per_s * replicas;
    inf["usd_per_million_output_tokens"] = per_million(usd_per_hour, system_tps);
    inf["usd_per_million_output_tokens_spot"] =
        spot_per_hour > 0 ? per_million(spot_per_hour, system_tps) : Json(nullptr);
    // Input tokens pay for the prefill time: $/h over the tokens a prefill-hour processes.
    inf["usd_per_million_input_tokens"] =
        per_million(usd_per_hour, e.prefill_tokens_per_s * replicas);
    inf["cost_basis"] = "$" + report::short_number(usd_per_hour) + "/h for " +
                        report::short_number(replicas) +
                        (replicas == 1 ? " model copy at " : " model copies at ") +
                        report::short_number(round_to(system_tps, 0)) + " output tokens/s";
  }
  return inf;
}

// The $ per 1M output tokens at the measured error of the throughput figure it divides by: an
// error is (predicted - measured) / measured, so within +-p90 of its kind's leave-one-source-out
// band (expected_error) the throughput measures between its estimate / (1 + p90) and / (1 - p90),
// and the cost between usd x (1 - p90) and usd x (1 + p90); no lower end when p90 reaches 100 %.
Json cost_band(const Json& usd, const Json& expected) {
  if (!usd.is_number() || !expected.contains("p90_abs_err_pct")) return nullptr;
  const double e = expected["p90_abs_err_pct"].get<double>() / 100, cost = usd.get<double>();
  Json band = report::object(5);
  band["low"] = e < 1 ? Json(round_to(cost * (1 - e), 4)) : Json(nullptr);
  band["high"] = round_to(cost * (1 + e), 4);
  band["p90_abs_err_pct"] = expected["p90_abs_err_pct"];
  band["n"] = expected["n"];
  band["basis"] = "the throughput between its estimate / (1 + " + report::short_number(e) + ") and / (1 - " +
                  report::short_number(e) + "), the 90th percentile of its kind's error on sources it was not tuned on";
  return band;
}

}  // namespace

// How fast and what it costs per token: the roofline estimate of a model on a GPU or instance.
Json answer_estimate(const Catalog& catalog, Session& s, const Json& request) {
  Reader& r = s.reader();
  const auto named = with_older_names(s, request, "", RoadQuestion::kEstimate);
  if (!named) return nullptr;
  const Json& req = *named;
  if (!only_where_they_apply(r, req)) return nullptr;
  if (!catalog.throughput.present) {
    r.fail("cannot_answer", "", "the catalog has no throughput_model block in model_config.json");
    return nullptr;
  }
  auto model = read_model(s, req, "");
  if (!model) return nullptr;
  const GpuSpec* gpu = nullptr;
  auto mq = read_question(catalog, r, req, *model, gpu);
  if (!mq) return nullptr;
  if (!req.contains("engine")) {
    // The road's engine default: vLLM serves, transformers trains.
    Workload road;
    const auto phase_it = req.find("phase");
    const bool trains = phase_it != req.end() && phase_it->is_string() && lower(phase_it->get<std::string>()) == "training";
    road.task = trains ? WorkloadType::kTraining : WorkloadType::kInference;
    mq->engine = road.engine_key();
  }
  if (r.boolean(req, "rank", "", false).value_or(false)) {
    TokenShape t = read_tokens(r, req);
    if (auto x = r.number(req, "max_ttft_ms", "", false, {0, 1e9, true})) t.max_ttft_ms = *x;
    if (auto x = r.number(req, "max_tpot_ms", "", false, {0, 1e9, true})) t.max_tpot_ms = *x;
    const std::vector<std::string> providers = s.providers(req, "");
    if (!r.ok()) return nullptr;
    return ranking(catalog, r, req, *model, *mq, t, providers);
  }
  const InstanceType* instance = nullptr;
  if (!pick_device(catalog, r, req, &*mq, gpu, instance)) return nullptr;
  const auto whole = whole_model_memory(catalog, r, *mq);
  if (!whole) return nullptr;
  const bool training = pick(r, "estimate", req, "phase") == "training";
  const TokenShape shape = read_tokens(r, req);
  // Serving on a named instance without a tensor-parallel degree: the layout the ranking gives it;
  // training without a GPU count: all of its GPUs, as fit takes them.
  std::string layout_note;
  if (instance && training && !req.contains("gpus") && instance->gpus > 1) {
    mq->gpus = instance->gpus;
    layout_note = "no gpus given: all " + report::short_number(instance->gpus) + " GPUs of " +
                  instance->name + " (as fit takes them; give gpus for fewer)";
  }
  if (instance && !training && !req.contains("tensor_parallel") && r.ok()) {
    if (const double ranked = ranked_tp_on(catalog, *mq, shape, *instance, whole->weights_bytes,
                                           whole->kv_bytes_per_token);
        ranked > 1) {
      mq->tensor_parallel = ranked;
      layout_note = "no tensor_parallel given: TP" + report::short_number(ranked) + " x " +
                    report::short_number(std::floor(instance->gpus / ranked)) + " on " +
                    instance->name +
                    ", its layout with the lowest $ per token (as the ranking gives it; give "
                    "tensor_parallel for another)";
    }
  }
  const double tp = mq->tensor_parallel;
  ThroughputQuestion q = roofline_question(catalog, *mq, *gpu, tp, shape, whole->weights_bytes, whole->kv_bytes_per_token);
  const std::string& precision = q.compute;
  q.gpus = mq->gpus;
  q.sequence = mq->sequence;
  if (training) take_road_recipe(catalog, *mq, q);
  if (auto tokens = r.number(req, "dataset_tokens", "", false, {1, 1e16}))
    q.dataset_tokens = *tokens;
  const double epochs = r.number(req, "epochs", "", false, {0.01, 1e4}).value_or(1);
  if (q.dataset_tokens) *q.dataset_tokens *= epochs;
  if (!r.ok()) return nullptr;
  std::optional<TensorLink> link;
  if (!runs(catalog, r, &*model, &*mq, gpu, instance, training, q, link)) return nullptr;

  Json result;
  result["settings"] = {{"engine", mq->engine},
                        {"attention", mq->attention},
                        {"input_tokens", shape.input},
                        {"output_tokens", shape.output},
                        {"concurrency", shape.concurrency}};
  result["model"] = {{"name", model->label},
                     {"parameters_billion", round_to(q.params.total / 1e9, 3)},
                     {"active_parameters_billion", round_to(q.params.active / 1e9, 3)},
                     {"weights_gb", report::gb(q.weight_bytes)},
                     {"kv_cache_kib_per_token", round_to(q.kv_bytes_per_token / 1024, 3)}};
  if (model->typed_name) result["model"]["typed_name"] = report::typed_name(*model->typed_name);
  result["device"] = {
      {"gpu", gpu->name},
      {"bandwidth_gb_per_s", q.device.bandwidth_gb_per_s},
      {"peak_tflops", q.device.tflops.count(precision) ? q.device.tflops.at(precision) : 0.0},
      {"precision", precision},
      {"tensor_parallel", tp},
      {"link_gb_per_s", q.device.link_gb_per_s}};
  if (link) {
    result["device"]["link"] = link->kind;
    result["device"]["link_basis"] = link->basis;
  }
  if (!layout_note.empty()) result["device"]["layout_note"] = layout_note;
  if (gpu->vendor != "nvidia" && gpu->vendor != "amd")
    result["device"]["note"] =
        "estimate from the device's datasheet figures; its kernels are not calibrated";
  Price price;
  // One instance on demand, priced as every question prices it (a flagged price is not used).
  const Cost cost = instance ? cost_of(catalog, Placement{instance, instance->gpus, 1, instance->name, false}, Billing{},
                                       false, true)
                             : Cost{};
  if (instance && cost.on_demand_usd_per_hour) {
    price.replicas = std::max(1.0, std::floor(instance->gpus / tp));
    price.usd_per_hour = *cost.on_demand_usd_per_hour;
    price.spot_per_hour = cost.spot_usd_per_hour.value_or(0);
    result["instance"] = {
        {"instance", instance->name},
        {"provider", instance->provider},
        {"gpus", instance->gpus},
        {"model_copies", price.replicas},
        {"usd_per_hour", price.usd_per_hour},
        {"spot_usd_per_hour", cost.spot_usd_per_hour ? Json(price.spot_per_hour) : Json(nullptr)},
        {"price_source", instance->source}};
    if (!cost.spot_basis.empty() && cost.spot_usd_per_hour) result["instance"]["spot_basis"] = cost.spot_basis;
    if (!cost.price_flags.empty()) {
      result["instance"]["price_flags"] = report::price_flags(cost.price_flags);
      result["instance"]["priced_from_region"] = cost.priced_from_region;
      result["instance"]["price_note"] = cost.note;
    }
  }
  if (training) {
    result["training"] = training_figures(catalog, q, instance, price);
  } else {
    auto inf = inference_figures(catalog, r, q, price);
    if (!inf) return nullptr;
    result["inference"] = std::move(*inf);
  }
  // The serving engine the estimate describes unless the request names one (vLLM-style batching).
  const std::string& engine = mq->engine;
  const GpuSpec* vendor_gpu = gpu ? gpu : instance ? catalog.gpu(instance->gpu_model) : nullptr;
  result["expected_error"] = report::expected_error(throughput_kind(
      catalog, training ? "training" : "inference", engine, vendor_gpu ? vendor_gpu->vendor : ""));
  if (!training) {
    Json& inf = result["inference"];
    if (Json band = cost_band(inf["usd_per_million_output_tokens"], result["expected_error"]); !band.is_null())
      inf["usd_per_million_output_tokens_band"] = std::move(band);
  }
  result["basis"] =
      "roofline: each phase takes the longer of its compute time (FLOPs over peak x efficiency) "
      "and its memory time (bytes over bandwidth x efficiency), plus tensor-parallel all-reduces; "
      "peak-based, calibrated on published measurements (docs/accuracy.md)";
  return report::price_flags_first(std::move(result), cost);
}

}  // namespace gpufleet::detail
