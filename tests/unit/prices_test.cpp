// Price files and regions (core/src/prices.cpp): every region priced, questions priced in the
// regions they name, faults in price files named with file and path, suspect prices kept out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <set>

#include "gpufleet/analyzer.hpp"
#include "api/analyzer_access.hpp"
#include "support.hpp"

using namespace gpufleet;
using test::ask;
using test::shipped;

namespace {

Json cost(const Json& extra) {
  Json request{{"question", "cost"}, {"instance", "g5.xlarge"}};
  request.update(extra);
  return ask(shipped(), request);
}

// A catalog of the shipped files with one price file replaced by `text`.
CatalogSources with_price_file(const std::string& name, const std::string& text) {
  CatalogSources s = test::config_sources();
  for (auto& f : s.price_files) {
    if (f.name == name) f.text = text;
  }
  return s;
}

std::string edited_price_file(const std::string& name, const std::function<void(Json&)>& edit) {
  Json doc = Json::parse(test::read_file(test::source_path("config/" + name)));
  edit(doc);
  return doc.dump();
}

}  // namespace

TEST_CASE("a region prices its provider's instances, the other providers keep their usual region") {
  // Independent source: ../shared/data/prices/SOURCES.md's checks (g5.xlarge 1.006 us-east-1, 1.123
  // eu-west-1; a2-highgpu-1g us-central1 0.73948 + 2.93391).
  Json usual = cost(Json::object());
  REQUIRE(usual["ok"] == true);
  CHECK(usual["result"]["cost"]["on_demand_usd_per_hour"] == Approx(1.006));
  CHECK(usual["result"]["cost"]["region"] == "us-east-1");
  Json ireland = cost({{"region", "eu-west-1"}});
  REQUIRE(ireland["ok"] == true);
  CHECK(ireland["result"]["cost"]["on_demand_usd_per_hour"] == Approx(1.123));
  CHECK(ireland["result"]["cost"]["region"] == "eu-west-1");
  Json gcp = ask(shipped(), {{"question", "cost"}, {"instance", "a2-highgpu-1g"}, {"region", "eu-west-1"}});
  REQUIRE(gcp["ok"] == true);
  CHECK(gcp["result"]["cost"]["region"] == "us-central1");
  CHECK(gcp["result"]["cost"]["on_demand_usd_per_hour"] == Approx(0.73948 + 2.93391));
}

