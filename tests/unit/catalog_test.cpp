#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "catalog/catalog.hpp"
#include "support.hpp"
#include "pricing/prices.hpp"

using namespace gpufleet;
using test::config_sources;
using test::edited;

namespace {

const Error* find_error(const Errors& errors, const std::string& file, const std::string& path) {
  for (const auto& e : errors) {
    if (e.file == file && e.path == path) return &e;
  }
  return nullptr;
}

// The seed's "Add New GPU Instance" entry, exactly as printed.
const char* kSeedNewGpu = R"json({
  "name": "New Instance (Custom GPU)", "family": "N", "gpu_type": "NVIDIA CustomGPU",
  "vcpus": 128, "gpu_memory_gb": 96, "gpus_per_instance": 4, "compute_tflops": 1500.0,
  "interconnect_type": "Custom", "interconnect_bandwidth_gbps": 800,
  "on_demand_cost_per_hour": 45.0, "spot_cost_per_hour": 15.0,
  "memory_bandwidth_factor": 0.85, "interconnect_multiplier": 0.9,
  "description": "Custom GPU instance for specific workloads"})json";

}  // namespace

TEST_CASE("the shipped catalog loads with the nine seed families and all three providers") {
  CatalogLoad load = load_catalog(config_sources());
  REQUIRE(load.errors.empty());
  const Catalog& c = *load.catalog;
  for (const char* key : {"G4dn", "G5", "G6", "G6e", "P4d", "P4de", "P5", "P5e", "P6"}) {
    INFO(key);
    REQUIRE(c.family(key) != nullptr);
  }
  // 96 instance types of the first catalog, plus GCP a2-ultragpu-2g and -4g (the SkyPilot GCP rows).
  CHECK(c.instances.size() == 98);
  std::set<std::string> providers;
  for (const auto& f : c.families) providers.insert(f.provider);
  CHECK(providers == std::set<std::string>{"aws", "azure", "gcp"});
  // Every offer carries its source and date (or says why the upstream has none); prices, where
  // present, are positive, and a spot price not below on-demand is flagged.
  for (const auto& it : *c.offers) {
    INFO(it.name << " in " << it.region);
    CHECK_FALSE(it.source.empty());
    const bool iso_date = it.source_date.size() == 10 && it.source_date[4] == '-' && it.source_date[7] == '-';
    CHECK((iso_date || it.source_date.rfind("undated: ", 0) == 0));
    if (it.on_demand_usd_per_hour) CHECK(*it.on_demand_usd_per_hour > 0);
    if (it.spot_usd_per_hour && it.on_demand_usd_per_hour && *it.spot_usd_per_hour >= *it.on_demand_usd_per_hour) {
      CHECK(std::count(it.price_flags.begin(), it.price_flags.end(), "spot_not_below_on_demand") == 1);
    }
  }
}

TEST_CASE("every accelerator family states its NVLink domain with a source and a date, a bad one is refused") {
  const Json doc = Json::parse(test::read_file(test::source_path("config/gpu_instances.json")));
  int families = 0;
  for (const auto& [key, family] : doc["gpu_instances"].items()) {
    if (family.value("accelerator_kind", "gpu") == "cpu") continue;
    INFO(key);
    REQUIRE(family.contains("nvlink_domain_gpus"));
    CHECK(family["nvlink_domain_gpus"].get<double>() >= 1);
    CHECK(family["nvlink_domain_gpus"].get<double>() <= std::max(1.0, family["gpus_per_instance"].get<double>()));
    CHECK(family.value("nvlink_domain_source", "").size() > 20);
    CHECK(family.value("nvlink_domain_source_date", "").size() == 10);
    ++families;
  }
  CHECK(families == 29);
  const Errors zero = load_catalog(edited(kGpuInstancesFile, [](Json& d) { d["gpu_instances"]["P5"]["nvlink_domain_gpus"] = 0; })).errors;
  CHECK(find_error(zero, kGpuInstancesFile, "/gpu_instances/P5/nvlink_domain_gpus") != nullptr);
  const Errors text = load_catalog(edited(kGpuInstancesFile, [](Json& d) {
                        d["gpu_instances"]["P5"]["sizes"]["p5.4xlarge"]["nvlink_domain_gpus"] = "eight";
                      })).errors;
  CHECK(find_error(text, kGpuInstancesFile, "/gpu_instances/P5/sizes/p5.4xlarge/nvlink_domain_gpus") != nullptr);
}

