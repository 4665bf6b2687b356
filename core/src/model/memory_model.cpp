#include "model/memory_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/memory_sizing.hpp"

namespace gpufleet {

namespace memory_parts {

// Whether attention runs without a score matrix, and why. transformers' "sdpa" calls PyTorch's
// scaled_dot_product_attention, whose flash kernel takes 16-bit inputs only; with fp32 inputs the
// memory-efficient kernel takes over, except for grouped-query attention: transformers passes
// enable_gqa=True (torch >= 2.5, no mask) and that kernel does not admit it, so the math kernel
// materialises the fp32 scores (aten sdp_utils.cpp; transformers integrations/sdpa_attention.py).
// Under autocast the inputs are 16-bit.
bool fused_attention(const MemoryQuestion& q, const EngineProfile& eng, const std::string& compute,
                     std::string& why) {
  if (!eng.materialized_attention) {
    why = eng.name + "'s fused attention kernels";
    return true;
  }
  const std::string impl = lower(q.attention);
  if (impl == "flash_attention_2") {
    why = "flash_attention_2";
    return true;
  }
  if (impl == "eager") {
    why = "eager attention";
    return false;
  }
  const bool gqa = !q.arch.mla() && q.arch.kv_heads < q.arch.heads;
  if (compute == "fp32" && gqa) {
    why = "sdpa with fp32 inputs and grouped-query attention runs PyTorch's math kernel";
    return false;
  }
  why = compute == "fp32" ? "sdpa with fp32 inputs runs PyTorch's memory-efficient kernel"
                          : "sdpa with 16-bit inputs runs PyTorch's flash kernel";
  return true;
}

}  // namespace memory_parts

namespace {

using namespace memory_parts;

template <class Map>
std::string keys_of(const Map& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + k;
  return out;
}

}  // namespace

double parse_engine_version(const std::string& text) {
  for (std::size_t i = 0; i + 2 < text.size(); ++i) {
    auto digit = [&](std::size_t j) {
      return j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]));
    };
    if (!digit(i) || (i > 0 && (digit(i - 1) || text[i - 1] == '.'))) continue;
    double parts[3] = {0, 0, 0};
    std::size_t j = i;
    int n = 0;
    for (; n < 3; ++n) {
      if (!digit(j)) break;
      double x = 0;
      while (digit(j) && x < 1e5) x = x * 10 + (text[j++] - '0');
      parts[n] = x;
      if (j >= text.size() || text[j] != '.') {
        ++n;
        break;
      }
      ++j;
    }
    if (n >= 2) return parts[0] * 1e6 + parts[1] * 1e3 + parts[2];
    i = j;
  }
  return 0;
}

const ProfileBand* profile_band(const EngineProfile& engine, const std::string& version) {
  const std::string v = lower(version);
  const double at = v.empty() ? engine.default_version : parse_engine_version(v);
  std::string generation;
  for (const char* g : {"v0", "v1"}) {
    const std::size_t pos = v.find(g);
    if (pos != std::string::npos &&
        (pos == 0 || !std::isalnum(static_cast<unsigned char>(v[pos - 1]))))
      generation = g;
  }
  const ProfileBand* best = nullptr;
  for (int pass = 0; pass < 2 && !best; ++pass) {
    for (const auto& band : engine.bands) {
      if (band.from_version > at ||
          (pass == 0 && !generation.empty() && band.generation != generation))
        continue;
      if (!best || band.from_version >= best->from_version) best = &band;
    }
  }
  return best ? best : engine.bands.empty() ? nullptr : &engine.bands.front();
}

std::optional<TrainMode> parse_train_mode(const std::string& text) {
  const std::string t = lower(text);
  if (t == "load_only") return TrainMode::kLoadOnly;
  if (t == "inference") return TrainMode::kInference;
  if (t == "full_finetune" || t == "fine_tuning" || t == "full_fine_tuning")
    return TrainMode::kFullFinetune;
  if (t == "lora") return TrainMode::kLora;
  if (t == "qlora") return TrainMode::kQlora;
  if (t == "pretraining" || t == "training") return TrainMode::kPretraining;
  return std::nullopt;
}