TEST_CASE("several regions: each instance is priced in the cheapest, and cost compares them") {
  Json r = cost({{"regions", {"eu-west-1", "us-east-1"}}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["cost"]["region"] == "us-east-1");  // 1.006 < 1.123
  CHECK_THAT(r["result"]["placement"]["source"].get<std::string>(), Catch::Contains("skypilot"));
  const Json& by = r["result"]["by_region"];
  CHECK(by["reference_region"] == "eu-west-1");  // the first region named
  REQUIRE(by["regions"].size() == 2);
  CHECK(by["regions"][0]["region"] == "us-east-1");  // cheapest first
  const double east = by["regions"][0]["usd_per_month"].get<double>();
  const double west = by["regions"][1]["usd_per_month"].get<double>();
  CHECK(east == Approx(1.006 * 720));
  CHECK(west == Approx(1.123 * 720));
  CHECK(by["regions"][0]["difference_usd_per_month"].get<double>() == Approx(east - west).margin(0.01));
  CHECK(by["regions"][0]["difference_pct"].get<double>() == Approx(100 * (1.006 / 1.123 - 1)).margin(0.05));
}

TEST_CASE("regions all: every recommended candidate is priced in its type's cheapest unflagged region") {
  Json r = ask(shipped(), {{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                           {"precision", "bf16"}, {"regions", "all"}});
  REQUIRE(r["ok"] == true);
  REQUIRE(r["result"]["candidates"].size() >= 5);
  // A list holding only "all" means the same.
  Json listed = ask(shipped(), {{"question", "recommend"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                                {"precision", "bf16"}, {"regions", {"all"}}});
  CHECK(listed["result"] == r["result"]);
  const Catalog& c = *catalog_of(shipped());
  std::set<std::string> regions;
  for (const auto& cand : r["result"]["candidates"]) {
    INFO(cand["instance"]);
    if (cand["cost"]["pricing"] == "unknown") continue;  // no region prices it (listed last)
    double cheapest = std::numeric_limits<double>::infinity();
    for (const auto& o : *c.offers) {
      if (o.name == cand["instance"] && o.on_demand_usd_per_hour && o.price_flags.empty())
        cheapest = std::min(cheapest, *o.on_demand_usd_per_hour);
    }
    CHECK(cand["cost"]["on_demand_usd_per_hour"].get<double>() ==
          Approx(cheapest * cand["instance_count"].get<double>()).margin(1e-4));
    regions.insert(cand["region"].get<std::string>());
  }
  CHECK(regions.size() > 1);  // not every cheapest offer sits in a usual region
}

TEST_CASE("an instance not offered in the region asked has no price and says where it is") {
  // g7e is in the AWS extract for us-east-1 and us-east-2 only.
  Json r = ask(shipped(), {{"question", "cost"}, {"instance", "g7e.4xlarge"}, {"region", "eu-west-1"}});
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["cost"]["pricing"] == "unknown");
  CHECK_THAT(r["result"]["cost"]["note"].get<std::string>(), Catch::Contains("no price in eu-west-1; priced in us-east-1"));
}

TEST_CASE("region fields are checked: unknown, both, empty, wrong type") {
  struct Case {
    Json extra;
    const char* code;
    const char* path;
  } cases[] = {
      {{{"region", "mars-1"}}, "unknown_name", "/region"},
      {{{"regions", {"us-east-1", "mars-1"}}}, "unknown_name", "/regions/1"},
      {{{"region", "us-east-1"}, {"regions", "all"}}, "unknown_field", "/regions"},
      {{{"regions", Json::array()}}, "out_of_range", "/regions"},
      {{{"regions", 5}}, "wrong_type", "/regions"},
  };
  for (const Case& c : cases) {
    INFO(c.extra.dump());
    Json r = cost(c.extra);
    REQUIRE(r["ok"] == false);
    CHECK(r["errors"][0]["code"] == c.code);
    CHECK(r["errors"][0]["path"] == c.path);
    CHECK(r["errors"][0]["file"] == "request");
  }
}

TEST_CASE("a price file's faults name the file and the path, no catalog is built from it") {
  const std::string name = "prices/aws/eu-west-1.json";
  struct Case {
    std::function<void(Json&)> edit;
    const char* code;
    const char* path;
  } cases[] = {
      {[](Json& d) { d["offers"]["g5.xlarge"]["on_demand_cost_per_hr"] = 1.0; }, "unknown_field",
       "/offers/g5.xlarge/on_demand_cost_per_hr"},
      {[](Json& d) { d["offers"]["g5.xlarge"]["spot_cost_per_hour"] = -1; }, "out_of_range",
       "/offers/g5.xlarge/spot_cost_per_hour"},
      {[](Json& d) { d["offers"]["g5.xlarge"]["on_demand_cost_per_hour"] = 5e-324; },
       "out_of_range", "/offers/g5.xlarge/on_demand_cost_per_hour"},
      {[](Json& d) { d["offers"]["g5.xlarge"]["spot_cost_per_hour"] = 9e-7; }, "out_of_range",
       "/offers/g5.xlarge/spot_cost_per_hour"},
      {[](Json& d) { d["offers"]["g5.xlarge"]["spot_median_cost_per_hour"] = 0; }, "out_of_range",
       "/offers/g5.xlarge/spot_median_cost_per_hour"},
      {[](Json& d) { d["snapshot"]["date"] = "last week"; }, "out_of_range", "/snapshot/date"},
      {[](Json& d) { d.erase("offers"); }, "missing_field", "/offers"},
      {[](Json& d) { d["region"] = "us-east-1"; }, "duplicate_name", "/region"},
      {[](Json& d) {
         d["offers"]["g5.xlarge"]["anomalies"] = {{{"code", "x"}}};
       },
       "missing_field", "/offers/g5.xlarge/anomalies/0/detail"},
  };
  for (const Case& c : cases) {
    INFO(c.path);
    Analyzer a(with_price_file(name, edited_price_file(name, c.edit)));
    REQUIRE_FALSE(a.catalog_ok());
    bool found = false;
    // A second file for one region is named at whichever of the two comes later.
    for (const auto& e : a.catalog_errors())
      found = found || (e.code == c.code && e.path == c.path && (e.file == name || e.code == "duplicate_name"));
    CHECK(found);
  }
}

TEST_CASE("prices of a provider or an instance the catalog lacks are not used, and that is said") {
  auto sources = test::edited(kGpuInstancesFile, [](Json& doc) { doc["providers"].erase("azure"); });
  CatalogSources s = sources;
  s.price_files.push_back({"prices/aws/extra.json", R"({"provider": "aws", "region": "me-south-9",
      "snapshot": {"source": "a test", "date": "2026-11-24"}, "offers": {"not-an-instance": {"on_demand_cost_per_hour": 1}}})"});
  Analyzer a(s);
  REQUIRE(a.catalog_ok());
  std::set<std::string> warned;
  for (const auto& w : catalog_of(a)->warnings) warned.insert(w.code + " " + w.file + " " + w.path);
  CHECK(warned.count("unknown_name prices/azure/eastus.json /provider") == 1);
  CHECK(warned.count("unknown_name prices/aws/extra.json /offers/not-an-instance") == 1);
}

TEST_CASE("suspect prices from the price files are warned about and left out of rankings") {
  // The pipeline flags GCP's a3-highgpu-8g in us-central1 (5.38 per GPU-hour against a median of
  // 12.09 over GCP's regions) and the a2-ultragpu rows marked in config/prices/overrides.json.
  Json v = ask(shipped(), {{"question", "validate"}});
  std::set<std::string> flagged;
  for (const auto& w : v["result"]["warnings"]) flagged.insert(w["code"].get<std::string>() + " " + w["file"].get<std::string>() + " " + w["path"].get<std::string>());
  CHECK(flagged.count("cross_region_price prices/gcp/us-central1.json /offers/a3-highgpu-8g/anomalies/0") == 1);
  CHECK(flagged.count("marked_anomaly prices/gcp/us-central1.json /offers/a2-ultragpu-1g/anomalies/1") == 1);
  Json rank = ask(shipped(), {{"question", "estimate"}, {"model", {{"name", "llama-3.1-70b"}}}, {"rank", true}, {"limit", 50}});
  REQUIRE(rank["ok"] == true);
  for (const auto& c : rank["result"]["ranked"]) {
    CHECK(c["instance"] != "a3-highgpu-8g");
    CHECK(c["instance"] != "a2-ultragpu-8g");
  }
  // In a region where it is not suspect, it ranks.
  Json east = ask(shipped(), {{"question", "cost"}, {"instance", "a3-highgpu-8g"}, {"region", "us-east4"}});
  REQUIRE(east["ok"] == true);
  CHECK(east["result"]["cost"]["usd_per_hour"].is_number());
}

TEST_CASE("usable memory as a workload sees it flips real verdicts (T4 15,360 MiB, L40S 45,776 MiB)") {
  // T4: nvidia-smi shows 15,360 MiB (gpus.T4.source); L40S: AWS GpuInfo 45,776 MiB. With the
  // labels (16 GiB, 48 GiB) both requests below would be told they fit.
  const Json t4{{"question", "fit"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"}, {"precision", "fp16"},
                {"engine", "transformers"}, {"instance", "g4dn.xlarge"}};
  const Json l40s{{"question", "fit"}, {"model", {{"name", "mixtral-8x7b"}}}, {"workload", "inference"}, {"precision", "fp8"},
                  {"engine", "transformers"}, {"instance", "g6e.xlarge"}, {"demand", {{"input_tokens", 8000}, {"output_tokens", 200}}}};
  auto labels = test::edited(kGpuInstancesFile, [](Json& doc) {
    doc["gpus"]["T4"]["usable_memory_mib"] = 16384;
    doc["gpus"]["L40S"].erase("usable_memory_mib");
  });
  Analyzer at_labels(labels);
  for (const Json& request : {t4, l40s}) {
    INFO(request["instance"]);
    Json real = ask(shipped(), request);
    Json label = ask(at_labels, request);
    REQUIRE(real["ok"] == true);
    REQUIRE(label["ok"] == true);
    CHECK(real["result"]["fit"]["fits"] == false);
    CHECK(label["result"]["fit"]["fits"] == true);
  }
}

TEST_CASE("answers say how old their prices are") {
  Json r = cost(Json::object());
  // The SkyPilot snapshots are not dated: "unknown", never a made-up date.
  CHECK(r["catalog"]["prices_as_of"] == "unknown");
  auto dated = test::edited(kGpuInstancesFile, [](Json& doc) {
    doc["gpu_instances"]["G5"]["sizes"]["g5.xlarge"]["on_demand_cost_per_hour"] = 1.0;
    doc["gpu_instances"]["G5"]["sizes"]["g5.xlarge"]["source_date"] = "2026-01-02";
  });
  CatalogSources only_inline = dated;
  only_inline.price_files.clear();
  Analyzer a(only_inline);
  CHECK(ask(a, {{"question", "cost"}, {"instance", "g5.xlarge"}})["catalog"]["prices_as_of"] == "2026-01-02");
}

TEST_CASE("a price at the floor (1e-6 USD/h) loads, and below it is refused with the range") {
  const std::string name = "prices/aws/eu-west-1.json";
  Analyzer least(with_price_file(name, edited_price_file(name, [](Json& d) {
                                   d["offers"]["g5.xlarge"]["on_demand_cost_per_hour"] = 1e-6;
                                 })));
  CHECK(least.catalog_ok());
  Analyzer below(with_price_file(name, edited_price_file(name, [](Json& d) {
                                   d["offers"]["g5.xlarge"]["on_demand_cost_per_hour"] = 5e-324;
                                 })));
  REQUIRE_FALSE(below.catalog_ok());
  CHECK_THAT(below.catalog_errors().front().message,
             Catch::Contains(">= 1e-06") && Catch::Contains("<= 10000"));
}
