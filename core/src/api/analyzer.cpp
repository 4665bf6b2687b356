#include "gpufleet/analyzer.hpp"
#include "api/analyzer_access.hpp"

#include <algorithm>
#include <utility>

#include "api/answers.hpp"
#include "api/questions/memory.hpp"
#include "api/questions/questions.hpp"
#include "api/questions/spot.hpp"
#include "api/request_fields.hpp"
#include "api/session.hpp"
#include "pricing/prices.hpp"
#include "support/decimal.hpp"
#include "support/guarded.hpp"
#include "support/json_guard.hpp"
#include "support/json_reader.hpp"
#include "support/text.hpp"

namespace gpufleet {
namespace {

using detail::kRequest;
using detail::lower;
using detail::names_of;
using detail::Reader;
using detail::Session;


Json ok(const Catalog& catalog, const std::string& question, Json result) {
  Json j = report::object(4);
  j["ok"] = true;
  j["question"] = question;
  Json info;
  // catalog_info is optional and user-edited: read only the strings that are there.
  for (const char* key : {"name", "version", "date"}) {
    auto it = catalog.info.is_object() ? catalog.info.find(key) : catalog.info.end();
    info[key] = catalog.info.is_object() && it != catalog.info.end() && it->is_string() ? it->get<std::string>() : "";
  }
  // The oldest price the answer could use; the doors say how many days ago that is.
  const std::string as_of = catalog.prices_as_of();
  info["prices_as_of"] = as_of.empty() ? Json(nullptr) : Json(as_of);
  j["catalog"] = std::move(info);
  j["result"] = std::move(result);
  return j;
}

// Every question and the function that answers it (the fields each takes are rows of the request
// field table, api/request_fields.cpp). Called through this table, each answer stays a function of
// its own, in a file of its own (api/questions/): the WebAssembly engine compiles a question's code
// when it is first asked, and a module that leaves a question out links none of its code.
using Answer = Json (*)(const Catalog&, Session&, const Json&);
struct QuestionEntry {
  const char* name;
  Answer answer;
};
#if GPUFLEET_PAGE_MODULE
// The page's module (wasm/CMakeLists.txt, gpufleet_page_wasm) holds what the first views ask (fit,
// memory, recommend, the catalog's menus) and leaves out the rest: the questions no view
// of the page asks, and those of the later views and tools, which the page asks of the full module
// in a Web Worker started when one is first asked (web/app/catalog-store.js IN_WORKER): 245.9 ->
// about 150 KB gzipped (docs/performance.md).
constexpr const char* kPageLeavesOut[] = {"precisions", "cost", "performance", "right_size", "estimate", "migrate", "workload", "plan",
                                          "decide", "placement", "workload_set", "workloads", "validate", "autoscale",
                                          "spot", "regions", "batch", "deploy"};
#endif
constexpr QuestionEntry kQuestions[] = {
    {"fit", detail::answer_fit},
    {"recommend", detail::answer_recommend},
    {"catalog", detail::answer_catalog},
    {"memory", detail::answer_memory},
#if !GPUFLEET_PAGE_MODULE  // kPageLeavesOut
    {"precisions", detail::answer_precisions},
    {"cost", detail::answer_cost},
    {"performance", detail::answer_performance},
    {"migrate", detail::answer_migrate},
    {"workload", detail::answer_workload},
    {"plan", detail::answer_plan},
    {"decide", detail::answer_decide},
    {"placement", detail::answer_placement},
    {"workload_set", detail::answer_workload_set},
    {"workloads", detail::answer_workloads},
    {"validate", detail::answer_validate},
    {"autoscale", detail::answer_autoscale},
    {"spot", detail::answer_spot},
    {"regions", detail::answer_regions},
    {"batch", detail::answer_batch},
    {"deploy", detail::answer_deploy},
#endif
#if GPUFLEET_ACCURACY  // a native harness: the WebAssembly module leaves it out
    {"accuracy", detail::answer_accuracy},
#endif
#if !GPUFLEET_PAGE_MODULE  // kPageLeavesOut
    {"right_size", detail::answer_right_size},
    {"estimate", detail::answer_estimate},
#endif
};

}  // namespace

Json errors_response(const Errors& errors) {
  Json list = Json::array();
  for (const auto& e : errors) {
    list.push_back({{"code", e.code}, {"file", e.file}, {"path", e.path}, {"message", e.message}});
  }
  return {{"ok", false}, {"errors", list}};
}

namespace {

Json answer(const Analyzer::State& state, const Json& request, Errors& errors);

std::shared_ptr<const Catalog> view(const Analyzer::State& state, const RegionChoice& choice) {
  constexpr std::size_t kViewsKept = 16;  // each is a copy of the catalog's instance types
  const std::string key = choice.key();
  std::lock_guard<std::mutex> lock(state.views_mutex);
  if (auto found = state.views.find(key); found != state.views.end()) return found->second;
  if (state.views.size() >= kViewsKept) state.views.clear();
  return state.views[key] = regional_view(*state.catalog, choice);
}

}  // namespace

Analyzer::Analyzer(const CatalogSources& sources) : state_(std::make_unique<State>()) {
  detail::guarded(
      [&] {
        CatalogLoad load = load_catalog(sources);
        state_->catalog_errors = std::move(load.errors);
        state_->catalog = std::move(load.catalog);
      },
      [&](const char* what) {
        state_->catalog_errors.push_back({"internal_error", "", "", std::string("catalog load failed: ") + what});
      });
}

Analyzer::~Analyzer() = default;

std::string errors_json(const Errors& errors, int indent) { return errors_response(errors).dump(indent); }

bool Analyzer::catalog_ok() const { return state_->catalog != nullptr; }
const Errors& Analyzer::catalog_errors() const { return state_->catalog_errors; }
const Analyzer::State& state_of(const Analyzer& analyzer) { return *analyzer.state_; }

Json analyze(const Analyzer& analyzer, const Json& request) {
  const Analyzer::State& state = state_of(analyzer);
  if (!state.catalog) return errors_response(state.catalog_errors);
  Errors errors;
  return detail::guarded([&] { return answer(state, request, errors); },
                         [&](const char* what) {
                           errors.push_back({"internal_error", kRequest, "", std::string("unexpected failure: ") + what});
                           return errors_response(errors);
                         });
}

namespace {

// The question's handler, or nullptr after saying why there is none.
const QuestionEntry* handler(const Reader& r, const std::string& question, const std::string& q) {
  for (const QuestionEntry& entry : kQuestions) {
    if (q == entry.name) return &entry;
  }
#if GPUFLEET_PAGE_MODULE
  for (const char* left_out : kPageLeavesOut) {
    if (q != left_out) continue;
    r.fail("unknown_name", "/question",
           "the page's WebAssembly module leaves \"" + q + "\" out: ask it through gpufleet/all/gpufleet.js "
           "beside the page (as the page's later views do, in a Web Worker), the npm package or the CLI");
    return nullptr;
  }
#endif
#if !GPUFLEET_ACCURACY
  if (q == "accuracy") {
    r.fail("unknown_name", "/question",
           "this build has no accuracy harness (the WebAssembly module leaves it out): run it natively, "
           "gpufleet accuracy FILE... or scripts/accuracy.sh");
    return nullptr;
  }
#endif
  std::vector<std::string> names;
  for (auto row = detail::questions_begin(); row != detail::questions_end(); ++row) names.push_back(row->name);
  r.fail("unknown_name", "/question", "expected one of " + names_of(names) + ", got \"" + question + "\"");
  return nullptr;
}

// Fails with unknown_field for every member the question does not take.
void check_request_fields(const Reader& r, const Json& request, const std::string& q) {
  const detail::QuestionFields* row = detail::question_fields(q);
  const std::vector<std::string> allowed = row ? detail::field_names(*row) : std::vector<std::string>{};
  for (const auto& [key, _] : request.items()) {
    if (key != "question" && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      r.fail("unknown_field", Reader::child("", key),
             "\"" + q + "\" takes " + (allowed.empty() ? "no other field" : names_of(allowed)) + "; got \"" + key + "\"");
    }
  }
}

Json answer(const Analyzer::State& state, const Json& request, Errors& errors) {
  Reader r(kRequest, errors);
  if (!r.expect_object(request, "")) return errors_response(errors);
  auto question = r.string(request, "question", "", true);
  if (!question) return errors_response(errors);
  const std::string q = lower(*question);
  const QuestionEntry* known = handler(r, *question, q);
  if (!known) return errors_response(errors);
  check_request_fields(r, request, q);
  if (!errors.empty()) return errors_response(errors);
  std::shared_ptr<const Catalog> catalog = state.catalog;
  if (request.contains("region") || request.contains("regions")) {
    auto choice = detail::read_region_choice(*state.catalog, request, r);
    if (!choice) return errors_response(errors);
    catalog = view(state, *choice);
  }
  Session s(*catalog, request, errors);
  Json result = known->answer(*catalog, s, request);
  if (!errors.empty() || result.is_null()) {
    if (errors.empty()) errors.push_back({"cannot_answer", kRequest, "", "the request could not be answered"});
    return errors_response(errors);
  }
  return ok(*catalog, q, std::move(result));
}

}  // namespace

std::string Analyzer::analyze_json(const std::string& request, int indent) const {
  Errors errors;
  auto parsed = detail::parse_checked(request, kRequest, detail::kRequestLimits, errors);
  const Json response = parsed ? analyze(*this, *parsed) : errors_response(errors);
  std::string text = response.dump(indent, ' ', false, Json::error_handler_t::replace);
  if (text.size() > kMaxAnswerBytes) {
    return errors_response({{"too_large", kRequest, "",
                             "the answer would be " + decimal::whole(text.size()) + " bytes, over the limit of " +
                                 decimal::whole(kMaxAnswerBytes) + ": ask for less (a limit, fewer models or rows, a narrower catalog)"}})
        .dump(indent);
  }
  return text;
}

}  // namespace gpufleet
