// The deploy question (api/questions/deploy.cpp) and its writers (api/deploy/): figures read from
// the source answer asked on its own, refusals, and the target table against the field table.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "api/deploy/deploy_files.hpp"
#include "api/request_fields.hpp"
#include "support.hpp"

using namespace gpufleet;
using test::ask;
using test::shipped;

namespace {

const Json kFitG6e = {{"question", "fit"},
                      {"model", {{"name", "llama-3.1-8b"}}},
                      {"workload", "inference"},
                      {"instance", "g6e.xlarge"},
                      {"gpus", 1}};

std::string content(const Json& answer, const std::string& target) {
  for (const Json& f : answer["result"]["files"])
    if (f["target"] == target) return f["content"].get<std::string>();
  return "";
}

}  // namespace

TEST_CASE("the field table's targets are the writers' table, with all", "[deploy]") {
  std::vector<std::string> table{"all"};
  for (auto t = detail::deploy::targets_begin(); t != detail::deploy::targets_end(); ++t)
    table.push_back(t->name);
  CHECK(detail::allowed_values("deploy", "target") == table);
}

TEST_CASE("deploy from fit: the engine's flags are fit's figures, each named", "[deploy]") {
  const Json fit = ask(shipped(), kFitG6e);
  REQUIRE(fit["ok"] == true);
  const Json d =
      ask(shipped(), {{"question", "deploy"}, {"target", "kubernetes"}, {"from", kFitG6e}});
  REQUIRE(d["ok"] == true);
  const std::string k8s = content(d, "kubernetes");
  const int seqs =
      static_cast<int>(fit["result"]["deployment"]["concurrency_per_replica"].get<double>());
  CHECK(k8s.find("- \"" + std::to_string(seqs) +
                 "\"  # fit result.deployment.concurrency_per_replica") != std::string::npos);
  CHECK(k8s.find("- \"700\"  # request demand.input_tokens 500 + output_tokens 200") !=
        std::string::npos);
  CHECK(
      k8s.find("- \"0.9\"  # model_config.json memory_model.engines.vllm.gpu_memory_utilization") !=
      std::string::npos);
  CHECK(k8s.find("node.kubernetes.io/instance-type: \"g6e.xlarge\"") != std::string::npos);
  CHECK(k8s.find("k8s-device-plugin/v0.17.0/") != std::string::npos);
  CHECK(d["result"]["files"].size() == 1);
}

TEST_CASE("deploy refuses a target that does not apply, naming those that do", "[deploy]") {
  Json from = kFitG6e;
  from["instance"] = "g2-standard-8";
  const Json d = ask(shipped(), {{"question", "deploy"}, {"target", "ecs"}, {"from", from}});
  REQUIRE(d["ok"] == false);
  CHECK(d["errors"][0]["path"] == "/target");
  const std::string m = d["errors"][0]["message"];
  CHECK(m.find("ecs does not apply to gcp") != std::string::npos);
  CHECK(m.find("gke_compute_class") != std::string::npos);
  CHECK(m.find("karpenter") == std::string::npos);
}

TEST_CASE("deploy's faults in the source request are under /from", "[deploy]") {
  Json from = kFitG6e;
  from["gpus"] = -1;
  Json d = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", from}});
  REQUIRE(d["ok"] == false);
  CHECK(d["errors"][0]["path"] == "/from/gpus");
  from = kFitG6e;
  from["colour"] = "red";
  d = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", from}});
  CHECK(d["errors"][0]["path"] == "/from/colour");
  from["question"] = "memory";
  d = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", from}});
  CHECK(d["errors"][0]["path"] == "/from/question");
}

TEST_CASE("deploy refuses what cannot run and what names no servable model", "[deploy]") {
  Json from = kFitG6e;
  from["model"] = {{"name", "llama-3.1-70b"}};
  Json d = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", from}});
  REQUIRE(d["ok"] == false);
  CHECK(d["errors"][0]["code"] == "cannot_answer");
  from["model"] = {{"size", "small"}};
  d = ask(shipped(), {{"question", "deploy"}, {"target", "kubernetes"}, {"from", from}});
  REQUIRE(d["ok"] == false);
  CHECK(std::string(d["errors"][0]["message"]).find("name a model of the catalog") !=
        std::string::npos);
  d = ask(shipped(), {{"question", "deploy"}, {"target", "terraform"}, {"from", from}});
  CHECK(d["ok"] == true);  // the nodes need no model
}

