// Spot plans and the regions question (issue 34): the models in fleet/spot.cpp and
// fleet/regions.cpp, and the answers through the analyzer.
#include <catch2/catch.hpp>

#include <cmath>

#include "api/analyzer_access.hpp"
#include "fleet/regions.hpp"
#include "fleet/spot.hpp"
#include "support.hpp"

using namespace gpufleet;

TEST_CASE("a band of [0, 0] gives all spot: exactly the demand's replicas at the spot price", "[spot]") {
  const double p = spot::p_up(spot::hazard_per_hour(0, spot::Reading::kReclaimedFraction), 10.0 / 60);
  CHECK(p == 1.0);
  const spot::Plan plan = spot::cheapest_plan(5, 4.0, {{1.5, p}, {1.7, p}}, 0.999, 18);
  CHECK(plan.on_demand_units == 0);
  CHECK(plan.spot_total() == 5);
  CHECK(plan.usd_per_hour == Approx(5 * 1.5));
  CHECK(plan.p_capacity_met == 1.0);
}

TEST_CASE("raising the target availability never lowers the cost and no plan costs more than all on demand", "[spot]") {
  for (double pct : {2.5, 7.5, 12.5, 25.0}) {
    const double p = spot::p_up(spot::hazard_per_hour(pct, spot::Reading::kReclaimedFraction), 2.0);
    for (int needed : {1, 3, 8, 20}) {
      const std::vector<spot::Pool> pools{{1.2, p}, {1.4, std::min(1.0, p + 0.001)}, {2.0, p}};
      double last = 0;
      for (double target : {0.5, 0.9, 0.99, 0.999, 0.9999, 0.999999}) {
        const spot::Plan plan = spot::cheapest_plan(needed, 4.0, pools, target, 2 * needed + 8);
        CHECK(plan.usd_per_hour >= last - 1e-9);
        CHECK(plan.usd_per_hour <= needed * 4.0 + 1e-9);
        CHECK(plan.p_capacity_met >= target);
        last = plan.usd_per_hour;
      }
    }
  }
}

TEST_CASE("the capacity probability is the binomial tail", "[spot]") {
  // One spot replica of two needed with one on demand: P = p.
  CHECK(spot::p_capacity_met(1, {1}, {0.9}, 2) == Approx(0.9));
  // Two spot replicas for one needed: 1 - (1 - p)^2.
  CHECK(spot::p_capacity_met(0, {2}, {0.9}, 1) == Approx(0.99));
  CHECK(spot::p_capacity_met(0, {1, 1}, {0.9, 0.8}, 2) == Approx(0.72));
}

TEST_CASE("hazards: a reclaimed share read as -ln(1 - f) / 730, or as events per month", "[spot]") {
  CHECK(spot::hazard_per_hour(10, spot::Reading::kReclaimedFraction) == Approx(-std::log(0.9) / 730));
  CHECK(spot::hazard_per_hour(10, spot::Reading::kEventsPerMonth) == Approx(0.1 / 730));
  CHECK(std::isfinite(spot::hazard_per_hour(100, spot::Reading::kReclaimedFraction)));
  CHECK(spot::band_point_pct(5, 10) == 7.5);
  CHECK(spot::band_point_pct(20, 100) == 25);
}

TEST_CASE("Young/Daly: 60 s checkpoints with 6,000 s between interruptions checkpoint every 848.5 s", "[spot]") {
  CHECK(spot::young_daly_interval_s(60, 6000) == Approx(848.5).margin(0.05));
  spot::JobInput in;
  in.work_hours = 10;
  in.instances = 1;
  in.hazard_per_hour = 3600.0 / 6000;
  in.checkpoint_write_s = 60;
  in.restart_s = 300;
  const spot::JobOutcome out = spot::job_on_spot(in);
  CHECK(out.mtbi_s == Approx(6000));
  CHECK(out.checkpoint_interval_s == Approx(848.5).margin(0.05));
  CHECK(out.wall_hours > in.work_hours);
  CHECK(out.expected_interruptions == Approx(out.wall_hours * 3600 / 6000));
  in.hazard_per_hour = 0;
  CHECK(spot::job_on_spot(in).wall_hours == 10);
}

