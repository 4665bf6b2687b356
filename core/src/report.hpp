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
// moved), so the answers' large objects are made with their room.
Json object(std::size_t members);

double round_to(double value, int decimals);
Json gb(double bytes);  // decimal GB, 2 decimals
std::string short_number(double value);
Json report_optional(const std::optional<double>& value, int decimals);  // rounded, or null  // "13", "0.25", "1.5": at most 3 decimals, no trailing zeros

Json placement(const Placement& p);
Json memory(const MemoryRequirement& need);
Json fit(const Fit& fit);
Json cost(const Cost& cost);
Json candidate(const Candidate& c);
Json ways_out(const Catalog& catalog, const Question& q, const WaysOut& w);
Json migration(const Catalog& catalog, const MigrationReport& report, const Question& q);
Json question(const Question& q);

}  // namespace gpufleet::report
