#pragma once
// The spot and regions questions (issue 34). Internal to the core.

#include "catalog/catalog.hpp"
#include "api/session.hpp"

namespace gpufleet::detail {

Json answer_spot(const Catalog& catalog, Session& s, const Json& req);
Json answer_regions(const Catalog& catalog, Session& s, const Json& req);

}  // namespace gpufleet::detail
