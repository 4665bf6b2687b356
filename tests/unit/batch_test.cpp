// The batch question (api/questions/batch.cpp) through the analyzer: the known answers on the
// catalog's pools, the refusals naming their field, and the earliest-deadline-first schedule.
#include <catch2/catch.hpp>
#include <cmath>

#include "support.hpp"

using namespace gpufleet;

namespace {

Json job_request(double deadline_hours) {
  return {{"question", "batch"},
          {"model", {{"name", "llama-3.1-8b"}}},
          {"workload", "lora"},
          {"demand", {{"dataset_tokens", 5e7}}},
          {"instance_types", {"g6e.xlarge"}},
          {"regions", {"us-east-1", "us-west-2"}},
          {"deadline_hours", deadline_hours},
          {"traces", 300}};
}

const Json& plan_named(const Json& job, const std::string& name) {
  for (const Json& p : job["plans"]) {
    if (p["name"] == name) return p;
  }
  FAIL("no plan " << name);
  static Json none;
  return none;
}

}  // namespace

TEST_CASE(
    "a batch job: its work from the road, four plans, the deadline-aware ones on time and no "
    "dearer than on demand",
    "[batch]") {
  const Json r = test::ask(test::shipped(), job_request(200));
  REQUIRE(r["ok"] == true);
  const Json& job = r["result"]["jobs"][0];
  const double work = job["work_hours"].get<double>();
  CHECK(work > 0);
  CHECK(job["work_gpu_hours"].get<double>() ==
        Approx(work * job["deployment"]["gpus"].get<double>()).epsilon(0.01));
  CHECK(job["plans"].size() == 4);
  const Json& od = plan_named(job, "all_on_demand");
  const Json& aware = plan_named(job, "deadline_aware");
  CHECK(od["cost_usd"]["p50"].get<double>() ==
        Approx(work * job["pools"]["on_demand"]["usd_per_hour"].get<double>()).epsilon(0.001));
  CHECK(aware["p_meet_deadline"] == 1);
  CHECK(aware["cost_usd"]["p50"].get<double>() <= od["cost_usd"]["p50"].get<double>());
  const Json& uniform = plan_named(job, "uniform_progress");
  CHECK(uniform["p_meet_deadline"] == 1);
  CHECK(uniform["cost_usd"]["p50"].get<double>() <= od["cost_usd"]["p50"].get<double>());
  CHECK(uniform["expected_on_demand_hours"].get<double>() >= 0);
  CHECK(od["expected_on_demand_hours"].get<double>() == Approx(work).epsilon(1e-3));
  CHECK(test::non_finite_numbers(r) == 0);
  // The same request and seed give the same answer; the schedule holds the one job.
  CHECK(test::ask(test::shipped(), job_request(200)).dump() == r.dump());
  REQUIRE(r["result"]["schedule"].size() == 1);
  CHECK(r["result"]["schedule"][0]["start_hours"] == 0);
}

TEST_CASE(
    "a deadline of work + restart is met all on demand, and a shorter one than the work is refused "
    "with the minimum",
    "[batch]") {
  const Json first = test::ask(test::shipped(), job_request(200));
  REQUIRE(first["ok"] == true);
  const double minimum =
      first["result"]["jobs"][0]["minimum_deadline_hours"]["hours"].get<double>();
  const Json tight =
      test::ask(test::shipped(), job_request(std::ceil(minimum * 100 + 1) / 100 + 600.0 / 3600));
  REQUIRE(tight["ok"] == true);
  const Json& aware = plan_named(tight["result"]["jobs"][0], "deadline_aware");
  CHECK(aware["p_meet_deadline"] == 1);
  CHECK(aware["switch_to_on_demand"]["p_switched"] == 1);
  CHECK(aware["expected_interruptions"] == 0);
  CHECK(tight["result"]["schedule"][0]["pool"]["kind"] == "on_demand");

  const Json refused = test::ask(test::shipped(), job_request(minimum * 0.9));
  REQUIRE(refused["ok"] == false);
  CHECK(refused["errors"][0]["path"] == "/deadline_hours");
  CHECK(refused["errors"][0]["message"].get<std::string>().find("at least") != std::string::npos);
}

