// Amazon ECS: a task definition with the GPU resource requirement (as seed 003 shows) and a
// service at the deployment's replicas. JSON has no comments: each figure's source is a tag.

#include "api/deploy/deploy_files.hpp"
#include "support/json.hpp"

namespace gpufleet::detail::deploy {
namespace {

Json tag(const std::string& key, const std::string& value, const Traced& t) {
  std::string text = value + " <- " + t.from;
  if (text.size() > 256) text = text.substr(0, 253) + "...";
  return {{"key", "gpufleet:" + key}, {"value", text}};
}

Json engine_command(const Site& s) {
  if (s.engine == "sglang")
    return {"python3",
            "-m",
            "sglang.launch_server",
            "--model-path",
            s.model_id,
            "--tp-size",
            num(s.tensor_parallel.value),
            "--context-length",
            num(s.max_model_len.value),
            "--mem-fraction-static",
            num(s.gpu_memory_utilization.value),
            "--max-running-requests",
            num(s.max_num_seqs.value),
            "--host",
            "0.0.0.0",
            "--port",
            "30000"};
  return {"--model",
          s.model_id,
          "--tensor-parallel-size",
          num(s.tensor_parallel.value),
          "--max-model-len",
          num(s.max_model_len.value),
          "--gpu-memory-utilization",
          num(s.gpu_memory_utilization.value),
          "--max-num-seqs",
          num(s.max_num_seqs.value),
          "--port",
          "8000"};
}

}  // namespace

std::vector<File> ecs(const Site& s) {
  const int port = s.engine == "sglang" ? 30000 : 8000;
  Json container = {{"name", "engine"},
                    {"image", s.engine_image},
                    {"essential", true},
                    {"command", engine_command(s)},
                    {"portMappings", Json::array({{{"containerPort", port}, {"protocol", "tcp"}}})},
                    {"resourceRequirements",
                     Json::array({{{"type", "GPU"}, {"value", num(s.gpus_per_replica.value)}}})},
                    {"memoryReservation", whole(s.host_memory_mib)}};
  Json tags = Json::array(
      {tag("catalog",
           s.catalog_version + " of " + s.catalog_date + "; prices as of " + s.prices_as_of,
           Traced{0, "the catalog the answer used"}),
       tag("gpus", num(s.gpus_per_replica.value), s.gpus_per_replica),
       tag("tensor-parallel-size", num(s.tensor_parallel.value), s.tensor_parallel),
       tag("max-model-len", num(s.max_model_len.value), s.max_model_len),
       tag("gpu-memory-utilization", num(s.gpu_memory_utilization.value), s.gpu_memory_utilization),
       tag("max-num-seqs", num(s.max_num_seqs.value), s.max_num_seqs),
       tag("memory-reservation-mib", num(s.host_memory_mib.value), s.host_memory_mib),
       tag("image", s.engine_image, Traced{0, s.engine_image_from})});
  Json task = {
      {"family", s.name},
      {"requiresCompatibilities", Json::array({"EC2"})},
      {"networkMode", "awsvpc"},
      {"placementConstraints",
       Json::array({{{"type", "memberOf"},
                     {"expression", "attribute:ecs.instance-type == " + s.instance->name}}})},
      {"containerDefinitions", Json::array({container})},
      {"tags", tags}};
  Json service = {
      {"serviceName", s.name},
      {"cluster", "CLUSTER_NAME"},
      {"taskDefinition", s.name},
      {"desiredCount", whole(s.replicas)},
      {"launchType", "EC2"},
      {"tags",
       Json::array(
           {tag("catalog",
                s.catalog_version + " of " + s.catalog_date + "; prices as of " + s.prices_as_of,
                Traced{0, "the catalog the answer used"}),
            tag("desired-count", num(s.replicas.value), s.replicas),
            tag("instances", num(s.instances.value) + " x " + s.instance->name, s.instances)})}};
  return {{"ecs", "ecs/" + s.name + "-taskdef.json", "application/json", task.dump(2) + "\n"},
          {"ecs", "ecs/" + s.name + "-service.json", "application/json", service.dump(2) + "\n"}};
}

}  // namespace gpufleet::detail::deploy
