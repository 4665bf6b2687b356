// Ways to pay (on-demand, spot, mixed, 1- and 3-year commitments) and schedules.
#include <catch2/catch.hpp>

#include <set>

#include "support.hpp"

using namespace gpufleet;

namespace {

// The shipped catalog with provider terms as the reference data states them
// (../shared/data/README.md: AWS 1-year about 38-43 % off, 3-year 68-72 %; spot notice 2 minutes).
const Analyzer& with_terms() {
  static const Analyzer analyzer(test::edited(kGpuInstancesFile, [](Json& doc) {
    doc["providers"] = Json::parse(R"json({"aws": {"name": "AWS", "spot_interruption_notice_seconds": 120,
      "spot_training_restart_overhead_pct": 5,
      "commitments": {"1y": {"discount_pct": 40, "source": "test"}, "3y": {"discount_pct": 70, "source": "test"}}}})json");
  }));
  return analyzer;
}

Json cost(const Json& extra) {
  Json request{{"question", "cost"}, {"instance", "p5.48xlarge"}, {"gpus", 8}};
  request.update(extra);
  Json r = test::ask(with_terms(), request);
  INFO(r.dump());
  REQUIRE(r["ok"] == true);
  return r["result"]["cost"];
}

}  // namespace

TEST_CASE("a 1-year commitment bills 730 h at the discounted rate and states its break-even") {
  Json c = cost({{"pricing", "reserved_1y"}, {"hours_per_month", 500}});
  CHECK(c["pricing"] == "reserved_1y");
  CHECK(c["usd_per_month"].get<double>() == Approx(55.04 * 0.6 * 730).epsilon(1e-6));
  // At 500 h on-demand would cost 27,520, more than the commitment: no note.
  CHECK_FALSE(c.contains("note"));
  const Json& one_year = c["commitments"][0];
  CHECK(one_year["term"] == "1y");
  CHECK(one_year["break_even_utilization_pct"] == 60);
  Json part_time = cost({{"pricing", "reserved_1y"}, {"schedule", {{"hours_per_day", 8}, {"days_per_month", 22}}}});
  CHECK_THAT(part_time["note"].get<std::string>(), Catch::Contains("break-even is 60% utilization"));
  Json three = cost({{"pricing", "reserved_3y"}});
  CHECK(three["usd_per_month"].get<double>() == Approx(55.04 * 0.3 * 730).epsilon(1e-6));
}

TEST_CASE("mixed spot share blends the two rates") {
  const double spot = *test::shipped().catalog()->instance("p5.48xlarge")->spot_usd_per_hour;
  Json c = cost({{"pricing", "mixed"}, {"spot_share", 0.5}, {"hours_per_month", 730}});
  CHECK(c["pricing"] == "mixed");
  CHECK(c["usd_per_month"].get<double>() == Approx((0.5 * spot + 0.5 * 55.04) * 730).epsilon(1e-6));
  Json seed003 = cost({{"pricing", "mixed"}});  // seed 003's 50 % spot by default
  CHECK(seed003["usd_per_month"].get<double>() == Approx((0.5 * spot + 0.5 * 55.04) * 720).epsilon(1e-6));
}

TEST_CASE("spot carries the provider's interruption notice") {
  Json c = cost({{"use_spot", true}});
  CHECK(c["spot_interruption_notice_s"] == 120);
  Json r = test::ask(with_terms(), {{"question", "recommend"}, {"model", {{"params_b", 13}}}, {"workload", "training"},
                                    {"precision", "bf16"}, {"pricing", "spot"}, {"families", {"P6"}}});
  REQUIRE(r["ok"] == true);
  const auto reasons = r["result"]["candidates"][0]["reasons"].dump();
  CHECK_THAT(reasons, Catch::Contains("2 minutes' notice") && Catch::Contains("5% more hours for restarts"));
}