TEST_CASE("deploy without autoscale settings writes no KEDA or HPA and says why", "[deploy]") {
  const Json d = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", kFitG6e}});
  REQUIRE(d["ok"] == true);
  CHECK(content(d, "keda").empty());
  for (const Json& t : d["result"]["targets"])
    if (t["target"] == "keda")
      CHECK(std::string(t["reason"]).find("autoscale") != std::string::npos);
  const Json k = ask(shipped(), {{"question", "deploy"}, {"target", "keda"}, {"from", kFitG6e}});
  CHECK(k["ok"] == false);
}

TEST_CASE("deploy from recommend takes the candidate asked, and refuses one out of range",
          "[deploy]") {
  const Json from = {{"question", "recommend"},
                     {"model", {{"name", "llama-3.1-8b"}}},
                     {"workload", "inference"},
                     {"kinds", {"gpu"}}};
  const Json rec = ask(shipped(), from);
  REQUIRE(rec["ok"] == true);
  const Json d =
      ask(shipped(),
          {{"question", "deploy"}, {"target", "skypilot"}, {"from", from}, {"candidate", 1}});
  REQUIRE(d["ok"] == true);
  CHECK(d["result"]["deployments"][0]["instance"] == rec["result"]["candidates"][1]["instance"]);
  const Json bad =
      ask(shipped(),
          {{"question", "deploy"}, {"target", "skypilot"}, {"from", from}, {"candidate", 999}});
  CHECK(bad["errors"][0]["path"] == "/candidate");
}

TEST_CASE("deploy refuses accelerators the files cannot drive: Inferentia, AMD", "[deploy]") {
  const Json from = {{"question", "fit"},
                     {"model", {{"name", "llama-3.1-8b"}}},
                     {"workload", "inference"},
                     {"instance", "inf2.xlarge"}};
  const Json d = ask(shipped(), {{"question", "deploy"}, {"target", "kubernetes"}, {"from", from}});
  REQUIRE(d["ok"] == false);
  CHECK(std::string(d["errors"][0]["message"]).find("written for NVIDIA GPUs") !=
        std::string::npos);
  const Json all = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", from}});
  REQUIRE(all["ok"] == false);
  CHECK(std::string(all["errors"][0]["message"]).find("no target applies") != std::string::npos);
}

TEST_CASE("deploy from placement: one node group, each catalog model's engine within its share",
          "[deploy]") {
  const Json from = {
      {"question", "placement"},
      {"instance", "g5.12xlarge"},
      {"models",
       {{{"name", "llama-3.1-8b"},
         {"model", {{"name", "llama-3.1-8b"}}},
         {"workload", "inference"}},
        {{"name", "qwen3-4b"}, {"model", {{"name", "qwen3-4b"}}}, {"workload", "inference"}},
        {{"name", "whisper"}, {"memory_gb", 10}}}}};
  const Json placed = ask(shipped(), from);
  REQUIRE(placed["ok"] == true);
  const Json d = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", from}});
  REQUIRE(d["ok"] == true);
  int node_groups = 0;
  for (const Json& f : d["result"]["files"]) node_groups += f["target"] == "eksctl";
  CHECK(node_groups == 1);
  // Every GPU's engines are capped at shares that fit on it together.
  for (const Json& g : placed["result"]["on_instance"]["gpus"]) {
    if (g["models"].size() < 2) continue;
    double sum = 0;
    for (const Json& dep : d["result"]["deployments"])
      for (const Json& m : g["models"]) {
        std::string key = m.get<std::string>();  // as a Kubernetes name: "llama-3-1-8b"
        std::replace(key.begin(), key.end(), '.', '-');
        if (dep["name"].get<std::string>().rfind(key + "-", 0) == 0)
          sum += dep["gpu_memory_utilization"]["value"].get<double>();
      }
    CHECK(sum <= 1.0);
  }
  bool whisper_named = false;
  for (const Json& l : d["result"]["left_out"])
    whisper_named = whisper_named || std::string(l["reason"]).find("whisper") != std::string::npos;
  CHECK(whisper_named);
  const Json wrong = ask(shipped(), {{"question", "deploy"},
                                     {"target", "all"},
                                     {"from", kFitG6e},
                                     {"packing", "cheapest_split"}});
  CHECK(wrong["errors"][0]["path"] == "/packing");
}

