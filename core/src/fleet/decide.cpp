#include "fleet/decide.hpp"

#include "fleet/recommend.hpp"

#include <utility>


namespace gpufleet {
namespace {

struct Branch {
  std::string tree;    // which decision tree of the Compute Resource Selection guide
  std::string branch;  // the line of the tree that applies
  std::string kind;    // gpu | trainium | inferentia | cpu
  std::vector<std::string> families;  // the seed's pick, in preference order
};

bool neuron_framework(const std::string& framework) {
  return framework == "pytorch" || framework == "tensorflow";
}

Branch choose(const DecisionInput& in) {
  const double b = in.w.model.parameters / 1e9;
  if (in.w.trains()) {
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

// What choosing each kind of hardware means, from the guide's advantages and limitations.
struct KindProfile {
  const char* name;
  const char* complexity;
  const char* risk;
  std::vector<std::string> notes;
};

KindProfile profile(const std::string& kind) {
  if (kind == "trainium")
    return {"AWS Trainium", "high", "medium",
            {"purpose-built for deep-learning training; the Compute Resource Selection guide quotes up to 50% savings against comparable GPU training",
             "supports PyTorch (torch-xla) and TensorFlow only; best for transformer architectures",
             "code changes: XLA device and xm.optimizer_step; models compile with the Neuron SDK before the first step",
             "smaller community and tooling; debugging is harder than on GPUs"}};
  if (kind == "inferentia")
    return {"AWS Inferentia", "high", "medium",
            {"specialized for inference; the Compute Resource Selection guide quotes up to 70% savings for production inference",
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

// The cheapest valid deployment of one kind of accelerator, or why none runs.
std::optional<Candidate> cheapest_of_kind(const Catalog& catalog, const DecisionInput& in, const std::string& kind,
                                          std::string& why) {
  Question q;
  q.w = in.w;
  q.billing = in.billing;
  q.kinds = {kind};
  q.providers = in.providers;
  Recommendation rec = recommend(catalog, q);
  if (!rec.ranked.empty()) return std::move(rec.ranked.front());
  why = rec.excluded.empty() ? "no priced instance of this kind in the catalog"
                             : "no deployment runs: " + rec.excluded.front().reason;
  return std::nullopt;
}

}  // namespace

Decision decide(const Catalog& catalog, const DecisionInput& in) {
  const Branch pick = choose(in);
  Decision out{pick.tree, pick.branch, pick.kind, pick.families, {}, {}};
  std::optional<double> tree_usd;
  std::string cheapest_kind;
  double cheapest_usd = 0;
  for (const std::string kind : {"gpu", "trainium", "inferentia", "cpu"}) {
    const KindProfile prof = profile(kind);
    DecisionOption option;
    option.kind = kind;
    option.name = prof.name;
    option.reasons = prof.notes;
    if ((kind == "trainium" || kind == "inferentia") && !neuron_framework(in.framework)) {
      option.suitable = false;
      option.reasons.insert(option.reasons.begin(), in.framework + " is not supported by the Neuron SDK per the Compute Resource Selection guide (PyTorch and TensorFlow only)");
    }
    if (kind == "trainium" && in.w.serving()) {
      option.suitable = false;
      option.reasons.insert(option.reasons.begin(), "Trainium is built for training; Inferentia is its inference counterpart");
    }
    if (kind == "cpu" && in.latency_ms && *in.latency_ms <= 10) {
      option.suitable = false;
      option.reasons.insert(option.reasons.begin(), "a sub-10 ms latency target needs an accelerator (the Compute Resource Selection guide)");
    }
    std::string why;
    option.cheapest = cheapest_of_kind(catalog, in, kind, why);
    if (!option.cheapest) {
      option.suitable = false;
      option.reasons.insert(option.reasons.begin(), why);
    }
    const std::optional<double> usd_month = option.cheapest ? option.cheapest->d.cost.usd_per_month : std::nullopt;
    if (option.suitable && usd_month && (cheapest_kind.empty() || *usd_month < cheapest_usd)) {
      cheapest_kind = kind;
      cheapest_usd = *usd_month;
    }
    if (kind == pick.kind && usd_month) tree_usd = usd_month;
    option.migration_complexity = kind == "gpu" ? "low" : prof.complexity;
    option.risk_level = prof.risk;
    option.recommended = kind == pick.kind;
    out.options.push_back(std::move(option));
  }
  if (!cheapest_kind.empty() && cheapest_kind != pick.kind) {
    out.prices_disagree = "the tree picks " + pick.kind + (tree_usd ? " (" + usd(*tree_usd) + "/month)" : std::string(" (no valid deployment)")) +
                          ", but the cheapest valid deployment is " + cheapest_kind + " at " + usd(cheapest_usd) + "/month";
  }
  return out;
}

}  // namespace gpufleet