TEST_CASE("prices match the public extracts' own checks, region by region") {
  CatalogLoad load = load_catalog(config_sources());
  REQUIRE(load.errors.empty());
  const Catalog& c = *load.catalog;
  auto offer = [&](const std::string& name, const std::string& region) -> const InstanceType& {
    for (const auto& it : *c.offers) {
      if (it.name == name && it.region == region) return it;
    }
    FAIL("no offer of " << name << " in " << region);
    throw;
  };
  // Independent source: the "Checks" of ../shared/data/prices/SOURCES.md (figures read off the
  // upstream rows and the providers' public prices).
  CHECK(*offer("g4dn.xlarge", "us-east-1").on_demand_usd_per_hour == Approx(0.526));
  CHECK(*offer("p5.48xlarge", "us-east-1").on_demand_usd_per_hour == Approx(55.04));
  CHECK(*offer("g5.xlarge", "us-east-1").on_demand_usd_per_hour == Approx(1.006));
  CHECK(*offer("g5.xlarge", "eu-west-1").on_demand_usd_per_hour == Approx(1.123));
  CHECK(*offer("p4d.24xlarge", "us-east-1").on_demand_usd_per_hour == Approx(21.957642));
  CHECK(*offer("a2-highgpu-1g", "us-central1").on_demand_usd_per_hour == Approx(0.73948 + 2.93391));
  CHECK(*offer("Standard_NC4as_T4_v3", "eastus").on_demand_usd_per_hour == Approx(0.526));
  CHECK(*offer("Standard_NC4as_T4_v3", "eastus").spot_usd_per_hour == Approx(0.062699));
  CHECK(*offer("Standard_NC24ads_A100_v4", "eastus").on_demand_usd_per_hour == Approx(3.673));
  CHECK(*offer("Standard_ND96asr_v4", "eastus").on_demand_usd_per_hour == Approx(27.197));
  // The default view is each provider's usual region.
  CHECK(c.instance("g5.xlarge")->region == "us-east-1");
  CHECK(*c.instance("g5.xlarge")->on_demand_usd_per_hour == Approx(1.006));
  // A missing price is absent, never invented: p5e.48xlarge has no public on-demand price.
  CHECK_FALSE(c.instance("p5e.48xlarge")->on_demand_usd_per_hour.has_value());
  // Usable memory as the cloud reports it: A10G 22,888 MiB, not 24 GiB.
  CHECK(c.instance("g5.xlarge")->memory_per_gpu_bytes == 22888.0 * 1024 * 1024);
}

