// Nodes for the deployment: Karpenter NodePool + EC2NodeClass, eksctl ClusterConfig, GKE
// ComputeClass. GPU nodes are labelled and tainted so that only GPU pods land on them.

#include <utility>

#include "api/deploy/deploy_files.hpp"

namespace gpufleet::detail::deploy {
namespace {

bool has_base(const Site& s) { return s.pricing != "on_demand" && s.on_demand_base.value > 0; }
bool on_demand_only(const Site& s) { return s.pricing == "on_demand"; }

std::string types_list(const Site& s, const std::string& pad) {
  std::string y;
  for (const std::string& t : s.fallback_types) y += pad + "- " + quoted(t) + "\n";
  return y;
}

std::string node_pool(const Site& s, const std::string& name, const std::string& capacity,
                      double max_gpus, const std::string& max_from, int weight) {
  std::string y =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: " + name + "\nspec:\n";
  if (weight)
    y += "  weight: " + num(weight) + "  # tried before the spot pool: the on-demand base first\n";
  y += "  template:\n    metadata:\n      labels:\n        nvidia.com/gpu.present: \"true\"\n    "
       "spec:\n";
  y += "      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        "
       "name: " +
       s.name + "\n";
  y += "      taints:\n        - key: nvidia.com/gpu\n          effect: NoSchedule\n      "
       "requirements:\n";
  y +=
      "        - key: node.kubernetes.io/instance-type\n          operator: In\n          values:  "
      "# " +
      s.instance->name +
      " first, then the catalog's types with the same GPU and GPUs per instance, cheapest first\n" +
      types_list(s, "            ");
  y += "        - key: karpenter.sh/capacity-type\n          operator: In\n          values: [" +
       capacity + "]\n";
  y += "  limits:\n    nvidia.com/gpu: " + num(max_gpus) + "  # " + max_from + "\n";
  y += "  disruption:\n    consolidationPolicy: WhenEmpty\n";
  if (s.scaling)
    y += "    consolidateAfter: " + num(s.scaling->scale_down_s.value) + "s" +
         yaml_note(s.scaling->scale_down_s) + "\n";
  else
    y += "    consolidateAfter: Never  # a fixed deployment: nodes stay\n";
  return y;
}

std::string ec2_node_class(const Site& s) {
  return "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: " + s.name +
         "\nspec:\n"
         "  role: KarpenterNodeRole-CLUSTER_NAME  # your cluster's node role\n"
         "  amiSelectorTerms:\n    - alias: al2023@latest  # the EKS AL2023 NVIDIA AMI for GPU "
         "types; pin a dated release once tested\n"
         "  subnetSelectorTerms:\n    - tags:\n        karpenter.sh/discovery: CLUSTER_NAME\n"
         "  securityGroupSelectorTerms:\n    - tags:\n        karpenter.sh/discovery: "
         "CLUSTER_NAME\n";
}

std::string gpus_of(const Site& s, const Traced& instances) {
  return num(instances.value) + " instances (" + instances.from + ") x " +
         num(s.gpus_per_instance.value) + " GPUs (" + s.gpus_per_instance.from + ")";
}

// Google Cloud's accelerator names (Compute Engine "GPU machine types",
// https://cloud.google.com/compute/docs/gpus, and GKE's cloud.google.com/gke-accelerator label).
constexpr std::pair<const char*, const char*> kGcpAccelerators[] = {
    {"T4", "nvidia-tesla-t4"},
    {"V100-16GB", "nvidia-tesla-v100"},
    {"L4", "nvidia-l4"},
    {"A100-40GB", "nvidia-tesla-a100"},
    {"A100-80GB", "nvidia-a100-80gb"},
    {"H100-SXM-80GB", "nvidia-h100-80gb"},
};

}  // namespace

std::string gcp_machine_type(const InstanceType& it) {
  return it.name.substr(0, it.name.find('+'));
}

std::string gcp_accelerator(const InstanceType& it) {
  for (const auto& [model, name] : kGcpAccelerators)
    if (it.gpu_model == model) return name;
  return "";
}

std::vector<File> karpenter(const Site& s) {
  std::string y = header(s, "Karpenter NodePool and EC2NodeClass (karpenter.sh/v1)");
  y += "# Karpenter launches spot with the price-capacity-optimized strategy and sets no maximum "
       "price.\n";
  y += "# GPU nodes need the NVIDIA device plugin, pinned to a release:\n#   kubectl apply -f "
       "https://raw.githubusercontent.com/NVIDIA/k8s-device-plugin/" +
       std::string(kDevicePluginVersion) + "/deployments/static/nvidia-device-plugin.yml\n";
  const double max_gpus = s.max_instances.value * s.gpus_per_instance.value;
  if (has_base(s)) {
    y += "---\n" + node_pool(s, s.name + "-on-demand", "\"on-demand\"",
                             s.on_demand_base.value * s.gpus_per_instance.value,
                             gpus_of(s, s.on_demand_base), 100);
    y += "---\n" +
         node_pool(s, s.name + "-spot", "\"spot\"", max_gpus, gpus_of(s, s.max_instances), 0);
  } else {
    y += "---\n" + node_pool(s, s.name,
                             on_demand_only(s) ? "\"on-demand\"" : "\"spot\", \"on-demand\"",
                             max_gpus, gpus_of(s, s.max_instances), 0);
  }
  y += "---\n" + ec2_node_class(s);
  return {{"karpenter", "karpenter/" + s.name + "-nodepool.yaml", "application/yaml", y}};
}

std::vector<File> eksctl(const Site& s) {
  std::string y =
      header(s, "eksctl ClusterConfig (node groups to add: eksctl create nodegroup -f)");
  y += "# eksctl installs the NVIDIA device plugin for GPU node groups; to pin it yourself, create "
       "them with\n"
       "# --install-nvidia-plugin=false and apply the " +
       std::string(kDevicePluginVersion) + " release's manifest.\n";
  y += "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: CLUSTER_NAME\n  "
       "region: " +
       quoted(s.region) + "\n";
  const std::string common =
      "    labels:\n      nvidia.com/gpu.present: \"true\"\n      gpufleet/deployment: " + s.name +
      "\n    taints:\n      - key: nvidia.com/gpu\n        value: \"true\"\n        effect: "
      "NoSchedule\n"
      "    amiFamily: AmazonLinux2023\n";
  auto sizes = [&](const std::string& pad) {
    return pad + "minSize: " + num(s.min_instances.value) + yaml_note(s.min_instances) + "\n" +
           pad + "maxSize: " + num(s.max_instances.value) + yaml_note(s.max_instances) + "\n" +
           pad + "desiredCapacity: " + num(s.instances.value) + yaml_note(s.instances) + "\n";
  };
  if (on_demand_only(s)) {
    y += "managedNodeGroups:\n  - name: " + s.name +
         "\n    instanceType: " + quoted(s.instance->name) + "\n" + sizes("    ") + common;
  } else {
    y += "nodeGroups:\n  - name: " + s.name + "\n" + sizes("    ") +
         "    instancesDistribution:\n      instanceTypes:\n" + types_list(s, "        ") +
         "      onDemandBaseCapacity: " + num(s.on_demand_base.value) +
         yaml_note(s.on_demand_base) +
         "\n      onDemandPercentageAboveBaseCapacity: " + num(s.on_demand_above_base_pct.value) +
         yaml_note(s.on_demand_above_base_pct) +
         "\n      spotAllocationStrategy: price-capacity-optimized  # no maximum price: spot is "
         "paid at its current price\n" +
         common;
  }
  return {{"eksctl", "eksctl/" + s.name + "-nodegroup.yaml", "application/yaml", y}};
}

std::vector<File> gke_compute_class(const Site& s) {
  std::string y = header(s, "GKE ComputeClass (cloud.google.com/v1)");
  if (has_base(s))
    y += "# The on-demand base (" + num(s.on_demand_base.value) + " nodes, " +
         s.on_demand_base.from +
         ") is the Terraform file's on-demand node pool; this class prefers spot above it.\n";
  y += "apiVersion: cloud.google.com/v1\nkind: ComputeClass\nmetadata:\n  name: " + s.name +
       "\nspec:\n  priorities:\n";
  auto rule = [&](bool spot) {
    return "    - machineType: " + quoted(gcp_machine_type(*s.instance)) +
           "\n      spot: " + (spot ? "true" : "false") +
           "\n      gpu:\n        type: " + quoted(gcp_accelerator(*s.instance)) +
           "\n        count: " + num(s.gpus_per_instance.value) + yaml_note(s.gpus_per_instance) +
           "\n";
  };
  if (!on_demand_only(s)) y += rule(true);
  y += rule(false);
  y += "  nodePoolAutoCreation:\n    enabled: true\n  whenUnsatisfiable: DoNotScaleUp\n";
  return {{"gke_compute_class", "gke/" + s.name + "-computeclass.yaml", "application/yaml", y}};
}

}  // namespace gpufleet::detail::deploy
