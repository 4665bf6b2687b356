// Reads the concrete models ("models") and the memory model's constants ("memory_model") of
// model_config.json. Both blocks are optional, so a catalog written as seed 004 shows still loads.
#include "catalog/model_catalog.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "support/decimal.hpp"
#include "catalog/architecture_reader.hpp"
#include "catalog/fields.hpp"
#include "support/small_sort.hpp"

namespace gpufleet::detail {
namespace {

void read_models(const Reader& r, const Json& doc, Catalog& catalog) {
  const Json* models = r.object(doc, "models", "", false);
  if (!models || !r.at_most(*models, "/models", 1024, "models")) return;  // docs/api.md, "Limits"
  for (const auto& [key, value] : models->items()) {
    const std::string path = Reader::child("/models", key);
    if (!r.expect_object(value, path)) continue;
    fields::check_fields(r, value, path, "model");
    NamedModel m;
    m.key = lower(key);
    m.json_path = path;
    m.name = r.string(value, "name", path, true).value_or(key);
    m.hf_id = r.string(value, "hf_id", path, false).value_or("");
    m.aliases = r.strings(value, "aliases", path, false);
    m.source = r.string(value, "source", path, true).value_or("");
    m.published_parameters =
        r.number(value, "published_parameters", path, false, {0, 1e14}).value_or(0);
    m.published_active_parameters =
        r.number(value, "published_active_parameters", path, false, {0, 1e14}).value_or(0);
    const Json* config = r.member(value, "config", path, true);
    if (!config) continue;
    Errors errors;
    auto arch = read_architecture(*config, kModelConfigFile, Reader::child(path, "config"), errors);
    for (auto& e : errors) r.fail(e.code, e.path, e.message);
    if (!arch) continue;
    m.arch = *arch;
    m.params = count_parameters(m.arch);
    catalog.models.push_back(std::move(m));
  }
}

template <class T, class Fill>
void read_table(const Reader& r, const Json& block, const std::string& parent, const char* name,
                const char* kind, std::map<std::string, T>& out, Fill fill) {
  const Json* table = r.object(block, name, parent, true);
  if (!table) return;
  const fields::Kind& fields_of = fields::kind(kind);
  for (const auto& [key, value] : table->items()) {
    const std::string path = Reader::child(Reader::child(parent, name), key);
    if (!r.expect_object(value, path)) continue;
    fields::check_fields(r, value, path, fields_of);
    T item;
    item.key = lower(key);
    fill(item, value, path);
    out[item.key] = item;
  }
}

// A pool engine's profile run: the sampler's bytes per logit and the defaults of each release band.
// A static pool's default shares by tensor-parallel size, from the smallest size up.
void read_pool_shares(const Reader& r, const Json& v, const std::string& p, EngineProfile& e) {
  e.pool_sizing = r.string(v, "pool_sizing", p, false).value_or("profile");
  if (e.pool_sizing != "profile" && e.pool_sizing != "static") {
    r.fail("unknown_name", Reader::child(p, "pool_sizing"),
           "expected profile or static, got \"" + e.pool_sizing + "\"");
  }
  const Json* steps = r.member(v, "share_by_tensor_parallel", p, false);
  if (!steps) return;
  const std::string path = Reader::child(p, "share_by_tensor_parallel");
  if (!steps->is_array() || !r.at_most(*steps, path, 16, "steps")) return;
  for (std::size_t i = 0; i < steps->size(); ++i) {
    const Json& s = (*steps)[i];
    const std::string sp = path + "/" + decimal::whole(i);
    if (!r.expect_object(s, sp)) continue;
    fields::check_fields(r, s, sp, "pool_share_step");
    const double from = r.number(s, "from_tensor_parallel", sp, true, {1, 1024}).value_or(1);
    const double share = r.number(s, "share", sp, true, {0.05, 1}).value_or(0.9);
    e.share_by_tp.emplace_back(from, share);
  }
  detail::small_stable_sort(e.share_by_tp.begin(), e.share_by_tp.end(), std::less<>());
}

void read_profile_bands(const Reader& r, const Json& v, const std::string& p, EngineProfile& e) {
  const Json* bands =
      r.member(v, "profile_bands", p, e.kv_policy == "pool" && e.pool_sizing == "profile");
  e.sampler_bytes_per_logit =
      r.number(v, "sampler_bytes_per_logit", p, bands != nullptr, {0, 256}).value_or(0);
  r.string(v, "sampler_source", p, bands != nullptr);
  const std::string version = r.string(v, "default_version", p, bands != nullptr).value_or("");
  if (!bands) return;
  e.default_version = parse_engine_version(version);
  const std::string path = Reader::child(p, "profile_bands");
  if (!bands->is_array() || bands->empty()) {
    r.fail("wrong_type", path, "expected a non-empty array of release bands");
    return;
  }
  if (!r.at_most(*bands, path, 32, "release bands")) return;
  for (std::size_t i = 0; i < bands->size(); ++i) {
    const Json& b = (*bands)[i];
    const std::string bp = path + "/" + decimal::whole(i);
    if (!r.expect_object(b, bp)) continue;
    fields::check_fields(r, b, bp, "profile_band");
    ProfileBand band;
    band.label = r.string(b, "label", bp, true).value_or("");
    band.generation = lower(r.string(b, "generation", bp, true).value_or(""));
    band.from_version = parse_engine_version(r.string(b, "from_version", bp, true).value_or(""));
    const Range tokens{0, 1e7};
    band.max_num_seqs = r.number(b, "max_num_seqs", bp, true, {1, 1e6}).value_or(256);
    band.chunked_prefill_above_tokens =
        r.number(b, "chunked_prefill_above_tokens", bp, false, tokens).value_or(0);
    band.unchunked_min_tokens = r.number(b, "unchunked_min_tokens", bp, false, tokens).value_or(0);
    band.serve_batched_tokens =
        r.number(b, "serve_batched_tokens", bp, true, {1, 1e7}).value_or(2048);
    band.offline_batched_tokens =
        r.number(b, "offline_batched_tokens", bp, true, {1, 1e7}).value_or(8192);
    band.large_gpu_serve_batched_tokens =
        r.number(b, "large_gpu_serve_batched_tokens", bp, false, tokens).value_or(0);
    band.large_gpu_offline_batched_tokens =
        r.number(b, "large_gpu_offline_batched_tokens", bp, false, tokens).value_or(0);
    band.large_gpu_max_num_seqs =
        r.number(b, "large_gpu_max_num_seqs", bp, false, {0, 1e6}).value_or(0);
    band.charges_cuda_context = r.boolean(b, "charges_cuda_context", bp, false).value_or(false);
    band.sampler_bytes_per_logit =
        r.number(b, "sampler_bytes_per_logit", bp, false, {0, 256}).value_or(0);
    band.window_kv = r.boolean(b, "sliding_window_kv", bp, false).value_or(false);
    band.window_kv_basis = r.string(b, "sliding_window_kv_source", bp, band.window_kv).value_or("");
    band.basis = r.string(b, "source", bp, true).value_or("");
    e.bands.push_back(std::move(band));
  }
}

void read_generic_decoder(const Reader& r, const Json& doc, Catalog& catalog) {
  const Json* block = r.object(doc, "generic_decoder", "", false);
  if (!block) return;
  fields::check_fields(r, *block, "/generic_decoder", "generic_decoder");
  catalog.generic_shapes = r.strings(*block, "shapes_from", "/generic_decoder", true);
  catalog.generic_shapes_source = r.string(*block, "source", "/generic_decoder", true).value_or("");
  for (std::size_t i = 0; i < catalog.generic_shapes.size(); ++i) {
    if (!catalog.model(catalog.generic_shapes[i]))
      r.fail("unknown_name", "/generic_decoder/shapes_from/" + decimal::whole(i),
             "expected a model of \"models\", got \"" + catalog.generic_shapes[i] + "\"");
  }
}

void read_memory_model(const Reader& r, const Json& doc, Catalog& catalog) {
  const Json* block = r.object(doc, "memory_model", "", false);
  if (!block) return;
  const std::string root = "/memory_model";
  fields::check_fields(r, *block, root, "memory_model");
  MemoryConstants& k = catalog.memory;
  k.present = true;
  read_table(r, *block, root, "weight_formats", "weight_format", k.weight_formats,
             [&](WeightFormat& f, const Json& v, const std::string& p) {
               f.linear_bits = r.number(v, "bits_per_weight", p, true, {0.5, 64}).value_or(16);
               f.other_bytes =
                   r.number(v, "unquantized_bytes_per_parameter", p, false, {0.5, 8}).value_or(2);
               f.whole_model = r.boolean(v, "whole_model_average", p, false).value_or(false);
               f.quantizer = r.string(v, "quantizer", p, false).value_or("");
               if (const auto before = r.string(v, "head_copy_before_version", p, false)) {
                 f.head_copy_before_version = parse_engine_version(*before);
                 if (f.head_copy_before_version <= 0 || f.quantizer.empty())
                   r.fail("unknown_name", Reader::child(p, "head_copy_before_version"),
                          "expected a release such as \"0.2.7\" of the format's quantizer, got \"" +
                              *before + "\"");
               }
               f.tied_head_apart_engines = r.strings(v, "tied_head_apart_engines", p, false);
               for (auto& e : f.tied_head_apart_engines) e = lower(e);
               f.basis = r.string(v, "basis", p, true).value_or("");
               r.string(v, "source", p, true);
             });
  if (const Json* kv = r.object(*block, "kv_cache_formats", root, true)) {
    for (const auto& [key, value] : kv->items()) {
      const std::string p = Reader::child(root + "/kv_cache_formats", key);
      if (!r.expect_object(value, p)) continue;
      fields::check_fields(r, value, p, "kv_cache_format");
      k.kv_bytes[lower(key)] = r.number(value, "bytes_per_element", p, true, {0.1, 8}).value_or(2);
      r.string(value, "source", p, true);
    }
  }
  read_table(
      r, *block, root, "optimizers", "optimizer", k.optimizers,
      [&](OptimizerSpec& o, const Json& v, const std::string& p) {
        o.bytes_per_parameter = r.number(v, "bytes_per_parameter", p, true, {0, 64}).value_or(0);
        o.factored = r.boolean(v, "factored", p, false).value_or(false);
        o.paged = r.boolean(v, "paged", p, false).value_or(false);
        o.states_in_parameter_dtype = r.boolean(v, "states_in_parameter_dtype", p, false).value_or(false);
        o.foreach_temporaries = r.number(v, "foreach_temporaries", p, false, {0, 8}).value_or(0);
        o.basis = r.string(v, "basis", p, true).value_or("");
        r.string(v, "source", p, true);
      });
  read_table(
      r, *block, root, "engines", "engine", k.engines,
      [&](EngineProfile& e, const Json& v, const std::string& p) {
        e.name = r.string(v, "name", p, true).value_or(e.key);
        e.matches = r.strings(v, "matches", p, false);
        for (auto& m : e.matches) m = lower(m);
        e.pytorch = r.boolean(v, "pytorch", p, true).value_or(true);
        e.context_mib = r.number(v, "cuda_context_mib", p, !e.pytorch, {0, 65536}).value_or(0);
        e.eager_context_mib =
            r.number(v, "eager_cuda_context_mib", p, false, {0, 65536}).value_or(e.context_mib);
        e.fp32_parameters = r.boolean(v, "fp32_parameters", p, false).value_or(false);
        e.checkpoint_on_device = r.boolean(v, "checkpoint_on_device", p, false).value_or(false);
        e.ties_after_loading = r.boolean(v, "ties_after_loading", p, false).value_or(false);
        e.allocator_reserve =
            r.number(v, "allocator_reserve_fraction", p, false, {0, 4}).value_or(0);
        e.compute_buffer_mib = r.number(v, "compute_buffer_mib", p, false, {0, 65536}).value_or(0);
        e.kv_policy = r.string(v, "kv_cache", p, false).value_or("dynamic");
        if (e.kv_policy != "dynamic" && e.kv_policy != "full_context" && e.kv_policy != "pool") {
          r.fail("unknown_name", Reader::child(p, "kv_cache"),
                 "expected dynamic, full_context or pool, got \"" + e.kv_policy + "\"");
        }
        e.logits_all_prompt_tokens =
            r.boolean(v, "logits_for_every_prompt_token", p, false).value_or(false);
        e.materialized_attention = r.boolean(v, "materialized_attention", p, false).value_or(true);
        if (const auto before = r.string(v, "rope_cache_before_version", p, false)) {
          e.rope_cache_before_version = parse_engine_version(*before);
          if (e.rope_cache_before_version <= 0)
            r.fail("unknown_name", Reader::child(p, "rope_cache_before_version"),
                   "expected a release such as \"4.45\", got \"" + *before + "\"");
        }
        e.rope_cache_model_types = r.strings(v, "rope_cache_model_types", p, false);
        for (auto& t : e.rope_cache_model_types) t = lower(t);
        e.gpu_memory_utilization =
            r.number(v, "gpu_memory_utilization", p, e.kv_policy == "pool", {0.05, 1})
                .value_or(0.9);
        e.non_torch_mib = r.number(v, "non_torch_mib", p, false, {0, 65536}).value_or(0);
        e.non_torch_tp_mib = r.number(v, "non_torch_tp_mib", p, false, {0, 65536}).value_or(0);
        read_pool_shares(r, v, p, e);
        read_profile_bands(r, v, p, e);
        e.layer_split = r.string(v, "layer_split", p, false).value_or("balanced");
        e.chunked_loss = r.boolean(v, "chunked_loss", p, false).value_or(false);
        e.softmax_fp32 = r.boolean(v, "softmax_fp32", p, false).value_or(true);
        e.eager_rms_norm = r.boolean(v, "eager_rms_norm", p, false).value_or(false);
        e.eager_loss_backward = r.boolean(v, "eager_loss_backward", p, false).value_or(false);
        e.adapters_in_model_dtype = r.boolean(v, "adapters_in_model_dtype", p, false).value_or(false);
        e.cross_cache_per_beam =
            r.string(v, "cross_attention_cache", p, false).value_or("per_beam") != "per_input";
        e.basis = r.string(v, "source", p, true).value_or("");
      });
  for (const auto& [key, f] : k.weight_formats)
    for (std::size_t i = 0; i < f.tied_head_apart_engines.size(); ++i)
      if (!k.engines.count(f.tied_head_apart_engines[i]))
        r.fail(
            "unknown_name",
            Reader::child(Reader::child(root + "/weight_formats", key), "tied_head_apart_engines") +
                "/" + decimal::whole(i),
            "expected an engine of memory_model.engines, got \"" + f.tied_head_apart_engines[i] +
                "\"");
  if (const Json* cuda = r.object(*block, "cuda_context", root, true)) {
    const std::string p = root + "/cuda_context";
    fields::check_fields(r, *cuda, p, "cuda_context");
    k.cuda_context_eager_mib =
        r.number(*cuda, "pytorch_eager_module_loading_mib", p, true, {0, 65536}).value_or(0);
    k.cuda_context_lazy_mib =
        r.number(*cuda, "pytorch_lazy_module_loading_mib", p, true, {0, 65536}).value_or(0);
    r.string(*cuda, "source", p, true);
  }
  if (const Json* ds = r.object(*block, "deepspeed_zero3", root, true)) {
    const std::string p = root + "/deepspeed_zero3";
    fields::check_fields(r, *ds, p, "deepspeed_zero3");
    k.zero3_max_live_parameters =
        r.number(*ds, "stage3_max_live_parameters", p, true, {0, 1e13}).value_or(1e9);
    r.string(*ds, "source", p, true);
  }
  if (const Json* lora = r.object(*block, "lora", root, true)) {
    const std::string p = root + "/lora";
    fields::check_fields(r, *lora, p, "lora");
    k.lora_default_rank = r.number(*lora, "default_rank", p, true, {1, 65536}).value_or(8);
    if (const Json* targets = r.object(*lora, "default_target_modules", p, true)) {
      for (const auto& [type, value] : targets->items()) {
        k.lora_default_targets[lower(type)] =
            r.strings(*targets, type, p + "/default_target_modules", true);
      }
    }
    r.string(*lora, "source", p, true);
  }
}

// An eager engine's host time per pass (throughput_model.engines.*.eager_host).
void read_eager_host(const Reader& r, const Json& eager, const std::string& ep,
                     InferenceEngine& e) {
  e.kernels_per_layer = r.number(eager, "kernels_per_layer", ep, true, {1, 1e4}).value_or(0);
  e.kernels_per_step = r.number(eager, "kernels_per_step", ep, true, {0, 1e5}).value_or(0);
  e.us_per_kernel = r.number(eager, "us_per_kernel", ep, true, {0.1, 1000}).value_or(0);
  e.us_per_kernel_low = r.number(eager, "us_per_kernel_low", ep, true, {0.1, 1000}).value_or(0);
  e.us_per_kernel_high = r.number(eager, "us_per_kernel_high", ep, true, {0.1, 1000}).value_or(0);
  if (!(e.us_per_kernel_low <= e.us_per_kernel && e.us_per_kernel <= e.us_per_kernel_high))
    r.fail("out_of_range", Reader::child(ep, "us_per_kernel"),
           "expected us_per_kernel_low <= us_per_kernel <= us_per_kernel_high");
  e.eager_basis = r.string(eager, "source", ep, true).value_or("");
  auto& g = e.cudnn_graph;
  g.build_ms = r.number(eager, "cudnn_graph_build_ms", ep, false, {0, 1e4}).value_or(0);
  g.preferred_on = r.strings(eager, "cudnn_preferred_on", ep, false);
  for (std::size_t i = 0; i < g.preferred_on.size(); ++i)
    if (!fields::compute_capability(g.preferred_on[i]))
      r.fail("out_of_range", Reader::child(ep, "cudnn_preferred_on") + "/" + std::to_string(i),
             "expected a compute capability such as \"9.0\", got \"" + g.preferred_on[i] + "\"");
  g.basis = r.string(eager, "cudnn_graph_source", ep, g.build_ms > 0).value_or("");
  if (const Json* by = r.object(eager, "kernels_per_layer_by", ep, false)) {
    const std::string bp = Reader::child(ep, "kernels_per_layer_by");
    e.kernels_by_basis = r.string(*by, "source", bp, true).value_or("");
    for (const auto& [key, count] : by->items()) {
      if (key == "source" || key == "source_date") continue;
      e.kernels_per_layer_by[key] = r.number(*by, key, bp, true, {1, 1e4}).value_or(0);
    }
  }
}

void read_throughput_model(const Reader& r, const Json& doc, Catalog& catalog) {
  const Json* block = r.object(doc, "throughput_model", "", false);
  if (!block) return;
  const std::string root = "/throughput_model";
  // Each of the block's objects once, as the table defines it (the values below read several twice).
  const fields::Kind& kind = fields::kind("throughput_model");
  fields::check_fields(r, *block, root, kind);
  for (std::size_t i = 0; i < kind.count; ++i) {
    const auto member = block->find(kind.fields[i].name);
    if (member != block->end() && member->is_object())
      fields::check_fields(r, *member, root + "/" + kind.fields[i].name, kind.fields[i].of);
  }
  ThroughputConstants& t = catalog.throughput;
  t.present = true;
  auto value = [&](const char* key, const char* field, Range range) {
    const std::string p = root + "/" + key;
    const Json* obj = r.object(*block, key, root, true);
    if (!obj) return 0.0;
    r.string(*obj, "source", p, true);
    return r.number(*obj, field, p, true, range).value_or(0);
  };
  t.decode_bandwidth_efficiency = value("decode_bandwidth_efficiency", "value", {0.01, 1});
  t.decode_bandwidth_efficiency_multi =
      value("decode_bandwidth_efficiency_tensor_parallel", "value", {0.01, 1});
  t.prefill_mfu_short = value("prefill_mfu", "short_prompt", {0.01, 1});
  t.prefill_mfu_long = value("prefill_mfu", "long_prompt", {0.01, 1});
  t.long_prompt_tokens = value("prefill_mfu", "long_prompt_tokens", {1, 1e7});
  t.decode_mfu = value("decode_mfu", "value", {0.01, 1});
  t.allreduce_latency_us = value("tensor_parallel", "allreduce_latency_us", {0, 1e4});
  t.interconnect_efficiency = value("tensor_parallel", "interconnect_efficiency", {0.01, 1});
  t.pipeline_activation_tensors = value("pipeline_parallel", "activation_tensors", {1, 16});
  t.pipeline_activation_bytes = value("pipeline_parallel", "activation_bytes", {1, 8});
  t.rdma_message_latency_us = value("pipeline_parallel", "rdma_message_latency_us", {0, 1e4});
  t.tcp_message_latency_us = value("pipeline_parallel", "tcp_message_latency_us", {0, 1e4});
  t.serving_max_batch = value("serving", "max_batch", {1, 1e6});
  t.serving_kv_fraction = value("serving", "kv_memory_fraction", {0.05, 1});
  if (const Json* loss = r.object(*block, "training_loss", root, false)) {
    const std::string p = root + "/training_loss";
    r.string(*loss, "source", p, true);
    t.loss_logit_accesses = r.number(*loss, "logit_accesses", p, true, {1, 100}).value_or(0);
  }
  if (const Json* step = r.object(*block, "training_step", root, false)) {
    const std::string p = root + "/training_step";
    r.string(*step, "source", p, true);
    const auto count = [&](const char* name) {
      return r.number(*step, name, p, true, {0, 100}).value_or(0);
    };
    t.adamw_parameter_accesses =
        r.number(*step, "adamw_parameter_accesses", p, true, {1, 100}).value_or(0);
    t.eager_forward_score_accesses = count("eager_forward_score_accesses");
    t.eager_forward_fp32_score_accesses = count("eager_forward_fp32_score_accesses");
    t.eager_backward_score_accesses = count("eager_backward_score_accesses");
    t.eager_backward_fp32_score_accesses = count("eager_backward_fp32_score_accesses");
  }
  read_table(r, *block, root, "engines", "inference_engine", t.engines,
             [&](InferenceEngine& e, const Json& v, const std::string& p) {
               e.name = r.string(v, "name", p, true).value_or(e.key);
               e.matches = r.strings(v, "matches", p, false);
               for (auto& m : e.matches) m = lower(m);
               const auto share = r.string(v, "kv_cache_share_of", p, false);
               if (share && *share != "device" && *share != "free_memory")
                 r.fail("unknown_name", Reader::child(p, "kv_cache_share_of"),
                        "expected device or free_memory, got \"" + *share + "\"");
               e.has_pool = share.has_value();
               e.kv_of_free_memory = share == "free_memory";
               e.kv_fraction = r.number(v, "kv_memory_fraction", p, e.has_pool, {0.05, 1}).value_or(0.9);
               e.step_overhead_ms = r.number(v, "step_overhead_ms", p, false, {0, 1000}).value_or(0);
               e.overhead_basis = r.string(v, "step_overhead_source", p, e.step_overhead_ms > 0).value_or("");
               e.max_batch = r.number(v, "max_batch", p, false, {1, 1e6}).value_or(0);
               e.max_batch_basis = r.string(v, "max_batch_source", p, e.max_batch > 0).value_or("");
               e.mla_moe_layer_us = r.number(v, "mla_moe_layer_us", p, false, {0, 1e4}).value_or(0);
               e.mla_moe_basis = r.string(v, "mla_moe_layer_source", p, e.mla_moe_layer_us > 0).value_or("");
               e.head_block_gb_per_s = r.number(v, "head_block_gb_per_s", p, false, {0, 1e5}).value_or(0);
               e.head_block_basis =
                   r.string(v, "head_block_source", p, e.head_block_gb_per_s > 0).value_or("");
               if (const Json* tiled = r.object(v, "tiled_kernel", p, false)) {
                 const std::string tp = Reader::child(p, "tiled_kernel");
                 e.tiled_format = r.string(*tiled, "format", tp, true).value_or("");
                 e.tile_rows = r.number(*tiled, "tile_rows", tp, true, {1, 1e6}).value_or(0);
                 e.tile_weights_per_s = r.number(*tiled, "weights_per_s", tp, true, {1e6, 1e18}).value_or(0);
                 e.tile_basis = r.string(*tiled, "source", tp, true).value_or("");
               }
               e.eager_score_bytes =
                   r.number(v, "eager_score_bytes", p, false, {0, 1e3}).value_or(0);
               e.eager_score_basis =
                   r.string(v, "eager_score_source", p, e.eager_score_bytes > 0).value_or("");
               if (const Json* bytes = r.object(v, "eager_activation_bytes", p, false)) {
                 const std::string bp = Reader::child(p, "eager_activation_bytes");
                 auto& b = e.eager_activation_bytes;
                 b.hidden = r.number(*bytes, "hidden", bp, true, {0, 1e3}).value_or(0);
                 b.query = r.number(*bytes, "query", bp, true, {0, 1e3}).value_or(0);
                 b.kv = r.number(*bytes, "kv", bp, true, {0, 1e3}).value_or(0);
                 b.intermediate = r.number(*bytes, "intermediate", bp, true, {0, 1e3}).value_or(0);
                 b.qk_norm = r.number(*bytes, "qk_norm", bp, true, {0, 1e3}).value_or(0);
                 e.eager_activation_basis = r.string(*bytes, "source", bp, true).value_or("");
               }
               if (const Json* eager = r.object(v, "eager_host", p, false))
                 read_eager_host(r, *eager, Reader::child(p, "eager_host"), e);
               e.basis = r.string(v, "source", p, true).value_or("");
             });
  for (const char* table :
       {"training_mfu", "training_attention", "link_gb_per_s", "matmul_efficiency",
        "bandwidth_efficiency", "layer_overhead_us", "eager_us_per_kernel"}) {
    const std::string p = root + "/" + table;
    const std::string name = table;
    const bool required = name == "training_mfu" || name == "link_gb_per_s";
    const Json* obj = r.object(*block, table, root, required);
    if (!obj) continue;
    r.string(*obj, "source", p, true);
    auto& out = name == "training_mfu"           ? t.training_mfu
                : name == "training_attention"   ? t.training_attention
                : name == "link_gb_per_s"        ? t.link_gb_per_s
                : name == "matmul_efficiency"    ? t.matmul_efficiency
                : name == "bandwidth_efficiency" ? t.bandwidth_efficiency
                : name == "eager_us_per_kernel"  ? t.eager_us_per_kernel
                                                 : t.layer_overhead_us;
    for (const auto& [key, v] : obj->items()) {
      if (key == "source" || key == "source_date") continue;
      out[key] = r.speed(*obj, key, p, true, 0.001, 1e5).value_or(0);
    }
  }
  for (const auto& [key, share] : t.matmul_efficiency) {
    const auto at = key.find(" n=");
    const double side = at == std::string::npos ? 0 : std::atof(key.c_str() + at + 3);
    if (side > 0 && share > 0) t.matmul_by_size[key.substr(0, at)].emplace_back(std::log(side), share);
  }
  for (auto& [_, points] : t.matmul_by_size) detail::small_stable_sort(points.begin(), points.end(), std::less<>());
}

}  // namespace

void read_measured_error(const Reader& r, const Json& doc, Catalog& catalog) {
  const Json* block = r.object(doc, "measured_error", "", false);
  if (!block) return;
  fields::check_fields(r, *block, "/measured_error", "measured_error");
  const Json* kinds = r.member(*block, "kinds", "/measured_error", true);
  if (!kinds) return;
  if (!kinds->is_array()) {
    r.fail("wrong_type", "/measured_error/kinds", "expected an array of kinds, got " + Reader::describe(*kinds));
    return;
  }
  if (!r.at_most(*kinds, "/measured_error/kinds", 256, "kinds")) return;
  for (std::size_t i = 0; i < kinds->size(); ++i) {
    const std::string p = "/measured_error/kinds/" + decimal::whole(i);
    const Json& k = (*kinds)[i];
    if (!r.expect_object(k, p)) continue;
    fields::check_fields(r, k, p, "measured_error_kind");
    MeasuredError e;
    e.quantity = r.string(k, "quantity", p, true).value_or("");
    e.phase = r.string(k, "phase", p, true).value_or("");
    e.engine = r.string(k, "engine", p, true).value_or("");
    e.vendor = r.string(k, "vendor", p, false).value_or("");
    e.n = r.number(k, "n", p, true, {1, 1e6}).value_or(0);
    e.sources = r.number(k, "sources", p, true, {1, 1e6}).value_or(0);
    e.pool = r.string(k, "pool", p, true).value_or("kind");
    if (e.pool != "kind" && e.pool != "engine" && e.pool != "phase")
      r.fail("unknown_name", p + "/pool", "expected kind, engine or phase, got \"" + e.pool + "\"");
    e.median_abs_err_pct = r.number(k, "median_abs_err_pct", p, true, {0, 1e6}).value_or(0);
    e.p90_abs_err_pct = r.number(k, "p90_abs_err_pct", p, true, {0, 1e6}).value_or(0);
    catalog.measured_error.push_back(std::move(e));
  }
}

void read_model_catalog(const Reader& r, const Json& doc, Catalog& catalog) {
  read_measured_error(r, doc, catalog);
  read_models(r, doc, catalog);
  read_memory_model(r, doc, catalog);
  read_generic_decoder(r, doc, catalog);
  read_throughput_model(r, doc, catalog);
}

}  // namespace gpufleet::detail