TEST_CASE("schedules turn into hours per month with their arithmetic") {
  struct Case { Json schedule; double hours; const char* basis; };
  const Case cases[] = {
      {{{"hours_per_day", 8}, {"days_per_month", 22}}, 176, "8 h/day x 22 days = 176 h/month"},  // seed 001
      {{{"hours_per_week", 24}, {"weeks_per_month", 4}}, 96, "24 h/week x 4 weeks = 96 h/month"},  // seed 001
      {{{"always_on", true}}, 730, "24/7: 730 h/month (8,760 h / 12)"},
      {{{"always_on", true}, {"hours_per_month", 720}}, 720, "24/7 at 720 h/month"},  // the seeds' month
      {{{"off_hours_per_day", 12}}, 365, "scale to zero 12 h/day: 12 h/day x 30.4 days = 365 h/month"},  // seed 000
  };
  for (const Case& c : cases) {
    INFO(c.schedule.dump());
    Json result = cost({{"schedule", c.schedule}});
    CHECK(result["monthly_hours"].get<double>() == Approx(c.hours));
    CHECK(result["schedule"] == c.basis);
    CHECK(result["usd_per_month"].get<double>() == Approx(55.04 * c.hours).epsilon(1e-6));
  }
}

TEST_CASE("billing mistakes are reported with their path") {
  struct Case { Json extra; const char* code; const char* path; };
  const Case cases[] = {
      {{{"hours_per_month", 100}, {"schedule", {{"always_on", true}}}}, "wrong_type", "/schedule"},
      {{{"use_spot", true}, {"pricing", "spot"}}, "wrong_type", "/pricing"},
      {{{"pricing", "lease"}}, "unknown_name", "/pricing"},
      {{{"spot_share", 0.5}}, "wrong_type", "/spot_share"},
      {{{"pricing", "mixed"}, {"spot_share", 1.5}}, "out_of_range", "/spot_share"},
      {{{"schedule", {{"hours_per_day", 30}}}}, "out_of_range", "/schedule/hours_per_day"},
      {{{"schedule", {{"hours_per_day", 8}, {"hours_per_week", 40}}}}, "wrong_type", "/schedule"},
      {{{"schedule", {{"nights", 3}}}}, "unknown_field", "/schedule/nights"},
      {{{"schedule", {{"off_hours_per_day", 24}}}}, "out_of_range", "/schedule/off_hours_per_day"},
  };
  for (const Case& c : cases) {
    Json request{{"question", "cost"}, {"instance", "P5"}};
    request.update(c.extra);
    INFO(request.dump());
    Json r = test::ask(with_terms(), request);
    REQUIRE(r["ok"] == false);
    CHECK(r["errors"][0]["code"] == c.code);
    CHECK(r["errors"][0]["path"] == c.path);
  }
}

TEST_CASE("suspect prices are flagged on load and kept out of rankings") {
  auto sources = test::edited(kGpuInstancesFile, [](Json& doc) {
    doc["gpu_instances"]["G6e"]["sizes"]["g6e.xlarge"]["on_demand_cost_per_hour"] = 1.861;
    doc["gpu_instances"]["G6e"]["sizes"]["g6e.xlarge"]["spot_cost_per_hour"] = 5.0;  // above on-demand
    doc["gpu_instances"]["G5"]["sizes"]["g5.xlarge"]["on_demand_cost_per_hour"] = 700;  // sentinel
  });
  Analyzer analyzer(sources);
  REQUIRE(analyzer.catalog_ok());
  Json v = test::ask(analyzer, {{"question", "validate"}});
  std::set<std::string> codes;
  for (const auto& w : v["result"]["warnings"]) codes.insert(w["code"].get<std::string>() + " " + w["path"].get<std::string>());
  CHECK(codes.count("spot_not_below_on_demand /gpu_instances/G6e/sizes/g6e.xlarge/spot_cost_per_hour") == 1);
  CHECK(codes.count("sentinel_price /gpu_instances/G5/sizes/g5.xlarge/on_demand_cost_per_hour") == 1);
  Json r = test::ask(analyzer, {{"question", "recommend"}, {"model", {{"params_b", 13}}}, {"workload", "inference"},
                                {"precision", "fp16"}});
  for (const auto& c : r["result"]["candidates"]) CHECK(c["instance"] != "g6e.xlarge");
}
