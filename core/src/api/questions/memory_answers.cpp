// The memory questions: "memory" (a concrete model's per-GPU breakdown against a GPU, the largest
// batch and context that fit, the KV-cache capacity, which GPUs hold it) and "accuracy" (the
// harness over measurement cases).
#include "api/questions/memory_answers.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "support/decimal.hpp"
#include "catalog/fields.hpp"
#include "catalog/architecture_reader.hpp"
#include "fleet/road.hpp"
#include "pricing/prices.hpp"
#include "api/answers.hpp"
#include "support/small_sort.hpp"

namespace gpufleet::detail {
namespace {

using report::round_to;

constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kMaxTokens = 1e8;

double gib(double bytes) { return round_to(bytes / kGiB, 3); }

struct ModelChoice {
  Architecture arch;
  std::string label;
  const NamedModel* named = nullptr;
};

std::optional<ModelChoice> read_model(const Catalog& catalog, Reader& r, const Json& req) {
  const Json* m = r.object(req, "model", "", true);
  if (!m) return std::nullopt;
  const bool has_name = m->contains("name"), has_config = m->contains("hf_config");
  if (has_name == has_config) {
    r.fail(has_name ? "wrong_type" : "missing_field", "/model",
           "expected exactly one of \"name\" (a model of model_config.json) or \"hf_config\" (a "
           "Hugging Face config.json object)");
    return std::nullopt;
  }
  fields::check_fields(r, *m, "/model", "memory_request_model");
  if (!r.ok()) return std::nullopt;
  ModelChoice choice;
  if (has_name) {
    auto name = r.string(*m, "name", "/model", true);
    if (!name) return std::nullopt;
    const NamedModel* named = catalog.model(*name);
    if (!named) {
      std::vector<std::string> keys;
      for (const auto& x : catalog.models) keys.push_back(x.key);
      r.fail(
          "unknown_name", "/model/name",
          "expected a model of model_config.json (" + names_of(keys) + "), got \"" + *name + "\"");
      return std::nullopt;
    }
    choice.arch = named->arch;
    choice.label = named->name;
    choice.named = named;
    return choice;
  }
  Errors errors;
  auto arch = read_architecture((*m)["hf_config"], kRequest, "/model/hf_config", errors);
  for (auto& e : errors) r.fail(e.code, e.path, e.message);
  if (!arch) return std::nullopt;
  choice.arch = *arch;
  choice.label = "your model (" + arch->model_type +
                 (arch->multimodal_type.empty() ? "" : ": the text model of a " + arch->multimodal_type + " config; its vision tower is not counted") + ")";
  return choice;
}

std::optional<MemoryQuestion> read_question(const Catalog& catalog, Reader& r, const Json& req,
                                            ModelChoice& model, const GpuSpec*& gpu) {
  MemoryQuestion q;
  q.arch = model.arch;
  if (auto mode = r.string(req, "mode", "", false)) {
    auto m = parse_train_mode(*mode);
    if (!m) {
      r.fail(
          "unknown_name", "/mode",
          "expected one of load_only, inference, full_finetune, lora, qlora, pretraining, got \"" +
              *mode + "\"");
    } else {
      q.mode = *m;
    }
  }
  q.weight_format = lower(r.string(req, "weight_format", "", false).value_or("bf16"));
  const std::string default_compute = q.weight_format == "fp32"   ? "fp32"
                                      : q.weight_format == "fp16" ? "fp16"
                                                                  : "bf16";
  q.compute = lower(r.string(req, "compute_precision", "", false).value_or(default_compute));
  q.optimizer = lower(r.string(req, "optimizer", "", false).value_or("adamw"));
  q.batch = r.number(req, "batch", "", false, {1, 1e6}).value_or(1);
  q.sequence = r.number(req, "context", "", false, {1, kMaxTokens})
                   .value_or(std::min(
                       model.arch.max_positions > 0 ? model.arch.max_positions : 4096, 4096.0));
  q.new_tokens = r.number(req, "new_tokens", "", false, {0, kMaxTokens}).value_or(0);
  q.beams = r.number(req, "beams", "", false, {1, 64}).value_or(1);
  q.gradient_checkpointing = r.boolean(req, "gradient_checkpointing", "", false).value_or(false);
  q.flash_attention = r.boolean(req, "flash_attention", "", false).value_or(true);
  q.chunked_loss = r.boolean(req, "chunked_loss", "", false).value_or(false);
  q.optimizer_in_backward = r.boolean(req, "optimizer_in_backward", "", false).value_or(false);
  q.master_weights = r.boolean(req, "master_weights", "", false).value_or(false);
  q.kv_format = lower(r.string(req, "kv_cache_format", "", false).value_or(""));
  if (const Json* lora = r.object(req, "lora", "", false)) {
    for (const auto& [key, _] : lora->items()) {
      if (key != "rank" && key != "target_modules")
        r.fail("unknown_field", Reader::child("/lora", key),
               "\"lora\" takes \"rank\" and \"target_modules\"; got \"" + key + "\"");
    }
    q.lora_rank = r.number(*lora, "rank", "/lora", false, {1, 65536}).value_or(0);
    q.lora_targets = r.strings(*lora, "target_modules", "/lora", false);
  }
  q.gpus = r.number(req, "gpus", "", false, {1, kMaxGpus}).value_or(1);
  q.tensor_parallel = r.number(req, "tensor_parallel", "", false, {1, kMaxGpus}).value_or(1);
  q.pipeline_parallel = r.number(req, "pipeline_parallel", "", false, {1, kMaxGpus}).value_or(1);
  if (q.tensor_parallel * q.pipeline_parallel > q.gpus)
    q.gpus = q.tensor_parallel * q.pipeline_parallel;
  q.sharding = lower(r.string(req, "sharding", "", false).value_or("none"));
  q.cpu_offload = r.boolean(req, "cpu_offload", "", false).value_or(false);
  q.engine = lower(r.string(req, "engine", "", false).value_or("transformers"));
  q.cuda_eager_loading = r.boolean(req, "cuda_eager_loading", "", false).value_or(false);
  if (auto u = r.number(req, "gpu_memory_utilization", "", false, {0.05, 1}))
    q.gpu_memory_utilization = *u;
  if (auto len = r.number(req, "max_model_len", "", false, {1, kMaxTokens})) q.max_model_len = *len;
  if (auto n = r.number(req, "max_num_batched_tokens", "", false, {1, kMaxTokens}))
    q.max_batched_tokens = *n;
  if (auto n = r.number(req, "max_num_seqs", "", false, {1, 1e6})) q.max_num_seqs = *n;
  q.engine_version = r.string(req, "engine_version", "", false).value_or("");
  if (!q.engine_version.empty() && parse_engine_version(q.engine_version) <= 0)
    r.fail("unknown_name", "/engine_version",
           "expected a release such as \"0.6.5\" or \"V0 0.7.3\", got \"" + q.engine_version + "\"");
  if (auto entry = r.string(req, "engine_entrypoint", "", false)) {
    if (*entry != "serve" && *entry != "offline")
      r.fail("unknown_name", "/engine_entrypoint",
             "expected serve (vllm serve) or offline (the LLM class), got \"" + *entry + "\"");
    q.offline_engine = *entry == "offline";
  }
  if (auto name = r.string(req, "gpu", "", false)) {
    gpu = catalog.gpu(*name);
    if (!gpu) {
      std::vector<std::string> keys;
      for (const auto& [key, _] : catalog.gpus) keys.push_back(key);
      r.fail(
          "unknown_name", "/gpu",
          "expected a GPU of gpu_instances.json (" + names_of(keys) + "), got \"" + *name + "\"");
    }
  }
  if (gpu) {
    q.gpu_memory_bytes = gpu->usable_bytes();
    q.gpu_name = gpu->name;
    q.gpus_linked = catalog.gpu_has_nvlink(gpu->name);
  }
  if (!r.ok()) return std::nullopt;
  return q;
}

// Why the estimate does not run on a GPU of `capacity` bytes; empty when it does. A fit means the
// memory holds it and, under an engine with a KV pool, the pool holds at least one whole sequence
// at the asked length (the road's rule, fleet/road.cpp size_memory).
std::string does_not_fit(const MemoryQuestion& q, const MemoryEstimate& e, double capacity) {
  if (e.total_bytes > capacity)
    return "does not fit: " + report::short_number(gib(e.total_bytes)) + " GiB per GPU, the GPU has " +
           report::short_number(gib(capacity)) + " GiB";
  if (e.kv_pool_tokens && q.mode == TrainMode::kInference && e.max_concurrent_sequences.value_or(0) < 1)
    return "does not fit: the KV cache left (" + report::short_number(gib(e.kv_pool_bytes.value_or(0))) + " GiB, " +
           report::short_number(*e.kv_pool_tokens) + " tokens) holds no whole " +
           report::short_number(q.sequence + q.new_tokens) + "-token sequence; use more GPUs per copy (tensor_parallel), " +
           "an fp8 KV cache, a smaller weight format or a shorter context";
  return "";
}

bool fits(const MemoryConstants& k, const MemoryQuestion& q, double capacity) {
  auto a = estimate_memory(k, q);
  return a.estimate && does_not_fit(q, *a.estimate, capacity).empty();
}

// The largest value of `field` (1 .. limit) for which the question still fits, by bisection.
double largest_fitting(const MemoryConstants& k, MemoryQuestion q, double capacity,
                       double MemoryQuestion::*field, double limit) {
  q.*field = 1;
  if (!fits(k, q, capacity)) return 0;
  double lo = 1, hi = 2;
  while (hi <= limit) {
    q.*field = hi;
    if (!fits(k, q, capacity)) break;
    lo = hi;
    hi *= 2;
  }
  hi = std::min(hi, limit + 1);
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    q.*field = mid;
    (fits(k, q, capacity) ? lo : hi) = mid;
  }
  return lo;
}


}  // namespace

