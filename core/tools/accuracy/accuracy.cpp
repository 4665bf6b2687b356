#include "tools/accuracy/accuracy.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>

#include "api/answers.hpp"
#include "api/questions/memory.hpp"
#include "catalog/architecture_reader.hpp"
#include "model/throughput.hpp"
#include "support/decimal.hpp"
#include "support/json_reader.hpp"
#include "support/small_sort.hpp"

namespace gpufleet {
namespace {

using detail::lower;

const Json* at(const Json& obj, std::initializer_list<const char*> path) {
  const Json* cur = &obj;
  for (const char* key : path) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(key);
    if (it == cur->end() || it->is_null()) return nullptr;
    cur = &*it;
  }
  return cur;
}

std::optional<double> number_at(const Json& obj, std::initializer_list<const char*> path) {
  const Json* v = at(obj, path);
  if (!v || !v->is_number()) return std::nullopt;
  const double x = v->get<double>();
  return std::isfinite(x) ? std::optional(x) : std::nullopt;
}

std::string string_at(const Json& obj, std::initializer_list<const char*> path) {
  const Json* v = at(obj, path);
  return v && v->is_string() ? v->get<std::string>() : "";
}

bool bool_at(const Json& obj, std::initializer_list<const char*> path, bool fallback) {
  const Json* v = at(obj, path);
  return v && v->is_boolean() ? v->get<bool>() : fallback;
}

std::optional<double> unit_bytes(const std::string& unit) {
  if (unit == "GB") return 1e9;
  if (unit == "GiB") return 1024.0 * 1024 * 1024;
  if (unit == "MB") return 1e6;
  if (unit == "MiB") return 1024.0 * 1024;
  if (unit == "B" || unit == "bytes") return 1;
  return std::nullopt;
}

// The engine whose longest name fragment occurs in the framework's name; transformers otherwise.
std::string engine_for(const MemoryConstants& k, const std::string& framework) {
  const std::string f = lower(framework);
  std::string best = "transformers";
  std::size_t best_len = 0;
  for (const auto& [key, engine] : k.engines) {
    for (const auto& m : engine.matches) {
      if (m.size() > best_len && f.find(m) != std::string::npos) {
        best = key;
        best_len = m.size();
      }
    }
  }
  return best;
}

// "CUDA 11.2" in the runtime or notes: the CUDA version, major + minor / 10.
std::optional<double> cuda_version(const std::string& text) {
  for (std::size_t pos = text.find("CUDA "); pos != std::string::npos;
       pos = text.find("CUDA ", pos + 1)) {
    std::size_t i = pos + 5;
    double major = 0, minor = 0;
    bool any = false;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      major = major * 10 + (text[i++] - '0'), any = true;
    if (!any) continue;
    if (i < text.size() && text[i] == '.' && i + 1 < text.size() &&
        std::isdigit(static_cast<unsigned char>(text[i + 1])))
      minor = text[i + 1] - '0';
    return major + minor / 10;
  }
  return std::nullopt;
}

// cuDNN's version number (91900 for 9.19.0) from the runtime's versions: "cudnn 91900" as
// torch.backends.cudnn.version() prints it, or "cuDNN 9.19.0" (cuDNN 8: "8.9.7" is 8907);
// nullopt where none is stated.
std::optional<double> cudnn_version(const std::string& versions) {
  const std::string text = lower(versions);
  std::size_t i = text.find("cudnn");
  if (i == std::string::npos) return std::nullopt;
  for (i += 5;
       i < text.size() && (text[i] == ' ' || text[i] == ':' || text[i] == '=' || text[i] == 'v');
       ++i) {
  }
  double part[3] = {0, 0, 0};
  int parts = 0;
  while (parts < 3 && i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    double n = 0;
    for (int digits = 0;
         i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits < 9;
         ++i, ++digits)
      n = n * 10 + (text[i] - '0');
    part[parts++] = n;
    if (i + 1 < text.size() && text[i] == '.' &&
        std::isdigit(static_cast<unsigned char>(text[i + 1])))
      ++i;
    else
      break;
  }
  if (parts == 0) return std::nullopt;
  if (parts == 1) return part[0];
  return part[0] * (part[0] >= 9 ? 10000 : 1000) + part[1] * 100 + part[2];
}

// Device memory: the catalog's GPU, else an "NNGB" in the name (taken as GiB, as labels are).
std::optional<double> device_bytes(const Catalog& catalog, const std::string& name) {
  if (const GpuSpec* spec = catalog.gpu(name)) return spec->usable_bytes();
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i])) ||
        (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1]))))
      continue;
    std::size_t j = i;
    double x = 0;
    while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j])))
      x = x * 10 + (name[j++] - '0');
    if (name.compare(j, 2, "GB") == 0 && x > 0) return x * 1024 * 1024 * 1024;
  }
  return std::nullopt;
}

// A case's counts: whole numbers in a range no real setup leaves. The reason, or "" when all hold.
std::string bad_count(std::initializer_list<std::pair<const char*, double>> counts) {
  for (const auto& [name, x] : counts) {
    if (!(x >= 1 && x <= 1e6) || x != std::floor(x))
      return std::string(name) + " is " + report::short_number(x) +
             ": expected a whole number from 1 to 1e6";
  }
  return "";
}

std::string first_error(const Errors& errors) {
  return errors.empty() ? "unreadable" : errors.front().path + ": " + errors.front().message;
}