std::string to_string(TrainMode mode) {
  switch (mode) {
    case TrainMode::kLoadOnly:
      return "load_only";
    case TrainMode::kInference:
      return "inference";
    case TrainMode::kFullFinetune:
      return "full_finetune";
    case TrainMode::kLora:
      return "lora";
    case TrainMode::kQlora:
      return "qlora";
    case TrainMode::kPretraining:
      return "pretraining";
  }
  return "inference";
}

MemoryAnswer estimate_memory(const MemoryConstants& k, const MemoryQuestion& q) {
  MemoryAnswer answer;
  auto fault = [&](const std::string& field, const std::string& message) {
    answer.faults.emplace_back(field, message);
  };
  if (!k.present) {
    fault("model", "the catalog has no memory_model block in model_config.json");
    return answer;
  }
  const auto fmt_it = k.weight_formats.find(lower(q.weight_format));
  if (fmt_it == k.weight_formats.end())
    fault("weight_format",
          "expected one of " + keys_of(k.weight_formats) + ", got \"" + q.weight_format + "\"");
  const auto engine_it = k.engines.find(lower(q.engine));
  if (engine_it == k.engines.end())
    fault("engine", "expected one of " + keys_of(k.engines) + ", got \"" + q.engine + "\"");
  const bool training = is_training(q.mode);
  const OptimizerSpec* opt = nullptr;
  if (training) {
    auto it = k.optimizers.find(lower(q.optimizer));
    if (it == k.optimizers.end()) {
      fault("optimizer",
            "expected one of " + keys_of(k.optimizers) + ", got \"" + q.optimizer + "\"");
    } else {
      opt = &it->second;
    }
  }
  static const char* kComputes[] = {"fp32", "amp_fp16", "amp_bf16", "bf16", "fp16", "fp8"};
  const std::string compute = lower(q.compute);
  if (std::find(std::begin(kComputes), std::end(kComputes), compute) == std::end(kComputes)) {
    fault("compute_precision",
          "expected one of fp32, amp_fp16, amp_bf16, bf16, fp16, fp8, got \"" + q.compute + "\"");
  }
  double kv_el = compute == "fp32" ? 4 : 2;
  if (!q.kv_format.empty()) {
    auto it = k.kv_bytes.find(lower(q.kv_format));
    if (it == k.kv_bytes.end()) {
      fault("kv_cache_format",
            "expected one of " + keys_of(k.kv_bytes) + ", got \"" + q.kv_format + "\"");
    } else {
      kv_el = it->second;
    }
  }
  static const char* kShardings[] = {"none", "zero1", "zero2", "zero3", "fsdp", "fsdp_full_shard"};
  const std::string sharding = lower(q.sharding);
  if (std::find(std::begin(kShardings), std::end(kShardings), sharding) == std::end(kShardings)) {
    fault("sharding",
          "expected one of none, zero1, zero2, zero3, fsdp, got \"" + q.sharding + "\"");
  }
  if (const std::string impl = lower(q.attention);
      impl != "sdpa" && impl != "eager" && impl != "flash_attention_2")
    fault("attention", "expected sdpa, eager or flash_attention_2, got \"" + q.attention + "\"");
  const std::string& sac = q.selective_checkpointing;
  if (!sac.empty() && sac != "op" &&
      (sac.find_first_not_of("0123456789") != std::string::npos || std::atof(sac.c_str()) < 1))
    fault(
        "activation_checkpointing",
        "expected \"op\" or a whole number of layers N >= 1 (checkpoint every N-th layer), got \"" +
            sac + "\"");
  if (!answer.faults.empty()) return answer;
  Sizing s(k, q, fmt_it->second, engine_it->second, opt, compute, kv_el, sharding);
  s.weights();
  if (!s.training_states(answer.faults)) return answer;
  s.kv_cache();
  if (s.generates || q.mode == TrainMode::kLoadOnly) {
    s.serving_activations();
  } else {
    s.training_activations();
    s.training_peak();
  }
  s.loading_peak();
  s.e.tensor_bytes = s.listed_bytes;
  s.paged_optimizer_states();
  s.runtime_and_pool();
  s.e.total_bytes = s.e.tensor_bytes + s.runtime;
  s.e.reserved_bytes = s.e.tensor_bytes + s.eng.allocator_reserve * s.transient;
  answer.estimate = std::move(s.e);
  return answer;
}

}  // namespace gpufleet