TEST_CASE("the median cost of the chosen plan does not rise as the deadline grows", "[batch]") {
  double last = 1e300;
  for (double deadline : {40.0, 60.0, 100.0, 200.0, 400.0}) {
    const Json r = test::ask(test::shipped(), job_request(deadline));
    REQUIRE(r["ok"] == true);
    const double p50 =
        plan_named(r["result"]["jobs"][0], "deadline_aware")["cost_usd"]["p50"].get<double>();
    CHECK(p50 <= last + 1e-9);
    last = p50;
  }
}

TEST_CASE("bad batch requests are refused naming the field", "[batch]") {
  struct Case {
    const char* pointer;
    Json value;
    const char* path;
  };
  for (const Case& c :
       std::vector<Case>{{"/demand/dataset_tokens", 0, "/demand/dataset_tokens"},
                         {"/deadline_hours", -5, "/deadline_hours"},
                         {"/earliest_start_hours", -1, "/earliest_start_hours"},
                         {"/restart_s", -5, "/restart_s"},
                         {"/checkpoint_write_s", -1, "/checkpoint_write_s"},
                         {"/instance_types", Json::array({"nope.xlarge"}), "/instance_types/0"},
                         {"/regions", Json::array({"mars-1"}), "/regions/0"},
                         {"/traces", 20000, "/traces"},
                         {"/traces", 1.5, "/traces"},
                         {"/seed", -1, "/seed"},
                         {"/workload", "inference", "/workload"},
                         {"/band_reading", "vibes", "/band_reading"}}) {
    Json req = job_request(100);
    req[Json::json_pointer(c.pointer)] = c.value;
    const Json r = test::ask(test::shipped(), req);
    INFO(c.pointer << " = " << c.value.dump());
    REQUIRE(r["ok"] == false);
    CHECK(r["errors"][0]["path"] == c.path);
  }
  Json no_tokens = job_request(100);
  no_tokens["demand"] = Json::object();
  CHECK(test::ask(test::shipped(), no_tokens)["errors"][0]["path"] == "/demand/dataset_tokens");
  Json both = job_request(100);
  both["jobs"] = Json::array({{{"model", {{"name", "llama-3.1-8b"}}},
                               {"workload", "lora"},
                               {"demand", {{"dataset_tokens", 5e7}}},
                               {"deadline_hours", 50}}});
  CHECK(test::ask(test::shipped(), both)["errors"][0]["path"] == "/model");
}

TEST_CASE(
    "a list of jobs: earliest deadline first on the slots given, a job queued past its deadline at "
    "risk",
    "[batch]") {
  Json req = {{"question", "batch"},
              {"instance_types", {"g6e.xlarge"}},
              {"regions", {"us-east-1", "us-west-2"}},
              {"traces", 200},
              {"concurrent_jobs", 1}};
  const Json one = {{"model", {{"name", "llama-3.1-8b"}}},
                    {"workload", "lora"},
                    {"demand", {{"dataset_tokens", 5e7}}}};
  Json jobs = Json::array();
  for (double deadline : {300.0, 100.0, 200.0}) {
    Json j = one;
    j["deadline_hours"] = deadline;
    jobs.push_back(j);
  }
  req["jobs"] = jobs;
  const Json r = test::ask(test::shipped(), req);
  REQUIRE(r["ok"] == true);
  const Json& s = r["result"]["schedule"];
  REQUIRE(s.size() == 3);
  CHECK(s[0]["job"] == "job 2");
  CHECK(s[1]["job"] == "job 3");
  CHECK(s[2]["job"] == "job 1");
  CHECK(s[0]["start_hours"] == 0);
  CHECK(s[1]["start_hours"].get<double>() ==
        Approx(s[0]["end_p90_hours"].get<double>()).margin(0.01));
  CHECK(s[2]["start_hours"].get<double>() >= s[1]["start_hours"].get<double>());
  CHECK(r["result"]["jobs_at_risk"].empty());
  // A bad job names its index.
  req["jobs"][1].erase("deadline_hours");
  CHECK(test::ask(test::shipped(), req)["errors"][0]["path"] == "/jobs/1/deadline_hours");
  req["jobs"][1]["deadline_hours"] = 100;
  req["jobs"][1]["colour"] = "red";
  CHECK(test::ask(test::shipped(), req)["errors"][0]["path"] == "/jobs/1/colour");
}

