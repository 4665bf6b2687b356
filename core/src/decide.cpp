#include "gpufleet/decide.hpp"

#include <utility>

#include "report.hpp"

namespace gpufleet {
namespace {

struct Branch {
  std::string tree;    // which decision tree of seed 002
  std::string branch;  // the line of the tree that applies
  std::string kind;    // gpu | trainium | inferentia | cpu
  std::vector<std::string> families;  // the seed's pick, in preference order
};

bool neuron_framework(const std::string& framework) {
  return framework == "pytorch" || framework == "tensorflow";
}

Branch choose(const DecisionInput& in) {
  const double b = in.model.parameters / 1e9;
  if (in.workload != WorkloadType::kInference) {
    if (b > 7) {
      const std::string tree = "Large Model Training (>7B parameters)";
      if (in.goal == "cost" && neuron_framework(in.framework))
        return {tree, "Budget Conscious + PyTorch -> AWS Trainium (Trn1)", "trainium", {"Trn1"}};
      if (in.goal == "performance") return {tree, "Maximum Performance -> NVIDIA H100 (P5)", "gpu", {"P5"}};
      if (in.goal == "experimentation") return {tree, "Experimentation -> NVIDIA V100 (P3)", "gpu", {"P3"}};
      return {tree, "Balanced Performance/Cost -> NVIDIA A100 (P4d)", "gpu", {"P4d", "P4de"}};
    }
    if (b >= 1) {
      const std::string tree = "Medium Model Training (1B-7B parameters)";
      if (in.model_kind == "simple") return {tree, "CPU-only Models -> High-memory CPU instances (R5, M5)", "cpu", {"R5", "M5"}};
      if (in.goal == "cost" && neuron_framework(in.framework))
        return {tree, "Cost Optimization -> AWS Trainium (Trn1)", "trainium", {"Trn1"}};
      if (in.goal == "experimentation") return {tree, "Quick Experiments -> NVIDIA T4 (G4dn)", "gpu", {"G4dn"}};
      return {tree, "Framework Flexibility -> NVIDIA A100 (P4d)", "gpu", {"P4d", "P4de"}};
    }
    return {"GPU Selection Criteria: Small Models (<1B params)", "Small Models -> g4dn.xlarge (T4)", "gpu", {"G4dn"}};
  }
  if (in.latency_ms && *in.latency_ms <= 10) {
    const std::string tree = "Low-Latency Inference";
    if (in.edge) return {tree, "Edge Deployment -> CPU instances", "cpu", {"C5", "M5"}};
    if (in.goal == "cost" && in.model_kind == "transformer" && neuron_framework(in.framework))
      return {tree, "Cost-Optimized -> AWS Inferentia (Inf2)", "inferentia", {"Inf2"}};
    return {tree, "Sub-10ms Requirements -> NVIDIA A10G (G5)", "gpu", {"G5"}};
  }
  const std::string tree = "High-Throughput Inference";
  if (in.edge) return {"Low-Latency Inference", "Edge Deployment -> CPU instances", "cpu", {"C5", "M5"}};
  if (in.batch) return {"Low-Latency Inference", "Batch Processing -> Any GPU option", "gpu", {"G4dn", "G5", "G6", "G6e"}};
  if (in.model_kind == "simple") return {tree, "Simple Models -> CPU instances (M5, C5)", "cpu", {"M5", "C5"}};
  if (in.model_kind == "mixed") return {tree, "Mixed Model Types -> NVIDIA A10G (G5)", "gpu", {"G5"}};
  if (in.latency_ms) return {tree, "Real-time Requirements -> NVIDIA T4 (G4dn)", "gpu", {"G4dn"}};
  if (in.goal == "cost" && in.model_kind == "transformer" && neuron_framework(in.framework))
    return {tree, "Transformer Models + Cost Focus -> AWS Inferentia (Inf2)", "inferentia", {"Inf2"}};
  return {tree, "Mixed Model Types -> NVIDIA A10G (G5)", "gpu", {"G5"}};
}

// What choosing each kind of hardware means, from seed 002's advantages and limitations.
struct KindProfile {
  const char* name;
  const char* complexity;
  const char* risk;
  std::vector<std::string> notes;
};

KindProfile profile(const std::string& kind) {
  if (kind == "trainium")
    return {"AWS Trainium", "high", "medium",
            {"purpose-built for deep-learning training; seed 002 quotes up to 50% savings against comparable GPU training",
             "supports PyTorch (torch-xla) and TensorFlow only; best for transformer architectures",
             "code changes: XLA device and xm.optimizer_step; models compile with the Neuron SDK before the first step",
             "smaller community and tooling; debugging is harder than on GPUs"}};
  if (kind == "inferentia")
    return {"AWS Inferentia", "high", "medium",
            {"specialized for inference; seed 002 quotes up to 70% savings for production inference",
             "optimized for transformer models; PyTorch and TensorFlow through the Neuron SDK",
             "a compile step (torch-neuron trace / neuronx) for each model shape before serving"}};
  if (kind == "cpu")
    return {"CPU-only", "low", "low",
            {"general-purpose, no specialized software; cost-effective for small and simple models",
             "slow for large transformers: no tensor cores; memory is system RAM"}};
  return {"NVIDIA GPU", "low", "low",
          {"broad framework compatibility and mature tooling (any framework, any architecture)",
           "the default for research, mixed workloads and multi-framework teams"}};
}

Json cheapest_of_kind(const Catalog& catalog, const DecisionInput& in, const std::string& kind,
                      const std::vector<std::string>& preferred, const MemoryRequirement& need) {
  const InstanceType* best = nullptr;
  double best_usd = 0;
  Placement best_place;
  auto consider = [&](const InstanceType& it) {
    if (it.accelerator_kind != kind || !it.price_flags.empty() || !it.on_demand_usd_per_hour) return;
    const Fit f = fit_on(it, it.gpus, need);
    if (!f.fits) return;
    Placement p{&it, it.gpus, 1, it.name, false};
    const auto usd = cost_of(catalog, p, in.billing).usd_per_month;
    if (usd && (!best || *usd < best_usd)) {
      best = &it;
      best_usd = *usd;
      best_place = p;
    }
  };
  for (const auto& key : preferred) {
    if (const Family* f = catalog.family(key)) {
      for (std::size_t i : f->instances) consider(catalog.instances[i]);
    }
  }
  if (!best) {
    for (const InstanceType& it : catalog.instances) consider(it);
  }
  if (!best) return nullptr;
  Json j;
  j["instance"] = best->name;
  j["family"] = best->family_key;
  j["provider"] = best->provider;
  j["gpu_type"] = best->gpu_type;
  j["fit"] = report::fit(fit_on(*best, best->gpus, need));
  j["cost"] = report::cost(cost_of(catalog, best_place, in.billing));
  return j;
}

}  // namespace

Json decide(const Catalog& catalog, const DecisionInput& in) {
  const Branch pick = choose(in);
  const MemoryRequirement need = memory_requirement(catalog, in.model, in.workload, *in.precision);
  Json options = Json::array();
  for (const std::string kind : {"gpu", "trainium", "inferentia", "cpu"}) {
    const KindProfile prof = profile(kind);
    Json option;
    option["kind"] = kind;
    option["name"] = prof.name;
    std::vector<std::string> reasons = prof.notes;
    bool suitable = true;
    if ((kind == "trainium" || kind == "inferentia") && !neuron_framework(in.framework)) {
      suitable = false;
      reasons.insert(reasons.begin(), in.framework + " is not supported by the Neuron SDK per seed 002 (PyTorch and TensorFlow only)");
    }
    if (kind == "trainium" && in.workload == WorkloadType::kInference) {
      suitable = false;
      reasons.insert(reasons.begin(), "Trainium is built for training; Inferentia is its inference counterpart");
    }
    if (kind == "inferentia" && in.workload != WorkloadType::kInference) {
      suitable = false;
      reasons.insert(reasons.begin(), "Inferentia serves inference only");
    }
    if (kind == "cpu" && in.model.parameters > 7e9 && in.model_kind != "simple") {
      reasons.insert(reasons.begin(), "a model above 7B parameters on CPU is slow: consider it only for batch or offline work");
    }
    if (kind == "cpu" && in.latency_ms && *in.latency_ms <= 10) {
      suitable = false;
      reasons.insert(reasons.begin(), "a sub-10 ms latency target needs an accelerator (seed 002)");
    }
    Json cheapest = cheapest_of_kind(catalog, in, kind, kind == pick.kind ? pick.families : std::vector<std::string>{}, need);
    if (cheapest.is_null()) {
      suitable = false;
      reasons.insert(reasons.begin(), "no priced instance of this kind in the catalog holds " +
                                          report::short_number(report::round_to(need.total_bytes / 1e9, 1)) + " GB");
    }
    option["suitable"] = suitable;
    option["migration_complexity"] = kind == "gpu" ? "low" : prof.complexity;
    option["risk_level"] = prof.risk;
    option["cheapest_instance"] = std::move(cheapest);
    option["reasons"] = std::move(reasons);
    option["recommended"] = kind == pick.kind;
    options.push_back(option);
  }
  Json out;
  out["decision_tree"] = pick.tree;
  out["branch"] = pick.branch;
  out["recommended_kind"] = pick.kind;
  out["recommended_families"] = pick.families;
  out["memory"] = report::memory(need);
  out["options"] = std::move(options);
  out["source"] = "seed 002 (Compute Resource Selection): decision trees for training and inference";
  return out;
}

}  // namespace gpufleet