Json breakdown(const MemoryEstimate& e) {
  Json lines = Json::array();
  for (const auto& l : e.lines) {
    lines.push_back({{"key", l.key},
                     {"label", l.label},
                     {"gib", gib(l.bytes)},
                     {"bytes", round_to(l.bytes, 0)},
                     {"basis", l.basis}});
  }
  return lines;
}

std::vector<std::string> words(const char* text) {
  std::vector<std::string> out;
  std::string word;
  for (const char* c = text;; ++c) {
    if (*c == ' ' || *c == '\0') {
      if (!word.empty()) out.push_back(word);
      word.clear();
      if (*c == '\0') break;
    } else {
      word += *c;
    }
  }
  return out;
}

// What a figure of this kind can be expected to miss by: its measured error over the measurement
// cases (model_config.json "measured_error", written by scripts/accuracy-doc.sh), said in words.
Json expected_error(const Catalog& catalog, const std::string& quantity, const std::string& phase,
                    const std::string& engine, const std::string& vendor) {
  // The kind on this vendor's GPUs; with no GPU named, the kind's largest group of cases.
  const MeasuredError* found = nullptr;
  for (const MeasuredError& e : catalog.measured_error) {
    if (e.quantity != quantity || e.phase != phase || e.engine != engine) continue;
    if (vendor.empty() ? (!found || e.n > found->n) : e.vendor == vendor) found = &e;
  }
  const std::string on = found ? found->vendor : vendor;
  const std::string kind = engine + " " + phase + " " + quantity + (on.empty() ? "" : " on " + on + " GPUs");
  Json out = report::object(5);
  out["kind"] = kind;
  if (!found) {
    out["n"] = 0;
    out["text"] = "no measured case of this kind (" + kind + "): its error is unknown";
    return out;
  }
  out["n"] = static_cast<std::int64_t>(found->n);
  out["median_abs_err_pct"] = found->median_abs_err_pct;
  out["p90_abs_err_pct"] = found->p90_abs_err_pct;
  out["text"] = "within " + report::short_number(found->median_abs_err_pct) + " % (median; 90 % of them within " +
                report::short_number(found->p90_abs_err_pct) + " %) on " + report::short_number(found->n) + " measured case" +
                (found->n == 1 ? "" : "s") + " of " + kind;
  return out;
}

