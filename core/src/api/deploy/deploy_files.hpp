#pragma once
// Deployable files (issue 36, docs/deploy.md): a chosen deployment read from an answer, and one
// writer per target family. Every number a file holds is a Traced figure: the value and the
// answer's figure it came from, written beside it as a comment (or an annotation where the format
// has none). Internal to the core.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"

namespace gpufleet::detail::deploy {

// A figure and where it came from: "fit result.deployment.concurrency_per_replica (...)".
struct Traced {
  double value = 0;
  std::string from;
};

// The autoscale answer's recommended settings.
struct Scaling {
  Traced min_replicas, max_replicas, threshold, polling_s, scale_up_s, scale_down_s;
  Traced target_rps;   // requests/s per replica at the target utilization (SkyServe's target)
  std::string metric;  // concurrency | queue_length | requests_per_s
};

// One region's share of a chosen deployment, as the files need it.
struct Site {
  std::string source;    // the question the deployment came from
  std::string name;      // a Kubernetes name: the model's key + the engine
  std::string model_id;  // what the engine loads (the Hugging Face id)
  std::string engine;    // vllm | sglang
  std::string engine_image;
  std::string engine_image_from;
  const InstanceType* instance = nullptr;
  std::string region;
  std::vector<std::string> fallback_types;  // same GPU and GPUs per instance, cheapest first
  Traced gpus_per_instance, instances_per_replica, gpus_per_replica, replicas, instances;
  Traced tensor_parallel, pipeline_parallel, max_num_seqs, max_model_len, gpu_memory_utilization;
  std::string pricing;    // on_demand | spot | mixed
  Traced mean_instances;  // instances over the month, on average: what a cost tool should price
  Traced min_instances,
      max_instances;                // the node group's bounds (both `instances` without autoscale)
  Traced on_demand_base;            // instances kept on demand under spot or mixed
  Traced on_demand_base_replicas;   // the same base in model copies (SkyServe counts replicas)
  Traced on_demand_above_base_pct;  // on-demand share of the instances above the base
  Traced usd_per_instance_hour, usd_per_month;
  std::optional<Scaling> scaling;
  Traced host_memory_mib;  // the container's soft memory reservation (ECS)
  // A packing of several models (placement): its node group ("nodes") or one placed model
  // ("serving"); a fleet plan's workload ("plan": instances and hours, no model); "" for a
  // deployment of one model, which writes both kinds of file.
  std::string role;
  std::string plan_workload;                 // "workload X of environment Y of plan Z"
  Traced hours_per_month;                    // a plan workload's hours a month (0: not a plan's)
  std::vector<std::string> shares_gpu_with;  // other models on this model's GPU
  std::vector<std::string> packed_models;    // a node group's: the models of the packing
  std::string unwritable;                    // why no file can be written for this model
  Traced gpu_shares;  // the most models on one GPU: the device plugin's time-slicing replicas
  std::string catalog_version, catalog_date, prices_as_of;
};

struct File {
  std::string target;
  std::string name;
  std::string media_type;  // application/yaml, application/json, text/x-hcl
  std::string content;
};

// Text helpers the writers share.
std::string num(double v);                 // "48", "0.9"
std::string quoted(const std::string& s);  // a JSON string, which YAML and HCL read too
std::string yaml_note(const Traced& t);    // "  # from ..."
std::string header(const Site& s, const std::string& what, const char* comment = "#");
int whole(const Traced& t);

// Google Cloud: the machine type of an offer ("n1-standard-8+4xT4" -> "n1-standard-8") and its
// accelerator's name in Compute Engine and GKE ("nvidia-l4"), "" when the catalog's GPU has none.
std::string gcp_machine_type(const InstanceType& it);
std::string gcp_accelerator(const InstanceType& it);

// The writers, one file each (docs/deploy.md lists their formats).
std::vector<File> kubernetes(const Site& s);
std::vector<File> keda(const Site& s);
std::vector<File> hpa(const Site& s);
std::vector<File> karpenter(const Site& s);
std::vector<File> eksctl(const Site& s);
std::vector<File> gke_compute_class(const Site& s);
std::vector<File> terraform(const Site& s);
std::vector<File> ecs(const Site& s);
std::vector<File> skypilot(const Site& s);
std::vector<File> infracost(const Site& s);

// The target table: its name, the providers it applies to, whether it needs autoscale's settings.
struct Target {
  const char* name;
  const char* providers;  // space separated
  bool needs_scaling;
  bool one_instance_per_replica;  // the format cannot spread a replica over instances
  std::vector<File> (*write)(const Site&);
};
const Target* targets_begin();
const Target* targets_end();
const Target* target(const std::string& name);
bool applies(const Target& t, const Site& s);

// The NVIDIA device plugin release the files pin (a release, never main).
inline constexpr const char* kDevicePluginVersion = "v0.17.0";

}  // namespace gpufleet::detail::deploy
