// The sources of several deployments for deploy (docs/deploy.md): a placement's packing (a node
// group, then each placed model's serving files), decide's option, and regions' regions.

#include <algorithm>
#include <cmath>
#include <map>

#include "api/deploy/read_answer.hpp"
#include "support/decimal.hpp"
#include "support/text.hpp"

namespace gpufleet::detail::deploy {
namespace {

// The packing deploy writes: the one asked, or the chosen instance's, or the cheapest split.
std::string packing_key(const Json& result, const std::optional<std::string>& asked) {
  if (asked) return *asked;
  return result.contains("on_instance") && !member(result, "on_instance").is_null()
             ? "on_instance"
             : "cheapest_split";
}

// The node group holding the packing: instance type, count and way to pay.
Site packing_nodes(const Catalog& catalog, const Json& from, const Json& p,
                   const std::string& where, const std::vector<std::string>& models) {
  Site s;
  s.role = "nodes";
  s.instance = catalog.instance(text_at(p, "instance"));
  if (!s.instance) return s;
  s.region = text_at(p, "region");
  s.name = k8s_name("placement-" + s.instance->name, "gpus");
  s.packed_models = models;
  s.gpus_per_instance = {s.instance->gpus,
                         "gpu_instances.json: " + s.instance->name + "'s GPUs per instance"};
  s.instances = {number_at(p, "instance_count"), where + ".instance_count"};
  s.min_instances = s.max_instances = s.mean_instances = s.instances;
  s.replicas = s.instances;
  s.gpus_per_replica = s.gpus_per_instance;
  s.instances_per_replica = {1, "the packing's instances"};
  const Json& cost = member(p, "cost");
  s.usd_per_month = {number_at(cost, "usd_per_month"), where + ".cost.usd_per_month"};
  const std::string pricing = text_at(cost, "pricing");
  s.pricing = pricing == "spot" || pricing == "mixed" ? pricing : "on_demand";
  s.on_demand_base = s.pricing == "on_demand"
                         ? s.instances
                         : Traced{0, "no on-demand base: " + s.pricing + " (" + where + ".cost)"};
  s.on_demand_above_base_pct = {
      s.pricing == "on_demand" ? 100.0
      : s.pricing == "spot"
          ? 0.0
          : std::round(100 *
                       (1 - (from.contains("spot_share") ? number_at(from, "spot_share") : 0.5))),
      "the packing's way to pay (" + pricing + ")"};
  std::size_t most = 0;
  for (const Json& g : member(p, "gpus")) most = std::max(most, member(g, "models").size());
  s.gpu_shares = {static_cast<double>(most),
                  where + ".gpus: the most models placed on one GPU, each a time-sliced share"};
  return s;
}

// A placed model: its GPUs in the packing, the models it shares them with, its share of memory.
struct Placed {
  std::vector<const Json*> gpus;
  std::vector<std::string> neighbours;
};
Placed placed(const Json& p, const std::string& model) {
  Placed out;
  for (const Json& g : member(p, "gpus")) {
    const Json& names = member(g, "models");
    if (std::find(names.begin(), names.end(), Json(model)) == names.end()) continue;
    out.gpus.push_back(&g);
    for (const Json& n : names)
      if (n != Json(model) && std::find(out.neighbours.begin(), out.neighbours.end(),
                                        n.get<std::string>()) == out.neighbours.end())
        out.neighbours.push_back(n.get<std::string>());
  }
  return out;
}

// One placed model's serving site: fit of its workload on its GPUs of the packing's instance for
// the layout, the sequence and (on GPUs of its own) the concurrency; on a shared GPU, its share of
// memory from the placement instead.
Site serving_site(const Catalog& catalog, const Json& entry, const Json& answered, const Json& p,
                  const Site& nodes, const std::string& where) {
  Site s;
  s.role = "serving";
  s.instance = nodes.instance;
  s.region = nodes.region;
  const std::string name = text_at(entry, "name");
  s.name = k8s_name(name, "engine");
  const Placed at = placed(p, name);
  const NamedModel* model =
      entry.contains("model") ? catalog.model(text_at(member(entry, "model"), "name")) : nullptr;
  if (at.gpus.empty()) {
    s.unwritable = name + " is not placed on " + nodes.instance->name;
    return s;
  }
  if (!model) {
    s.unwritable = name + " is given by " +
                   (entry.contains("memory_gb") ? "its memory" : "a size or parameter count") +
                   ", which names no weights to serve: give it as a catalog model (model.name)";
    return s;
  }
  Json req = entry;
  req.erase("name");
  Errors errors;
  auto fit = fit_on(catalog, req, s.instance->name,
                    static_cast<double>(at.gpus.size()) / std::max(1.0, s.instance->gpus), errors);
  const std::string fit_where = "fit of " + name + " on " + decimal::whole(at.gpus.size()) +
                                " GPU(s) of " + s.instance->name + ": result.deployment";
  if (!fit || !member(*fit, "deployment").value("runs", false)) {
    s.unwritable = name + ": fit on its " + decimal::whole(at.gpus.size()) + " GPU(s) says " +
                   (fit ? text_at(member(*fit, "deployment"), "refusal")
                        : (errors.empty() ? std::string("no deployment") : errors.front().message));
    return s;
  }
  read_deployment(catalog, *fit, member(*fit, "deployment"), fit_where, s);
  s.role = "serving";
  s.region = nodes.region;
  s.name = k8s_name(name, s.engine.empty() ? "engine" : s.engine);
  s.instances = s.min_instances = s.max_instances = s.mean_instances =
      instances_for(s, s.replicas, "instances its copies take");
  s.pricing = nodes.pricing;
  s.on_demand_base = nodes.on_demand_base;
  s.on_demand_above_base_pct = nodes.on_demand_above_base_pct;
  s.usd_per_month = {0, "billed with the packing's node group"};
  s.shares_gpu_with = at.neighbours;
  if (!at.neighbours.empty()) {
    double gb = 0;
    for (const Json& m : member(answered, "models"))
      if (text_at(m, "name") == name) gb = number_at(m, "memory_gb");
    const double capacity = number_at(*at.gpus.front(), "capacity_gb");
    s.gpu_memory_utilization = {std::floor(gb / std::max(1e-9, capacity) * 100) / 100,
                                "placement result.models[" + name + "].memory_gb " +
                                    text::short_number(gb) + " / " + where + ".gpus capacity_gb " +
                                    text::short_number(capacity) +
                                    ", rounded down: its share of the GPU it shares"};
    s.max_num_seqs = {0, ""};  // fit sized whole GPUs; the engine's default within its share
  }
  return s;
}

}  // namespace

std::vector<Site> read_placement(const Catalog& catalog, const Json& from, const Json& result,
                                 const std::optional<std::string>& packing, const Reader& r) {
  const std::string key = packing_key(result, packing);
  const Json& p = member(result, key.c_str());
  const std::string where = "placement result." + key;
  if (!p.contains("instance") || !p.value("fits", false)) {
    r.fail("cannot_answer", packing ? "/packing" : "/from",
           "placement has no " + key + " that holds every model" +
               (p.contains("instance") ? " (" + text_at(p, "instance") + ")" : std::string()) +
               ": nothing to deploy; try another packing (on_instance, cheapest_single_instance, "
               "cheapest_split) or other instances");
    return {};
  }
  std::vector<std::string> names;
  for (const Json& m : member(result, "models")) names.push_back(text_at(m, "name"));
  std::vector<Site> sites{packing_nodes(catalog, from, p, where, names)};
  if (!sites.front().instance) return sites;
  for (const Json& entry : member(from, "models"))
    sites.push_back(serving_site(catalog, entry, result, p, sites.front(), where));
  return sites;
}

std::optional<Site> read_decide(const Catalog& catalog, const Json& result,
                                std::optional<double> option, const Reader& r) {
  const Json& options = member(result, "options");
  std::size_t k = options.size();
  for (std::size_t i = 0; i < options.size(); ++i)
    if (options[i].value("recommended", false)) k = i;
  if (option) k = static_cast<std::size_t>(*option);
  if (k >= options.size() || member(options[k], "cheapest_instance").empty()) {
    std::string runs;
    for (std::size_t i = 0; i < options.size(); ++i)
      if (!member(options[i], "cheapest_instance").empty())
        runs += (runs.empty() ? "" : ", ") + decimal::whole(i) + " (" +
                text_at(options[i], "kind") + ")";
    r.fail(
        option ? "out_of_range" : "cannot_answer", option ? "/candidate" : "/from",
        "decide's option " +
            (k < options.size() ? text_at(options[k], "kind") : decimal::whole(k)) +
            " has no deployment to write; the options with one: " + (runs.empty() ? "none" : runs));
    return std::nullopt;
  }
  Site s;
  read_deployment(catalog, result, member(options[k], "cheapest_instance"),
                  "decide result.options/" + decimal::whole(k) + " (" +
                      text_at(options[k], "kind") + ").cheapest_instance",
                  s);
  return s;
}

std::vector<Site> read_regions(const Catalog& catalog, const Json& from, const Json& result,
                               const Reader& r) {
  const std::string instance = text_at(result, "instance");
  const Json& chosen = member(result, "regions_chosen");
  if (chosen.empty()) {
    r.fail("cannot_answer", "/from",
           "regions places the workload in no region (" + text_at(result, "status") +
               "): nothing to deploy");
    return {};
  }
  const Json& first = chosen[0];
  const double per = number_at(first, "instances") / std::max(1.0, number_at(first, "replicas"));
  Errors errors;
  auto fit = fit_on(catalog, from, instance, per, errors);
  if (!fit || !member(*fit, "deployment").value("runs", false)) {
    r.fail("cannot_answer", "/from",
           "the regions answer's instance " + instance + " does not fit the model: " +
               (errors.empty() ? std::string("no deployment") : errors.front().message));
    return {};
  }
  Site proto;
  read_deployment(catalog, *fit, member(*fit, "deployment"),
                  "fit on the regions answer's " + instance + ": result.deployment", proto);
  std::vector<Site> sites;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const std::string where = "regions result.regions_chosen/" + decimal::whole(i);
    Site s = proto;
    s.region = text_at(chosen[i], "region");
    s.replicas = {number_at(chosen[i], "replicas"), where + ".replicas"};
    s.instances = s.min_instances = s.max_instances =
        s.mean_instances = {number_at(chosen[i], "instances"), where + ".instances"};
    if (s.pricing == "on_demand") s.on_demand_base = s.instances;
    if (s.pricing == "on_demand") s.on_demand_base_replicas = s.replicas;
    s.usd_per_month = {number_at(chosen[i], "usd_per_month"), where + ".usd_per_month"};
    sites.push_back(std::move(s));
  }
  return sites;
}

}  // namespace gpufleet::detail::deploy