TEST_CASE("deploy from a plan: each workload's node group, the serving targets refused",
          "[deploy]") {
  const Json workload = {{"name", "Serving"},  {"instance", "g6e.xlarge"},
                         {"count", 4},         {"hours_per_month", 300},
                         {"pricing", "mixed"}, {"spot_share", 0.75}};
  const Json from = {
      {"question", "plan"},
      {"plan", {{"name", "p"}, {"environments", {{{"name", "Prod"}, {"workloads", {workload}}}}}}}};
  const Json d = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", from}});
  REQUIRE(d["ok"] == true);
  const Json& dep = d["result"]["deployments"][0];
  CHECK(dep["name"] == "prod-serving");
  CHECK(dep["instances"]["value"] == 4);
  CHECK(dep["hours_per_month"]["value"] == 300);
  CHECK(dep["on_demand_base_instances"]["value"] == 1);  // 4 less 0.75 x 4 on spot
  const std::string tf = content(d, "terraform");
  CHECK(tf.find("on_demand_base_capacity                  = 1  # plan workload count 4 less "
                "spot_share 0.75") != std::string::npos);
  CHECK(content(d, "infracost")
            .find("monthly_hrs: 300  # plan result.environments/0/workloads/0"
                  ".cost.monthly_hours") != std::string::npos);
  for (const Json& t : d["result"]["targets"])
    CHECK(t["applies"] ==
          (t["target"] != "kubernetes" && t["target"] != "keda" && t["target"] != "hpa" &&
           t["target"] != "ecs" && t["target"] != "gke_compute_class"));
  const Json k = ask(shipped(), {{"question", "deploy"}, {"target", "kubernetes"}, {"from", from}});
  REQUIRE(k["ok"] == false);
  CHECK(k["errors"][0]["path"] == "/target");
  const std::string m = k["errors"][0]["message"];
  CHECK(m.find("a plan's workload names none") != std::string::npos);
  CHECK(m.find("the targets that apply: karpenter") != std::string::npos);
  Json bad = from;
  bad["plan"]["environments"][0]["workloads"][0]["count"] = 0;
  CHECK(ask(shipped(),
            {{"question", "deploy"}, {"target", "all"}, {"from", bad}})["errors"][0]["path"] ==
        "/from/plan/environments/0/workloads/0/count");
}

TEST_CASE("SkyServe's on-demand base counts replicas, node groups instances", "[deploy]") {
  // Llama 3.1 405B in bf16 over two p5.48xlarge per copy (pipeline parallel): instances !=
  // replicas.
  const Json from = {{"question", "autoscale"},
                     {"model", {{"name", "llama-3.1-405b"}}},
                     {"precision", "bf16"},
                     {"instance", "p5.48xlarge"},
                     {"profile", {{"shape", "diurnal_5x"}, {"peak_requests_per_s", 40}}},
                     {"pricing", "mixed"},
                     {"spot_share", 0.5}};
  const Json scaled = ask(shipped(), from);
  REQUIRE(scaled["ok"] == true);
  const int base = scaled["result"]["committed_base"]["replicas"].get<int>();
  REQUIRE(base > 0);
  const Json d = ask(shipped(), {{"question", "deploy"}, {"target", "all"}, {"from", from}});
  REQUIRE(d["ok"] == true);
  REQUIRE(d["result"]["deployments"][0]["instances_per_replica"]["value"] == 2);
  CHECK(content(d, "skypilot")
            .find("base_ondemand_fallback_replicas: " + std::to_string(base) +
                  "  # autoscale result.committed_base.replicas") != std::string::npos);
  CHECK(content(d, "eksctl").find("onDemandBaseCapacity: " + std::to_string(2 * base) + "  #") !=
        std::string::npos);
}
