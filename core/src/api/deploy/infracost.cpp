// An Infracost usage file for the Terraform file's resources: the instances an autoscaled group
// runs on average over the month, not its desired count (infracost issue #2896).

#include "api/deploy/deploy_files.hpp"

#include <cmath>

namespace gpufleet::detail::deploy {
namespace {

constexpr double kMonthHours = 730;  // Infracost's month when a usage file gives no hours

std::string ident(const std::string& name) {
  std::string id;
  for (char c : name) id += c == '-' || c == '.' ? '_' : c;
  return id;
}

}  // namespace

std::vector<File> infracost(const Site& s) {
  const std::string& p = s.instance->provider;
  const std::string id = ident(s.name);
  std::string y =
      header(s, "Infracost usage file (infracost breakdown --usage-file) for the Terraform file");
  y += "version: 0.1\nresource_usage:\n";
  const Traced& mean = s.mean_instances;
  const bool hours = s.hours_per_month.value > 0;
  // Infracost reads instance and node counts as whole numbers: a fractional mean is kept exact on
  // AWS as whole instances x fewer hours, elsewhere rounded (and said).
  const double whole = std::ceil(mean.value - 1e-9);
  const bool fraction = whole != mean.value;
  if (p == "aws" && fraction && !hours) {
    y += "  aws_autoscaling_group." + id + ":\n    instances: " + num(whole) + "  # " + mean.from +
         " (" + num(mean.value) + ") rounded up\n    monthly_hrs: " + num(mean.value * kMonthHours / whole) +
         "  # " + num(mean.value) + " x " + num(kMonthHours) + " h / " + num(whole) +
         ": the same instance-hours as the mean\n";
  } else if (p == "aws") {
    y += "  aws_autoscaling_group." + id + ":\n    instances: " + num(mean.value) +
         yaml_note(mean) + "\n";
    if (hours)
      y += "    monthly_hrs: " + num(s.hours_per_month.value) + yaml_note(s.hours_per_month) + "\n";
  } else if (p == "gcp") {
    if (s.pricing != "on_demand" && s.on_demand_base.value > 0) {
      y += "  google_container_node_pool." + id +
           "_on_demand:\n    nodes: " + num(s.on_demand_base.value) + yaml_note(s.on_demand_base) +
           "\n";
      y += "  google_container_node_pool." + id +
           "_spot:\n    nodes: " + num(std::round(std::max(0.0, mean.value - s.on_demand_base.value))) +
           "  # " + mean.from + ", less the on-demand base" + (fraction ? ", rounded to whole nodes" : "") + "\n";
    } else {
      y += "  google_container_node_pool." + id + ":\n    nodes: " + num(std::round(mean.value)) +
           (fraction ? "  # " + mean.from + " (" + num(mean.value) + ") rounded to whole nodes" : yaml_note(mean)) + "\n";
    }
  } else {
    y += "  azurerm_linux_virtual_machine_scale_set." + id + ":\n    instances: " + num(std::round(mean.value)) +
         (fraction ? "  # " + mean.from + " (" + num(mean.value) + ") rounded to whole instances" : yaml_note(mean)) + "\n";
  }
  if (hours && p != "aws")
    y += "# Infracost prices these for a whole month (its usage file takes no hours here); the "
         "plan runs them " +
         num(s.hours_per_month.value) + " h (" + s.hours_per_month.from +
         "): that share of its figure.\n";
  y += "# gpufleet's own monthly figure for comparison: $" + num(s.usd_per_month.value) + " (" +
       s.usd_per_month.from + ")\n";
  return {{"infracost", "infracost/" + s.name + "-usage.yml", "application/yaml", y}};
}

}  // namespace gpufleet::detail::deploy
