#pragma once
// Reading a source answer's chosen deployment into Sites: questions/deploy.cpp reads the answers
// of one deployment (fit, recommend, migrate, autoscale, spot), read_fleet.cpp those of several
// (placement, decide, regions), read_plan.cpp a fleet plan's workloads. Internal to the core.

#include <optional>
#include <string>
#include <vector>

#include "api/deploy/deploy_files.hpp"
#include "support/json.hpp"
#include "support/json_reader.hpp"

namespace gpufleet::detail::deploy {

// An answer's member, number or text, or an empty object, 0 or "" when it has none.
const Json& member(const Json& j, const char* key);
double number_at(const Json& j, const char* key);
std::string text_at(const Json& j, const char* key);

// "llama-3.1-8b", "vllm" -> "llama-3-1-8b-vllm".
std::string k8s_name(const std::string& key, const std::string& engine);
// The model, engine and sequence of the answer's request.
void read_workload(const Catalog& catalog, const Json& result, Site& s);
// Instances holding `replicas` copies of the site's replica, rounded up.
Traced instances_for(const Site& s, const Traced& replicas, const std::string& what);
// A deployment object of an answer (fit's, a recommend candidate, ...): instance, layout, counts.
void read_deployment(const Catalog& catalog, const Json& result, const Json& dep,
                     const std::string& where, Site& s);
// Fit of the source request's workload on `instance` over `instances_per_replica` instances: the
// layout and concurrency of a replica the answer placed without sizing it.
std::optional<Json> fit_on(const Catalog& catalog, const Json& from, const std::string& instance,
                           double instances_per_replica, Errors& errors);

// The sources of several deployments.
std::vector<Site> read_placement(const Catalog& catalog, const Json& from, const Json& result,
                                 const std::optional<std::string>& packing, const Reader& r);
std::optional<Site> read_decide(const Catalog& catalog, const Json& result,
                                std::optional<double> option, const Reader& r);
std::vector<Site> read_plan(const Catalog& catalog, const Json& from, const Json& result);
std::vector<Site> read_regions(const Catalog& catalog, const Json& from, const Json& result,
                               const Reader& r);

}  // namespace gpufleet::detail::deploy