// The device: the catalog's GPU, else the datasheet figures the case carries; the reason to skip
// the case when neither is there, else "".
std::string case_device(const Catalog& catalog, const Json& hw, ThroughputQuestion& q) {
  // The device: the catalog's GPU, else the datasheet figures the case carries.
  const std::string gpu_name = string_at(hw, {"gpu"});
  if (const GpuSpec* spec = catalog.gpu(gpu_name)) {
    q.device = catalog.device(*spec);
  } else if (const Json* missing = at(hw, {"gpu_specs_if_missing"})) {
    q.device.name = gpu_name;
    q.device.bandwidth_gb_per_s = number_at(*missing, {"memory_bw_gbs"}).value_or(0);
    q.device.memory_bytes = number_at(*missing, {"memory_gb"}).value_or(0) * 1024.0 * 1024 * 1024;
    q.device.link_gb_per_s = number_at(*missing, {"link_gb_per_s"}).value_or(0);
    for (const char* p : {"fp16", "bf16", "fp8", "int8"}) {
      if (auto tf = number_at(*missing, {(std::string("tflops_") + p).c_str()}))
        q.device.tflops[p] = *tf;
    }
  } else {
    return "unknown device \"" + gpu_name + "\" and no gpu_specs_if_missing";
  }
  return "";
}

// A training case's recipe as the memory model reads it, for what the step's time takes from it
// (take_training_recipe, as the questions do): adapters and their parameters, checkpointing,
// eager attention (stated as transformers' attn_implementation only), the optimizer (when
// stated), its states' precision and sharding, and the sequences each data-parallel rank trains
// between two optimizer steps (the global batch over the ranks).
void training_recipe(const Catalog& catalog, const Json& c, const Json& w, const Json& hw,
                     ThroughputQuestion& q, double gpus) {
  MemoryQuestion mq;
  mq.arch = q.arch;
  const auto mode = parse_train_mode(string_at(w, {"mode"}));
  mq.mode = mode ? *mode : TrainMode::kPretraining;
  mq.engine = engine_for(catalog.memory, string_at(c, {"runtime", "framework"}));
  mq.weight_format = lower(string_at(w, {"weight_format"}));
  mq.compute = q.compute;
  mq.optimizer = lower(string_at(w, {"optimizer"}));
  mq.master_weights = bool_at(w, {"master_weights"}, false);
  mq.gradient_checkpointing = q.full_recompute;
  mq.attention = lower(string_at(w, {"attention_implementation"}));
  mq.sequence = q.sequence;
  mq.tensor_parallel = std::max(1.0, q.tensor_parallel);
  mq.pipeline_parallel = std::max(1.0, q.pipeline_parallel);
  mq.gpus = std::max(1.0, gpus);
  mq.sharding = lower(string_at(hw, {"data_parallel_sharding"}));
  if (mq.sharding.empty()) mq.sharding = "none";
  const double ranks = std::max(1.0, mq.gpus / (mq.tensor_parallel * mq.pipeline_parallel));
  mq.batch =
      number_at(w, {"global_batch_size"}).value_or(number_at(w, {"batch_size"}).value_or(0)) /
      ranks;
  if (const Json* lora = at(w, {"lora"})) {
    mq.lora_rank = number_at(*lora, {"rank"}).value_or(0);
    mq.lora_dropout = number_at(*lora, {"dropout"}).value_or(0);
    if (const Json* t = at(*lora, {"target_modules"}); t && t->is_array()) {
      for (const auto& x : *t) {
        if (x.is_string()) mq.lora_targets.push_back(x.get<std::string>());
      }
    }
  }
  double trainable = 0;
  if (mq.mode == TrainMode::kLora || mq.mode == TrainMode::kQlora) {
    const MemoryAnswer states = estimate_memory(catalog.memory, mq);
    if (states.estimate) trainable = states.estimate->trainable_parameters;
  }
  take_training_recipe(catalog.memory, mq, trainable, q);
  // The memory model takes every PyTorch framework for transformers; only transformers itself runs
  // its modules op by op (llm-foundry, Megatron and NeMo fuse them).
  q.eager_layers =
      lower(string_at(c, {"runtime", "framework"})).find("transformers") != std::string::npos;
}

// The figure a training case measured, from the roofline estimate (-1: a metric it does not give).
double training_prediction(const Catalog& catalog, const Json& c, const Json& w, const Json& hw,
                           ThroughputQuestion& q, const std::string& metric, double gpus) {
  double predicted = -1;
  q.sequence = number_at(w, {"sequence_length"}).value_or(2048);
  // Full checkpointing runs every layer's forward again; selective checkpointing keeps the
  // matmuls' outputs and recomputes only cheap ops (activation_checkpointing "selective_*").
  const std::string checkpointing = lower(string_at(w, {"activation_checkpointing"}));
  q.full_recompute = checkpointing.empty() ? bool_at(w, {"gradient_checkpointing"}, false)
                                           : checkpointing == "full";
  q.dataset_tokens = number_at(w, {"tokens"});
  training_recipe(catalog, c, w, hw, q, gpus);
  const TrainingEstimate t = estimate_training(catalog.throughput, q);
  if (metric == "tokens_per_second_per_gpu") predicted = t.tokens_per_s_per_gpu;
  if (metric == "tflops_per_gpu") predicted = t.tflops_per_gpu;
  if (metric == "hardware_tflops_per_gpu" && t.mfu > 0)
    predicted = t.tflops_per_gpu * t.hfu / t.mfu;
  if (metric == "mfu_percent") predicted = t.mfu * 100;
  if (metric == "gpu_hours" && q.dataset_tokens && t.tokens_per_s_per_gpu > 0)
    predicted = *q.dataset_tokens / t.tokens_per_s_per_gpu / 3600;
  if (metric == "seconds_per_iteration") {
    const double global =
        number_at(w, {"global_batch_size"}).value_or(number_at(w, {"batch_size"}).value_or(0));
    if (global > 0 && t.tokens_per_s_per_gpu > 0)
      predicted = global * q.sequence / (t.tokens_per_s_per_gpu * gpus);
  }
  return predicted;
}

