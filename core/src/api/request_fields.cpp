// The request kinds of the field table (request_fields.hpp) and the question rows.

#include "api/request_fields.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

#include "api/questions/memory.hpp"
#include "api/request_field_tables.hpp"
#include "api/session.hpp"
#include "support/text.hpp"

namespace gpufleet::detail {
namespace {

using namespace fields;
using namespace fields::define;
using T = Type;
using namespace request_tables;

// The page's module (wasm/CMakeLists.txt compiles this file for it with GPUFLEET_PAGE_MODULE) keeps
// only the names of the questions it leaves out (analyzer.cpp's kPageLeavesOut): it refuses them
// before reading a field.
#if GPUFLEET_PAGE_MODULE
#define NOT_IN_PAGE(fields) ""
#else
#define NOT_IN_PAGE(fields) fields
#endif

// Every question and the fields it takes ("!": required): rows the dispatch (analyzer.cpp), the
// request schema, the CLI's help and the page's menus read.
constexpr QuestionFields kQuestionRows[] = {
    {"precisions", NOT_IN_PAGE("model!")},
    {"fit",
     "model! workload! precision instance! gpus hours_per_month schedule use_spot pricing "
     "spot_share max_tpot_ms weight_format kv_cache_format engine demand recipe memory_method "
     "region regions"},
    {"cost",
     NOT_IN_PAGE(
         "instance! gpus hours_per_month schedule use_spot pricing spot_share region regions")},
    {"performance",
     NOT_IN_PAGE(
         "workload precision instances! model hours_per_month schedule use_spot pricing spot_share "
         "weight_format kv_cache_format engine demand recipe memory_method region regions")},
    {"recommend",
     "model! workload! precision hours_per_month schedule use_spot pricing spot_share priority "
     "families providers kinds max_usd_per_month min_gpus limit max_tpot_ms weight_format "
     "kv_cache_format engine demand recipe memory_method region regions"},
    {"migrate", NOT_IN_PAGE("current! model! workload! precision hours_per_month schedule use_spot "
                            "pricing spot_share priority providers kinds max_tpot_ms weight_format "
                            "kv_cache_format engine demand recipe memory_method region regions")},
    {"workload", NOT_IN_PAGE("id!")},
    {"plan", NOT_IN_PAGE("plan! region regions")},
    {"decide",
     NOT_IN_PAGE("model! workload! precision providers framework model_kind goal latency_ms edge "
                 "batch hours_per_month schedule use_spot pricing spot_share weight_format "
                 "kv_cache_format engine demand recipe memory_method region regions")},
    {"placement", NOT_IN_PAGE("models! instance gpus providers max_instances hours_per_month "
                              "schedule use_spot pricing spot_share region regions")},
    {"workload_set", NOT_IN_PAGE("id!")},
    {"workloads", NOT_IN_PAGE("")},
    {"catalog", "section model_name region regions"},
    {"validate", NOT_IN_PAGE("")},
    {"memory", kMemoryFields},
    {"spot",
     NOT_IN_PAGE(
         "model! workload! precision hours_per_month schedule providers instance_types "
         "target_availability replacement_minutes band_reading checkpoint_write_s restart_s "
         "weight_format kv_cache_format engine demand recipe memory_method region regions")},
    {"deploy", NOT_IN_PAGE("target! from! candidate packing")},
    {"regions",
     NOT_IN_PAGE(
         "model! workload! precision hours_per_month schedule use_spot pricing spot_share "
         "providers instance users residency failover response_bytes dataset_gb dataset_region "
         "weight_format kv_cache_format engine demand recipe memory_method region regions")},
    {"batch",
     NOT_IN_PAGE("model workload precision weight_format kv_cache_format engine demand recipe "
                 "memory_method deadline_hours earliest_start_hours checkpoint_write_s restart_s "
                 "replacement_minutes band_reading instance_types providers seed traces max_usd "
                 "concurrent_jobs jobs region regions")},
#if GPUFLEET_ACCURACY  // a native harness: the WebAssembly module leaves it out
    {"accuracy", "cases!"},
#endif
    {"autoscale", NOT_IN_PAGE("model! profile! workload precision instance policy cold_start "
                              "commitment use_spot pricing spot_share max_tpot_ms weight_format "
                              "kv_cache_format engine demand memory_method region regions")},
    {"right_size", NOT_IN_PAGE("models! hours_per_month providers region regions")},
    {"estimate",
     NOT_IN_PAGE("model! workload precision demand recipe phase weight_format kv_cache_format "
                 "compute_precision gpu instance gpus tensor_parallel input_tokens output_tokens "
                 "concurrency context dataset_tokens epochs gradient_checkpointing engine "
                 "attention batch rank max_ttft_ms max_tpot_ms providers limit region regions")},
};

constexpr Kind kRequestKinds[] = {
    Kind{"request", "a request", KIND_FIELDS(kRequestFields), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the fields questions share (docs/api.md)")},
    Kind{"request.decide", "\"decide\"", KIND_FIELDS(kDecideRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("decide's own fields")},
    Kind{"request.memory", "\"memory\"", KIND_FIELDS(kMemoryRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("memory's own fields")},
    Kind{"request.estimate", "\"estimate\"", KIND_FIELDS(kEstimateRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("estimate's own fields")},
    Kind{"request.autoscale", "\"autoscale\"", KIND_FIELDS(kAutoscaleRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("autoscale's own fields")},
    Kind{"autoscale_profile", "\"profile\"", KIND_FIELDS(kAutoscaleProfile), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a traffic profile: exactly one of requests_per_s, csv, shape")},
    Kind{"autoscale_policy", "\"policy\"", KIND_FIELDS(kAutoscalePolicy), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a scaling policy")},
    Kind{"cold_start", "\"cold_start\"", KIND_FIELDS(kColdStart), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a replica's cold start")},
    Kind{"request.spot", "\"spot\"", KIND_FIELDS(kSpotRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("spot's own fields")},
    Kind{"request.catalog", "\"catalog\"", KIND_FIELDS(kCatalogRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("catalog's own fields")},
    Kind{"request.deploy", "\"deploy\"", KIND_FIELDS(kDeployRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("deploy's own fields")},
    Kind{"request.regions", "\"regions\"", KIND_FIELDS(kRegionsRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("the regions question's own fields")},
    Kind{"request.batch", "\"batch\"", KIND_FIELDS(kBatchRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("batch's own fields")},
    Kind{"batch_job", "a batch job", KIND_FIELDS(kBatchJob), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a job with a deadline")},
    Kind{"user_group", "a user group", KIND_FIELDS(kUserGroup), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("where a share of the demand comes from")},
    Kind{"residency", "\"residency\"", KIND_FIELDS(kResidency), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("where the workload may run")},
    Kind{"request.right_size", "\"right_size\"", KIND_FIELDS(kRightSizeRequest), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("right_size's own fields")},
    Kind{"request_model", "\"model\"", KIND_FIELDS(kRequestModel), kExactlyOne, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a model: exactly one of name, hf_config, size, params_b")},
    Kind{"memory_request_model", "\"model\"", KIND_FIELDS(kMemoryRequestModel), kExactlyOne, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a concrete model: exactly one of name, hf_config")},
    Kind{"demand", "a demand", KIND_FIELDS(kDemand), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("what the deployment must serve or train")},
    Kind{"recipe", "a recipe", KIND_FIELDS(kRecipe), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("how a training job runs")},
    Kind{"schedule", "a schedule", KIND_FIELDS(kSchedule), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("exactly one of hours_per_month, hours_per_day, hours_per_week, always_on, off_hours_per_day")},
    Kind{"placement", "an instance", KIND_FIELDS(kPlacement), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("instances of one type")},
    Kind{"plan", "\"plan\"", KIND_FIELDS(kPlan), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a fleet plan")},
    Kind{"plan_environment", "a plan's environment", KIND_FIELDS(kPlanEnvironment), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("an environment of a plan: its workloads")},
    Kind{"plan_workload", "a plan's workload", KIND_FIELDS(kPlanWorkload), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("instances of one type, their hours and way to pay")},
    Kind{"placement_model_by_memory", "a placement model given by memory_gb", KIND_FIELDS(kPlacementModelByMemory), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a model to place, by the memory it needs")},
    Kind{"placement_model", "a placement model", KIND_FIELDS(kPlacementModel), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("a model to place, sized by the memory model (or by memory_gb alone)")},
    Kind{"request_lora", "\"lora\"", KIND_FIELDS(kLora), 0, nullptr, nullptr, nullptr, nullptr, 0, FIELD_DOC("LoRA settings")},
};

const bool kAdded = add_kinds({std::begin(kRequestKinds), std::end(kRequestKinds)});

}  // namespace

const QuestionFields* questions_begin() { return std::begin(kQuestionRows); }
const QuestionFields* questions_end() { return std::end(kQuestionRows); }

const QuestionFields* question_fields(std::string_view question) {
  (void)kAdded;
  for (const QuestionFields& q : kQuestionRows) {
    if (question == q.name) return &q;
  }
  return nullptr;
}

std::vector<std::string> field_names(const QuestionFields& question) {
  std::vector<std::string> names = words(question.fields);
  for (auto& name : names) {
    if (!name.empty() && name.back() == '!') name.pop_back();
  }
  return names;
}

const Kind* request_kinds_begin() { return std::begin(kRequestKinds); }
const Kind* request_kinds_end() { return std::end(kRequestKinds); }

const Field* request_field(std::string_view question, std::string_view name) {
  if (const std::size_t dot = name.find('.'); dot != std::string_view::npos) {
    return find(kind(name.substr(0, dot)), name.substr(dot + 1));
  }
  const std::string own = "request." + std::string(question);
  if (const Field* f = find(kind(own), name)) return f;
  return find(kind("request"), name);
}

std::vector<std::string> allowed_values(std::string_view question, std::string_view name) {
  const Field* f = request_field(question, name);
  return f ? values_of(*f) : std::vector<std::string>{};
}

std::optional<std::string> pick(const Reader& r, std::string_view question, const Json& req, const char* name) {
  auto text = r.string(req, name, "", false);
  if (!text) return std::nullopt;
  const Field* field = request_field(question, name);
  const std::string v = lower(*text);
  if (field) {
    for (const auto& spellings : spellings_of(*field))
      if (std::find(spellings.begin(), spellings.end(), v) != spellings.end()) return spellings.front();
  }
  r.fail("unknown_name", std::string("/") + name,
         "expected one of " + names_of(field ? values_of(*field) : std::vector<std::string>{}) + ", got \"" + *text + "\"");
  return std::nullopt;
}

Json request_menus() {
  Json questions = Json::array();
  for (const QuestionFields& q : kQuestionRows) questions.push_back(q.name);
  Json values = Json::object();
  Json usual = Json::array();
  for (const Kind& k : kRequestKinds) {
    const std::string_view name = k.name;
    const std::string prefix = name == "request" ? "" : name.substr(0, 8) == "request." ? std::string(name.substr(8)) + "." : std::string(name) + ".";
    for (std::size_t i = 0; i < k.count; ++i) {
      if (!k.fields[i].values) continue;
      const std::string key = prefix + k.fields[i].name;
      Json& list = values[key] = Json::array();
      for (std::string& v : values_of(k.fields[i])) list.push_back(std::move(v));
      if (k.fields[i].flags & kUsual) usual.push_back(key);
    }
  }
  return {{"questions", std::move(questions)}, {"values", std::move(values)}, {"usual", std::move(usual)}};
}

}  // namespace gpufleet::detail
