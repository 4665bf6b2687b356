// SkyPilot: a SkyServe service YAML (the engine on the instance type; replicas, or the autoscale
// answer's bounds; spot with an on-demand base as base_ondemand_fallback_replicas, which SkyServe
// counts in replicas, not instances); a fleet plan's workload as `sky launch` tasks of its nodes.

#include "api/deploy/deploy_files.hpp"

namespace gpufleet::detail::deploy {
namespace {

// The resources a node of the site takes: a Google Cloud offer of a machine type with GPUs
// attached ("n1-standard-8+4xT4") is the machine type and its accelerators.
std::string resources(const Site& s, bool spot) {
  std::string y = "resources:\n  cloud: " + s.instance->provider +
                  "\n  region: " + quoted(s.region) + "\n  instance_type: ";
  if (s.instance->provider == "gcp" && s.instance->name.find('+') != std::string::npos)
    y += quoted(gcp_machine_type(*s.instance)) + "\n  accelerators: " +
         quoted(s.instance->gpu_model + ":" + num(s.gpus_per_instance.value)) + "  # " +
         s.gpus_per_instance.from + "\n";
  else
    y += quoted(s.instance->name) + "\n";
  return y + "  use_spot: " + (spot ? "true" : "false") + "\n";
}

// One `sky launch` task of `nodes` instances of a plan's workload.
File plan_task(const Site& s, const std::string& suffix, bool spot, const Traced& nodes) {
  std::string y = header(s, "SkyPilot task (sky launch -c " + s.name + suffix + ")");
  y += "# The plan runs these instances " + num(s.hours_per_month.value) + " h a month (" +
       s.hours_per_month.from + "): stop them outside those hours (sky stop, sky start).\n";
  y += "# A plan's workload names no command: add `run:` (and `setup:`) for yours.\n";
  y += "name: " + s.name + suffix + "\n" + resources(s, spot);
  y += "num_nodes: " + num(nodes.value) + yaml_note(nodes) + "\n";
  return {"skypilot", "skypilot/" + s.name + suffix + ".yaml", "application/yaml", y};
}

std::vector<File> plan_tasks(const Site& s) {
  if (s.pricing == "on_demand") return {plan_task(s, "", false, s.instances)};
  const Traced above{s.instances.value - s.on_demand_base.value,
                     "the rest on spot: " + s.instances.from + " less the on-demand base"};
  if (s.on_demand_base.value <= 0) return {plan_task(s, "", true, s.instances)};
  std::vector<File> files{plan_task(s, "-on-demand", false, s.on_demand_base)};
  if (above.value > 0) files.push_back(plan_task(s, "-spot", true, above));
  return files;
}

}  // namespace

std::vector<File> skypilot(const Site& s) {
  if (s.role == "plan") return plan_tasks(s);
  const bool sg = s.engine == "sglang";
  const bool spot = s.pricing != "on_demand";
  std::string y = header(s, "SkyPilot service (sky serve up)");
  y += "name: " + s.name + "\n";
  y += resources(s, spot) + "  image_id: " + quoted("docker:" + s.engine_image) + "  # " +
       s.engine_image_from + "\n  ports: " + (sg ? "30000" : "8000") + "\n";
  y += "num_nodes: " + num(std::max(1.0, s.instances_per_replica.value)) +
       yaml_note(s.instances_per_replica) + "\n";
  y += "service:\n  readiness_probe: /health\n";
  if (s.scaling) {
    const Scaling& c = *s.scaling;
    y += "  replica_policy:\n    min_replicas: " + num(c.min_replicas.value) +
         yaml_note(c.min_replicas) + "\n";
    y += "    max_replicas: " + num(c.max_replicas.value) + yaml_note(c.max_replicas) + "\n";
    y += "    target_qps_per_replica: " + num(c.target_rps.value) + yaml_note(c.target_rps) + "\n";
    y += "    upscale_delay_seconds: " + num(c.scale_up_s.value) + yaml_note(c.scale_up_s) + "\n";
    y += "    downscale_delay_seconds: " + num(c.scale_down_s.value) + yaml_note(c.scale_down_s) +
         "\n";
    if (spot)
      y += "    base_ondemand_fallback_replicas: " + num(s.on_demand_base_replicas.value) +
           yaml_note(s.on_demand_base_replicas) + "\n";
  } else if (spot) {
    y += "  replica_policy:\n    min_replicas: " + num(s.replicas.value) + yaml_note(s.replicas) +
         "\n";
    y += "    base_ondemand_fallback_replicas: " + num(s.on_demand_base_replicas.value) +
         yaml_note(s.on_demand_base_replicas) + "\n";
  } else {
    y += "  replicas: " + num(s.replicas.value) + yaml_note(s.replicas) + "\n";
  }
  y += "# " + std::string(sg ? "--tp-size " : "--tensor-parallel-size ") +
       num(s.tensor_parallel.value) + ": " + s.tensor_parallel.from + "\n";
  if (!sg || s.pipeline_parallel.value > 1)
    y += "# " + std::string(sg ? "--pp-size " : "--pipeline-parallel-size ") +
         num(s.pipeline_parallel.value) + ": " + s.pipeline_parallel.from + "\n";
  y += "# " + std::string(sg ? "--context-length " : "--max-model-len ") +
       num(s.max_model_len.value) + ": " + s.max_model_len.from + "\n";
  y += "# " + std::string(sg ? "--mem-fraction-static " : "--gpu-memory-utilization ") +
       num(s.gpu_memory_utilization.value) + ": " + s.gpu_memory_utilization.from + "\n";
  y += "# " + std::string(sg ? "--max-running-requests " : "--max-num-seqs ") +
       num(s.max_num_seqs.value) + ": " + s.max_num_seqs.from + "\n";
  std::string run;
  if (sg) {
    run = "python3 -m sglang.launch_server --model-path " + s.model_id + " --tp-size " +
          num(s.tensor_parallel.value) +
          (s.pipeline_parallel.value > 1 ? " --pp-size " + num(s.pipeline_parallel.value) : "") +
          " --context-length " + num(s.max_model_len.value) + " --mem-fraction-static " +
          num(s.gpu_memory_utilization.value) + " --max-running-requests " +
          num(s.max_num_seqs.value) +
          (s.instances_per_replica.value > 1
               ? " --nnodes $SKYPILOT_NUM_NODES --node-rank $SKYPILOT_NODE_RANK --dist-init-addr "
                 "$(echo \"$SKYPILOT_NODE_IPS\" | head -n1):20000"
               : "") +
          " --host 0.0.0.0 --port 30000";
  } else {
    const std::string serve =
        "python3 -m vllm.entrypoints.openai.api_server --model " + s.model_id +
        " --tensor-parallel-size " + num(s.tensor_parallel.value) + " --pipeline-parallel-size " +
        num(s.pipeline_parallel.value) + " --max-model-len " + num(s.max_model_len.value) +
        " --gpu-memory-utilization " + num(s.gpu_memory_utilization.value) + " --max-num-seqs " +
        num(s.max_num_seqs.value) + " --port 8000";
    if (s.instances_per_replica.value > 1) {
      run =
          "HEAD_IP=$(echo \"$SKYPILOT_NODE_IPS\" | head -n1)\nif [ \"$SKYPILOT_NODE_RANK\" = 0 ]; "
          "then\n  ray start --head --port 6379\n"
          "  " +
          serve +
          " --distributed-executor-backend ray\nelse\n  ray start --address $HEAD_IP:6379 "
          "--block\nfi";
    } else {
      run = serve;
    }
  }
  y += "run: |\n";
  std::size_t at = 0;
  while (at < run.size()) {
    const std::size_t end = run.find('\n', at);
    y += "  " + run.substr(at, end == std::string::npos ? std::string::npos : end - at) + "\n";
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return {{"skypilot", "skypilot/" + s.name + ".yaml", "application/yaml", y}};
}

}  // namespace gpufleet::detail::deploy