// The figure an inference case measured (-1: a metric it does not give; `why` set: the case is
// skipped).
double inference_prediction(const Catalog& catalog, const Json& settings, ThroughputQuestion& q, const std::string& phase,
                            const std::string& metric, double replicas, std::string& why) {
  double predicted = -1;
  if (phase == "decode" || phase == "prefill") {
    if (q.batch <= 0) q.batch = 1;
    if (phase == "decode" && q.input_tokens == 0) q.input_tokens = 1;
  }
  if (phase == "decode" && settings.contains("effective_decode_context")) {
    // llama-bench pp with ubatch 1: one token at a time over a context growing from zero.
    q.output_tokens = q.input_tokens;
    q.input_tokens = 1;
  }
  // vLLM's multi-step scheduling: one host step for every num_scheduler_steps decode steps.
  if (auto steps = number_at(settings, {"num_scheduler_steps"}); steps && *steps >= 1 && *steps <= 1e3)
    q.scheduler_steps = std::floor(*steps);
  const bool prefill_only = phase == "prefill";
  if (prefill_only && q.output_tokens < 1) q.output_tokens = 1;
  const InferenceEstimate e = estimate_inference(catalog.throughput, q);
  if (metric == "ms_per_token") predicted = e.decode_step_ms;
  if (metric == "time_to_first_token_ms") predicted = e.ttft_ms;
  if (metric == "tokens_per_second")
    predicted =
        prefill_only ? e.prefill_tokens_per_s : 1000 / e.decode_step_ms * (q.batch > 0 ? q.batch : 1);
  if (metric == "output_tokens_per_second") predicted = e.output_tokens_per_s * replicas;
  if (metric == "output_tokens_per_second_per_gpu") predicted = e.output_tokens_per_s_per_gpu;
  if (prefill_only && q.device.tflops.empty()) why = "the device's compute peak is not known (prefill is compute-bound)";
  return predicted;
}

// Throughput cases: the device, the model's weights and KV cache from the memory model, then the
// roofline estimate of the phase the case measured.
CaseOutcome evaluate_throughput(const Catalog& catalog, const Json& c, CaseOutcome& out) {
  auto skip = [&](const std::string& reason) {
    out.skipped = true;
    out.reason = reason;
    return out;
  };
  auto note = [&](const std::string& text) { out.assumptions.push_back(text); };
  if (!catalog.throughput.present) return skip("the catalog has no throughput_model block");
  if (!(out.measured > 0)) return skip("measured.value is not a positive number");
  const Json* w = at(c, {"workload"});
  const Json* hw = at(c, {"hardware"});
  const Json* arch_json = at(c, {"model", "architecture"});
  if (!w || !hw || !arch_json)
    return skip("the case has no workload, hardware or model.architecture");
  const Json empty = Json::object();
  const Json& settings = at(c, {"runtime", "settings"}) ? *at(c, {"runtime", "settings"}) : empty;
  Errors errors;
  auto arch = read_architecture(*arch_json, "case " + out.id, "/model/architecture", errors);
  if (!arch) return skip("architecture: " + first_error(errors));

  ThroughputQuestion q;
  q.arch = *arch;
  q.params = count_parameters(q.arch);
  {
    // The inference engine whose longest name fragment occurs in the framework's name.
    const std::string framework = lower(string_at(c, {"runtime", "framework"}));
    // NeMo trains through Transformer Engine, whose attention is cuDNN's fused kernel for each
    // GPU generation (TE's DotProductAttention backends), not FlashAttention-2.
    for (const char* fused : {"nemo", "transformer engine"})
      q.fused_attention = q.fused_attention || framework.find(fused) != std::string::npos;
    std::size_t best = 0;
    for (const auto& [key, engine] : catalog.throughput.engines) {
      for (const auto& m : engine.matches) {
        if (m.size() > best && framework.find(m) != std::string::npos) q.engine = key, best = m.size();
      }
    }
  }
  if (const std::string why = case_device(catalog, *hw, q); !why.empty()) return skip(why);
  // transformers' attn_implementation as the run set it; else the flash_attention flag, else
  // transformers' default.
  q.attention = lower(string_at(*w, {"attention_implementation"}));
  if (q.attention.empty())
    q.attention = bool_at(*w, {"flash_attention"}, false) ? "flash_attention_2" : "sdpa";
  // SDPA takes cuDNN attention first only with a runtime cuDNN newer than 9.15; the harness's runs
  // say when the process had run a pass's attention shapes before (its graphs are cached).
  const auto cudnn = cudnn_version(string_at(c, {"runtime", "version"}));
  q.new_attention_shapes =
      !bool_at(settings, {"attention_shapes_seen"}, false) && !(cudnn && *cudnn <= 91500);
  const std::string phase = string_at(*w, {"phase"});
  std::string format = lower(string_at(*w, {"weight_format"}));
  if (format.empty()) format = "bf16";
  std::string compute = lower(string_at(*w, {"compute_precision"}));
  if (compute.rfind("amp_", 0) == 0) compute = compute.substr(4);
  if (compute.empty())
    compute =
        format.rfind("gguf", 0) == 0 || format.find("int4") != std::string::npos ? "fp16" : format;
  q.compute = compute;
  q.weight_format = format;
  // Weights and KV cache through the memory model (same formats, same architecture).
  MemoryQuestion mq;
  mq.arch = q.arch;
  mq.weight_format = format == "fp4" ? "nf4" : format;
  if (format == "fp4") note("fp4 weights sized like 4-bit blockwise formats (4.5 bits)");
  mq.kv_format = lower(string_at(*w, {"kv_cache_format"}));
  if (mq.kv_format.empty()) mq.kv_format = format == "fp8" || format == "fp4" ? "fp8" : "fp16";
  mq.compute = compute == "fp32" ? "fp32" : "bf16";
  mq.mode = TrainMode::kLoadOnly;
  MemoryAnswer ma = estimate_memory(catalog.memory, mq);
  if (!ma.estimate)
    return skip(ma.faults.empty() ? "no memory estimate"
                                  : ma.faults.front().first + ": " + ma.faults.front().second);
  q.weight_bytes = ma.estimate->weights_bytes;
  q.kv_bytes_per_token = ma.estimate->kv_bytes_per_token;
  const double gpus = number_at(*hw, {"gpu_count"}).value_or(1);
  q.gpus = gpus;
  auto tp = number_at(*hw, {"tensor_parallel"});
  q.tensor_parallel = tp.value_or(1);
  double replicas = 1;
  if (phase == "serving" || phase == "decode" || phase == "prefill") {
    if (!tp) {
      // No layout given: the fewest GPUs per model copy whose memory holds the weights with room
      // for the KV cache (half the device), the rest are replicas.
      double need = 1;
      while (need < gpus && q.weight_bytes / need > 0.5 * std::max(1.0, q.device.memory_bytes))
        need *= 2;
      q.tensor_parallel = need;
      note("tensor parallel " + report::short_number(need) + " (not stated)");
    }
    replicas = std::max(1.0, std::floor(gpus / q.tensor_parallel));
  }
  const double batch =
      number_at(*w, {"batch_size"}).value_or(number_at(*w, {"concurrency"}).value_or(0));
  q.batch = batch;
  q.input_tokens =
      number_at(*w, {"input_length"}).value_or(number_at(*w, {"sequence_length"}).value_or(-1));
  q.output_tokens =
      number_at(*w, {"output_length"}).value_or(number_at(*w, {"new_tokens"}).value_or(-1));
  const bool serving = phase != "training";  // lengths matter to inference phases only
  if (q.output_tokens < 0) {
    q.output_tokens = number_at(settings, {"tokens_per_sample_this_run"}).value_or(256);
    if (serving) note("output length " + report::short_number(q.output_tokens) + " (not stated)");
  }
  if (q.input_tokens < 0) {
    q.input_tokens = 512;
    if (serving) note("input length 512 (not stated)");
  }
  if (const std::string bad = bad_count(
          {{"hardware.gpu_count", gpus}, {"hardware.tensor_parallel", q.tensor_parallel}});
      !bad.empty())
    return skip(bad);
  if (q.batch < 0 || q.batch > 1e6 || q.input_tokens > 1e8 || q.output_tokens > 1e8)
    return skip("workload batch or lengths out of range (batch 0-1e6, lengths up to 1e8 tokens)");
  const std::string metric = out.metric;
  std::string why;
  const double predicted =
      phase == "training"
          ? training_prediction(catalog, c, *w, *hw, q, metric, gpus)
          : inference_prediction(catalog, settings, q, phase, metric, replicas, why);
  if (!why.empty()) return skip(why);
  if (predicted < 0)
    return skip("metric \"" + metric + "\" is not predicted for phase \"" + phase + "\"");
  if (!std::isfinite(predicted)) return skip("the estimate is not finite");
  out.predicted = predicted;
  out.error_pct = (predicted - out.measured) / out.measured * 100;
  return out;
}

