#include <algorithm>
#include <cmath>
#include <string_view>

#include "fleet/road_parts.hpp"

namespace gpufleet {
using namespace road_parts;

namespace road_parts {

bool neuron(const InstanceType& it) {
  return it.accelerator_kind == "trainium" || it.accelerator_kind == "inferentia";
}

// A training job spans several instances only where the family is built for it (NVSwitch inside,
// a fast fabric between: the catalog's interconnect_multiplier of 1).
bool spans_instances(const InstanceType& it) {
  return it.interconnect_multiplier >= 1 && it.gpus >= 2;
}

// Why pipeline stages cannot run on several instances of `it` ("" when they can): their
// activations cross the instances' network, which the catalog must give to cost them.
std::string pipeline_refusal(const InstanceType& it) {
  if (neuron(it)) return "pipeline stages across " + it.gpu_type + " instances are not modelled";
  if (!it.network_gbit_per_s)
    return "the catalog lacks the network bandwidth between " + it.name +
           " instances (network_gbit_per_s), so the activations its pipeline stages send cannot be "
           "costed";
  return "";
}

}  // namespace road_parts

TrainMode train_mode(WorkloadType task) {
  switch (task) {
    case WorkloadType::kInference:
    case WorkloadType::kBatchInference:
      return TrainMode::kInference;
    case WorkloadType::kFineTuning:
      return TrainMode::kFullFinetune;
    case WorkloadType::kLora:
      return TrainMode::kLora;
    case WorkloadType::kQlora:
      return TrainMode::kQlora;
    case WorkloadType::kTraining:
      return TrainMode::kPretraining;
  }
  return TrainMode::kInference;
}

namespace {

bool quantized(const Catalog& catalog, const std::string& format) {
  auto f = catalog.memory.weight_formats.find(format);
  return f != catalog.memory.weight_formats.end() &&
         (f->second.linear_bits < 16 || f->second.whole_model);
}

double peak(const GpuSpec* spec, std::string_view precision) {
  if (!spec) return 0;
  auto t = spec->tflops.find(precision);
  return t != spec->tflops.end() ? t->second : 0;
}

}  // namespace

namespace road_parts {
// The link's kind and figure without its explanation (the sizing loop asks it for every layout).
TensorLink link_figures(const InstanceType& it, double tp) {
  TensorLink l;
  const double gpus = std::max(1.0, it.gpus);
  // A size with fewer GPUs than its family's domain joins those it has (p5.4xlarge: 1 of 8).
  l.domain_gpus = it.nvlink_domain_gpus > 0 ? std::min(it.nvlink_domain_gpus, gpus) : gpus;
  if (tp <= 1) {
    l.kind = "none";
  } else if (l.domain_gpus > 1 && tp <= l.domain_gpus) {
    l.kind = "domain";
    l.gb_per_s = it.interconnect_bandwidth_gb_per_s / 2;
  } else {
    l.kind = "pcie";
    // Without NVLink the catalog's figure is the PCIe path; between domains it gives none.
    l.gb_per_s = l.domain_gpus <= 1 ? it.interconnect_bandwidth_gb_per_s / 2 : 0;
  }
  return l;
}
}  // namespace road_parts

namespace road_parts {
// A device whose serving stack runs a listed set of architectures (Neuron's NxD Inference): serving
// any other is refused, with the list's source.
std::string served_model_type_refusal(const Catalog& catalog, const Workload& w,
                                      const InstanceType& it) {
  const GpuSpec* spec = catalog.gpu(it.gpu_model);
  if (!w.serving() || !w.model.arch || !spec || !spec->model_types_served) return "";
  const auto& types = *spec->model_types_served;
  const Architecture& a = *w.model.arch;
  auto listed = [&](const std::string& t) {
    return !t.empty() && std::find(types.begin(), types.end(), t) != types.end();
  };
  if (listed(a.model_type) || listed(a.multimodal_type)) return "";
  std::string list;
  for (const auto& t : types) list += (list.empty() ? "" : ", ") + t;
  return "model type " + (a.multimodal_type.empty() ? a.model_type : a.multimodal_type) +
         " is not one " + it.gpu_type + "'s serving stack runs: " + list + " (" +
         spec->model_types_source + ")";
}
}  // namespace road_parts

std::string tp_refusal(const Architecture& a, double tp) {
  if (tp <= 1) return "";
  if (a.heads > 0 && std::fmod(a.heads, tp) != 0)
    return "tensor parallelism " + num(tp) + " does not divide the model's " + num(a.heads) +
           " attention heads (engines shard whole heads)";
  if (!a.mla() && a.kv_heads > 0 && std::fmod(a.kv_heads, tp) != 0 &&
      std::fmod(tp, a.kv_heads) != 0)
    return "tensor parallelism " + num(tp) + " neither divides nor is a multiple of the model's " +
           num(a.kv_heads) + " KV heads";
  return "";
}

std::string gpu_name(const InstanceType& it) {
  return it.gpu_model.empty() ? it.gpu_type : it.gpu_model;
}

TensorLink tensor_link(const InstanceType& it, double tp) {
  TensorLink l = link_figures(it, tp);
  if (l.kind == "none") {
    l.basis = "one GPU per model copy: no tensor-parallel all-reduces";
    return l;
  }
  const std::string link = it.interconnect_type.empty() ? "" : " (" + it.interconnect_type + ")";
  const double both_ways = it.interconnect_bandwidth_gb_per_s;
  if (l.kind == "domain") {
    l.basis = "tensor parallelism " + num(tp) + " stays inside one " + num(l.domain_gpus) +
              "-GPU domain of " + it.name + link +
              (it.nvlink_domain_gpus > 0
                   ? ""
                   : "; the catalog names no domain, so the whole instance is one") +
              ": all-reduces";
  } else {
    l.basis = l.domain_gpus <= 1
                  ? it.name + "'s GPUs share no NVLink domain" + link + ": all-reduces cross PCIe"
                  : "tensor parallelism " + num(tp) + " crosses " + it.name + "'s " +
                        num(l.domain_gpus) + "-GPU domains" + link +
                        ": all-reduces cross PCIe between them";
  }
  l.basis += l.gb_per_s > 0
                 ? " at " + num(l.gb_per_s) + " GB/s per direction (half of " + num(both_ways) +
                       " GB/s both ways)"
                 : "; the catalog gives no figure for this path: " + num(kUnknownLinkGbPerS) +
                       " GB/s per direction assumed (PCIe Gen3 x16 class)";
  return l;
}

DeviceSpec instance_device(const Catalog& catalog, const InstanceType& it, double tp) {
  DeviceSpec d;
  if (const GpuSpec* spec = catalog.gpu(it.gpu_model)) d = catalog.device(*spec);
  d.name = it.gpu_model.empty() ? it.gpu_type : it.gpu_model;
  d.memory_bytes = it.memory_per_gpu_bytes;
  d.bandwidth_gb_per_s = it.memory_bandwidth_gb_per_s * it.gpu_fraction;
  for (auto& [key, tflops] : d.tflops) tflops *= it.gpu_fraction;
  d.link_gb_per_s = link_figures(it, tp).gb_per_s;
  return d;
}

bool same_device(const InstanceType& a, const InstanceType& b, double tp) {
  return &a == &b ||
         (a.memory_per_gpu_bytes == b.memory_per_gpu_bytes &&
          a.memory_bandwidth_gb_per_s == b.memory_bandwidth_gb_per_s &&
          a.gpu_fraction == b.gpu_fraction && a.gpu_model == b.gpu_model &&
          a.gpu_type == b.gpu_type && link_figures(a, tp).gb_per_s == link_figures(b, tp).gb_per_s);
}

FormatSupport format_support(const Catalog& catalog, const Workload& w, const InstanceType& it) {
  FormatSupport s;
  const std::string& f = w.weight_format;
  const GpuSpec* spec = catalog.gpu(it.gpu_model);
  auto gpu = [&] { return it.gpu_type + (it.arch.empty() ? "" : " (" + it.arch + ")"); };
  if (!spec || spec->tflops.empty()) {
    s.compute = f;  // no datasheet: nothing to check against
    return s;
  }
  const bool has16 = peak(spec, "bf16") > 0 || peak(spec, "fp16") > 0;
  const std::string sixteen = peak(spec, "bf16") > 0 ? "bf16" : "fp16";
  if (peak(spec, f) > 0) {
    s.compute = f;
  } else if (!quantized(catalog, f) || !has16) {
    s.refusal = f + " does not run on " + gpu() + ": its tensor cores have no " + f + " mode";
    s.way_out = f == "bf16"
                    ? "use fp16 (same memory) on this GPU, or an Ampere or newer GPU for bf16"
                    : "use a format it runs (" + sixteen + ") or a newer GPU";
  } else if (w.trains() && !(w.task == WorkloadType::kQlora)) {
    s.refusal = f + " is a storage format here: " + gpu() + " cannot train in it";
    s.way_out = "train in " + sixteen + ", or use qlora for 4-bit base weights";
  } else if (neuron(it) && f != "fp8" && f != "int8") {
    s.refusal = f + " kernels are CUDA kernels: the Neuron SDK does not run them";
    s.way_out = "use bf16, fp8 or int8 on " + it.gpu_type;
  } else if (f == "fp8" && peak(spec, "bf16") <= 0) {
    // Weight-only fp8 (Marlin kernels) needs Ampere's instructions (compute capability 8.0).
    s.refusal =
        "fp8 weights need Ampere or newer (weight-only fp8 kernels) or Ada/Hopper/Blackwell (fp8 "
        "compute); " +
        gpu() + " has neither";
    s.way_out = "use fp16 or int8 on this GPU, or fp8 on L4, L40S, H100 or newer";
  } else if (f == "awq_int4" && peak(spec, "int8") <= 0) {
    s.refusal = "AWQ kernels need compute capability 7.5 (Turing) or newer; " + gpu() + " is older";
    s.way_out = "use gptq_int4 or fp16 on this GPU";
  } else {
    s.compute = sixteen;
    s.note = f + " on " + gpu() + " is weight-only: weights are stored in " + f +
             " and dequantized to " + sixteen + " for the matmuls";
  }
  if (w.trains() && w.task == WorkloadType::kQlora && s.refusal.empty()) s.compute = sixteen;
  return s;
}
}  // namespace gpufleet
