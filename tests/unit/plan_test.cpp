// Fleet plans: seed 001's plan reproduces its figures against a catalog holding seed 001's prices.
#include <catch2/catch.hpp>

#include <map>

#include "support.hpp"

using namespace gpufleet;

namespace {

const Analyzer& seed001() {
  static const Analyzer analyzer([] {
    CatalogSources s = test::config_sources();
    s.gpu_instances_json = test::read_file(test::source_path("tests/data/seed001_catalog/gpu_instances.json"));
    s.workloads_json = R"({"workloads": {}})";
    return s;
  }());
  return analyzer;
}

Json plan_request() {
  return {{"question", "plan"}, {"plan", Json::parse(test::read_file(test::source_path("tests/cases/plans/seed001.json")))}};
}

}  // namespace

TEST_CASE("seed 001's plan reproduces its monthly figures") {
  REQUIRE(seed001().catalog_ok());
  Json r = test::ask(seed001(), plan_request());
  INFO(r.dump());
  REQUIRE(r["ok"] == true);
  const Json& envs = r["result"]["environments"];
  REQUIRE(envs.size() == 4);
  // Seed 001, "Monthly Cost Estimates by Workload".
  CHECK(envs[0]["name"] == "Development");
  CHECK(envs[0]["usd_per_month"].get<double>() == Approx(185.15));  // 2 x $0.526 x 8 x 22 = $185
  CHECK(envs[1]["usd_per_month"].get<double>() == Approx(269.28));  // 1 x $3.060 x 4 x 22 = $269
  // 3 x $0.752 x 24 x 30 = $1,624.32; the seed prints $1,623 (its own arithmetic is $1.32 short).
  CHECK(envs[2]["usd_per_month"].get<double>() == Approx(1624.32));
  CHECK(envs[3]["usd_per_month"].get<double>() == Approx(3145.92));  // 1 x $32.770 x 24 x 4 = $3,146
  CHECK(r["result"]["total_usd_per_month"].get<double>() == Approx(185.15 + 269.28 + 1624.32 + 3145.92));
  CHECK(envs[0]["workloads"][0]["cost"]["schedule"] == "8 h/day x 22 days = 176 h/month");
  CHECK(envs[2]["workloads"][0]["cost"]["schedule"] == "24/7 at 720 h/month");
}

TEST_CASE("a plan is re-priced on every provider and the cheapest mix is found") {
  Json r = test::ask(seed001(), plan_request());
  const Json& res = r["result"];
  // Seed 001's GCP table: n1-standard-4 + T4 $0.395/h -> 2 x 0.395 x 176 h.
  bool gcp_t4 = false;
  for (const auto& alt : res["environments"][0]["workloads"][0]["alternatives"]) {
    if (alt["provider"] == "gcp") {
      gcp_t4 = true;
      CHECK(alt["instance"] == "n1-standard-4+1xT4");
      CHECK(alt["usd_per_month"].get<double>() == Approx(2 * 0.395 * 176));
    }
  }
  CHECK(gcp_t4);
  CHECK(res["by_provider_usd_per_month"]["azure"].is_null());  // no 8 x A100 at Azure in seed 001
  CHECK(res["by_provider_usd_per_month"]["gcp"].get<double>() < res["total_usd_per_month"].get<double>());
  CHECK(res["cheapest_mix"]["usd_per_month"].get<double>() <= res["by_provider_usd_per_month"]["gcp"].get<double>());
  CHECK(res["cheapest_mix"]["choices"].size() == 4);
}

TEST_CASE("plan faults name their path") {
  Json request = plan_request();
  request["plan"]["environments"][1]["workloads"][0]["instance"] = "p9.huge";
  Json r = test::ask(seed001(), request);
  REQUIRE(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/plan/environments/1/workloads/0/instance");
  request = plan_request();
  request["plan"]["environments"][0]["workloads"][0]["schedule"] = {{"hours_per_day", 25}};
  r = test::ask(seed001(), request);
  CHECK(r["errors"][0]["path"] == "/plan/environments/0/workloads/0/schedule/hours_per_day");
  request = plan_request();
  request["plan"]["environments"] = Json::array();
  r = test::ask(seed001(), request);
  CHECK(r["errors"][0]["path"] == "/plan/environments");
}

TEST_CASE("equivalents match the accelerator first, then the host's vCPUs and RAM, saying what a host lacks") {
  auto alternatives = [](const char* instance) {
    const Json plan = {{"name", "one"},
                       {"environments", {{{"name", "e"}, {"workloads", {{{"name", "w"}, {"instance", instance}, {"count", 1}}}}}}}};
    const Json r = test::ask(test::shipped(), {{"question", "plan"}, {"plan", plan}});
    INFO(r.dump().substr(0, 1500));
    REQUIRE(r["ok"] == true);
    std::map<std::string, Json> by_provider;
    for (const Json& alt : r["result"]["environments"][0]["workloads"][0]["alternatives"]) by_provider[alt["provider"]] = alt;
    return by_provider;
  };
  // g4dn.2xlarge: 1 T4, 8 vCPUs, 32 GiB. AWS's g4dn.xlarge has the GPU but half the host.
  auto t4 = alternatives("g4dn.2xlarge");
  CHECK(t4["aws"]["instance"] == "g4dn.2xlarge");
  CHECK(t4["azure"]["instance"] == "Standard_NC8as_T4_v3");   // 8 vCPUs, 56 GiB
  CHECK(t4["gcp"]["instance"] == "n1-standard-8+1xT4");       // 8 vCPUs, 30 GB: the nearest host
  CHECK(t4["gcp"]["host_short_of"] == Json::array({"RAM 30 of 32 GiB"}));
  CHECK_FALSE(t4["azure"].contains("host_short_of"));
  // p3.2xlarge: 1 V100 with 8 vCPUs and 61 GiB. Azure's one-V100 host has 6 vCPUs; its two-V100
  // size would buy a second GPU for the host.
  auto v100 = alternatives("p3.2xlarge");
  CHECK(v100["azure"]["instance"] == "Standard_NC6s_v3");
  CHECK(v100["azure"]["host_short_of"] == Json::array({"vCPUs 6 of 8"}));
}