// The kind of a case its measured error is pooled by: phase, engine and GPU vendor.
void kind_of(const Catalog& catalog, const Json& c, CaseOutcome& out) {
  const std::string mode = string_at(c, {"workload", "mode"});
  out.phase = mode == "inference" || mode == "load_only" || mode.empty() ? "inference" : "training";
  // The kind's engine: one the memory model knows by name, else the framework as the case names it.
  const std::string framework = lower(string_at(c, {"runtime", "framework"}));
  out.engine = engine_for(catalog.memory, framework);
  if (out.engine == "transformers" && framework.find("transformers") == std::string::npos) {
    out.engine = framework.substr(0, framework.find_first_of(" (/,"));
  }
  if (const GpuSpec* gpu = catalog.gpu(string_at(c, {"hardware", "gpu"}))) out.vendor = gpu->vendor;
}

// The sequence a memory case ran at: stated, else its runtime's setting, else a usual length.
double case_sequence(const Json& w, const Json& settings, const MemoryQuestion& q, CaseOutcome& out) {
  auto note = [&](const std::string& text) { out.assumptions.push_back(text); };
  auto seq = number_at(w, {"sequence_length"});
  if (!seq) seq = number_at(settings, {"max_model_len"});
  if (!seq) seq = number_at(settings, {"num_ctx"});
  if (!seq) seq = number_at(settings, {"probable", "sequence_length"});
  if (!seq) {
    // Unstated lengths: a 512-token prompt for generation, short inputs (64 tokens) for
    // fine-tuning runs that pad to the longest sample.
    const bool generating = q.mode == TrainMode::kInference;
    seq = generating ? 512 : 64;
    if (q.arch.kind != ArchKind::kEncoderDecoder || !generating)
      note("sequence length " + report::short_number(*seq) + " (not stated)");
  }
  return *seq;
}

// A checkpoint written by a release of its format's quantizer that saves tied embeddings twice: the
// release the case names ("AutoAWQ 0.2.6") is before the format's head_copy_before_version.
bool saved_head_copy(const MemoryConstants& k, const MemoryQuestion& q, const std::string& notes) {
  const auto f = k.weight_formats.find(q.weight_format);
  if (f == k.weight_formats.end() || !(f->second.head_copy_before_version > 0) ||
      !q.arch.tied_embeddings)
    return false;
  const std::string text = lower(notes), name = lower(f->second.quantizer) + " ";
  const auto at = text.find(name);
  if (at == std::string::npos || at + name.size() >= text.size() ||
      !std::isdigit(static_cast<unsigned char>(text[at + name.size()])))
    return false;
  const double version = parse_engine_version(text.substr(at + name.size(), 12));
  return version > 0 && version < f->second.head_copy_before_version;
}