Json answer_memory(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  auto model = read_model(catalog, r, req);
  if (!model) return nullptr;
  const GpuSpec* gpu = nullptr;
  auto q = read_question(catalog, r, req, *model, gpu);
  if (!q) return nullptr;
  if (std::string why = tp_refusal(q->arch, q->tensor_parallel); !why.empty()) {
    r.fail("cannot_answer", "/tensor_parallel", why + "; use " + kTpWayOut + ", or pipeline_parallel for more GPUs");
    return nullptr;
  }
  MemoryAnswer answer = estimate_memory(catalog.memory, *q);
  for (const auto& [field, message] : answer.faults) r.fail("unknown_name", "/" + field, message);
  if (!answer.estimate) return nullptr;
  const MemoryEstimate& e = *answer.estimate;
  Json result;
  Json m;
  m["name"] = model->label;
  if (model->named) {
    m["key"] = model->named->key;
    m["hf_id"] = model->named->hf_id;
    m["source"] = model->named->source;
  }
  m["model_type"] = q->arch.model_type;
  m["parameters"] = round_to(e.params.total, 0);
  m["parameters_billion"] = round_to(e.params.total / 1e9, 3);
  if (q->arch.moe()) m["active_parameters_billion"] = round_to(e.params.active / 1e9, 3);
  m["kv_cache_kib_per_token"] = round_to(e.kv_bytes_per_token / 1024, 3);
  result["model"] = std::move(m);
  result["settings"] = {{"mode", to_string(q->mode)},
                        {"weight_format", q->weight_format},
                        {"compute_precision", q->compute},
                        {"batch", q->batch},
                        {"context", q->sequence},
                        {"new_tokens", q->new_tokens},
                        {"engine", q->engine},
                        {"gpus", q->gpus},
                        {"tensor_parallel", q->tensor_parallel},
                        {"pipeline_parallel", q->pipeline_parallel},
                        {"sharding", q->sharding}};
  result["per_gpu"] = breakdown(e);
  result["total_gib"] = gib(e.total_bytes);
  result["total_bytes"] = round_to(e.total_bytes, 0);
  result["tensors_gib"] = gib(e.tensor_bytes);
  result["weights_gib"] = gib(e.weights_bytes);
  if (e.trainable_parameters > 0)
    result["trainable_parameters"] = round_to(e.trainable_parameters, 0);
  if (e.kv_pool_tokens) {
    result["kv_cache_capacity"] = {
        {"tokens", *e.kv_pool_tokens},
        {"gib", gib(*e.kv_pool_bytes)},
        {"concurrent_sequences", e.max_concurrent_sequences.value_or(0)}};
  }
  Json notes = e.notes;
  if (q->arch.max_positions > 0 && q->sequence + q->new_tokens > q->arch.max_positions) {
    notes.push_back("the context (" + report::short_number(q->sequence + q->new_tokens) +
                    " tokens) is longer than the model's window of " +
                    report::short_number(q->arch.max_positions) + " tokens");
  }
  result["notes"] = std::move(notes);
  const bool serving = q->mode == TrainMode::kInference || q->mode == TrainMode::kLoadOnly;
  result["expected_error"] =
      expected_error(catalog, "memory", serving ? "inference" : "training", q->engine, gpu ? gpu->vendor : "");
  result["basis"] =
      "per GPU; tensors are what torch.cuda.max_memory_allocated shows, the total adds the runtime "
      "(CUDA context, allocator reserve, engine buffers)";
  if (gpu && q->gpu_memory_bytes) {
    const double capacity = *q->gpu_memory_bytes;
    Json g;
    g["gpu"] = gpu->name.empty() ? "" : gpu->name;
    g["capacity_gib"] = gib(capacity);
    g["used_gib"] = gib(e.total_bytes);
    g["utilization_pct"] = round_to(e.total_bytes / capacity * 100, 1);
    const std::string why = does_not_fit(*q, e, capacity);
    g["fits"] = why.empty();
    if (!why.empty()) g["reason"] = why;
    g["headroom_gib"] = gib(capacity - e.total_bytes);
    const auto engine = catalog.memory.engines.find(q->engine);
    const bool pool = engine != catalog.memory.engines.end() && engine->second.kv_policy == "pool";
    if (!pool) {  // a pool engine takes its share whatever the batch: no largest batch to find
      g["largest_batch"] =
          largest_fitting(catalog.memory, *q, capacity, &MemoryQuestion::batch, 1e6);
      // Never beyond the model's own context window.
      const double window = q->arch.max_positions > 0      ? q->arch.max_positions
                            : q->arch.target_positions > 0 ? q->arch.target_positions
                                                           : kMaxTokens;
      g["largest_context"] =
          largest_fitting(catalog.memory, *q, capacity, &MemoryQuestion::sequence, window);
      if (q->mode == TrainMode::kInference && e.kv_bytes_per_token > 0 && why.empty()) {
        const double spare = capacity - e.total_bytes + e.kv_cache_bytes;
        g["kv_cache_tokens_that_fit"] = std::floor(spare / e.kv_bytes_per_token);
        g["concurrent_sequences_at_context"] =
            std::floor(spare / e.kv_bytes_per_token / (q->sequence + q->new_tokens));
      }
    }
    result["gpu"] = std::move(g);
  }
  // Which GPUs hold it (with this many GPUs per model copy).
  Json which = Json::array();
  const bool cuda_engine = q->engine != "llama.cpp" && q->engine != "whisper.cpp";
  for (const auto& [key, spec] : catalog.gpus) {
    // Neuron devices run their own SDK, not the CUDA engines this estimate describes.
    if (cuda_engine && spec.vendor != "nvidia" && spec.vendor != "amd") continue;
    MemoryQuestion other = *q;
    other.gpu_memory_bytes = spec.usable_bytes();
    other.gpus_linked = catalog.gpu_has_nvlink(key);
    other.gpu_name = spec.name;
    auto a = estimate_memory(catalog.memory, other);
    if (!a.estimate) continue;
    which.push_back({{"gpu", key},
                     {"capacity_gib", gib(*other.gpu_memory_bytes)},
                     {"used_gib", gib(a.estimate->total_bytes)},
                     {"fits", does_not_fit(other, *a.estimate, *other.gpu_memory_bytes).empty()}});
  }
  result["gpus"] = std::move(which);
  return result;
}

}  // namespace gpufleet::detail

