#include "fleet/road.hpp"

#include <algorithm>
#include <cmath>

#include "fleet/road_parts.hpp"
#include "support/text.hpp"

namespace gpufleet {
using namespace road_parts;

namespace road_parts {

void refuse(Deployment& d, std::string why, std::string way_out) {
  d.refusal = std::move(why);
  d.way_out = std::move(way_out);
}

}  // namespace road_parts

namespace {

constexpr int kMaxInstances = 128;

// Sizes a laid-out deployment on the road, as far as it goes: a refusal, or no figures to
// estimate its speed with, stops it.
void size_layout(const Catalog& catalog, const Workload& w, const Billing& billing,
                 const FormatSupport& fmt, std::optional<double> copies, Deployment& d) {
  const InstanceType& it = *d.instance;
  const double tp = d.layout.tensor_parallel, pp = d.layout.pipeline_parallel;
  if (it.accelerator_kind == "cpu") {
    refuse(d,
           it.name +
               " has no accelerator: the catalog gives no throughput figures for CPU inference or "
               "training of a transformer",
           "a GPU, Inferentia or Trainium instance");
    return;
  }
  if (it.accelerator_kind == "inferentia" && w.trains()) {
    refuse(d, "Inferentia serves inference only", "Trainium or a GPU instance");
    return;
  }
  if (!w.model.arch) {
    refuse(d, "the model has no architecture to size (the catalog names no generic shape)",
           "name a model of model_config.json");
    return;
  }
  if (std::string why = served_model_type_refusal(catalog, w, it); !why.empty()) {
    refuse(d, why, "a GPU instance, or the model ported to the stack (its model onboarding guide)");
    return;
  }
  d.uncalibrated = neuron(it);
  if (d.uncalibrated)
    d.notes.push_back(
        it.gpu_type +
        ": datasheet peaks with the GPU efficiency factors, not calibrated on Neuron measurements");
  if (!fmt.refusal.empty()) {
    refuse(d, fmt.refusal, fmt.way_out);
    return;
  }
  if (!fmt.note.empty()) d.notes.push_back(fmt.note);
  d.compute_precision = fmt.compute;
  if (it.gpu_fraction < 1 && tp * pp > 1) {
    refuse(d,
           it.name + " is a fraction of one " + it.gpu_type +
               ": a partition cannot join tensor or pipeline parallelism",
           "a whole-GPU instance");
    return;
  }
  if (tp > it.gpus) {
    refuse(d,
           "tensor parallelism " + num(tp) + " spans more than the " + num(it.gpus) + " " +
               device_name(it) + "(s) of one " + it.name + ": it stays inside one instance's " +
               it.interconnect_type + " domain",
           "tensor parallelism up to " + num(it.gpus) + ", pipeline stages across instances");
    return;
  }
  if (w.trains() && d.instance_count > 1 && !spans_instances(it)) {
    refuse(d,
           "one model copy spans " + num(d.instance_count) + " x " + it.name +
               ": only NVSwitch-class families with a fast fabric are modelled across instances",
           "an 8-GPU NVSwitch instance (p4d, p5, a3, ND) or more memory per GPU");
    return;
  }
  if (pp > 1) {
    if (std::string why = pipeline_refusal(it); !why.empty()) {
      refuse(d, "one model copy spans " + num(pp) + " x " + it.name + ": " + why,
             "an instance type whose network the catalog gives (g5, g6, g6e or p5.48xlarge, ...), "
             "or more memory per GPU");
      return;
    }
  }
  if (std::string why = tp_refusal(*w.model.arch, tp); !why.empty()) {
    refuse(d, why, kTpWayOut);
    return;
  }
  const auto whole = whole_model(catalog, w, fmt.compute);
  // Pruned before the memory model: the weights alone exceed the ranks' memory.
  const double ranks = w.trains() ? d.gpus : tp * pp;  // training shards the weights over every GPU
  if (whole && !w.seed_memory && whole->weight_bytes / ranks > it.memory_per_gpu_bytes) {
    // The refusal names the weights; the figures are still the memory model's, as every question
    // reports them.
    const MemoryAnswer& a =
        memory_of(catalog, w, d, fmt.compute, w.serving() ? 1 : w.recipe.micro_batch);
    d.weights_per_gpu_bytes = whole->weight_bytes / ranks;
    if (a.estimate) d.memory = a.estimate;
    d.memory_per_gpu_bytes = a.estimate ? a.estimate->total_bytes : d.weights_per_gpu_bytes;
    refuse(d,
           "does not fit: the weights alone are " + gb(d.weights_per_gpu_bytes) + " per " +
               device_name(it) + " over " + num(ranks) + " x " + it.gpu_type + " (" +
               gb(it.memory_per_gpu_bytes) + " each)",
           "more " + device_name(it) + "s per model copy, a smaller weight format, or " +
               device_name(it) + "s with more memory");
    return;
  }
  if (!size_memory(catalog, w, fmt.compute, d)) return;
  const GpuSpec* spec = catalog.gpu(it.gpu_model);
  if (!whole || !spec || !spec->memory_bandwidth_gb_per_s || spec->tflops.empty() ||
      !catalog.throughput.present) {
    d.notes.push_back("no speed estimate: the catalog has no bandwidth or TFLOPS for " +
                      it.gpu_type);
    if (w.serving()) d.concurrency = std::min(1.0, d.max_concurrency_by_kv);
    return;
  }
  if (w.serving()) {
    size_serving(catalog, w, billing, *whole, fmt.compute, copies, d);
  } else {
    size_training(catalog, w, *whole, fmt.compute, d);
  }
}

// `fmt`: format_support of the workload on `it` (the same for every layout of it).
Deployment deploy_layout(const Catalog& catalog, const Workload& w, const Billing& billing,
                         const InstanceType& it, const FormatSupport& fmt, double tp, double pp,
                         std::optional<double> copies) {
  Deployment d;
  d.instance = &it;
  d.layout.tensor_parallel = tp;
  d.layout.pipeline_parallel = pp;
  d.layout.replicas = copies.value_or(1);
  d.gpus = d.layout.gpus_per_copy() * d.layout.replicas;
  d.instance_count = static_cast<int>(std::ceil(d.gpus / std::max(1.0, it.gpus) - 1e-9));
  d.capacity_per_gpu_bytes = it.memory_per_gpu_bytes;
  size_layout(catalog, w, billing, fmt, copies, d);
  price(catalog, billing, w.explain, d);
  per_token_and_run_costs(catalog, w, d);
  return d;
}

bool cheaper(const Workload& w, const Deployment& a, const Deployment& b) {
  auto key = [&](const Deployment& d) {
    if (d.usd_per_run) return *d.usd_per_run;  // a job: what the run costs
    if (w.serving() && !w.demand.requests_per_s && !w.demand.tokens_per_month &&
        d.usd_per_million_output_tokens)
      return *d.usd_per_million_output_tokens;
    return d.cost.usd_per_month.value_or(1e300);
  };
  const double ka = key(a), kb = key(b);
  if (ka != kb) return ka < kb;
  return a.gpus < b.gpus;
}

}  // namespace

void per_token_and_run_costs(const Catalog& catalog, const Workload& w, Deployment& d) {
  if (!d.cost.usd_per_hour || !d.runs()) return;
  if (w.serving() && d.output_tokens_per_s > 0) {
    const double served = d.utilization > 0 ? std::min(1.0, d.utilization) * d.output_tokens_per_s
                                            : d.output_tokens_per_s;
    d.usd_per_million_output_tokens = *d.cost.usd_per_hour / (served * 3600) * 1e6;
  }
  if (d.run_hours) {
    // Billed per second after the provider's minimum (a job shorter than it pays the minimum).
    const ProviderTerms* terms = catalog.provider(d.instance->provider);
    const double minimum_h = terms ? terms->minimum_billing_seconds / 3600 : 0;
    d.usd_per_run = std::max(*d.run_hours, minimum_h) * *d.cost.usd_per_hour;
  }
}

double copies_for(double demand_rps, double copy_rps) {
  return std::max(1.0, std::ceil(demand_rps / copy_rps - 1e-9));
}

double copies_per_instance(const InstanceType& it, const Layout& layout) {
  return layout.pipeline_parallel > 1 ? 1
                                      : std::max(1.0, std::floor(it.gpus / layout.tensor_parallel));
}

int instances_for(const InstanceType& it, const Layout& layout, double copies) {
  const double pp = layout.pipeline_parallel;
  return static_cast<int>(pp > 1 ? pp * copies
                                 : std::ceil(copies / copies_per_instance(it, layout) - 1e-9));
}

void price(const Catalog& catalog, const Billing& billing, bool explain, Deployment& d) {
  const InstanceType& it = *d.instance;
  d.cost =
      cost_of(catalog, Placement{&it, d.gpus, std::max(1, d.instance_count), it.name, false, ""},
              billing, false, explain);
}

Deployment deploy(const Catalog& catalog, const Workload& w, const Billing& billing,
                  const InstanceType& it, const Layout& layout, int count) {
  const std::optional<double> copies = w.trains()  ? std::optional<double>(layout.replicas)
                                       : count > 0 ? std::optional<double>(layout.replicas)
                                                   : std::nullopt;
  return deploy_layout(catalog, w, billing, it, format_support(catalog, w, it),
                       layout.tensor_parallel, layout.pipeline_parallel, copies);
}

Deployment deploy_on_gpus(const Catalog& catalog, const Workload& w, const Billing& billing,
                          const InstanceType& it, double gpus) {
  const FormatSupport fmt = format_support(catalog, w, it);
  std::optional<Deployment> best, refused;
  auto consider = [&](double tp, double pp) {
    const double copies = gpus / (tp * pp);
    if (copies < 1 || std::fabs(copies - std::round(copies)) > 1e-9) return;
    Deployment d = deploy_layout(catalog, w, billing, it, fmt, tp, pp, std::round(copies));
    if (!d.runs()) {
      if (!refused || tp * pp >= refused->layout.gpus_per_copy()) refused = std::move(d);
    } else if (!best || (w.serving() ? d.output_tokens_per_s > best->output_tokens_per_s
                                     : d.output_tokens_per_s > best->output_tokens_per_s)) {
      best = std::move(d);
    }
  };
  const double per_instance = std::max(1.0, it.gpus);
  for (double tp = 1; tp <= std::min(gpus, per_instance); tp *= 2) consider(tp, 1);
  if (gpus <= per_instance && std::fmod(std::log2(gpus), 1) != 0) consider(gpus, 1);
  if (gpus > per_instance && w.serving()) consider(per_instance, std::round(gpus / per_instance));
  if (best) return std::move(*best);
  if (refused) return std::move(*refused);
  Deployment d = deploy_layout(catalog, w, billing, it, fmt, gpus, 1, 1);
  return d;
}

void refuse_without_speed(Deployment& d) {
  if (!d.runs() || d.inference || d.training) return;
  d.refusal = d.notes.empty() ? "no speed estimate" : d.notes.back();
  d.way_out =
      "add the GPU's bandwidth and TFLOPS to gpu_instances.json, or choose another instance type";
}

Deployment best_on(const Catalog& catalog, const Workload& w, const Billing& billing,
                   const InstanceType& it) {
  const FormatSupport fmt = format_support(catalog, w, it);
  std::optional<Deployment> best, refused;
  auto keep = [&](Deployment d) {
    if (!d.runs()) {
      // Keep the refusal closest to running: the least memory per GPU short of the capacity.
      const double need = d.memory_per_gpu_bytes > 0 ? d.memory_per_gpu_bytes : 1e300;
      const double kept =
          refused && refused->memory_per_gpu_bytes > 0 ? refused->memory_per_gpu_bytes : 1e300;
      if (!refused || need <= kept) refused = std::move(d);
      return false;
    }
    if (!best || cheaper(w, d, *best)) best = std::move(d);
    return true;
  };
  const double per_instance = std::max(1.0, it.gpus);
  if (w.serving()) {
    bool any = false;
    for (double tp = 1; tp <= per_instance; tp *= 2)
      any = keep(deploy_layout(catalog, w, billing, it, fmt, tp, 1, std::nullopt)) || any;
    // Stages of whole multi-GPU instances, each a tensor-parallel group (fit takes any instance).
    if (!any && it.gpus >= 2 && it.gpu_fraction == 1 && pipeline_refusal(it).empty() &&
        (!refused || refused->refusal.rfind("does not fit", 0) == 0)) {
      for (double pp = 2; pp <= 8 && !any; pp *= 2)
        any = keep(deploy_layout(catalog, w, billing, it, fmt, per_instance, pp, std::nullopt));
    }
  } else {
    const int most = spans_instances(it) ? kMaxInstances : 1;
    for (int n = 1; n <= most && !best; n *= 2) {
      for (double tp = 1; tp <= per_instance; tp *= 2)
        keep(deploy_layout(catalog, w, billing, it, fmt, tp, 1, n * per_instance / tp));
      // A refusal no count of instances lifts ends the search.
      if (!best && refused && refused->refusal.rfind("does not fit", 0) != 0 &&
          refused->refusal.rfind("misses the deadline", 0) != 0)
        break;
    }
  }
  if (best) return std::move(*best);
  return std::move(*refused);
}

ModelSpec size_class_model(const Catalog& catalog, const ModelSize& size) {
  ModelSpec spec;
  spec.size = size.key;
  spec.parameters = size.parameter_count_billion * 1e9;
  spec.training_overhead_multiplier = size.memory_overhead_multiplier;
  spec.label = size.key + " (" + num(size.parameter_count_billion) + "B)";
  spec.arch = generic_decoder(catalog, spec.parameters, spec.shape_basis);
  return spec;
}

std::optional<Architecture> generic_decoder(const Catalog& catalog, double parameters,
                                            std::string& basis) {
  const NamedModel* nearest = nullptr;
  double distance = 0;
  for (const std::string& key : catalog.generic_shapes) {
    const NamedModel* m = catalog.model(key);
    if (!m || m->params.total <= 0) continue;
    const double d = std::fabs(std::log(parameters / m->params.total));
    if (!nearest || d < distance) {
      nearest = m;
      distance = d;
    }
  }
  if (!nearest || parameters <= 0) return std::nullopt;
  Architecture a = nearest->arch;
  const ParameterCount p = nearest->params;
  const double per_layer = (p.total - p.embedding - p.lm_head) / std::max(1.0, a.layers);
  a.layers = std::max(1.0, std::round((parameters - p.embedding - p.lm_head) / per_layer));
  a.model_type = "llama";
  basis = "a generic dense decoder of " + num(text::round_to(parameters / 1e9, 3)) +
          " B parameters: " + nearest->name + "'s width (" + num(a.hidden) + "), heads (" +
          num(a.heads) + ", " + num(a.kv_heads) + " KV heads) and vocabulary, " + num(a.layers) +
          " layers to reach the size (" + catalog.generic_shapes_source + ")";
  return a;
}

}  // namespace gpufleet