// A memory case's hardware and runtime: GPUs and their split, CUDA's module loading, the
// engine's settings and the device's memory.
void case_runtime(const Catalog& catalog, const Json& c, const Json& hw, const Json& settings, const std::string& notes,
                  MemoryQuestion& q, CaseOutcome& out) {
  const MemoryConstants& k = catalog.memory;
  auto note = [&](const std::string& text) { out.assumptions.push_back(text); };
  q.gpus = number_at(hw, {"gpu_count"}).value_or(1);
  q.tensor_parallel = number_at(hw, {"tensor_parallel"}).value_or(1);
  q.pipeline_parallel = number_at(hw, {"pipeline_parallel"}).value_or(1);
  if (q.engine == "accelerate" && q.gpus > 1 && q.pipeline_parallel == 1)
    q.pipeline_parallel = q.gpus;  // device_map="auto" splits layers
  q.sharding = lower(string_at(hw, {"data_parallel_sharding"}));
  if (q.sharding.empty()) q.sharding = "none";
  q.cpu_offload = bool_at(hw, {"cpu_offload"}, false);
  // CUDA version: stated in the case, else pre-Ampere GPUs are taken as older software stacks.
  // Kernels load lazily from CUDA 11.7 in PyTorch (it sets CUDA_MODULE_LOADING=LAZY itself since
  // 1.13) and from CUDA 12.2 in every other runtime (the driver's default).
  const std::string gpu_name = lower(string_at(hw, {"gpu"}));
  const auto version = cuda_version(notes);
  const auto engine_profile = k.engines.find(q.engine);
  const bool pytorch = engine_profile == k.engines.end() || engine_profile->second.pytorch;
  q.cuda_eager_loading = version ? *version < (pytorch ? 11.7 : 12.2)
                                 : (gpu_name.find("v100") != std::string::npos ||
                                    gpu_name.find("t4") != std::string::npos ||
                                    gpu_name.find("titan") != std::string::npos);
  if (!version && q.cuda_eager_loading)
    note(
        "CUDA version not stated: a pre-Ampere GPU is taken as CUDA < 11.7 (eager module loading)");
  q.optimizer_in_backward = bool_at(settings, {"optimizer_in_bwd"}, false);
  // The step's defaults by release: PyTorch 2.0 made zero_grad(set_to_none=True) and torch.optim's
  // foreach step on CUDA the defaults, and its wheels need CUDA 11.7 or later, so a stated
  // torch 1.x or CUDA before 11.7 is an earlier release (gradients zeroed in place, one parameter
  // per step). A torch.optim Adam(W) named without fused=True steps with foreach; DeepSpeed steps
  // with its own fused Adam out of gradient buffers it keeps.
  const std::string framework = lower(string_at(c, {"runtime", "framework"}));
  const std::string runtime = string_at(c, {"runtime", "version"});
  const std::string optimizer = lower(string_at(settings, {"optimizer"})) + " " + framework;
  if (optimizer.find("torch.optim.adam") != std::string::npos &&
      optimizer.find("fused=true") == std::string::npos)
    q.optimizer_step = "foreach";
  const auto torch_at = runtime.find("torch ");
  if ((torch_at != std::string::npos && runtime.compare(torch_at + 6, 2, "1.") == 0) ||
      (version && *version < 11.7)) {
    q.gradients_freed_after_step = false;
    q.optimizer_step = "for-loop";
  }
  if (framework.find("deepspeed") != std::string::npos) {
    q.optimizer_step = "fused";
    q.gradients_freed_after_step = false;
  }
  const std::string loss = string_at(settings, {"loss"});
  const auto engine = k.engines.find(q.engine);
  q.chunked_loss = loss.empty() ? engine != k.engines.end() && engine->second.chunked_loss
                                : loss.find("Chunked") != std::string::npos;
  q.compiled_loss = at(settings, {"compile"}) && *at(settings, {"compile"}) == true;
  // AnswerDotAI/fsdp_qlora train.py keeps `output` until after optimizer.step() ("Delete the output
  // so more memory frees up before the next forward pass").
  q.output_kept = framework.find("fsdp_qlora") != std::string::npos;
  q.master_weights =
      lower(string_at(c, {"runtime", "framework"})).find("deepspeed") != std::string::npos &&
      q.weight_format != "fp32";
  if (auto total = number_at(settings, {"total_gpu_memory_gib"})) {
    q.gpu_memory_bytes = *total * 1024 * 1024 * 1024;
  } else {
    q.gpu_memory_bytes = device_bytes(catalog, string_at(hw, {"gpu"}));
  }
  if (auto u = number_at(settings, {"gpu_memory_utilization"})) q.gpu_memory_utilization = *u;
  if (auto u = number_at(settings, {"mem_fraction_static"})) q.gpu_memory_utilization = *u;
  if (auto free = number_at(settings, {"free_memory_before_load_gib"}))
    q.free_before_load_bytes = *free * 1024 * 1024 * 1024;
  if (auto len = number_at(settings, {"max_model_len"})) q.max_model_len = *len;
  if (auto n = number_at(settings, {"max_num_batched_tokens"})) q.max_batched_tokens = *n;
  if (auto n = number_at(settings, {"max_num_seqs"})) q.max_num_seqs = *n;
  // A version text naming several packages ("torch 2.11.0+cu130, transformers 5.17.0") gives the
  // engine's own release.
  q.engine_version = string_at(c, {"runtime", "version"});
  const std::string versions = lower(q.engine_version), engine_name = lower(q.engine) + " ";
  if (const auto at = versions.find(engine_name);
      at != std::string::npos && at + engine_name.size() < versions.size() &&
      std::isdigit(static_cast<unsigned char>(versions[at + engine_name.size()])))
    q.engine_version = q.engine_version.substr(at + engine_name.size());
  if (parse_engine_version(q.engine_version) <= 0) q.engine_version.clear();
  // vLLM's defaults differ between `vllm serve` and the LLM class that its benchmark scripts use.
  const std::string command = lower(string_at(settings, {"command"}) + " " +
                                    string_at(c, {"runtime", "framework"}));
  q.offline_engine = command.find("benchmark") != std::string::npos;
  q.gpu_name = string_at(hw, {"gpu"});
  q.gpus_linked = catalog.gpu_has_nvlink(q.gpu_name);
}