namespace gpufleet::detail {

// Seed 000's right-sizing: for each model, the memory it needs (the memory model at the request's
// settings), the smallest GPU that holds it, and the cheapest instance that does (with as many GPUs
// as tensor parallelism needs), priced per month.
Json answer_right_size(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  const Json* models = r.member(req, "models", "", true);
  if (!models) return nullptr;
  if (!models->is_array() || models->empty() || models->size() > 64) {
    r.fail("wrong_type", "/models",
           "expected an array of 1 to 64 requests like {\"model\": {\"name\": ...}, "
           "\"weight_format\": ...}, got " +
               Reader::describe(*models));
    return nullptr;
  }
  const double hours =
      r.number(req, "hours_per_month", "", false, {1, kMaxHoursPerMonth}).value_or(720);
  const std::vector<std::string> providers = s.providers(req, "");
  Json rows = Json::array();
  for (std::size_t i = 0; i < models->size(); ++i) {
    const Json& item = (*models)[i];
    const std::string path = "/models/" + decimal::whole(i);
    if (!r.expect_object(item, path)) return nullptr;
    const std::vector<std::string> allowed = words(kMemoryFields);
    for (const auto& [key, value] : item.items()) {
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        r.fail("unknown_field", Reader::child(path, key),
               "a right_size model takes the fields of the memory question, got \"" + key + "\"");
        return nullptr;
      }
    }
    Errors local;
    Reader lr(kRequest, local);
    auto model = read_model(catalog, lr, item);
    const GpuSpec* unused = nullptr;
    std::optional<MemoryQuestion> q;
    if (model) q = read_question(catalog, lr, item, *model, unused);
    if (q) {
      MemoryAnswer a = estimate_memory(catalog.memory, *q);
      for (const auto& [field, message] : a.faults) lr.fail("unknown_name", "/" + field, message);
    }
    for (auto& e : local) r.fail(e.code, path + e.path, e.message);
    if (!r.ok()) return nullptr;
    const MemoryEstimate e = *estimate_memory(catalog.memory, *q).estimate;
    Json row;
    row["model"] = model->label;
    row["key"] = model->named ? model->named->key : "";
    row["weights_gb"] = report::gb(e.weights_bytes);
    row["min_vram_gb"] = report::gb(e.total_bytes);
    row["min_vram_gib"] = gib(e.total_bytes);
    // The smallest GPU of the catalog that holds it on its own.
    const GpuSpec* smallest = nullptr;
    double smallest_bytes = 0;
    for (const auto& [key, spec] : catalog.gpus) {
      const double cap = spec.usable_bytes();
      if (cap >= e.total_bytes && (!smallest || cap < smallest_bytes)) {
        smallest = &spec;
        smallest_bytes = cap;
      }
    }
    row["smallest_gpu"] = smallest ? Json(smallest->name) : Json(nullptr);
    // The cheapest priced GPU instance that holds it, splitting over its GPUs when one is too
    // small.
    const InstanceType* best = nullptr;
    double best_price = 0, best_gpus = 0;
    for (const auto& it : catalog.instances) {
      if (!priced_on_demand(it, Kinds::kGpus, providers)) continue;
      double need = 1;
      while (need <= it.gpus) {
        MemoryQuestion split = *q;
        split.tensor_parallel = need;
        split.gpus = need;
        split.gpu_memory_bytes = it.memory_per_gpu_bytes;
        split.gpu_name = gpu_name(it);
        split.gpus_linked = tensor_link(it, need).kind == "domain";
        auto a = estimate_memory(catalog.memory, split);
        if (a.estimate && does_not_fit(split, *a.estimate, it.memory_per_gpu_bytes).empty()) break;
        need *= 2;
      }
      if (need > it.gpus) continue;
      const double price = *it.on_demand_usd_per_hour;
      if (!best || price < best_price) {
        best = &it;
        best_price = price;
        best_gpus = need;
      }
    }
    if (best) {
      row["cheapest_instance"] = {{"instance", best->name},
                                  {"provider", best->provider},
                                  {"gpu_type", best->gpu_type},
                                  {"gpus_used", best_gpus},
                                  {"gpus_per_instance", best->gpus},
                                  {"usd_per_hour", best_price},
                                  {"usd_per_month", round_to(best_price * hours, 2)},
                                  {"basis", "$" + report::short_number(best_price) + "/h x " +
                                                report::short_number(hours) + " h"}};
    } else {
      row["cheapest_instance"] = nullptr;
    }
    row["per_gpu"] = breakdown(e);
    rows.push_back(std::move(row));
  }
  return {{"models", rows},
          {"hours_per_month", hours},
          {"basis",
           "memory from the architecture-aware model at each request's settings (batch, context, "
           "engine); the cheapest "
           "on-demand GPU instance whose GPUs hold it, split by tensor parallelism over up to all "
           "of its GPUs"}};
}

}  // namespace gpufleet::detail

