#pragma once
// Turns analysis results into the response JSON. Numbers are rounded here, once, so that every
// door prints the same digits; no NaN or infinity can reach the output.

#include "catalog/catalog.hpp"
#include "support/text.hpp"
#include "pricing/cost.hpp"
#include "fleet/seed_memory.hpp"
#include "fleet/recommend.hpp"

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

// The text helpers are support/text's (round_to, short_number); these two write JSON values.
using text::round_to;
using text::short_number;
Json gb(double bytes);                                                    // decimal GB, 2 decimals
Json report_optional(const std::optional<double>& value, int decimals);  // rounded, or null

// The model's name as typed and the spelling it matched: {"typed", "matched_by"}.
Json typed_name(const std::pair<std::string, std::string>& typed);
Json placement(const Placement& p);
Json memory(const MemoryRequirement& need);
// `ways`: with `commitments`, every way to pay the provider offers for the instance with its
// source (the cost and fit answers); elsewhere the chosen way is in `way` and `basis`.
Json cost(const Cost& cost, bool ways = false);
// A flagged price's codes with their names: [{"code", "name"}].
Json price_flags(const std::vector<std::string>& codes);
// An answer about a named instance whose price the catalog flags says so first (price_flags),
// before any figure it priced.
Json price_flags_first(Json result, const Cost& cost);
// Why a deployment on an accelerator whose speed comes from datasheet peaks needs measuring first,
// with the measured error of its throughput kind (or that none was measured):
// ("inf2.xlarge (AWS Inferentia2): its throughput comes from datasheet peaks ...").
std::string uncalibrated_caveat(const Deployment& d, const ErrorKind& throughput);
// The catalog's own date (catalog_info.date), "" when it has none.
std::string catalog_date(const Catalog& catalog);
// A spot pool's interruption band as every answer shows it: its range, label, source and date,
// and its age against the catalog's date (stale past 30 days or when undated).
Json interruption_band(const InterruptionBand& b, const Catalog& catalog);
Json memory_lines(const MemoryEstimate& e);
// A deployment of the road: the fields scripts rely on (instance, instance_count, gpus, layout,
// memory_per_gpu_gb, usd_per_month, usd_per_million_output_tokens, output_tokens_per_s, ...);
// `details` adds the cost, the memory breakdown and the bases.
Json deployment(const Deployment& d, bool details);
// What a figure of a kind can be expected to miss by, in words: its measured error (model_config.json
// "measured_error", leave one source out), with n, sources and the pool it was taken over.
Json expected_error(const ErrorKind& kind);
// The expected_error a band carries: without its prose, which the band's text says.
Json band_error(const ErrorKind& kind);
// A band without ends (no measured case of its kind): {text: "no band: " and why, expected_error}.
Json no_band(const ErrorKind& kind);
// How every band's text ends: " at the measured error (throughput 90 % within P %, N cases)".
std::string at_measured_error(const MeasuredError& measured);
// Whether a fit holds at the measured error of its kind (`expected`, an expected_error): the
// memory used between used / (1 + p90) and used / (1 - p90) against the capacity; under a pool
// engine, which takes its share whatever the model, its KV pool's tokens in that range (the pool
// is the figure its cases measure) against one `sequence` of tokens. null without a measured error.
Json fit_band(const MemoryEstimate& e, double sequence, double capacity, bool pool, const Json& expected);
// A deployment's figures at the measured error of its throughput: capacity, replicas, instances,
// cost and $ per 1M tokens, each {low, high}, with the error they come from and a line of text.
Json band(const DeploymentBand& band, const Deployment& d);
// Several deployments' bands (`band` of each) summed: replicas, instances and monthly cost, each
// {low, high}, plus `fixed_usd_per_month` that the throughput does not move (egress); the text
// says which fleet (`what`). A "no band" text when a part has none.
Json summed_band(const std::vector<Json>& bands, double fixed_usd_per_month,
                 const std::string& what);
Json candidate(const Candidate& c);
Json excluded(const Excluded& e);
Json ways_out(const WaysOut& w);
Json migration(const MigrationReport& report, const Question& q);
Json workload(const Workload& w);  // the workload as understood, with its stated defaults
Json question(const Question& q);

}  // namespace gpufleet::report
