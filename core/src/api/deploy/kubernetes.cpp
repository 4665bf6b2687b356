// Kubernetes: the serving engine's Deployment and Service (vLLM or SGLang), or a LeaderWorkerSet
// when one replica spans several instances (pipeline parallelism over nodes).

#include "api/deploy/deploy_files.hpp"
#include "api/session.hpp"

namespace gpufleet::detail::deploy {
namespace {

bool sglang(const Site& s) { return s.engine == "sglang"; }
int port(const Site& s) { return sglang(s) ? 30000 : 8000; }
int pods_per_replica(const Site& s) { return std::max(1, whole(s.instances_per_replica)); }

struct Flag {
  std::string name, value;
  const Traced* figure;  // null: a constant
};

// SGLang's flags as its server arguments page names them
// (docs.sglang.io/advanced_features/server_arguments.html); --pp-size only for pipeline
// parallelism, which releases before mid-2025 do not take.
std::vector<Flag> engine_flags(const Site& s) {
  if (sglang(s)) {
    std::vector<Flag> f = {{"--model-path", s.model_id, nullptr},
                           {"--tp-size", num(s.tensor_parallel.value), &s.tensor_parallel}};
    if (s.pipeline_parallel.value > 1)
      f.push_back({"--pp-size", num(s.pipeline_parallel.value), &s.pipeline_parallel});
    f.insert(f.end(), {{"--context-length", num(s.max_model_len.value), &s.max_model_len},
                       {"--mem-fraction-static", num(s.gpu_memory_utilization.value),
                        &s.gpu_memory_utilization},
                       {"--max-running-requests", num(s.max_num_seqs.value), &s.max_num_seqs},
                       {"--host", "0.0.0.0", nullptr},
                       {"--port", "30000", nullptr}});
    return f;
  }
  return {
      {"--model", s.model_id, nullptr},
      {"--tensor-parallel-size", num(s.tensor_parallel.value), &s.tensor_parallel},
      {"--pipeline-parallel-size", num(s.pipeline_parallel.value), &s.pipeline_parallel},
      {"--max-model-len", num(s.max_model_len.value), &s.max_model_len},
      {"--gpu-memory-utilization", num(s.gpu_memory_utilization.value), &s.gpu_memory_utilization},
      {"--max-num-seqs", num(s.max_num_seqs.value), &s.max_num_seqs},
      {"--port", "8000", nullptr}};
}

// The flags as YAML list items, each figure in a comment beside its value.
std::string engine_args(const Site& s, const std::string& pad) {
  std::string a;
  for (const Flag& f : engine_flags(s))
    if (!f.figure || !f.figure->from.empty())
      a += pad + "- " + f.name + "\n" + pad + "- " + quoted(f.value) +
           (f.figure ? yaml_note(*f.figure) : "") + "\n";
  return a;
}

// The flags on one shell line, each figure in a comment line above it.
std::string engine_line(const Site& s, const std::string& pad, std::string& notes) {
  std::string line;
  for (const Flag& f : engine_flags(s)) {
    if (f.figure && f.figure->from.empty()) continue;
    line += " " + f.name + " " + f.value;
    if (f.figure) notes += pad + "# " + f.name + " " + f.value + ": " + f.figure->from + "\n";
  }
  return line;
}

// GPUs one pod asks for: a replica's GPUs spread over its instances.
std::string gpu_limit(const Site& s, const std::string& pad) {
  const double per_pod = s.gpus_per_replica.value / pods_per_replica(s);
  return pad + "nvidia.com/gpu: " + num(per_pod) + "  # " + s.gpus_per_replica.from +
         (pods_per_replica(s) > 1 ? ", over " + num(pods_per_replica(s)) + " instances" : "") +
         "\n";
}

// The pod's spec (placement, tolerations, shared memory); `container` is its one container.
std::string pod_spec(const Site& s, const std::string& pad, const std::string& container) {
  return pad + "nodeSelector:\n" + pad +
         "  node.kubernetes.io/instance-type: " + quoted(s.instance->name) + "\n" + pad +
         "tolerations:\n" + pad + "  - key: nvidia.com/gpu\n" + pad + "    operator: Exists\n" +
         pad + "    effect: NoSchedule\n" + pad + "volumes:\n" + pad +
         "  - name: dshm  # tensor-parallel ranks share memory through /dev/shm\n" + pad +
         "    emptyDir:\n" + pad + "      medium: Memory\n" + pad + "containers:\n" + container;
}

std::string container(const Site& s, const std::string& pad, const std::string& command,
                      bool serve) {
  std::string c = pad + "- name: engine\n" + pad + "  image: " + quoted(s.engine_image) + "  # " +
                  s.engine_image_from + "\n";
  c += command;
  if (serve) {
    c += pad + "  ports:\n" + pad + "    - containerPort: " + num(port(s)) + "\n" + pad +
         "      name: http\n";
    c += pad + "  readinessProbe:\n" + pad + "    httpGet:\n" + pad + "      path: /health\n" +
         pad + "      port: http\n" + pad + "    periodSeconds: 10\n";
  }
  c += pad + "  env:\n" + pad + "    - name: HF_TOKEN\n" + pad + "      valueFrom:\n" + pad +
       "        secretKeyRef:\n" + pad + "          name: hf-token\n" + pad +
       "          key: token\n" + pad + "          optional: true\n";
  c += pad + "  resources:\n" + pad + "    limits:\n" + gpu_limit(s, pad + "      ");
  c += pad + "  volumeMounts:\n" + pad + "    - name: dshm\n" + pad + "      mountPath: /dev/shm\n";
  return c;
}

std::string single_node_command(const Site& s, const std::string& pad) {
  if (sglang(s))
    return pad + "  command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n" + pad +
           "  args:\n" + engine_args(s, pad + "    ");
  return pad + "  args:\n" + engine_args(s, pad + "    ");
}

std::string deployment(const Site& s) {
  const std::string pod =
      pod_spec(s, "      ", container(s, "        ", single_node_command(s, "        "), true));
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + s.name +
         "\n  labels:\n    app: " + s.name + "\nspec:\n  replicas: " + num(s.replicas.value) +
         yaml_note(s.replicas) + "\n  selector:\n    matchLabels:\n      app: " + s.name +
         "\n  template:\n    metadata:\n      labels:\n        app: " + s.name + "\n    spec:\n" +
         pod;
}

// One replica over several instances: the leader serves, the workers join it (vLLM through Ray as
// vLLM's LeaderWorkerSet example does; SGLang through --nnodes and --dist-init-addr).
std::string leader_worker_set(const Site& s) {
  const std::string pad = "          ";
  std::string leader_cmd, worker_cmd;
  if (sglang(s)) {
    const std::string common =
        engine_args(s, pad + "    ") + pad + "    - --nnodes\n" + pad + "    - \"" +
        num(pods_per_replica(s)) + "\"" + yaml_note(s.instances_per_replica) + "\n" + pad +
        "    - --dist-init-addr\n" + pad + "    - \"$(LWS_LEADER_ADDRESS):20000\"\n" + pad +
        "    - --node-rank\n";
    leader_cmd = pad + "  command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n" + pad +
                 "  args:\n" + common + pad + "    - \"0\"\n";
    worker_cmd = pad + "  command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n" + pad +
                 "  args:\n" + common + pad + "    - \"$(LWS_WORKER_INDEX)\"\n";
  } else {
    std::string notes;
    const std::string inline_flags = engine_line(s, pad + "  ", notes);
    leader_cmd = notes + pad + "  command: [\"/bin/sh\", \"-c\"]\n" + pad + "  args:\n" + pad +
                 "    - \"bash /vllm-workspace/examples/online_serving/multi-node-serving.sh "
                 "leader --ray_cluster_size=$(LWS_GROUP_SIZE); "
                 "python3 -m vllm.entrypoints.openai.api_server" +
                 inline_flags + " --distributed-executor-backend ray\"\n";
    worker_cmd = pad + "  command: [\"/bin/sh\", \"-c\"]\n" + pad + "  args:\n" + pad +
                 "    - \"bash /vllm-workspace/examples/online_serving/multi-node-serving.sh "
                 "worker --ray_address=$(LWS_LEADER_ADDRESS)\"\n";
  }
  std::string y =
      "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: " +
      s.name + "\nspec:\n";
  y += "  replicas: " + num(s.replicas.value) + yaml_note(s.replicas) + "\n";
  y += "  leaderWorkerTemplate:\n    size: " + num(pods_per_replica(s)) +
       yaml_note(s.instances_per_replica) + "\n";
  y += "    restartPolicy: RecreateGroupOnPodRestart\n";
  y += "    leaderTemplate:\n      metadata:\n        labels:\n          app: " + s.name +
       "\n          role: leader\n      spec:\n" +
       pod_spec(s, "        ", container(s, "          ", leader_cmd, true));
  y += "    workerTemplate:\n      spec:\n" +
       pod_spec(s, "        ", container(s, "          ", worker_cmd, false));
  return y;
}

std::string service(const Site& s) {
  return "apiVersion: v1\nkind: Service\nmetadata:\n  name: " + s.name +
         "\nspec:\n  selector:\n    app: " + s.name +
         (pods_per_replica(s) > 1 ? "\n    role: leader" : "") +
         "\n  ports:\n    - name: http\n      port: 80\n      targetPort: " + num(port(s)) + "\n";
}

// A packing's node group whose GPUs hold several models: the device plugin's time-slicing config,
// so that each GPU is offered as that many shares.
std::vector<File> gpu_sharing(const Site& s) {
  const std::string v = kDevicePluginVersion;
  std::string y = header(s, "NVIDIA device plugin time-slicing config (a ConfigMap)");
  y += "# Install the device plugin " + v + " with its Helm chart and this config:\n" +
       "#   helm repo add nvdp https://nvidia.github.io/k8s-device-plugin\n" +
       "#   helm install nvdp nvdp/nvidia-device-plugin --version " + v.substr(1) +
       " -n kube-system --set config.name=" + s.name + "-sharing\n";
  y += "# Kubernetes picks which share a pod gets, not which GPU: each engine is capped at its "
       "share of memory (--gpu-memory-utilization), but a GPU may end up with other models than "
       "the packing put there. A model that needs GPUs of its own belongs on a node group without "
       "this config.\n";
  y += "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + s.name +
       "-sharing\n  namespace: kube-system\ndata:\n  config.yaml: |\n    version: v1\n"
       "    sharing:\n      timeSlicing:\n        resources:\n          - name: nvidia.com/gpu\n"
       "            replicas: " +
       num(s.gpu_shares.value) + yaml_note(s.gpu_shares) + "\n";
  return {{"kubernetes", "kubernetes/" + s.name + "-sharing.yaml", "application/yaml", y}};
}

}  // namespace

std::vector<File> kubernetes(const Site& s) {
  if (s.role == "nodes") return gpu_sharing(s);
  const bool multi = pods_per_replica(s) > 1;
  std::string y = header(s, multi ? "Kubernetes LeaderWorkerSet (lws.sigs.k8s.io) and Service"
                                  : "Kubernetes Deployment and Service");
  y += "# GPU nodes need the NVIDIA device plugin, pinned to a release:\n#   kubectl apply -f "
       "https://raw.githubusercontent.com/NVIDIA/k8s-device-plugin/" +
       std::string(kDevicePluginVersion) + "/deployments/static/nvidia-device-plugin.yml\n";
  if (!s.shares_gpu_with.empty())
    y +=
        "# Shares its GPU with " + names_of(s.shares_gpu_with) +
        " (the placement answer): nvidia.com/gpu is a time-sliced share (the node group's sharing "
        "config), the engine capped at its share of memory; --max-num-seqs is left at the engine's "
        "default, since fit sized whole GPUs.\n";
  y += "---\n" + (multi ? leader_worker_set(s) : deployment(s)) + "---\n" + service(s);
  return {{"kubernetes", "kubernetes/" + s.name + ".yaml", "application/yaml", y}};
}

}  // namespace gpufleet::detail::deploy