// The bytes the case's metric reads off the estimate (`why` set: the case is skipped).
double measured_part(const MemoryEstimate& e, const std::string& metric, std::string& why) {
  double bytes = 0;
  if (metric == "nvidia_smi_used") bytes = e.total_bytes;
  if (metric == "torch_max_allocated" || metric == "per_gpu_peak") bytes = e.tensor_bytes;
  if (metric == "torch_max_reserved") bytes = e.reserved_bytes;
  // What one GPU loaded: sources report a tensor-parallel run's weights per rank.
  if (metric == "weights_only") bytes = e.weights_per_gpu_bytes;
  if (metric == "kv_cache_capacity") {
    if (!e.kv_pool_bytes) {
      why = !e.notes.empty() ? e.notes.back()
                             : "kv_cache_capacity needs a serving engine with a KV pool and the device's memory";
      return 0;
    }
    bytes = *e.kv_pool_bytes;
  }
  return bytes;
}

}  // namespace

CaseOutcome evaluate_case(const Catalog& catalog, const Json& c) {
  CaseOutcome out;
  out.id = string_at(c, {"id"});
  out.source = source_key(string_at(c, {"source"}));
  out.quantity = string_at(c, {"quantity"});
  out.confidence = string_at(c, {"confidence"});
  out.metric = string_at(c, {"measured", "metric"});
  out.unit = string_at(c, {"measured", "unit"});
  out.measured = number_at(c, {"measured", "value"}).value_or(0);
  auto skip = [&](const std::string& reason) {
    out.skipped = true;
    out.reason = reason;
    return out;
  };
  if (out.id.empty()) out.id = "(no id)";
  kind_of(catalog, c, out);
  if (out.quantity == "throughput") return evaluate_throughput(catalog, c, out);
  if (out.quantity != "memory") return skip("unknown quantity \"" + out.quantity + "\"");
  const auto unit = unit_bytes(out.unit);
  if (!unit) return skip("unknown unit \"" + out.unit + "\"");
  if (!(out.measured > 0)) return skip("measured.value is not a positive number");
  static const char* kMetrics[] = {"nvidia_smi_used",   "torch_max_allocated", "torch_max_reserved",
                                   "per_gpu_peak",      "weights_only",        "kv_cache_capacity",
                                   "capacity_boundary"};
  if (std::find(std::begin(kMetrics), std::end(kMetrics), out.metric) == std::end(kMetrics)) {
    return skip("unknown metric \"" + out.metric + "\"");
  }
  const MemoryConstants& k = catalog.memory;
  if (!k.present) return skip("the catalog has no memory_model block in model_config.json");
  const Json* w = at(c, {"workload"});
  const Json* hw = at(c, {"hardware"});
  const Json* rt = at(c, {"runtime"});
  if (!w || !hw) return skip("the case has no workload or hardware object");
  const Json empty = Json::object();
  const Json& settings = rt && at(*rt, {"settings"}) ? *at(*rt, {"settings"}) : empty;
  const std::string notes = string_at(c, {"notes"}) + " " + string_at(c, {"runtime", "version"});

  MemoryQuestion q;
  const Json* arch_json = at(c, {"model", "architecture"});
  const double params = number_at(c, {"model", "params"}).value_or(-1);
  if (!arch_json) return skip("the case has no model.architecture");
  if (params == 0 || string_at(*arch_json, {"model_type"}) == "none") {
    q.arch = Architecture{};  // nothing loaded: the runtime alone
  } else {
    Errors errors;
    auto arch = read_architecture(*arch_json, "case " + out.id, "/model/architecture", errors);
    if (!arch) return skip("architecture: " + first_error(errors));
    q.arch = *arch;
  }
  const std::string mode = string_at(*w, {"mode"});
  auto m = parse_train_mode(mode);
  if (!m) return skip("unknown workload.mode \"" + mode + "\"");
  q.mode = *m;
  q.engine = engine_for(k, string_at(c, {"runtime", "framework"}));
  auto note = [&](const std::string& text) { out.assumptions.push_back(text); };
  const std::string source = string_at(c, {"source"});
  if (q.engine == "openai-whisper" && source.find("faster-whisper") != std::string::npos &&
      source.find("v1.1.0") != std::string::npos && k.engines.count("openai-whisper-fp16")) {
    q.engine = "openai-whisper-fp16";
    note("faster-whisper's v1.1.0 benchmark halves openai-whisper's parameters before loading");
  }

  q.weight_format = lower(string_at(*w, {"weight_format"}));
  if (q.weight_format.empty()) q.weight_format = "fp32";
  if (q.weight_format == "nf4" &&
      (q.engine == "torchtune" || notes.find("double-quantized") != std::string::npos)) {
    q.weight_format = "nf4_double_quant";
    note("NF4 with double quantization (torchao NF4 / QLoRA paper)");
  }
  if (saved_head_copy(k, q, notes)) {
    q.checkpoint_head_copy = true;
    note("the checkpoint stores its tied embeddings twice (the quantizer release the case names)");
  }
  std::string compute = lower(string_at(*w, {"compute_precision"}));
  if (compute.empty()) {
    compute = q.weight_format == "fp32" ? "fp32" : q.weight_format == "fp16" ? "fp16" : "bf16";
    note("compute precision " + compute + " (not stated)");
  }
  q.compute = compute;
  q.optimizer = lower(string_at(*w, {"optimizer"}));
  if (q.optimizer.empty()) q.optimizer = lower(string_at(settings, {"probable", "optimizer"}));
  if (q.optimizer.empty()) {
    q.optimizer = "adamw";
    if (q.mode != TrainMode::kInference && q.mode != TrainMode::kLoadOnly)
      note("optimizer adamw (not stated)");
  }
  q.batch = number_at(*w, {"batch_size"})
                .value_or(number_at(settings, {"probable", "batch_size"})
                              .value_or(number_at(settings, {"batch_size"}).value_or(1)));
  q.sequence = case_sequence(*w, settings, q, out);
  q.new_tokens = number_at(*w, {"new_tokens"}).value_or(0);
  q.beams = number_at(settings, {"beam_size"}).value_or(1);
  q.gradient_checkpointing = bool_at(*w, {"gradient_checkpointing"}, false);
  // Accumulated micro-batches run their forward beside the gradients of the ones before.
  if (number_at(*w, {"gradient_accumulation_steps"}).value_or(1) > 1)
    q.gradients_freed_after_step = false;
  // "selective_op", "selective_N" (every N-th layer), "full" or "none".
  if (std::string ac = lower(string_at(*w, {"activation_checkpointing"})); !ac.empty()) {
    if (ac == "full") {
      q.gradient_checkpointing = true;
    } else if (ac.rfind("selective_", 0) == 0) {
      q.selective_checkpointing = ac.substr(10);
    } else if (ac != "none") {
      return skip("workload.activation_checkpointing is \"" + ac +
                  "\": expected none, full, selective_op or selective_N (every N-th layer)");
    }
  }
  // attention_implementation as the run set it; else the older flash_attention flag, whose
  // absence meant eager attention when these cases were written.
  q.attention = lower(string_at(*w, {"attention_implementation"}));
  if (q.attention.empty()) q.attention = bool_at(*w, {"flash_attention"}, false) ? "flash_attention_2" : "eager";
  q.kv_format = lower(string_at(*w, {"kv_cache_format"}));
  if (const Json* lora = at(*w, {"lora"})) {
    q.lora_rank = number_at(*lora, {"rank"}).value_or(0);
    q.lora_dropout = number_at(*lora, {"dropout"}).value_or(0);
    if (const Json* t = at(*lora, {"target_modules"}); t && t->is_array()) {
      for (const auto& x : *t) {
        if (x.is_string()) q.lora_targets.push_back(x.get<std::string>());
      }
    }
  }
  case_runtime(catalog, c, *hw, settings, notes, q, out);

  if (const std::string bad = bad_count({{"workload.batch_size", q.batch},
                                         {"runtime.settings.beam_size", q.beams},
                                         {"hardware.gpu_count", q.gpus},
                                         {"hardware.tensor_parallel", q.tensor_parallel},
                                         {"hardware.pipeline_parallel", q.pipeline_parallel}});
      !bad.empty())
    return skip(bad);
  if (!(q.sequence >= 1 && q.sequence <= 1e8) || q.new_tokens < 0 || q.new_tokens > 1e8)
    return skip("workload.sequence_length or new_tokens out of range (1 to 1e8 tokens)");
  if (out.metric == "capacity_boundary")
    return skip("capacity boundaries are low-confidence and not predicted yet");
  MemoryAnswer answer = estimate_memory(k, q);
  if (!answer.estimate) {
    return skip(answer.faults.empty()
                    ? "no estimate"
                    : answer.faults.front().first + ": " + answer.faults.front().second);
  }
  const MemoryEstimate& e = *answer.estimate;
  std::string why;
  const double bytes = measured_part(e, out.metric, why);
  if (!why.empty()) return skip(why);
  if (!std::isfinite(bytes)) return skip("the estimate is not finite");
  out.predicted = bytes / *unit;
  out.error_pct = (out.predicted - out.measured) / out.measured * 100;
  out.estimate = e;
  return out;
}

