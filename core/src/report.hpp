#pragma once
// Turns analysis results into the response JSON. Numbers are rounded here, once, so that every
// door prints the same digits; no NaN or infinity can reach the output.

#include "gpufleet/catalog.hpp"
#include "gpufleet/cost.hpp"
#include "gpufleet/memory.hpp"
#include "gpufleet/recommend.hpp"

namespace gpufleet::report {

// An empty object with room for `members`: ordered_json keeps members in a vector whose growth
// copies every member built so far, nested objects included (a pair with a const key cannot be
// moved), so the answers' large objects are made with their room. Rows built member by member
// this way also cost a fraction of an initializer list, which builds every pair as an array.
Json object(std::size_t members);
// Appends a member to an object built here, whose keys are distinct literals: operator[] would
// first compare the key with every member already there and copy it twice.
inline void add(Json& object, const char* key, Json value) {
  object.get_ref<Json::object_t&>().emplace_back(key, std::move(value));
}

double round_to(double value, int decimals);
Json gb(double bytes);  // decimal GB, 2 decimals
std::string short_number(double value);
Json report_optional(const std::optional<double>& value, int decimals);  // rounded, or null  // "13", "0.25", "1.5": at most 3 decimals, no trailing zeros

Json placement(const Placement& p);
Json memory(const MemoryRequirement& need);
Json fit(const Fit& fit);
Json cost(const Cost& cost);
Json candidate(const Candidate& c);
Json excluded(const Excluded& e);
Json ways_out(const Catalog& catalog, const Question& q, const WaysOut& w);
Json migration(const Catalog& catalog, const MigrationReport& report, const Question& q);
Json question(const Question& q);

}  // namespace gpufleet::report