TEST_CASE("the spot answer: pools with dated bands, a plan between all spot and all on demand", "[spot]") {
  const Json base = {{"question", "spot"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                     {"demand", {{"requests_per_s", 20}}}, {"instance_types", {"g5.xlarge", "g6.xlarge", "g6e.xlarge"}},
                     {"regions", {"us-east-1", "us-east-2", "us-west-2"}}};
  double last = 0;
  for (double target : {0.9, 0.99, 0.999, 0.9999}) {
    Json req = base;
    req["target_availability"] = target;
    const Json r = test::ask(test::shipped(), req);
    REQUIRE(r["ok"] == true);
    const Json& res = r["result"];
    REQUIRE(!res["pools"].empty());
    for (const Json& pool : res["pools"]) {
      REQUIRE(pool["interruption_band"].contains("label"));
      if (pool["interruption_band"]["label"] != "unknown") {
        CHECK(pool["interruption_band"]["as_of"] == "2025-06-28");
        CHECK(pool["interruption_band"]["stale"] == true);
      }
      // AWS prices spot by zone: the pool's price is the cheapest zone's, and it says so.
      CHECK_THAT(pool["spot_basis"].get<std::string>(), Catch::Contains("zone"));
      CHECK(pool["spot_zone_median_usd_per_hour"].get<double>() >=
            pool["spot_usd_per_hour"].get<double>());
    }
    CHECK(res["data"]["stale"] == true);
    const Json& cost = res["plan"]["usd_per_month"];
    CHECK(cost["low"].get<double>() <= cost["point"].get<double>());
    CHECK(cost["point"].get<double>() <= cost["high"].get<double>());
    CHECK(cost["point"].get<double>() <= res["all_on_demand"]["usd_per_month"].get<double>() + 1e-6);
    CHECK(res["plan"]["p_capacity_met"].get<double>() >= target);
    CHECK(cost["point"].get<double>() >= last - 1e-6);
    last = cost["point"].get<double>();
    CHECK(test::non_finite_numbers(r) == 0);
  }
}

TEST_CASE("spot refuses bad input naming the field", "[spot]") {
  const Json base = {{"question", "spot"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"}};
  for (const auto& [field, value, path] : std::vector<std::tuple<std::string, Json, std::string>>{
           {"target_availability", 1.0, "/target_availability"},
           {"target_availability", 0.0, "/target_availability"},
           {"target_availability", 1.5, "/target_availability"},
           {"instance_types", Json::array({"nope.xlarge"}), "/instance_types/0"},
           {"regions", Json::array({"mars-1"}), "/regions/0"},
           {"checkpoint_write_s", -5, "/checkpoint_write_s"},
           {"band_reading", "vibes", "/band_reading"}}) {
    Json req = base;
    req[field] = value;
    const Json r = test::ask(test::shipped(), req);
    REQUIRE(r["ok"] == false);
    CHECK(r["errors"][0]["path"] == path);
  }
}

TEST_CASE("regions: great-circle RTT estimate", "[spot]") {
  // New York to London: about 5,570 km, so about 84 ms.
  const double km = regions::great_circle_km(40.71, -74.01, 51.51, -0.13);
  CHECK(km == Approx(5570).epsilon(0.01));
  CHECK(regions::rtt_ms(km) == Approx(2 * km / 200000 * 1000 * 1.5));
}

TEST_CASE("regions: without latency, egress or residency the placement is the single cheapest region, as cost --regions", "[spot]") {
  for (const char* instance : {"g5.xlarge", "g6e.xlarge", "p4d.24xlarge"}) {
    const Json r = test::ask(test::shipped(), {{"question", "regions"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                                               {"demand", {{"requests_per_s", 2}}}, {"instance", instance}});
    REQUIRE(r["ok"] == true);
    const Json cost = test::ask(test::shipped(), {{"question", "cost"}, {"instance", instance}, {"regions", "all"}});
    REQUIRE(cost["ok"] == true);
    REQUIRE(r["result"]["regions_chosen"].size() == 1);
    const Json& cheapest = cost["result"]["by_region"]["regions"][0];
    const Json& chosen = r["result"]["regions_chosen"][0];
    INFO(instance);
    // Equal prices in several regions: any of them is the cheapest.
    double chosen_rate = 0;
    for (const Json& row : r["result"]["regions"]) {
      if (row["region"] == chosen["region"]) chosen_rate = row["usd_per_hour"]["on_demand"].get<double>();
    }
    CHECK(chosen_rate == Approx(cheapest["usd_per_hour"].get<double>()));
  }
}

TEST_CASE("regions: residency never places outside the allowed regions: a refusal with a way out", "[spot]") {
  const Json base = {{"question", "regions"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                     {"demand", {{"requests_per_s", 2}}}, {"instance", "g5.xlarge"}};
  for (const Json& residency : {Json{{"geo", "eu"}}, Json{{"regions", {"eu-west-1", "eu-central-1"}}}, Json{{"geo", "de"}}}) {
    Json req = base;
    req["residency"] = residency;
    req["users"] = Json::array({{{"region", "us-east-1"}, {"share", 0.5}}, {{"region", "eu-west-2"}, {"share", 0.5}}});
    const Json r = test::ask(test::shipped(), req);
    REQUIRE(r["ok"] == true);
    for (const Json& row : r["result"]["regions_chosen"]) {
      const std::string region = row["region"];
      CHECK((region.rfind("eu-", 0) == 0));
      if (residency.contains("regions")) CHECK((region == "eu-west-1" || region == "eu-central-1"));
    }
  }
  Json req = base;
  req["instance"] = "p4d.24xlarge";
  req["residency"] = {{"geo", "africa"}};
  const Json r = test::ask(test::shipped(), req);
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["status"] == "CANNOT PLACE");
  CHECK(r["result"]["regions_chosen"].empty());
  CHECK(!r["result"]["way_out"].get<std::string>().empty());
}

TEST_CASE("regions: N+1 over two equal-price regions doubles the single region's compute", "[spot]") {
  // g5.xlarge is 1.006 $/h in us-east-1 and us-east-2 (config/prices).
  const Json base = {{"question", "regions"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                     {"demand", {{"requests_per_s", 5}}}, {"instance", "g5.xlarge"},
                     {"residency", {{"regions", {"us-east-1", "us-east-2"}}}}};
  const Json one = test::ask(test::shipped(), base);
  Json with = base;
  with["failover"] = true;
  const Json two = test::ask(test::shipped(), with);
  REQUIRE(one["ok"] == true);
  REQUIRE(two["ok"] == true);
  REQUIRE(two["result"]["regions_chosen"].size() == 2);
  const double single = one["result"]["totals"]["compute_usd_per_month"].get<double>();
  CHECK(two["result"]["totals"]["compute_usd_per_month"].get<double>() == Approx(2 * single));
  CHECK(two["result"]["failover"]["premium_usd_per_month"].get<double>() == Approx(single));
}

TEST_CASE("regions: the provider's free internet egress counts once over every region", "[spot]") {
  // 2 requests/s x 10,000 bytes x 720 h x 3,600 s = 51.84 GB a month, under AWS's free 100 GB: no
  // egress bill. At 100 kB a response, 518.4 GB: the 418.4 GB beyond the free 100 at $0.09 = $37.656,
  // split over the regions chosen by their GB.
  const Json base = {{"question", "regions"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"},
                     {"demand", {{"requests_per_s", 2}}}, {"instance", "g5.xlarge"},
                     {"users", Json::array({{{"region", "us-east-1"}, {"share", 0.5}}, {{"region", "eu-west-1"}, {"share", 0.5}}})}};
  Json small = base, large = base;
  small["response_bytes"] = 10000;
  large["response_bytes"] = 100000;
  const Json a = test::ask(test::shipped(), small), b = test::ask(test::shipped(), large);
  REQUIRE(a["ok"] == true);
  REQUIRE(b["ok"] == true);
  CHECK(a["result"]["totals"]["egress_usd_per_month"].get<double>() == 0);
  CHECK(b["result"]["totals"]["egress_usd_per_month"].get<double>() == Approx(37.656).margin(0.01));
  double parts = 0;
  for (const Json& c : b["result"]["regions_chosen"]) parts += c["egress_usd_per_month"].get<double>();
  CHECK(parts == Approx(37.656).margin(0.02));
  CHECK_THAT(b["result"]["notes"].dump(), Catch::Contains("first 100 GB a month out to the internet are free"));
}

TEST_CASE("regions refuses bad input naming the field", "[spot]") {
  const Json base = {{"question", "regions"}, {"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"}};
  for (const auto& [field, value, path] : std::vector<std::tuple<std::string, Json, std::string>>{
           {"instance", "nope.xlarge", "/instance"},
           {"residency", Json{{"regions", {"mars-1"}}}, "/residency/regions/0"},
           {"residency", Json{{"geo", "atlantis"}}, "/residency/geo"},
           {"users", Json::array({{{"region", "mars-1"}}}), "/users/0/region"},
           {"dataset_gb", -1, "/dataset_gb"}}) {
    Json req = base;
    req[field] = value;
    const Json r = test::ask(test::shipped(), req);
    REQUIRE(r["ok"] == false);
    CHECK(r["errors"][0]["path"] == path);
  }
}

TEST_CASE("spot and regions carry the band of their throughput: replicas and cost at its ends",
          "[spot]") {
  const Json serving = {{"question", "spot"},
                        {"model", {{"name", "llama-3.1-8b"}}},
                        {"workload", "inference"},
                        {"demand", {{"requests_per_s", 20}}},
                        {"instance_types", {"g6.xlarge"}},
                        {"regions", {"us-east-1", "us-east-2"}}};
  const Json s = test::ask(test::shipped(), serving);
  REQUIRE(s["ok"] == true);
  const Json& plan = s["result"]["plan"];
  const Json& band = plan["band"];
  const int units = plan["replicas_for_demand"].get<int>();
  const double p90 = band["expected_error"]["p90_abs_err_pct"].get<double>() / 100;
  // The demand's replicas scale as 1 / throughput: at most units x (1 + p90) + 1 (the road's
  // rounding up), at least units x (1 - p90) - 1.
  CHECK(band["replicas_for_demand"]["low"].get<int>() <= units);
  CHECK(band["replicas_for_demand"]["high"].get<int>() >= units);
  CHECK(band["replicas_for_demand"]["high"].get<double>() <= std::ceil(units * (1 + p90)) + 1);
  CHECK(band["replicas_for_demand"]["low"].get<double>() >= std::floor(units * (1 - p90)) - 1);
  CHECK(band["usd_per_month"]["low"].get<double>() <= plan["usd_per_month"]["point"].get<double>());
  CHECK(band["usd_per_month"]["high"].get<double>() >=
        plan["usd_per_month"]["point"].get<double>());

  // Regions: the total's band is each region's band summed, with the egress, which the speed does
  // not move.
  const Json regions = {{"question", "regions"},
                        {"model", {{"name", "llama-3.1-8b"}}},
                        {"workload", "inference"},
                        {"demand", {{"requests_per_s", 5}}},
                        {"instance", "g5.xlarge"},
                        {"failover", true},
                        {"residency", {{"regions", {"us-east-1", "us-east-2"}}}}};
  const Json g = test::ask(test::shipped(), regions);
  REQUIRE(g["ok"] == true);
  double low = g["result"]["totals"]["egress_usd_per_month"].get<double>(), high = low;
  int replicas_low = 0, replicas_high = 0;
  for (const Json& row : g["result"]["regions_chosen"]) {
    low += row["band"]["usd_per_month"]["low"].get<double>();
    high += row["band"]["usd_per_month"]["high"].get<double>();
    replicas_low += row["band"]["replicas"]["low"].get<int>();
    replicas_high += row["band"]["replicas"]["high"].get<int>();
    CHECK(row["band"]["replicas"]["low"].get<double>() <= row["replicas"].get<double>());
    CHECK(row["band"]["replicas"]["high"].get<double>() >= row["replicas"].get<double>());
  }
  const Json& total = g["result"]["band"];
  CHECK(total["usd_per_month"]["low"].get<double>() == Approx(low));
  CHECK(total["usd_per_month"]["high"].get<double>() == Approx(high));
  CHECK(total["replicas"]["low"].get<int>() == replicas_low);
  CHECK(total["replicas"]["high"].get<int>() == replicas_high);
  CHECK(low < g["result"]["totals"]["usd_per_month"].get<double>());
  CHECK(high > g["result"]["totals"]["usd_per_month"].get<double>());
}
