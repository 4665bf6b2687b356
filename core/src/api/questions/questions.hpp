#pragma once
// The questions' answers, one file each in api/questions/ (the question table in api/analyzer.cpp
// calls them; memory, right_size and estimate are declared in memory.hpp). Each reads its
// fields through the Session and returns the answer's "result", or null after a failure the
// reader recorded. Internal to the core.

#include "api/session.hpp"
#include "catalog/catalog.hpp"
#include "support/json.hpp"

namespace gpufleet::detail {

Json answer_precisions(const Catalog& catalog, Session& s, const Json& req);
Json answer_fit(const Catalog& catalog, Session& s, const Json& req);
Json answer_cost(const Catalog& catalog, Session& s, const Json& req);         // not in the page's module
Json answer_performance(const Catalog& catalog, Session& s, const Json& req);  // not in the page's module
Json answer_recommend(const Catalog& catalog, Session& s, const Json& req);
Json answer_migrate(const Catalog& catalog, Session& s, const Json& req);
Json answer_workload(const Catalog& catalog, Session& s, const Json& req);
Json answer_workload_set(const Catalog& catalog, Session& s, const Json& req);
Json answer_workloads(const Catalog& catalog, Session& s, const Json& req);
Json answer_catalog(const Catalog& catalog, Session& s, const Json& req);
Json answer_validate(const Catalog& catalog, Session& s, const Json& req);
Json answer_plan(const Catalog& catalog, Session& s, const Json& req);
Json answer_placement(const Catalog& catalog, Session& s, const Json& req);
Json answer_decide(const Catalog& catalog, Session& s, const Json& req);
Json answer_autoscale(const Catalog& catalog, Session& s, const Json& req);
Json answer_batch(const Catalog& catalog, Session& s, const Json& req);
Json answer_deploy(const Catalog& catalog, Session& s, const Json& req);
// autoscale's recommended settings as deploy's KEDA ScaledObject (one writer for both answers).
std::string keda_for_autoscale(const Catalog& catalog, const Json& autoscale_result);

// The catalog's scenarios and sets (the "workloads" answer, also a section of "catalog").
Json workload_list(const Catalog& catalog);

}  // namespace gpufleet::detail