AccuracySummary summarize(const std::vector<CaseOutcome>& outcomes, const std::string& quantity) {
  AccuracySummary s;
  std::vector<double> errs;
  for (const auto& o : outcomes) {
    if (o.quantity != quantity) continue;
    if (o.confidence != "high" && o.confidence != "medium") continue;
    if (o.skipped) {
      s.skipped += 1;
      continue;
    }
    errs.push_back(std::fabs(o.error_pct));
  }
  s.n = static_cast<double>(errs.size());
  if (errs.empty()) return s;
  detail::small_stable_sort(errs.begin(), errs.end(), [](double a, double b) { return a < b; });
  auto pct = [&](double p) {
    // Linear interpolation between closest ranks (numpy's default).
    const double pos = p * (errs.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(errs.size() - 1, lo + 1);
    return errs[lo] + (errs[hi] - errs[lo]) * (pos - lo);
  };
  s.median_abs_err_pct = pct(0.5);
  s.p90_abs_err_pct = pct(0.9);
  s.max_abs_err_pct = errs.back();
  return s;
}

std::string source_key(const std::string& source) {
  std::size_t start = source.find_first_not_of(' ');
  if (start == std::string::npos) return "";
  auto word_at = [&](std::size_t from) {
    const std::size_t end = source.find(' ', from);
    return source.substr(from, end == std::string::npos ? std::string::npos : end - from);
  };
  std::string key = word_at(start);
  const bool bare_repo = key.find("://") == std::string::npos && key.find(':') == std::string::npos &&
                         std::count(key.begin(), key.end(), '/') == 1;
  if (bare_repo && start + key.size() < source.size()) {
    const std::size_t next = source.find_first_not_of(' ', start + key.size());
    if (next != std::string::npos) key += " " + word_at(next);
  }
  if (const std::size_t at = key.find('@'); at != std::string::npos && key.find("://") == std::string::npos)
    key.erase(at);
  return key;
}

ErrorBand source_weighted_band(const std::vector<CaseOutcome>& members) {
  std::map<std::string, double> per_source;
  std::vector<const CaseOutcome*> counted;
  for (const auto& o : members) {
    if (o.skipped || (o.confidence != "high" && o.confidence != "medium")) continue;
    counted.push_back(&o);
    per_source[o.source] += 1;
  }
  ErrorBand band;
  band.n = static_cast<double>(counted.size());
  band.sources = static_cast<double>(per_source.size());
  if (counted.empty()) return band;
  std::vector<std::pair<double, double>> points;  // |error|, weight
  for (const CaseOutcome* o : counted)
    points.emplace_back(std::fabs(o->error_pct), 1 / (per_source[o->source] * band.sources));
  detail::small_stable_sort(points.begin(), points.end(), std::less<>());
  // Each case sits at the midpoint of its weight on the cumulative scale.
  std::vector<double> at;
  double cumulative = 0;
  for (const auto& [err, w] : points) {
    at.push_back(cumulative + w / 2);
    cumulative += w;
  }
  auto quantile = [&](double p) {
    if (p <= at.front()) return points.front().first;
    for (std::size_t i = 1; i < at.size(); ++i)
      if (p <= at[i])
        return points[i - 1].first + (points[i].first - points[i - 1].first) * (p - at[i - 1]) / (at[i] - at[i - 1]);
    return points.back().first;
  };
  band.median_abs_err_pct = quantile(0.5);
  band.p90_abs_err_pct = quantile(0.9);
  return band;
}

Json summarize_by_kind(const std::vector<CaseOutcome>& outcomes) {
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, std::vector<CaseOutcome>> kinds, engines, phases;
  for (const auto& o : outcomes) {
    kinds[{o.quantity, o.phase, o.engine, o.vendor}].push_back(o);
    engines[{o.quantity, o.phase, o.engine, ""}].push_back(o);
    phases[{o.quantity, o.phase, "", ""}].push_back(o);
  }
  Json list = Json::array();
  for (const auto& [key, members] : kinds) {
    const auto& [quantity, phase, engine, vendor] = key;
    ErrorBand band = source_weighted_band(members);
    if (band.n == 0) continue;
    std::string pool = "kind";
    if (band.sources < kMinBandSources) {
      band = source_weighted_band(engines[{quantity, phase, engine, ""}]);
      pool = "engine";
    }
    if (band.sources < kMinBandSources) {
      band = source_weighted_band(phases[{quantity, phase, "", ""}]);
      pool = "phase";
    }
    list.push_back({{"quantity", quantity},
                    {"phase", phase},
                    {"engine", engine},
                    {"vendor", vendor},
                    {"n", band.n},
                    {"sources", band.sources},
                    {"pool", pool},
                    {"median_abs_err_pct", report::round_to(band.median_abs_err_pct, 1)},
                    {"p90_abs_err_pct", report::round_to(band.p90_abs_err_pct, 1)}});
  }
  return list;
}

}  // namespace gpufleet

