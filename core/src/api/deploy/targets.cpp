// The deploy targets (which providers each applies to) and the text helpers the writers share.

#include <cmath>
#include <iterator>

#include "api/deploy/deploy_files.hpp"
#include "api/session.hpp"
#include "support/json.hpp"
#include "support/text.hpp"

namespace gpufleet::detail::deploy {
namespace {

constexpr Target kTargets[] = {
    {"kubernetes", "aws gcp azure", false, false, kubernetes},
    {"keda", "aws gcp azure", true, false, keda},
    {"hpa", "aws gcp azure", true, false, hpa},
    {"karpenter", "aws", false, false, karpenter},
    {"eksctl", "aws", false, false, eksctl},
    {"gke_compute_class", "gcp", false, false, gke_compute_class},
    {"terraform", "aws gcp azure", false, false, terraform},
    {"ecs", "aws", false, true, ecs},
    {"skypilot", "aws gcp azure", false, false, skypilot},
    {"infracost", "aws gcp azure", false, false, infracost},
};

}  // namespace

const Target* targets_begin() { return std::begin(kTargets); }
const Target* targets_end() { return std::end(kTargets); }

const Target* target(const std::string& name) {
  for (const Target& t : kTargets)
    if (name == t.name) return &t;
  return nullptr;
}

bool applies(const Target& t, const Site& s) {
  const std::string providers = std::string(" ") + t.providers + " ";
  return providers.find(" " + s.instance->provider + " ") != std::string::npos;
}

std::string num(double v) { return text::short_number(v); }
std::string quoted(const std::string& s) { return Json(s).dump(); }
int whole(const Traced& t) { return static_cast<int>(std::lround(t.value)); }
std::string yaml_note(const Traced& t) { return "  # " + t.from; }

std::string header(const Site& s, const std::string& what, const char* c) {
  const std::string p = std::string(c) + " ";
  return p + what + ", written by gpufleet's deploy question from its \"" + s.source +
         "\" answer (docs/deploy.md).\n" + p + "Catalog " + s.catalog_version + " of " +
         s.catalog_date + "; prices as of " + s.prices_as_of + ".\n" + p + s.instance->name +
         " in " + s.region + " (" + s.instance->provider + "), " + s.pricing + "; " +
         (s.role == "nodes"  ? "the node group of a packing of " + names_of(s.packed_models)
          : s.role == "plan" ? "the " + s.plan_workload
                             : s.model_id + " on " + s.engine) +
         ".\n";
}

}  // namespace gpufleet::detail::deploy
