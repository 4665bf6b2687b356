#pragma once
// The fleet questions: plan, placement and decide (seed 001, 000 and 002). Internal to the core.

#include "catalog/catalog.hpp"
#include "api/session.hpp"

namespace gpufleet::detail {

Json answer_plan(const Catalog& catalog, Session& s, const Json& req);
Json answer_placement(const Catalog& catalog, Session& s, const Json& req);
Json answer_decide(const Catalog& catalog, Session& s, const Json& req);

}  // namespace gpufleet::detail