namespace gpufleet::detail {

using report::round_to;

// The "accuracy" question: the measurement cases predicted and compared. A harness for the
// native doors (CLI, tests): the WebAssembly module is built without it.
Json answer_accuracy(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  const Json* cases = r.member(req, "cases", "", true);
  if (!cases) return nullptr;
  if (!cases->is_array()) {
    r.fail("wrong_type", "/cases",
           "expected an array of measurement cases (shared/data/CASES.md), got " +
               Reader::describe(*cases));
    return nullptr;
  }
  // One array of cases, or one array per case file.
  std::vector<std::pair<const Json*, std::string>> flat;
  for (std::size_t i = 0; i < cases->size(); ++i) {
    const Json& item = (*cases)[i];
    if (item.is_array()) {
      for (std::size_t j = 0; j < item.size(); ++j)
        flat.emplace_back(&item[j], "/cases/" + decimal::whole(i) + "/" + decimal::whole(j));
    } else {
      flat.emplace_back(&item, "/cases/" + decimal::whole(i));
    }
  }
  std::vector<CaseOutcome> outcomes;
  Json rows = Json::array();
  for (const auto& [item, path] : flat) {
    const Json& c = *item;
    if (!c.is_object()) {
      r.fail("wrong_type", path, "expected a measurement case object, got " + Reader::describe(c));
      return nullptr;
    }
    CaseOutcome o = evaluate_case(catalog, c);
    Json row = {{"id", o.id},         {"quantity", o.quantity}, {"confidence", o.confidence},
                {"metric", o.metric}, {"unit", o.unit},         {"measured", o.measured}};
    if (o.skipped) {
      row["skipped"] = o.reason;
    } else {
      row["predicted"] = round_to(o.predicted, 4);
      row["error_pct"] = round_to(o.error_pct, 2);
      if (o.estimate) row["per_gpu"] = breakdown(*o.estimate);
    }
    row["assumptions"] = o.assumptions;
    rows.push_back(std::move(row));
    outcomes.push_back(std::move(o));
  }
  Json summary;
  for (const char* quantity : {"memory", "throughput"}) {
    const AccuracySummary s2 = summarize(outcomes, quantity);
    summary[quantity] = {{"n", s2.n},
                         {"median_abs_err_pct", round_to(s2.median_abs_err_pct, 2)},
                         {"p90_abs_err_pct", round_to(s2.p90_abs_err_pct, 2)},
                         {"max_abs_err_pct", round_to(s2.max_abs_err_pct, 2)},
                         {"skipped", s2.skipped}};
  }
  return {{"cases", rows},
          {"summary", summary},
          {"by_kind", summarize_by_kind(outcomes)},
          {"basis",
           "error = (predicted - measured) / measured; the summary counts high- and "
           "medium-confidence cases"}};
}

}  // namespace gpufleet::detail