namespace gpufleet::detail {

namespace {

// The road's sequence shape (Demand's defaults: 500 prompt and 200 output tokens).
struct TokenSettings {
  double input = Demand{}.input_tokens, output = Demand{}.output_tokens, concurrency = 0;
  std::optional<double> max_ttft_ms, max_tpot_ms;
};

// A request's prompt and output lengths and concurrency.
TokenSettings read_tokens(Reader& r, const Json& req) {
  TokenSettings t;
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

// The throughput question for one device and tensor-parallel degree.
ThroughputQuestion throughput_question(const Catalog& catalog, const MemoryQuestion& mq,
                                       const GpuSpec& gpu, double tp, const TokenSettings& t,
                                       double weight_bytes, double kv_bytes_per_token) {
  ThroughputQuestion q;
  q.arch = mq.arch;
  q.params = count_parameters(q.arch);
  q.weight_bytes = weight_bytes;
  q.kv_bytes_per_token = kv_bytes_per_token;
  q.device = catalog.device(gpu);
  q.tensor_parallel = tp;
  q.gpus = tp;
  std::string precision = mq.weight_format;
  if (precision.rfind("gguf", 0) == 0 || precision.find("int4") != std::string::npos ||
      precision == "nf4" || precision == "fp4")
    precision = "fp16";
  q.compute = precision;
  q.engine = mq.engine;
  q.weight_format = mq.weight_format;
  q.input_tokens = t.input;
  q.output_tokens = t.output;
  q.batch = t.concurrency;
  return q;
}

// Every priced GPU instance that holds the model (the fewest GPUs per copy by tensor parallelism),
// ranked by $ per 1M output tokens, with latency targets honoured.
Json rank_per_token(const Catalog& catalog, Reader& r, const Json& req, const ModelChoice& model,
                    MemoryQuestion mq, const TokenSettings& t,
                    const std::vector<std::string>& providers) {
  const auto whole = whole_model_memory(catalog, r, mq);
  if (!whole) return nullptr;
  const double weights = whole->weights_bytes, kv = whole->kv_bytes_per_token;
  const double limit = r.number(req, "limit", "", false, {1, 1000}).value_or(20);
  // Each instance's best layout as plain figures; only the `limit` cheapest become JSON rows.
  struct Ranked {
    const InstanceType* it;
    const GpuSpec* gpu;
    std::size_t searched;  // its layout's estimate: searched[i].estimate
    double tp, usd, tps;
  };
  std::vector<Ranked> ranked;
  // At each tensor-parallel degree, the largest concurrency that meets the latency targets (time
  // per token grows with the batch), searched once per device (offers of one type in every region
  // share it).
  struct Searched {
    const InstanceType* instance;
    double tp;
    InferenceEstimate estimate;
    bool meets;
  };
  std::vector<Searched> searched;
  auto search = [&](const InstanceType& it, const GpuSpec& gpu, double tp) -> std::size_t {
    for (std::size_t i = 0; i < searched.size(); ++i)
      if (searched[i].tp == tp && same_device(*searched[i].instance, it, tp)) return i;
    // One question per device and layout; the search changes only its batch and reads no basis text.
    ThroughputQuestion question = throughput_question(catalog, mq, gpu, tp, t, weights, kv);
    question.device = instance_device(catalog, it, tp);  // its own link: PCIe A100s are not NVLink ones
    question.explain = false;
    auto run = [&](double batch) {
      question.batch = batch;
      return estimate_inference(catalog.throughput, question);
    };
    auto meets = [&](const InferenceEstimate& e) {
      return (!t.max_ttft_ms || e.ttft_ms <= *t.max_ttft_ms) && (!t.max_tpot_ms || e.tpot_ms <= *t.max_tpot_ms);
    };
    InferenceEstimate e = run(t.concurrency);
    if (!meets(e) && t.concurrency <= 0) {
      // Bisect the concurrency between 1 and what the KV cache holds.
      double lo = 0, hi = e.batch;
      while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        (meets(run(mid)) ? lo : hi) = mid;
      }
      if (lo >= 1) e = run(lo);
    }
    const bool met = meets(e);
    searched.push_back(Searched{&it, tp, std::move(e), met});
    return searched.size() - 1;
  };
  Json excluded = Json::array();
  for (const auto& it : catalog.instances) {
    // GPUs and the Neuron accelerators (Inferentia, Trainium), whose datasheets give the figures.
    if (!priced_on_demand(it, Kinds::kAccelerators, providers)) continue;
    const GpuSpec* gpu = catalog.gpu(it.gpu_model);
    if (!gpu || !gpu->memory_bandwidth_gb_per_s || gpu->tflops.empty()) {
      Json out = report::object(2);
      report::add(out, "instance", it.name);
      report::add(out, "reason", "no speed to rank it by: the catalog gives " + it.gpu_type + " no memory bandwidth or TFLOPS");
      excluded.push_back(std::move(out));
      continue;
    }
    // Every tensor-parallel layout (powers of two up to the instance's GPUs) whose memory holds the
    // weights with room for one full sequence, at its searched concurrency; the layout with the
    // lowest $ per token wins.
    const double cap = it.memory_per_gpu_bytes * catalog.throughput.serving_kv_fraction;
    const double price = *it.on_demand_usd_per_hour;
    std::optional<Ranked> best;
    std::optional<std::size_t> missed;  // a layout that fits but misses the targets (in searched)
    for (double tp = 1; tp <= it.gpus; tp *= 2) {
      if (weights / tp + kv / tp * (t.input + t.output) > cap) continue;
      const std::size_t found = search(it, *gpu, tp);
      const InferenceEstimate& e = searched[found].estimate;
      if (!searched[found].meets) {
        missed = found;
        continue;
      }
      const double copies = std::max(1.0, std::floor(it.gpus / tp));
      const double tps = e.output_tokens_per_s * copies;
      const double usd = tps > 0 ? price / (tps * 3600) * 1e6 : 0;
      if (tps > 0 && (!best || usd < best->usd)) best = Ranked{&it, gpu, found, tp, usd, tps};
    }
    if (best) {
      ranked.push_back(std::move(*best));
      continue;
    }
    Json out = report::object(2);
    report::add(out, "instance", it.name);
    report::add(out, "reason", missed ? "misses the latency target at every concurrency (time to first token " +
                                 report::short_number(round_to(searched[*missed].estimate.ttft_ms, 1)) +
                                 " ms, time per output token " +
                                 report::short_number(round_to(searched[*missed].estimate.tpot_ms, 2)) + " ms)"
                           : "the weights do not fit its " + report::short_number(it.gpus) + " GPU(s)");
    excluded.push_back(std::move(out));
  }
  // By the price as printed: instances that print the same keep the catalog's order.
  detail::small_stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    return round_to(a.usd, 4) < round_to(b.usd, 4);
  });
  const double total = static_cast<double>(ranked.size());
  Json rows = Json::array();
  for (const Ranked& x : ranked) {
    if (rows.size() >= static_cast<std::size_t>(limit)) break;  // a limit of 2.5 keeps 2 rows
    const InstanceType& it = *x.it;
    const InferenceEstimate& e = searched[x.searched].estimate;
    const double price = *it.on_demand_usd_per_hour;
    Json row = report::object(17);
    report::add(row, "instance", it.name);
    report::add(row, "provider", it.provider);
    report::add(row, "region", it.region);
    report::add(row, "gpu", x.gpu->name);
    report::add(row, "gpus", it.gpus);
    report::add(row, "tensor_parallel", x.tp);
    report::add(row, "model_copies", std::max(1.0, std::floor(it.gpus / x.tp)));
    report::add(row, "concurrency_per_copy", e.batch);
    report::add(row, "time_to_first_token_ms", round_to(e.ttft_ms, 2));
    report::add(row, "time_per_output_token_ms", round_to(e.tpot_ms, 3));
    report::add(row, "output_tokens_per_s", round_to(x.tps, 1));
    report::add(row, "usd_per_hour", price);
    report::add(row, "usd_per_million_output_tokens", round_to(x.usd, 4));
    report::add(row, "output_tokens_per_usd", round_to(x.tps * 3600 / price, 0));
    report::add(row, "bound", e.limit);
    report::add(row, "estimate_note", it.accelerator_kind == "gpu"
                               ? Json(nullptr)
                               : Json(it.accelerator_kind +
                                      ": datasheet peaks with the GPU efficiency factors, not "
                                      "calibrated on Neuron measurements"));
    report::add(row, "price_source", it.source);
    rows.push_back(std::move(row));
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
  result["candidates"] = std::move(total);
  result["excluded"] = std::move(excluded);
  result["basis"] =
      "every priced GPU, Inferentia and Trainium instance, each model copy on the fewest devices "
      "that hold the weights and one "
      "full sequence, every copy of the instance serving; ranked by on-demand $ per 1M output "
      "tokens";
  return result;
}

}  // namespace