TEST_CASE("a seed-style entry (all fields inline) loads and is usable") {
  auto sources = edited(kGpuInstancesFile, [](Json& doc) {
    doc["gpu_instances"]["NewGPU"] = Json::parse(kSeedNewGpu);
  });
  Analyzer analyzer(sources);
  REQUIRE(analyzer.catalog_ok());
  Json r = test::ask(analyzer, {{"question", "fit"}, {"model", {{"size", "medium"}}},
                                {"workload", "inference"}, {"precision", "fp16"},
                                {"instance", "NewGPU"}, {"gpus", 1}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["placement"]["instance"] == "NewGPU");
  CHECK(r["result"]["fit"]["fits"] == true);  // 84 GB on a 96 GiB (103 GB) GPU
  CHECK(r["result"]["cost"]["usd_per_month"] == Approx(45.0 * 720));
}

TEST_CASE("the seed's Update Pricing edit changes what P5 costs") {
  auto sources = edited(kGpuInstancesFile, [](Json& doc) {
    doc["gpu_instances"]["P5"]["on_demand_cost_per_hour"] = 45.0;
    doc["gpu_instances"]["P5"]["spot_cost_per_hour"] = 15.0;
  });
  Analyzer analyzer(sources);
  REQUIRE(analyzer.catalog_ok());
  Json r = test::ask(analyzer, {{"question", "cost"}, {"instance", "P5"}, {"gpus", 8}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["placement"]["instance"] == "p5.48xlarge");
  CHECK(r["result"]["cost"]["usd_per_month"] == Approx(45.0 * 720));
  CHECK(r["result"]["spot"]["usd_per_month"] == Approx(15.0 * 720));
}

TEST_CASE("the seed's custom model size and custom workload work as written") {
  auto sources = edited(kModelConfigFile, [](Json& doc) {
    doc["model_sizes"]["extra_large"] = Json::parse(R"json({
      "name": "Extra Large", "description": "200B+ parameters", "parameter_count_billion": 200,
      "typical_use_cases": ["research", "enterprise_applications"],
      "memory_overhead_multiplier": 1.8, "examples": ["GPT-4+", "Custom Enterprise Models"]})json");
  });
  sources = edited(kWorkloadsFile, [](Json& doc) {
    doc["workloads"]["my_custom_workload"] = Json::parse(R"json({
      "name": "Custom Training Scenario",
      "description": "Large scale model training on legacy hardware",
      "scenario": {"current_instance": "P4d", "current_gpu_count": 8, "workload_type": "TRAINING",
                   "model_size": "MASSIVE", "monthly_hours": 300, "use_spot": true, "precision": "bf16"},
      "expected_outcome": "Significant performance gains with newer P-series",
      "tags": ["training", "massive_model", "performance_upgrade"]})json");
  }, sources);
  Analyzer analyzer(sources);
  REQUIRE(analyzer.catalog_ok());
  Json p = test::ask(analyzer, {{"question", "precisions"}, {"model", {{"size", "extra_large"}}}});
  REQUIRE(p["ok"] == true);
  CHECK(p["result"]["precisions"][0]["weights_gb"] == Approx(800));  // 200B x 4 bytes
  Json fit = test::ask(analyzer, {{"question", "fit"}, {"model", {{"size", "extra_large"}}},
                                  {"workload", "training"}, {"precision", "bf16"},
                                  {"instance", "P6"}, {"gpus", 8}, {"memory_method", "seed"}});
  CHECK(fit["result"]["memory"]["total_gb"] == Approx(720));  // the seed's rule: 400 GB x 1.8
  Json w = test::ask(analyzer, {{"question", "workload"}, {"id", "my_custom_workload"}});
  REQUIRE(w["ok"] == true);
  CHECK(w["result"]["report"]["current"]["fit"]["fits"] == false);  // 1215 GB on 8 x 40 GB
  CHECK(w["result"]["report"].contains("ways_out"));
}

