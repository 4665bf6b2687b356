// Ways to pay (on-demand, spot, mixed, 1- and 3-year commitments) and schedules.
#include <catch2/catch.hpp>

#include <set>

#include "support.hpp"
#include "api/analyzer_access.hpp"

using namespace gpufleet;

namespace {

// The shipped catalog with provider terms as the reference data states them
// (../shared/data/README.md: AWS 1-year about 38-43 % off, 3-year 68-72 %; spot notice 2 minutes).
const Analyzer& with_terms() {
  static const Analyzer analyzer(test::edited(kGpuInstancesFile, [](Json& doc) {
    doc["providers"] = Json::parse(R"json({"aws": {"name": "AWS", "spot_interruption_notice_seconds": 120,
      "spot_training_restart_overhead_pct": 5,
      "ways_to_pay": {
        "test_1y": {"kind": "test", "term_years": 1, "upfront": "none", "discount_pct": 40, "source": "test", "source_date": "test"},
        "test_3y": {"kind": "test", "term_years": 3, "upfront": "none", "discount_pct": 70, "source": "test", "source_date": "test"}},
      "default_ways": {"reserved_1y": "test_1y", "reserved_3y": "test_3y"}}})json");
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
  CHECK(c["way"] == "test_1y");
  const Json& one_year = c["commitments"][0];
  CHECK(one_year["term"] == "1y");
  CHECK(one_year["way"] == "test_1y");
  CHECK(one_year["break_even_utilization_pct"] == 60);
  Json part_time = cost({{"pricing", "reserved_1y"}, {"schedule", {{"hours_per_day", 8}, {"days_per_month", 22}}}});
  CHECK_THAT(part_time["note"].get<std::string>(), Catch::Contains("break-even is 60% utilization"));
  Json three = cost({{"pricing", "reserved_3y"}});
  CHECK(three["usd_per_month"].get<double>() == Approx(55.04 * 0.3 * 730).epsilon(1e-6));
}

TEST_CASE("mixed spot share blends the two rates") {
  const double spot = *catalog_of(test::shipped())->instance("p5.48xlarge")->spot_usd_per_hour;
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
      {{{"pricing", "savings_plan_compute_1y_no_upfront"}}, "unknown_name", "/pricing"},  // not in these terms
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
  // Each warning is named in words; the code stays in its own field.
  for (const auto& w : v["result"]["warnings"]) {
    INFO(w.dump());
    if (w["code"] == "spot_not_below_on_demand") CHECK(w["name"] == "spot not below on-demand");
    if (w["code"] == "sentinel_price") CHECK(w["name"] == "a placeholder price, not a real one");
  }
}

TEST_CASE("a family left out for a suspect price says why in words, not by the anomaly's code") {
  // The shipped GCP a2-ultragpu-8g in us-central1: spot at or above on-demand in every zone (docs/prices.md).
  Json r = test::ask(test::shipped(), {{"question", "recommend"}, {"model", {{"params_b", 13}}}, {"workload", "inference"},
                                       {"precision", "fp16"}, {"providers", {"gcp"}}});
  REQUIRE(r["ok"] == true);
  int suspect = 0;
  for (const auto& e : r["result"]["excluded"]) {
    const std::string reason = e["reason"];
    INFO(reason);
    if (reason.find("suspect price") == std::string::npos) continue;
    ++suspect;
    for (const char* code : {"spot_not_below_on_demand", "cross_region_price", "marked_anomaly", "sentinel_price"})
      CHECK(reason.find(code) == std::string::npos);
    if (e["family"] == "GCP-A2-UltraGPU") CHECK_THAT(reason, Catch::Contains("(spot not below on-demand)"));
  }
  CHECK(suspect >= 1);
}

// The shipped ways to pay (config/gpu_instances.json providers.<p>.ways_to_pay), priced on the shipped
// us-east-1 / us-central1 on-demand prices. Each figure below is checked by hand from its source.
namespace {

Json shipped_cost(const std::string& instance, const Json& extra = Json::object()) {
  Json request{{"question", "cost"}, {"instance", instance}};
  request.update(extra);
  Json r = test::ask(test::shipped(), request);
  INFO(r.dump());
  REQUIRE(r["ok"] == true);
  return r["result"]["cost"];
}

const Json* way(const Json& cost, const std::string& id) {
  for (const auto& w : cost["commitments"])
    if (w["way"] == id) return &w;
  return nullptr;
}

}  // namespace

TEST_CASE("AWS ways to pay: Savings Plans and Reserved Instances with upfront and break-even") {
  Json c = shipped_cost("p5.48xlarge");
  CHECK(c["commitments"].size() == 18);  // Compute SP, EC2 Instance SP, Standard RI x 1/3 years x 3 payment options

  // EC2 Instance Savings Plan, 1 year, no upfront: the low end of the reference range 38-43 %.
  // 55.04 x (1 - 0.38) = 34.1248 USD/h; x 730 h = 24,911.10 USD; break-even 62 % of the hours.
  const Json* sp = way(c, "savings_plan_ec2_instance_1y_no_upfront");
  REQUIRE(sp != nullptr);
  CHECK((*sp)["discount_pct"] == 38);
  CHECK((*sp)["usd_per_hour"].get<double>() == Approx(34.1248));
  CHECK((*sp)["usd_per_month"].get<double>() == Approx(24911.10));
  CHECK((*sp)["upfront_usd"] == 0);
  CHECK((*sp)["recurring_usd_per_month"].get<double>() == Approx(24911.10));
  CHECK((*sp)["break_even_utilization_pct"] == 62);
  CHECK_THAT((*sp)["source"].get<std::string>(), Catch::Contains("38–43 %"));

  // Standard RI, 3 years, partial upfront: 70 % (the midpoint of 68-72 %), half of the term upfront.
  // 55.04 x 0.30 = 16.512 USD/h; the term is 3 x 8,760 = 26,280 h: 433,935.36 USD, half = 216,967.68
  // upfront; the other half is billed hourly: 8.256 USD/h x 730 = 6,026.88 USD a month.
  const Json* ri = way(c, "reserved_standard_3y_partial_upfront");
  REQUIRE(ri != nullptr);
  CHECK((*ri)["discount_pct"] == 70);
  CHECK((*ri)["upfront_usd"].get<double>() == Approx(216967.68));
  CHECK((*ri)["recurring_usd_per_month"].get<double>() == Approx(6026.88));
  CHECK((*ri)["usd_per_month"].get<double>() == Approx(12053.76));
  CHECK((*ri)["break_even_utilization_pct"] == 30);

  // All upfront, 1 year: 43 %, 55.04 x 0.57 x 8,760 h = 274,825.73 USD at purchase, nothing monthly.
  const Json* all = way(c, "reserved_standard_1y_all_upfront");
  REQUIRE(all != nullptr);
  CHECK((*all)["upfront_usd"].get<double>() == Approx(274825.73));
  CHECK((*all)["recurring_usd_per_month"] == 0);

  // Compute Savings Plans: AWS publishes only "up to 66%": listed, not priced.
  const Json* compute = way(c, "savings_plan_compute_1y_no_upfront");
  REQUIRE(compute != nullptr);
  CHECK((*compute)["discount_pct"].is_null());
  CHECK((*compute)["up_to_pct"] == 66);
  CHECK((*compute)["usd_per_month"].is_null());
  CHECK_THAT((*compute)["note"].get<std::string>(), Catch::Contains("up to 66%"));
}

TEST_CASE("a way to pay is chosen by name, reserved_1y is the provider's default way") {
  // reserved_1y on AWS = the EC2 Instance Savings Plan, 1 year, no upfront (providers.aws.default_ways).
  Json one = shipped_cost("p5.48xlarge", {{"pricing", "reserved_1y"}});
  CHECK(one["pricing"] == "reserved_1y");
  CHECK(one["way"] == "savings_plan_ec2_instance_1y_no_upfront");
  CHECK(one["usd_per_month"].get<double>() == Approx(24911.10));
  CHECK_THAT(one["basis"].get<std::string>(),
             Catch::Contains("$55.04/h x (1 - 38% EC2 Instance Savings Plan, 1 year, no upfront) x 730 h"));

  Json partial = shipped_cost("p5.48xlarge", {{"pricing", "reserved_standard_3y_partial_upfront"}});
  CHECK(partial["pricing"] == "reserved_standard_3y_partial_upfront");
  CHECK(partial["usd_per_month"].get<double>() == Approx(12053.76));
  CHECK_THAT(partial["basis"].get<std::string>(), Catch::Contains("$216,967.68 upfront + $6,026.88/month"));

  // Not priced: on-demand with the reason.
  Json compute = shipped_cost("p5.48xlarge", {{"pricing", "savings_plan_compute_3y_no_upfront"}});
  CHECK(compute["pricing"] == "on_demand");
  CHECK(compute["usd_per_month"].get<double>() == Approx(55.04 * 720));
  CHECK_THAT(compute["note"].get<std::string>(), Catch::Contains("Compute Savings Plan, 3 years on P5: no public figure"));

  // A way of another provider: on-demand, said so.
  Json other = shipped_cost("p5.48xlarge", {{"pricing", "committed_use_1y"}});
  CHECK(other["pricing"] == "on_demand");
  CHECK_THAT(other["note"].get<std::string>(), Catch::Contains("Resource-based committed use discount, 1 year, no upfront is a way to pay at Google Cloud, not at Amazon Web Services; on-demand price used"));

  // Below break-even the answer says on-demand would cost less: 176 h < 62 % of 730 h.
  Json part_time = shipped_cost("p5.48xlarge", {{"pricing", "reserved_1y"}, {"schedule", {{"hours_per_day", 8}, {"days_per_month", 22}}}});
  CHECK_THAT(part_time["note"].get<std::string>(), Catch::Contains("break-even is 62% utilization"));

  Json bad = test::ask(test::shipped(), {{"question", "cost"}, {"instance", "P5"}, {"pricing", "reserved_5y"}});
  REQUIRE(bad["ok"] == false);
  CHECK_THAT(bad["errors"][0]["message"].get<std::string>(), Catch::Contains("savings_plan_ec2_instance_1y_no_upfront"));
}

TEST_CASE("a way to pay of another provider is named, with both providers, never by its key") {
  // An AWS Reserved Instance asked of a GCP machine: priced on demand, and the note says whose way it is.
  Json c = shipped_cost("a2-highgpu-1g", {{"pricing", "reserved_standard_1y_partial_upfront"}});
  CHECK(c["pricing"] == "on_demand");
  const std::string note = c["note"];
  CHECK(note == "Standard Reserved Instance, 1 year, partial upfront is a way to pay at Amazon Web Services, "
                "not at Google Cloud; on-demand price used");
  // A provider without a usual 1-year commitment names the term in words and the provider by name.
  auto none = test::edited(kGpuInstancesFile, [](Json& doc) { doc["providers"]["gcp"].erase("default_ways"); });
  Analyzer analyzer(none);
  REQUIRE(analyzer.catalog_ok());
  Json r = test::ask(analyzer, {{"question", "cost"}, {"instance", "a2-highgpu-1g"}, {"pricing", "reserved_1y"}});
  REQUIRE(r["ok"] == true);
  CHECK_THAT(r["result"]["cost"]["note"].get<std::string>(), Catch::StartsWith("no 1-year commitment known for Google Cloud"));
}

TEST_CASE("Fargate is covered by Compute Savings Plans only") {
  Json c = shipped_cost("fargate-4vcpu-16gb");
  CHECK(way(c, "savings_plan_compute_1y_no_upfront") != nullptr);
  CHECK(way(c, "savings_plan_ec2_instance_1y_no_upfront") == nullptr);
  CHECK(way(c, "reserved_standard_3y_all_upfront") == nullptr);
  Json reserved = shipped_cost("fargate-4vcpu-16gb", {{"pricing", "reserved_1y"}});
  CHECK(reserved["pricing"] == "on_demand");
  CHECK_THAT(reserved["note"].get<std::string>(), Catch::Contains("EC2 instances only"));
  // Fargate's offer: 4 vCPU x 0.04048 + 16 GB x 0.004445 = 0.23304 USD/h (config/prices/overrides.json).
  CHECK(*catalog_of(test::shipped())->instance("fargate-4vcpu-16gb")->on_demand_usd_per_hour == Approx(0.23304));
}

TEST_CASE("GCP committed use: A2's figure on A2 machines, other families listed without a figure") {
  // a2-highgpu-1g us-central1 3.67339 USD/h (host 0.73948 + A100 2.93391); 1 year: 37 % off:
  // 3.67339 x 0.63 = 2.3142357 USD/h, x 730 = 1,689.39 USD a month, no upfront (resource-based CUDs).
  Json a2 = shipped_cost("a2-highgpu-1g", {{"pricing", "reserved_1y"}});
  CHECK(a2["way"] == "committed_use_1y");
  CHECK(a2["usd_per_month"].get<double>() == Approx(1689.39));
  const Json* three = way(a2, "committed_use_3y");
  REQUIRE(three != nullptr);
  CHECK((*three)["discount_pct"] == 65);
  CHECK((*three)["upfront_usd"] == 0);
  CHECK_THAT((*three)["source"].get<std::string>(), Catch::Contains("GCP committed-use on A2"));
  // The A2 Ultra machines are A2 too (the series matches).
  CHECK((*way(shipped_cost("a2-ultragpu-1g"), "committed_use_1y"))["discount_pct"] == 37);

  Json g2 = shipped_cost("g2-standard-4", {{"pricing", "reserved_1y"}});
  CHECK(g2["pricing"] == "on_demand");
  CHECK_THAT(g2["note"].get<std::string>(), Catch::Contains("up to 57%"));
  CHECK((*way(g2, "committed_use_1y"))["discount_pct"].is_null());
}

TEST_CASE("Azure reservations and savings plans are listed with their published maximum") {
  Json c = shipped_cost("Standard_NC24ads_A100_v4", {{"pricing", "reserved_3y"}});
  CHECK(c["commitments"].size() == 8);
  CHECK(c["pricing"] == "on_demand");
  CHECK((*way(c, "reservation_3y_monthly"))["up_to_pct"] == 72);
  CHECK((*way(c, "savings_plan_1y_upfront"))["up_to_pct"] == 65);
}

TEST_CASE("ways to pay are checked on load") {
  struct Case { const char* patch; const char* path; };
  const Case cases[] = {
      {R"({"kind": "x", "term_years": 1, "upfront": "some", "source": "s", "source_date": "d"})", "/providers/aws/ways_to_pay/bad/upfront"},
      {R"({"kind": "x", "term_years": 2, "upfront": "none", "source": "s", "source_date": "d"})", "/providers/aws/ways_to_pay/bad/term_years"},
      {R"({"kind": "x", "term_years": 1, "upfront": "partial", "source": "s", "source_date": "d"})", "/providers/aws/ways_to_pay/bad/upfront_share"},
      {R"({"kind": "x", "term_years": 1, "upfront": "none", "discount_pct": 99, "source": "s", "source_date": "d"})", "/providers/aws/ways_to_pay/bad/discount_pct"},
      {R"({"kind": "x", "term_years": 1, "upfront": "none", "source_date": "d"})", "/providers/aws/ways_to_pay/bad/source"},
  };
  for (const Case& c : cases) {
    INFO(c.patch);
    Analyzer analyzer(test::edited(kGpuInstancesFile, [&](Json& doc) {
      doc["providers"]["aws"]["ways_to_pay"]["bad"] = Json::parse(c.patch);
    }));
    Json v = test::ask(analyzer, {{"question", "validate"}});
    REQUIRE(v["ok"] == false);
    CHECK(v["errors"][0]["path"] == c.path);
  }
  Analyzer wrong_default(test::edited(kGpuInstancesFile, [](Json& doc) {
    doc["providers"]["gcp"]["default_ways"]["reserved_1y"] = "nope";
  }));
  Json v = test::ask(wrong_default, {{"question", "validate"}});
  REQUIRE(v["ok"] == false);
  CHECK(v["errors"][0]["path"] == "/providers/gcp/default_ways/reserved_1y");
}

// A price the catalog flags is never used silently: a named instance whose price is flagged is
// priced from its provider's cheapest region with a trustworthy price, said first (price_flags)
// and in the cost's note; GCP's a3-highgpu-8g lists $43.07/h in us-central1, half its ~$88/h list.
TEST_CASE("a flagged price is named first and replaced by the cheapest trustworthy region's") {
  const Catalog& c = *catalog_of(test::shipped());
  const InstanceType* named = c.instance("a3-highgpu-8g");
  REQUIRE(named);
  REQUIRE_FALSE(named->price_flags.empty());
  // The independent figure: the cheapest unflagged GCP offer of the type, read from the offers.
  std::optional<double> cheapest;
  std::string cheapest_region;
  for (const InstanceType& o : *c.offers)
    if (o.name == "a3-highgpu-8g" && o.price_flags.empty() && o.on_demand_usd_per_hour &&
        (!cheapest || *o.on_demand_usd_per_hour < *cheapest)) {
      cheapest = o.on_demand_usd_per_hour;
      cheapest_region = o.region;
    }
  REQUIRE(cheapest);
  CHECK(*cheapest > 80);  // the list price, not the flagged $43.07
  for (const char* question : {"cost", "fit"}) {
    Json req = {{"question", question}, {"instance", "a3-highgpu-8g"}, {"gpus", 8}};
    if (std::string(question) == "fit")
      req.update({{"model", {{"name", "llama-3.1-8b"}}}, {"workload", "inference"}});
    const Json r = test::ask(test::shipped(), req);
    INFO(r.dump().substr(0, 1500));
    REQUIRE(r["ok"] == true);
    const Json& result = r["result"];
    CHECK(result.begin().key() == "price_flags");  // the first thing the answer says
    CHECK(result["price_flags"][0]["code"] == "cross_region_price");
    CHECK(result["cost"]["usd_per_hour"].get<double>() == Approx(*cheapest));
    CHECK(result["cost"]["priced_from_region"] == cheapest_region);
    CHECK_THAT(result["cost"]["note"].get<std::string>(), Catch::Contains("priced as in " + cheapest_region));
  }
  // The current fleet of a migration report says so too.
  const Json m = test::ask(test::shipped(), {{"question", "migrate"}, {"model", {{"name", "llama-3.1-8b"}}},
                                             {"workload", "inference"}, {"current", {{"instance", "a3-highgpu-8g"}, {"gpus", 8}}}});
  REQUIRE(m["ok"] == true);
  CHECK(m["result"]["price_flags"][0]["code"] == "cross_region_price");
}

TEST_CASE("a price flagged in every region is not used: unpriced, with a way out") {
  // Every region's p5.48xlarge offer marked untrusted, as the price overrides mark anomalies.
  CatalogSources sources = test::config_sources();
  int marked = 0;
  for (PriceFile& f : sources.price_files) {
    Json doc = Json::parse(f.text);
    if (!doc.contains("offers") || !doc["offers"].contains("p5.48xlarge")) continue;
    doc["offers"]["p5.48xlarge"]["anomalies"] = Json::parse(R"([{"code": "marked_anomaly", "detail": "test"}])");
    f.text = doc.dump();
    ++marked;
  }
  REQUIRE(marked >= 2);
  const Analyzer a(sources);
  REQUIRE(a.catalog_ok());
  const Json r = test::ask(a, {{"question", "cost"}, {"instance", "p5.48xlarge"}, {"gpus", 8}});
  INFO(r.dump().substr(0, 1500));
  REQUIRE(r["ok"] == true);
  CHECK(r["result"]["price_flags"][0]["code"] == "marked_anomaly");
  CHECK(r["result"]["cost"]["usd_per_month"].is_null());
  CHECK(r["result"]["cost"]["pricing"] == "unknown");
  CHECK_THAT(r["result"]["cost"]["note"].get<std::string>(), Catch::Contains("overrides.json"));
}
