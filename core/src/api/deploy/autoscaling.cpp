// Autoscaling from the autoscale answer's recommended settings: a KEDA ScaledObject (Prometheus
// trigger) or a HorizontalPodAutoscaler (a Pods metric through prometheus-adapter).

#include "api/deploy/deploy_files.hpp"

namespace gpufleet::detail::deploy {
namespace {

// The engine's Prometheus series for the metric, summed over the deployment's pods.
std::string query(const Site& s) {
  const std::string m = "{model_name=\"" + s.model_id + "\"}";
  const bool sg = s.engine == "sglang";
  const std::string running =
      sg ? "sum(sglang:num_running_reqs" + m + ")" : "sum(vllm:num_requests_running" + m + ")";
  const std::string waiting =
      sg ? "sum(sglang:num_queue_reqs" + m + ")" : "sum(vllm:num_requests_waiting" + m + ")";
  if (s.scaling->metric == "queue_length") return waiting;
  if (s.scaling->metric == "requests_per_s")
    return sg ? "sum(rate(sglang:num_requests_total" + m + "[1m]))"
              : "sum(rate(vllm:request_success_total" + m + "[1m]))";
  return running + " + " + waiting;
}

std::string behavior(const Scaling& c, const std::string& pad) {
  return pad + "scaleUp:\n" + pad + "  stabilizationWindowSeconds: " + num(c.scale_up_s.value) +
         yaml_note(c.scale_up_s) + "\n" + pad + "scaleDown:\n" + pad +
         "  stabilizationWindowSeconds: " + num(c.scale_down_s.value) + yaml_note(c.scale_down_s) +
         "\n";
}

std::string target_kind(const Site& s) {
  return s.instances_per_replica.value > 1 ? "LeaderWorkerSet" : "Deployment";
}
std::string target_api(const Site& s) {
  return s.instances_per_replica.value > 1 ? "leaderworkerset.x-k8s.io/v1" : "apps/v1";
}

}  // namespace

std::vector<File> keda(const Site& s) {
  const Scaling& c = *s.scaling;
  std::string y = header(s, "KEDA ScaledObject");
  y += "# The metric: " + c.metric + " per replica, read from the engine's Prometheus metrics.\n";
  y += "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: " + s.name +
       "\nspec:\n  scaleTargetRef:\n";
  y += "    apiVersion: " + target_api(s) + "\n    kind: " + target_kind(s) +
       "\n    name: " + s.name + "\n";
  y += "  pollingInterval: " + num(c.polling_s.value) + yaml_note(c.polling_s) + "\n";
  y += "  minReplicaCount: " + num(c.min_replicas.value) + yaml_note(c.min_replicas) + "\n";
  y += "  maxReplicaCount: " + num(c.max_replicas.value) + yaml_note(c.max_replicas) + "\n";
  y += "  advanced:\n    horizontalPodAutoscalerConfig:\n      behavior:\n" +
       behavior(c, "        ");
  y += "  triggers:\n    - type: prometheus\n      metricType: AverageValue\n      metadata:\n";
  y += "        serverAddress: http://prometheus.monitoring:9090\n        query: " +
       quoted(query(s)) + "\n";
  y += "        threshold: " + quoted(num(c.threshold.value)) + yaml_note(c.threshold) + "\n";
  return {{"keda", "keda/" + s.name + "-scaledobject.yaml", "application/yaml", y}};
}

std::vector<File> hpa(const Site& s) {
  const Scaling& c = *s.scaling;
  std::string y = header(s, "HorizontalPodAutoscaler (autoscaling/v2)");
  y += "# The Pods metric gpufleet_" + c.metric +
       " needs a prometheus-adapter rule that serves, per pod:\n#   " + query(s) +
       "\n# The HPA's sync period (" + num(c.polling_s.value) + " s, " + c.polling_s.from +
       ") is the controller manager's --horizontal-pod-autoscaler-sync-period.\n";
  y += "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: " + s.name +
       "\nspec:\n  scaleTargetRef:\n";
  y += "    apiVersion: " + target_api(s) + "\n    kind: " + target_kind(s) +
       "\n    name: " + s.name + "\n";
  y += "  minReplicas: " + num(c.min_replicas.value) + yaml_note(c.min_replicas) + "\n";
  y += "  maxReplicas: " + num(c.max_replicas.value) + yaml_note(c.max_replicas) + "\n";
  y += "  metrics:\n    - type: Pods\n      pods:\n        metric:\n          name: gpufleet_" +
       c.metric + "\n";
  y += "        target:\n          type: AverageValue\n          averageValue: " +
       quoted(num(c.threshold.value)) + yaml_note(c.threshold) + "\n";
  y += "  behavior:\n" + behavior(c, "    ");
  return {{"hpa", "hpa/" + s.name + "-hpa.yaml", "application/yaml", y}};
}

}  // namespace gpufleet::detail::deploy