TEST_CASE("the default checkpoint write is the checkpoint's bytes over the storage's speed",
          "[batch]") {
  Json req = {{"question", "batch"},       {"model", {{"name", "llama-3.1-8b"}}},
              {"workload", "fine_tuning"}, {"demand", {{"dataset_tokens", 5e7}}},
              {"deadline_hours", 400},     {"instance_types", {"p4d.24xlarge"}},
              {"regions", {"us-east-1"}}};
  const Json full = test::ask(test::shipped(), req)["result"]["jobs"][0];
  req["workload"] = "lora";
  const Json lora = test::ask(test::shipped(), req)["result"]["jobs"][0];
  req["checkpoint_write_s"] = 300;
  const Json given = test::ask(test::shipped(), req)["result"]["jobs"][0];
  // A full run writes its 16 GB of weights and 12 bytes per parameter of states: minutes at
  // 125 MiB/s; LoRA only its adapters: under a second.
  CHECK(full["checkpoint_write_s"].get<double>() > 600);
  CHECK(lora["checkpoint_write_s"].get<double>() < 1);
  CHECK(std::string(full["checkpoint_write_basis"]).find("125 MiB/s") != std::string::npos);
  CHECK(given["checkpoint_write_s"] == 300.0);
}

TEST_CASE(
    "a batch-inference job shows its tokens at each provider's batch API, refused without a "
    "model's token price",
    "[batch]") {
  Json req = job_request(100);
  req["workload"] = "batch_inference";
  req["demand"] = {{"dataset_tokens", 2e7}, {"input_tokens", 1000}, {"output_tokens", 300}};
  const Json shipped = test::ask(test::shipped(), req);
  REQUIRE(shipped["ok"] == true);
  const Json& api = shipped["result"]["jobs"][0]["batch_api"];
  CHECK(api["output_tokens"] == 2e7);
  CHECK(api["input_tokens"].get<double>() == std::round(2e7 * 1000 / 300));  // whole tokens
  REQUIRE(api["offers"].size() == 3);
  for (const Json& o : api["offers"]) {
    INFO(o.dump());
    CHECK(o["cost_usd"].is_null());  // the shipped catalog carries no model's token price
    CHECK(o["refused"].get<std::string>().find("llama-3.1-8b") != std::string::npos);
  }
  // Each service's discount and its source, once.
  REQUIRE(shipped["result"]["batch_apis"].size() == 3);
  for (const Json& b : shipped["result"]["batch_apis"]) {
    INFO(b.dump());
    CHECK(b["discount_pct"] == 50);
    CHECK(b["source"].get<std::string>().find("https://") != std::string::npos);
    CHECK_FALSE(b["source_date"].get<std::string>().empty());
  }
  // A training job has no batch API to compare with.
  const Json training = test::ask(test::shipped(), job_request(100));
  CHECK_FALSE(training["result"]["jobs"][0].contains("batch_api"));
  CHECK_FALSE(training["result"].contains("batch_apis"));

  // With a token price in the catalog (a test figure), the tokens at the list price less 50 %.
  const Analyzer priced(test::edited("gpu_instances.json", [](Json& doc) {
    doc["providers"]["aws"]["batch_api"]["token_prices"]["llama-3.1-8b"] = {
        {"input_usd_per_million_tokens", 0.3},
        {"output_usd_per_million_tokens", 0.6},
        {"source", "a test figure"},
        {"source_date", "2026-11-29"}};
  }));
  REQUIRE(priced.catalog_ok());
  const Json r = test::ask(priced, req);
  REQUIRE(r["ok"] == true);
  const Json& aws = r["result"]["jobs"][0]["batch_api"]["offers"][0];
  REQUIRE(aws["provider"] == "aws");
  // By hand: 6.667e7 input tokens x $0.3/M + 2e7 output x $0.6/M = $20 + $12 = $32, half: $16.
  CHECK(aws["cost_usd"].get<double>() == Approx(16.0).epsilon(1e-4));
  CHECK(aws["list_usd_per_million_tokens"]["source"] == "a test figure");

  // A token price without its source is a catalog error naming its path.
  const Analyzer broken(test::edited("gpu_instances.json", [](Json& doc) {
    doc["providers"]["aws"]["batch_api"]["token_prices"]["llama-3.1-8b"] = {
        {"input_usd_per_million_tokens", 0.3}, {"output_usd_per_million_tokens", 0.6}};
  }));
  REQUIRE_FALSE(broken.catalog_ok());
  bool named = false;
  for (const auto& e : broken.catalog_errors())
    named = named || e.path == "/providers/aws/batch_api/token_prices/llama-3.1-8b/source";
  CHECK(named);
}