TEST_CASE("catalog faults name the file, the JSON path and the expectation") {
  SECTION("a spot price that is a string") {
    auto sources = edited(kGpuInstancesFile, [](Json& doc) {
      doc["gpu_instances"]["P5"]["spot_cost_per_hour"] = "abc";
    });
    CatalogLoad load = load_catalog(sources);
    const Error* e = find_error(load.errors, "gpu_instances.json", "/gpu_instances/P5/spot_cost_per_hour");
    REQUIRE(e != nullptr);
    CHECK(e->code == "wrong_type");
    CHECK_THAT(e->message, Catch::Contains("expected a number") && Catch::Contains("\"abc\""));
  }
  SECTION("a negative price") {
    auto sources = edited(kGpuInstancesFile, [](Json& doc) {
      doc["gpu_instances"]["G5"]["sizes"]["g5.xlarge"]["on_demand_cost_per_hour"] = -1;
    });
    CatalogLoad load = load_catalog(sources);
    const Error* e = find_error(load.errors, "gpu_instances.json",
                                "/gpu_instances/G5/sizes/g5.xlarge/on_demand_cost_per_hour");
    REQUIRE(e != nullptr);
    CHECK(e->code == "out_of_range");
  }
  SECTION("a price below the floor that makes tokens per dollar meaningful (1e-6 USD/h)") {
    for (double usd : {5e-324, 1e-9, 0.0}) {
      auto sources = edited(kGpuInstancesFile, [&](Json& doc) {
        doc["gpu_instances"]["G5"]["sizes"]["g5.xlarge"]["on_demand_cost_per_hour"] = usd;
        doc["gpu_instances"]["P5"]["spot_cost_per_hour"] = usd;
      });
      CatalogLoad load = load_catalog(sources);
      for (const char* path : {"/gpu_instances/G5/sizes/g5.xlarge/on_demand_cost_per_hour",
                               "/gpu_instances/P5/spot_cost_per_hour"}) {
        const Error* e = find_error(load.errors, "gpu_instances.json", path);
        REQUIRE(e != nullptr);
        CHECK(e->code == "out_of_range");
        CHECK_THAT(e->message, Catch::Contains(">= 1e-06"));
      }
    }
  }
  SECTION("a compute capability that is not major.minor") {
    for (const char* bad : {"sm_90", "9", "", "9.x"}) {
      auto sources = edited(kGpuInstancesFile, [&](Json& doc) {
        doc["gpus"]["H100-SXM-80GB"]["compute_capability"] = bad;
      });
      CatalogLoad load = load_catalog(sources);
      const Error* e =
          find_error(load.errors, "gpu_instances.json", "/gpus/H100-SXM-80GB/compute_capability");
      if (std::string(bad).empty()) {
        CHECK(e == nullptr);  // not stated
        continue;
      }
      REQUIRE(e != nullptr);
      CHECK_THAT(e->message, Catch::Contains("such as \"9.0\"") && Catch::Contains(bad));
    }
    auto sources = edited(kModelConfigFile, [](Json& doc) {
      doc["throughput_model"]["engines"]["transformers"]["eager_host"]["cudnn_preferred_on"] = {
          "9.0", ""};
    });
    const CatalogLoad load = load_catalog(sources);
    const Error* e =
        find_error(load.errors, "model_config.json",
                   "/throughput_model/engines/transformers/eager_host/cudnn_preferred_on/1");
    REQUIRE(e != nullptr);
    CHECK(e->code == "out_of_range");
  }
  SECTION("a missing required field") {
    auto sources = edited(kGpuInstancesFile, [](Json& doc) { doc["gpu_instances"]["G6"].erase("gpu_memory_gb"); });
    CatalogLoad load = load_catalog(sources);
    const Error* e = find_error(load.errors, "gpu_instances.json", "/gpu_instances/G6/gpu_memory_gb");
    REQUIRE(e != nullptr);
    CHECK(e->code == "missing_field");
  }
  SECTION("invalid JSON") {
    CatalogSources sources = config_sources();
    sources.model_config_json = "{\"model_sizes\": {";
    CatalogLoad load = load_catalog(sources);
    REQUIRE_FALSE(load.errors.empty());
    CHECK(load.errors[0].code == "invalid_json");
    CHECK(load.errors[0].file == "model_config.json");
  }
  SECTION("an empty file and a wrong top-level type") {
    CatalogSources sources = config_sources();
    sources.workloads_json = "";
    sources.model_config_json = "[1, 2]";
    CatalogLoad load = load_catalog(sources);
    CHECK(find_error(load.errors, "workloads.json", "") != nullptr);
    const Error* e = find_error(load.errors, "model_config.json", "");
    REQUIRE(e != nullptr);
    CHECK(e->code == "wrong_type");
  }
  SECTION("unknown enum values in a workload") {
    auto sources = edited(kWorkloadsFile, [](Json& doc) {
      doc["workloads"]["inference_small_p5"]["scenario"]["workload_type"] = "GAMING";
      doc["workloads"]["inference_small_p5"]["scenario"]["precision"] = "fp4";
      doc["workloads"]["inference_small_p5"]["scenario"]["current_instance"] = "Z9";
    });
    CatalogLoad load = load_catalog(sources);
    const std::string base = "/workloads/inference_small_p5/scenario/";
    for (const char* field : {"workload_type", "precision", "current_instance"}) {
      const Error* e = find_error(load.errors, "workloads.json", base + field);
      INFO(field);
      REQUIRE(e != nullptr);
      CHECK(e->code == "unknown_name");
    }
  }
  SECTION("a workload set naming an unknown workload") {
    auto sources = edited(kWorkloadsFile, [](Json& doc) { doc["workload_sets"]["basic_demos"].push_back("nope"); });
    CatalogLoad load = load_catalog(sources);
    CHECK(find_error(load.errors, "workloads.json", "/workload_sets/basic_demos/2") != nullptr);
  }
  SECTION("a duplicate instance name") {
    auto sources = edited(kGpuInstancesFile, [](Json& doc) {
      doc["gpu_instances"]["G6"]["sizes"]["g5.xlarge"] = {{"gpus_per_instance", 1}, {"vcpus", 4}};
    });
    CatalogLoad load = load_catalog(sources);
    const Error* e = find_error(load.errors, "gpu_instances.json", "/gpu_instances/G6/sizes/g5.xlarge");
    REQUIRE(e != nullptr);
    CHECK(e->code == "duplicate_name");
  }
  SECTION("speeds far below any device's, which would make every time infinite, are refused") {
    // The hardening probe: 1e-300 GB/s and TFLOPS were inside the ranges and made estimate answer Infinity.
    auto sources = edited(kGpuInstancesFile, [](Json& doc) {
      doc["gpus"]["H100-SXM-80GB"]["memory_bandwidth_gb_per_s"] = 1e-300;
      doc["gpus"]["H100-SXM-80GB"]["tflops"]["bf16"] = 1e-300;
      doc["gpu_instances"]["P5"]["compute_tflops"] = 1e-300;
      doc["gpu_instances"]["P5"]["interconnect_bandwidth_gbps"] = 1e-300;
      doc["gpu_instances"]["P5"]["memory_bandwidth_factor"] = 1e-300;
    });
    CatalogLoad load = load_catalog(sources);
    for (const char* path : {"/gpus/H100-SXM-80GB/memory_bandwidth_gb_per_s", "/gpus/H100-SXM-80GB/tflops/bf16", "/gpu_instances/P5/compute_tflops",
                             "/gpu_instances/P5/interconnect_bandwidth_gbps", "/gpu_instances/P5/memory_bandwidth_factor"}) {
      INFO(path);
      const Error* e = find_error(load.errors, "gpu_instances.json", path);
      REQUIRE(e != nullptr);
      CHECK(e->code == "out_of_range");
    }
    auto mfu = edited(kModelConfigFile, [](Json& doc) { doc["throughput_model"]["training_mfu"]["H100-SXM-80GB"] = 1e-300; });
    const CatalogLoad mfu_load = load_catalog(mfu);
    const Error* m = find_error(mfu_load.errors, "model_config.json", "/throughput_model/training_mfu/H100-SXM-80GB");
    REQUIRE(m != nullptr);
    CHECK(m->code == "out_of_range");
    // 0 still means "unknown" where the catalog uses it so.
    auto zero = edited(kGpuInstancesFile, [](Json& doc) { doc["gpu_instances"]["P5"]["memory_bandwidth_factor"] = 0; });
    CHECK(find_error(load_catalog(zero).errors, "gpu_instances.json", "/gpu_instances/P5/memory_bandwidth_factor") == nullptr);
  }
  SECTION("a zero GPU count and a multiplier of zero") {
    auto sources = edited(kGpuInstancesFile, [](Json& doc) { doc["gpu_instances"]["P6"]["gpus_per_instance"] = 0; });
    sources = edited(kModelConfigFile, [](Json& doc) { doc["memory_planning"]["inference_multiplier"] = 0; }, sources);
    CatalogLoad load = load_catalog(sources);
    CHECK(find_error(load.errors, "gpu_instances.json", "/gpu_instances/P6/gpus_per_instance") != nullptr);
    CHECK(find_error(load.errors, "model_config.json", "/memory_planning/inference_multiplier") != nullptr);
  }
}

