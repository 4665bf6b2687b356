#pragma once
// The memory questions: "memory" (a concrete model's breakdown) and "accuracy" (measurement
// cases predicted and compared). Internal to the core.

#include <string>
#include <vector>

#include "gpufleet/catalog.hpp"
#include "session.hpp"

namespace gpufleet::detail {

// The request fields of the "memory" question (and of each right_size item).
const std::vector<std::string>& memory_fields();

Json answer_memory(const Catalog& catalog, Session& s, const Json& req);
Json answer_accuracy(const Catalog& catalog, Session& s, const Json& req);
Json answer_right_size(const Catalog& catalog, Session& s, const Json& req);
Json answer_estimate(const Catalog& catalog, Session& s, const Json& req);

}  // namespace gpufleet::detail