// Fields of an estimate that apply only to a ranking or to training: elsewhere they would be
// silently ignored, so they are a mistake to name, not a default.
bool only_where_they_apply(Reader& r, const Json& req) {
  const auto rank_it = req.find("rank");
  const bool rank = rank_it != req.end() && *rank_it == true;
  const auto phase_it = req.find("phase");
  const bool training = phase_it != req.end() && phase_it->is_string() && lower(phase_it->get<std::string>()) == "training";
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

// How fast and what it costs per token: the roofline estimate of a model on a GPU or instance.
Json answer_estimate(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  if (!only_where_they_apply(r, req)) return nullptr;
  if (!catalog.throughput.present) {
    r.fail("cannot_answer", "", "the catalog has no throughput_model block in model_config.json");
    return nullptr;
  }
  auto model = read_model(catalog, r, req);
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
    TokenSettings t = read_tokens(r, req);
    if (auto x = r.number(req, "max_ttft_ms", "", false, {0, 1e9, true})) t.max_ttft_ms = *x;
    if (auto x = r.number(req, "max_tpot_ms", "", false, {0, 1e9, true})) t.max_tpot_ms = *x;
    const std::vector<std::string> providers = s.providers(req, "");
    if (!r.ok()) return nullptr;
    return rank_per_token(catalog, r, req, *model, *mq, t, providers);
  }
  // An instance names the GPU too; a GPU alone is priced on the cheapest instance that has it.
  const InstanceType* instance = nullptr;
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
          return nullptr;
        }
      }
    }
    if (!instance) {
      r.fail("unknown_name", "/instance",
             "expected an instance type or family of gpu_instances.json, got \"" + *name + "\"");
      return nullptr;
    }
    if (instance->gpus < mq->tensor_parallel) {
      r.fail("cannot_answer", "/tensor_parallel",
             instance->name + " has " + report::short_number(instance->gpus) +
                 " GPU(s), fewer than " + report::short_number(mq->tensor_parallel) +
                 " tensor-parallel ranks");
      return nullptr;
    }
    if (gpu && !instance->gpu_model.empty() && gpu->name != instance->gpu_model) {
      r.fail("wrong_type", "/instance",
             instance->name + " carries " + instance->gpu_model + ", not the " + gpu->name +
                 " asked for in \"gpu\"");
      return nullptr;
    }
    if (!gpu && !instance->gpu_model.empty()) gpu = catalog.gpu(instance->gpu_model);
  }
  if (!gpu) {
    r.fail("missing_field", "/gpu",
           "expected \"gpu\" (a GPU of gpu_instances.json) or an \"instance\" whose GPU the "
           "catalog knows");
    return nullptr;
  }
  if (!gpu->memory_bandwidth_gb_per_s || gpu->tflops.empty()) {
    r.fail("cannot_answer", "/gpu",
           gpu->name +
               " has no memory bandwidth or TFLOPS in gpu_instances.json: its speed cannot be "
               "estimated");
    return nullptr;
  }
  const double tp = mq->tensor_parallel;
  if (!instance) {
    for (const auto& it : catalog.instances) {
      // A partition of the GPU (AWS g6f's 1/4 L4) is not the GPU asked for.
      if (it.gpu_model != gpu->name || it.gpus < tp || it.gpu_fraction < 1 || !priced_on_demand(it)) continue;
      if (!instance || *it.on_demand_usd_per_hour < *instance->on_demand_usd_per_hour)
        instance = &it;
    }
  }
  const auto whole = whole_model_memory(catalog, r, *mq);
  if (!whole) return nullptr;
  const std::string phase = lower(r.string(req, "phase", "", false).value_or("inference"));
  if (phase != "inference" && phase != "training")
    r.fail("unknown_name", "/phase", "expected inference or training, got \"" + phase + "\"");
  const bool training = phase == "training";
  const TokenSettings shape = read_tokens(r, req);
  ThroughputQuestion q = throughput_question(catalog, *mq, *gpu, tp, shape, whole->weights_bytes, whole->kv_bytes_per_token);
  const std::string& precision = q.compute;
  q.gpus = mq->gpus;
  q.sequence = mq->sequence;
  q.full_recompute = mq->gradient_checkpointing;
  if (auto tokens = r.number(req, "dataset_tokens", "", false, {1, 1e16}))
    q.dataset_tokens = *tokens;
  const double epochs = r.number(req, "epochs", "", false, {0.01, 1e4}).value_or(1);
  if (q.dataset_tokens) *q.dataset_tokens *= epochs;
  if (!r.ok()) return nullptr;
  std::optional<TensorLink> link;
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
      return nullptr;
    }
    {
      // A setup the road cannot run (memory, layout) is refused here too, not priced.
      w.model.arch = model->arch;
      w.model.label = model->label;
      w.model.parameters = count_parameters(model->arch).total;
      w.kv_format = mq->kv_format;
      w.demand.input_tokens = q.input_tokens;
      w.demand.output_tokens = q.output_tokens;
      const Deployment d = training ? deploy_on_gpus(catalog, w, Billing{}, *instance, std::max(1.0, mq->gpus))
                                    : deploy(catalog, w, Billing{}, *instance, Layout{tp, 1, 1}, 1);
      if (!d.runs() && d.refusal.rfind("misses", 0) != 0) {
        r.fail("cannot_answer", "/instance", d.refusal + (d.way_out.empty() ? "" : "; " + d.way_out));
        return nullptr;
      }
    }
    if (instance->gpu_fraction < 1 && tp > 1) {
      r.fail("cannot_answer", "/tensor_parallel", instance->name + " is a fraction of one GPU: no tensor parallelism");
      return nullptr;
    }
  }
  if (std::string why = tp_refusal(model->arch, tp); !why.empty()) {
    r.fail("cannot_answer", "/tensor_parallel", why + "; use " + kTpWayOut);
    return nullptr;
  }
  // Serving needs the weights and at least one whole sequence's KV cache on each rank.
  const double one_sequence =
      (q.weight_bytes + q.kv_bytes_per_token * (q.input_tokens + q.output_tokens)) / tp;
  if (!training && one_sequence > q.device.memory_bytes) {
    r.fail("cannot_answer", "/gpu",
           "does not fit: the weights and one " +
               report::short_number(q.input_tokens + q.output_tokens) + "-token sequence need " +
               report::short_number(one_sequence / 1e9) + " GB per GPU, " + gpu->name + " has " +
               report::short_number(q.device.memory_bytes / 1e9) +
               " GB; use more tensor parallelism (tensor_parallel) or a smaller weight format");
    return nullptr;
  }

  Json result;
  result["settings"] = {{"engine", mq->engine},
                        {"input_tokens", shape.input},
                        {"output_tokens", shape.output},
                        {"concurrency", shape.concurrency}};
  result["model"] = {{"name", model->label},
                     {"parameters_billion", round_to(q.params.total / 1e9, 3)},
                     {"active_parameters_billion", round_to(q.params.active / 1e9, 3)},
                     {"weights_gb", report::gb(q.weight_bytes)},
                     {"kv_cache_kib_per_token", round_to(q.kv_bytes_per_token / 1024, 3)}};
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
  if (gpu->vendor != "nvidia" && gpu->vendor != "amd")
    result["device"]["note"] =
        "estimate from the device's datasheet figures; its kernels are not calibrated";
  double usd_per_hour = 0, spot_per_hour = 0, replicas = 1;
  if (instance && instance->on_demand_usd_per_hour) {
    replicas = std::max(1.0, std::floor(instance->gpus / tp));
    usd_per_hour = *instance->on_demand_usd_per_hour;
    spot_per_hour = instance->spot_usd_per_hour.value_or(0);
    result["instance"] = {
        {"instance", instance->name},
        {"provider", instance->provider},
        {"gpus", instance->gpus},
        {"model_copies", replicas},
        {"usd_per_hour", usd_per_hour},
        {"spot_usd_per_hour", instance->spot_usd_per_hour ? Json(spot_per_hour) : Json(nullptr)},
        {"price_source", instance->source}};
  }
  auto per_million = [](double usd_hour, double tokens_per_s) {
    return usd_hour > 0 && tokens_per_s > 0
               ? Json(round_to(usd_hour / (tokens_per_s * 3600) * 1e6, 4))
               : Json(nullptr);
  };
  if (training) {
    const TrainingEstimate t = estimate_training(catalog.throughput, q);
    Json tr = {{"tokens_per_s_per_gpu", round_to(t.tokens_per_s_per_gpu, 1)},
               {"tokens_per_s", round_to(t.tokens_per_s, 1)},
               {"tflops_per_gpu", round_to(t.tflops_per_gpu, 1)},
               {"mfu", t.mfu},
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
    result["training"] = std::move(tr);
  } else {
    const InferenceEstimate e = estimate_inference(catalog.throughput, q);
    if (q.batch > e.max_batch_by_kv) {
      r.fail("cannot_answer", "/concurrency",
             report::short_number(q.batch) + " concurrent sequences of " + report::short_number(q.input_tokens + q.output_tokens) +
                 " tokens exceed what the KV cache holds (" + report::short_number(e.max_batch_by_kv) +
                 "); lower the concurrency, add tensor parallelism or use an fp8 KV cache");
      return nullptr;
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
    result["inference"] = std::move(inf);
  }
  // The serving engine the estimate describes unless the request names one (vLLM-style batching).
  const std::string& engine = mq->engine;
  result["expected_error"] = expected_error(catalog, "throughput", training ? "training" : "inference", engine,
                                            gpu ? gpu->vendor : instance ? catalog.gpu(instance->gpu_model) ? catalog.gpu(instance->gpu_model)->vendor : "" : "");
  result["basis"] =
      "roofline: each phase takes the longer of its compute time (FLOPs over peak x efficiency) "
      "and its memory time (bytes over bandwidth x efficiency), plus tensor-parallel all-reduces; "
      "peak-based, calibrated on published measurements (docs/accuracy.md)";
  return result;
}

}  // namespace gpufleet::detail