TEST_CASE("an analyzer over a broken catalog answers every question with the catalog errors") {
  auto sources = edited(kGpuInstancesFile, [](Json& doc) { doc["gpu_instances"]["P5"]["vcpus"] = "many"; });
  Analyzer analyzer(sources);
  CHECK_FALSE(analyzer.catalog_ok());
  Json r = test::ask(analyzer, {{"question", "validate"}});
  CHECK(r["ok"] == false);
  CHECK(r["errors"][0]["path"] == "/gpu_instances/P5/vcpus");
}

TEST_CASE("a catalog holds at most 1024 families and 4096 instance types, a plan at most 1000 workloads") {
  // The hardening probe's catalog of 49,052 instance types loaded and froze the page: now refused.
  auto many = [](int families, int sizes_each) {
    return edited(kGpuInstancesFile, [=](Json& doc) {
      const Json family = doc["gpu_instances"]["G6e"];
      for (int f = 0; f < families; ++f) {
        Json copy = family;
        copy["instance_type"] = "g6e-copy" + std::to_string(f) + ".48xlarge";
        Json sizes = Json::object();
        for (int i = 0; i < sizes_each; ++i) sizes["g6e-copy" + std::to_string(f) + "-" + std::to_string(i)] = {{"gpus_per_instance", 1}, {"vcpus", 4}};
        copy["sizes"] = sizes;
        doc["gpu_instances"]["G6e-copy" + std::to_string(f)] = copy;
      }
    });
  };
  const CatalogLoad families = load_catalog(many(1025, 0));
  const Error* e = find_error(families.errors, "gpu_instances.json", "/gpu_instances");
  REQUIRE(e != nullptr);
  CHECK(e->code == "too_large");
  CHECK_THAT(e->message, Catch::Contains("at most 1024 families"));
  const CatalogLoad types = load_catalog(many(900, 5));  // 900 x (1 + 5) = 5400 instance types
  REQUIRE_FALSE(types.errors.empty());
  CHECK(types.errors[0].code == "too_large");
  CHECK_THAT(types.errors[0].message, Catch::Contains("at most 4096 instance types"));
  CHECK(load_catalog(many(900, 3)).errors.empty());  // 900 x 4 + the shipped 96 = 3696: accepted

  Json plan = {{"name", "big"}, {"environments", Json::array()}};
  for (int i = 0; i < 11; ++i) {
    Json env = {{"name", "e" + std::to_string(i)}, {"workloads", Json::array()}};
    for (int j = 0; j < 100; ++j) env["workloads"].push_back({{"name", "w"}, {"instance", "G6e"}, {"count", 1}});
    plan["environments"].push_back(env);
  }
  const Json r = test::ask(test::shipped(), {{"question", "plan"}, {"plan", plan}});
  REQUIRE(r["ok"] == false);
  CHECK(r["errors"][0]["code"] == "too_large");
  CHECK(r["errors"][0]["path"] == "/plan/environments/10/workloads/0");
}