TEST_CASE(
    "a job's band: its work at the throughput's measured error, simulated with the same policy",
    "[batch]") {
  // The tight deadline (8 h) holds the point's 6.63 h of work but not the slow end's: run hours
  // scale as 1 / throughput, so the ends are work x (1 - p90) and work x (1 + p90).
  const Json r = test::ask(test::shipped(), job_request(8));
  REQUIRE(r["ok"] == true);
  const Json& job = r["result"]["jobs"][0];
  const Json& band = job["band"];
  const double work = job["work_hours"].get<double>();
  const double p90 = band["expected_error"]["p90_abs_err_pct"].get<double>() / 100;
  CHECK(band["work_hours"]["low"].get<double>() == Approx(work * (1 - p90)).margin(0.01));
  CHECK(band["work_hours"]["high"].get<double>() == Approx(work * (1 + p90)).margin(0.01));
  REQUIRE(band["work_hours"]["high"].get<double>() > 8);
  CHECK(band["p_meet_deadline"]["low"].get<double>() == 0);
  CHECK(band["p_meet_deadline"]["high"].get<double>() == 1);
  const double p50 = plan_named(job, "deadline_aware")["cost_usd"]["p50"].get<double>();
  CHECK(band["deadline_aware_usd_p50"]["low"].get<double>() < p50);
  CHECK(band["deadline_aware_usd_p50"]["high"].get<double>() > p50);
  CHECK(band["text"].get<std::string>().find("on time in 0 % of the traces at the slow end") !=
        std::string::npos);
}

TEST_CASE("a batch-inference job sized for its deadline keeps its instances in its band", "[batch]") {
  // demand.deadline_days sizes the job's fleet for the deadline; the band asks how long the work
  // takes on that fleet at the measured error, so its ends are work x (1 -/+ p90) and the slow end
  // costs more than the point (it used to re-size the fleet, which held the work near the point).
  const Json r = test::ask(test::shipped(), {{"question", "batch"},
                                             {"model", {{"name", "llama-3.1-8b"}}},
                                             {"workload", "batch_inference"},
                                             {"demand", {{"dataset_tokens", 2e9}, {"deadline_days", 2}}},
                                             {"instance_types", {"g6e.xlarge"}},
                                             {"deadline_hours", 48},
                                             {"traces", 200}});
  REQUIRE(r["ok"] == true);
  const Json& job = r["result"]["jobs"][0];
  const Json& band = job["band"];
  const double work = job["work_hours"].get<double>();
  const double p90 = band["expected_error"]["p90_abs_err_pct"].get<double>() / 100;
  REQUIRE(p90 < 1);
  CHECK(band["work_hours"]["low"].get<double>() == Approx(work * (1 - p90)).margin(0.01));
  CHECK(band["work_hours"]["high"].get<double>() == Approx(work * (1 + p90)).margin(0.01));
  const double p50 = plan_named(job, "deadline_aware")["cost_usd"]["p50"].get<double>();
  CHECK(band["deadline_aware_usd_p50"]["high"].get<double>() > p50 * (1 + p90 / 2));
}
