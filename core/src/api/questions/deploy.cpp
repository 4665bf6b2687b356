// "deploy" (issue 36, docs/deploy.md): another question's chosen deployment written as files a
// platform team applies. The source question is asked through its own answer function; the files
// are written from that answer's figures, each named beside the number it gave.

#include <algorithm>
#include <cctype>
#include <cmath>

#include "api/answers.hpp"
#include "api/deploy/deploy_files.hpp"
#include "api/deploy/read_answer.hpp"
#include "api/questions/questions.hpp"
#include "api/questions/spot.hpp"
#include "api/request_fields.hpp"
#include "catalog/fields.hpp"
#include "pricing/prices.hpp"
#include "support/decimal.hpp"
#include "support/text.hpp"

namespace gpufleet::detail {
namespace {

struct Source {
  const char* name;
  Json (*answer)(const Catalog&, Session&, const Json&);
};
constexpr Source kSources[] = {{"fit", answer_fit},         {"recommend", answer_recommend},
                               {"migrate", answer_migrate}, {"autoscale", answer_autoscale},
                               {"spot", answer_spot},       {"placement", answer_placement},
                               {"decide", answer_decide},   {"regions", answer_regions},
                               {"plan", answer_plan}};

}  // namespace

namespace deploy {

// A member of an answer, or an empty object: the module is built without exceptions, where a
// missing member's at() would abort it.
const Json& member(const Json& j, const char* key) {
  static const Json kEmpty = Json::object();
  if (!j.is_object()) return kEmpty;
  auto it = j.find(key);
  return it == j.end() ? kEmpty : *it;
}

double number_at(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}
std::string text_at(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string k8s_name(const std::string& key, const std::string& engine) {
  std::string name;
  for (char c : key.empty() ? std::string("model") : key)
    name += std::isalnum(static_cast<unsigned char>(c))
                ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                : '-';
  return name + "-" + engine;
}

// "0.10" -> "v0.10.0": the release tag of a version the memory model names.
std::string release_tag(std::string v) {
  if (std::count(v.begin(), v.end(), '.') < 2) v += ".0";
  return "v" + v;
}

// What the workload's request says: model, engine, the sequence the KV cache was sized for.
void read_workload(const Catalog& catalog, const Json& result, Site& s) {
  static const Json kNone = Json::object();
  const Json& req = result.contains("request") ? member(result, "request") : kNone;
  const NamedModel* model =
      req.contains("model") ? catalog.model(text_at(member(req, "model"), "key")) : nullptr;
  s.model_id = model ? (model->hf_id.empty() ? model->key : model->hf_id) : "";
  s.engine = text_at(req, "engine");
  s.name = k8s_name(model ? model->key : "", s.engine.empty() ? "engine" : s.engine);
  const Json& demand = req.contains("demand") ? member(req, "demand") : kNone;
  const double in = number_at(demand, "input_tokens"), out = number_at(demand, "output_tokens");
  s.max_model_len = {in + out, "request demand.input_tokens " + text::short_number(in) +
                                   " + output_tokens " + text::short_number(out) +
                                   ": the sequence the memory answer sized the KV cache for"};
}

// The engine's memory share the memory answer assumed, and the release its defaults are from.
void read_engine(const Catalog& catalog, Site& s) {
  auto e = catalog.memory.engines.find(s.engine);
  if (e == catalog.memory.engines.end()) return;
  double share = e->second.gpu_memory_utilization;
  std::string from = "model_config.json memory_model.engines." + s.engine +
                     ".gpu_memory_utilization: the share of GPU memory the memory answer gave " +
                     e->second.name;
  for (const auto& [tp, v] : e->second.share_by_tp) {
    if (s.tensor_parallel.value >= tp) {
      share = v;
      from = "model_config.json memory_model.engines." + s.engine +
             ".share_by_tensor_parallel at TP " + text::short_number(tp) +
             ": the share the memory answer gave " + e->second.name;
    }
  }
  if (s.gpu_memory_utilization.from.empty()) s.gpu_memory_utilization = {share, from};
  const Json& doc = catalog.model_config_doc;
  const Json* engine_doc = nullptr;
  if (doc.contains("memory_model") && doc["memory_model"].contains("engines") &&
      doc["memory_model"]["engines"].contains(s.engine))
    engine_doc = &doc["memory_model"]["engines"][s.engine];
  if (s.engine == "vllm" && engine_doc && engine_doc->contains("default_version") &&
      (*engine_doc)["default_version"].is_string()) {
    const std::string v = (*engine_doc)["default_version"].get<std::string>();
    s.engine_image = "vllm/vllm-openai:" + release_tag(v);
    s.engine_image_from = "model_config.json memory_model.engines.vllm.default_version " + v +
                          ": the release the memory answer assumed (tag unverified: not checked "
                          "against Docker Hub)";
  } else if (s.engine == "sglang") {
    // The tag form SGLang's release workflow pushes (v<version>-cu124).
    s.engine_image = "lmsysorg/sglang:v0.4.6.post1-cu124";
    s.engine_image_from =
        "a 2025 release (SGLang's v<version>-cu<CUDA> tag form; unverified: not checked against "
        "Docker Hub); the memory answer's mem_fraction_static defaults are of 2024 to mid-2025 "
        "releases, and the flag is passed explicitly";
  }
}

// The catalog's instance types with the same GPU and GPUs per instance, the chosen one first, then
// by on-demand price: what a node group may fall back to.
std::vector<std::string> fallbacks(const Catalog& catalog, const InstanceType& it) {
  std::vector<const InstanceType*> same;
  for (const InstanceType& o : catalog.instances) {
    if (&o == &it || o.provider != it.provider || o.gpu_model != it.gpu_model ||
        o.gpus != it.gpus || o.gpu_fraction != it.gpu_fraction || !o.on_demand_usd_per_hour ||
        !o.price_flags.empty() || o.name == it.name)
      continue;
    same.push_back(&o);
  }
  std::stable_sort(same.begin(), same.end(), [](const InstanceType* a, const InstanceType* b) {
    return *a->on_demand_usd_per_hour < *b->on_demand_usd_per_hour;
  });
  std::vector<std::string> names{it.name};
  for (const InstanceType* o : same)
    if (std::find(names.begin(), names.end(), o->name) == names.end()) names.push_back(o->name);
  return names;
}

// Instances holding `replicas` copies: whole instances, copies sharing one where they fit.
Traced instances_for(const Site& s, const Traced& replicas, const std::string& what) {
  const double per = s.gpus_per_replica.value / std::max(1.0, s.gpus_per_instance.value);
  return {std::ceil(replicas.value * per - 1e-9),
          what + ": " + text::short_number(replicas.value) + " replicas x " +
              text::short_number(s.gpus_per_replica.value) + " GPUs / " +
              text::short_number(s.gpus_per_instance.value) + " per instance, rounded up"};
}

// The layout of a deployment object (fit's, a recommend candidate, a migrate alternative).
void read_layout(const Json& dep, const std::string& where, Site& s) {
  const Json& layout = member(dep, "layout");
  s.tensor_parallel = {number_at(layout, "tensor_parallel"), where + ".layout.tensor_parallel"};
  s.pipeline_parallel = {number_at(layout, "pipeline_parallel"),
                         where + ".layout.pipeline_parallel"};
  s.gpus_per_replica = {s.tensor_parallel.value * s.pipeline_parallel.value,
                        where + ".layout: tensor_parallel x pipeline_parallel GPUs per model copy"};
  s.instances_per_replica = {
      std::max(1.0, std::ceil(s.gpus_per_replica.value / std::max(1.0, s.gpus_per_instance.value) -
                              1e-9)),
      "GPUs per copy / " + s.gpus_per_instance.from + ", rounded up"};
  const double kv = number_at(dep, "max_concurrency_by_kv_cache");
  s.max_num_seqs = {
      number_at(dep, "concurrency_per_replica"),
      where + ".concurrency_per_replica: sequences one copy runs at once within its KV cache (" +
          text::short_number(kv) + " fit) and the latency targets"};
}

// Base and on-demand share from the way to pay.
// `base` in instances, `base_replicas` the same base in model copies.
void read_pricing(const Json& request, const std::string& pricing, Site& s, const Traced& base,
                  const Traced& base_replicas) {
  s.pricing = pricing == "spot" || pricing == "mixed" ? pricing : "on_demand";
  if (s.pricing == "on_demand") {
    s.on_demand_base = {s.max_instances.value, "every instance on demand (" + pricing + ")"};
    s.on_demand_base_replicas = {s.replicas.value, "every replica on demand (" + pricing + ")"};
    s.on_demand_above_base_pct = {100, "on demand (" + pricing + ")"};
    return;
  }
  s.on_demand_base = base;
  s.on_demand_base_replicas = base_replicas;
  if (s.pricing == "spot") {
    s.on_demand_above_base_pct = {0, "spot above the base"};
  } else {
    const double share = request.contains("spot_share") ? number_at(request, "spot_share") : 0.5;
    s.on_demand_above_base_pct = {
        std::round(100 * (1 - share)),
        "request spot_share " + text::short_number(share) + ": the rest on demand"};
  }
}

void read_deployment(const Catalog& catalog, const Json& result, const Json& dep,
                     const std::string& where, Site& s) {
  s.instance = catalog.instance(text_at(dep, "instance"));
  if (!s.instance) return;
  s.region = text_at(dep, "region");
  read_workload(catalog, result, s);
  s.gpus_per_instance = {s.instance->gpus,
                         "gpu_instances.json: " + s.instance->name + "'s GPUs per instance"};
  read_layout(dep, where, s);
  s.replicas = {number_at(member(dep, "layout"), "replicas"),
                where + ".layout.replicas: model copies"};
  s.instances = {number_at(dep, "instance_count"), where + ".instance_count"};
  s.min_instances = s.max_instances = s.mean_instances = s.instances;
  s.usd_per_month = {number_at(dep, "usd_per_month"), where + ".usd_per_month"};
  const Json& cost = dep.contains("cost") ? member(dep, "cost") : member(result, "cost");
  const Traced none{0, "no on-demand base: all spot"};
  read_pricing(member(result, "request"), text_at(cost, "pricing"), s, none, none);
}

// autoscale: the deployment at the peak and the recommended settings.
void read_autoscale(const Catalog& catalog, const Json& result, Site& s) {
  const Json& dep = member(result, "deployment");
  const Json& rec = member(result, "recommended");
  const std::string where = "autoscale result.deployment";
  s.instance = catalog.instance(text_at(dep, "instance"));
  if (!s.instance) return;
  s.region = text_at(dep, "region");
  read_workload(catalog, result, s);
  s.gpus_per_instance = {s.instance->gpus,
                         "gpu_instances.json: " + s.instance->name + "'s GPUs per instance"};
  Json layout = {{"tensor_parallel", member(dep, "tensor_parallel")},
                 {"pipeline_parallel", member(dep, "pipeline_parallel")},
                 {"replicas", 0}};
  Json shaped = dep;
  shaped["layout"] = layout;
  shaped["max_concurrency_by_kv_cache"] = member(dep, "concurrency_per_replica");
  read_layout(shaped, where, s);
  deploy::Scaling c;
  const std::string r = "autoscale result.recommended.";
  c.min_replicas = {number_at(rec, "min_replicas"),
                    r + "min_replicas: the fewest replicas the profile needs"};
  c.max_replicas = {number_at(rec, "max_replicas"),
                    r + "max_replicas: the most replicas the profile needs"};
  c.threshold = {number_at(rec, "threshold"), r + "threshold: " + text_at(rec, "metric") +
                                                  " per replica; " + text_at(rec, "basis")};
  c.polling_s = {number_at(rec, "control_period_s"), r + "control_period_s"};
  c.scale_up_s = {number_at(rec, "scale_up_delay_s"), r + "scale_up_delay_s"};
  c.scale_down_s = {number_at(rec, "scale_down_delay_s"),
                    r + "scale_down_delay_s: at least the cold start"};
  c.target_rps = {number_at(dep, "target_requests_per_s_per_replica"),
                  where + ".target_requests_per_s_per_replica"};
  c.metric = text_at(rec, "metric");
  s.replicas = {c.min_replicas.value, r + "min_replicas: the autoscaler raises it"};
  s.min_instances = instances_for(s, c.min_replicas, "instances at min_replicas");
  s.max_instances = instances_for(s, c.max_replicas, "instances at max_replicas");
  s.instances = s.min_instances;
  const double month_hours = Billing{}.hours_per_month;
  for (const Json& p : member(result, "policies"))
    if (text_at(p, "name") == "target_tracking")
      s.mean_instances = {text::round_to(number_at(p, "instance_hours_per_month") / month_hours, 2),
                          "autoscale result.policies[target_tracking].instance_hours_per_month / " +
                              text::short_number(month_hours) +
                              " h: the whole instances billed, their mean over the month"};
  for (const Json& p : member(result, "policies"))
    if (text_at(p, "name") == "target_tracking")
      s.usd_per_month = {number_at(p, "usd_per_month"),
                         "autoscale result.policies[target_tracking].usd_per_month"};
  s.scaling = c;
  const Json& base = member(result, "committed_base");
  Traced base_replicas{number_at(base, "replicas"), "autoscale result.committed_base.replicas (" +
                                                        text_at(base, "commitment") + ")"};
  read_pricing(member(result, "request"), text_at(dep, "pricing"), s,
               instances_for(s, base_replicas, "the committed base's instances"), base_replicas);
}

// migrate: the recommended move (an alternative of the report, or the current deployment).
bool read_migrate(const Catalog& catalog, const Json& result, Site& s) {
  const Json& rec = member(result, "recommendation");
  const std::string instance = text_at(rec, "instance");
  const Json& alts = member(result, "alternatives");
  for (std::size_t i = 0; i < alts.size(); ++i) {
    if (text_at(alts[i], "instance") != instance) continue;
    read_deployment(catalog, result, alts[i],
                    "migrate result.alternatives/" + decimal::whole(i) + " (the recommendation)",
                    s);
    return true;
  }
  if (text_at(member(result, "current"), "instance") != instance) return false;
  read_deployment(catalog, result, member(result, "current"),
                  "migrate result.current (the recommendation: stay)", s);
  return true;
}

std::optional<Json> fit_on(const Catalog& catalog, const Json& from, const std::string& instance,
                           double instances_per_replica, Errors& errors) {
  Json req = {{"question", "fit"}, {"instance", instance}};
  const InstanceType* it = catalog.instance(instance);
  req["gpus"] = instances_per_replica * (it ? it->gpus : 1);
  for (const char* key : {"model", "workload", "precision", "weight_format", "kv_cache_format",
                          "engine", "demand", "memory_method", "pricing", "spot_share"})
    if (from.contains(key)) req[key] = member(from, key);
  if (!req.contains("workload")) req["workload"] = "inference";
  Session inner(catalog, req, errors);
  Json result = answer_fit(catalog, inner, req);
  if (result.is_null() || !errors.empty()) return std::nullopt;
  return result;
}

// spot: one site per region of the plan, its on-demand base and spot replicas.
std::vector<Site> read_spot(const Catalog& catalog, const Json& from, const Json& result,
                            const Reader& r) {
  const Json& plan = member(result, "plan");
  Errors errors;
  auto fit = fit_on(catalog, from, text_at(plan, "instance"),
                    number_at(plan, "instances_per_replica"), errors);
  if (!fit) {
    r.fail("cannot_answer", "/from",
           "the spot plan's instance " + text_at(plan, "instance") + " does not fit the model: " +
               (errors.empty() ? std::string("no deployment") : errors.front().message));
    return {};
  }
  Site proto;
  read_deployment(catalog, *fit, member(*fit, "deployment"),
                  "fit on the spot plan's " + text_at(plan, "instance") + ": result.deployment",
                  proto);
  if (!proto.instance) return {};
  proto.source = "spot";
  std::vector<std::pair<std::string, std::pair<double, double>>>
      regions;  // region -> on demand, spot replicas
  auto add = [&](const std::string& region, double od, double sp) {
    for (auto& [name, counts] : regions)
      if (name == region) return void((counts.first += od, counts.second += sp));
    regions.push_back({region, {od, sp}});
  };
  if (number_at(member(plan, "on_demand"), "replicas") > 0)
    add(text_at(member(plan, "on_demand"), "region"),
        number_at(member(plan, "on_demand"), "replicas"), 0);
  for (const Json& p : member(plan, "spot")) add(text_at(p, "region"), 0, number_at(p, "replicas"));
  std::vector<Site> sites;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const auto& [region, counts] = regions[i];
    Site s = proto;
    s.region = region;
    s.replicas = {counts.first + counts.second,
                  "spot result.plan in " + region + ": on_demand.replicas + spot replicas there"};
    s.instances = s.min_instances = s.max_instances = s.mean_instances =
        instances_for(s, s.replicas, "instances in " + region);
    const Traced base = instances_for(s, Traced{counts.first, ""},
                                      "spot result.plan.on_demand.replicas, the on-demand base");
    s.pricing = counts.second > 0 ? "spot" : "on_demand";
    s.on_demand_base = counts.second > 0 ? base : s.instances;
    s.on_demand_base_replicas = {
        counts.first, counts.second > 0 ? "spot result.plan.on_demand.replicas, the on-demand base"
                                        : "every replica on demand (spot result.plan)"};
    s.on_demand_above_base_pct = {counts.second > 0 ? 0.0 : 100.0,
                                  counts.second > 0 ? "spot above the base (spot result.plan)"
                                                    : "on demand (spot result.plan)"};
    s.usd_per_month = {number_at(member(plan, "usd_per_month"), "point"),
                       "spot result.plan.usd_per_month.point (the whole plan)"};
    sites.push_back(std::move(s));
  }
  return sites;
}

}  // namespace deploy

namespace {

using namespace deploy;

// What every site takes from the catalog beside the answer: dates, the engine, fallbacks, RAM.
void finish(const Catalog& cat, const std::string& question, Site& s) {
  const std::string prices = cat.prices_as_of();
  s.source = question;
  s.catalog_version = text_at(cat.info, "version");
  s.catalog_date = text_at(cat.info, "date");
  s.prices_as_of = prices.empty() ? "not priced" : prices;
  read_engine(cat, s);
  s.fallback_types = fallbacks(cat, *s.instance);
  if (s.instance->ram_gib)
    s.host_memory_mib = {std::floor(*s.instance->ram_gib * 1024 / 2),
                         "half of " + s.instance->name + "'s " +
                             text::short_number(*s.instance->ram_gib) +
                             " GiB RAM (gpu_instances.json): a soft reservation that leaves the "
                             "agent and OS room, a choice"};
}

// Why `t` cannot be written for `s` ("" when it can).
bool serving_target(const deploy::Target& t) {
  const std::string n = t.name;
  return n != "terraform" && n != "eksctl" && n != "karpenter" && n != "gke_compute_class" &&
         n != "infracost";
}

// Whether a site of a packing writes `t` at all: its node group the node files (and Kubernetes'
// GPU sharing when models share a GPU), each placed model its serving files.
bool wanted(const deploy::Target& t, const Site& s) {
  if (s.role == "nodes")
    return !serving_target(t) || (std::string(t.name) == "kubernetes" && s.gpu_shares.value > 1);
  return s.role != "serving" || serving_target(t);
}

std::string refusal(const deploy::Target& t, const Site& s) {
  // A plan's workload is written to SkyPilot as tasks of its nodes, not as a service of a model.
  const bool plan_nodes = s.role == "plan" && std::string(t.name) == "skypilot";
  const bool serving = serving_target(t) && s.role != "nodes" && !plan_nodes;
  if (!s.unwritable.empty()) return s.unwritable;
  if (serving && s.role == "plan")
    return std::string(t.name) +
           " runs a model, and a plan's workload names none (an instance type, a count, hours "
           "and a way to pay)";
  if (s.instance->accelerator_kind != "gpu" || s.instance->gpu_type.rfind("NVIDIA", 0) != 0)
    return "the files are written for NVIDIA GPUs (the device plugin, nvidia.com/gpu, CUDA images "
           "of vLLM and SGLang); " +
           s.instance->name + " has " +
           (s.instance->gpu_type.empty() ? s.instance->accelerator_kind : s.instance->gpu_type) +
           (s.source == "placement"
                ? ": pick a packing on NVIDIA GPUs (packing on_instance with an NVIDIA instance, "
                  "or "
                  "providers and instances that have one)"
                : ": pick a deployment with an NVIDIA GPU (recommend with kinds [\"gpu\"], or "
                  "another candidate)");
  if (!deploy::applies(t, s))
    return std::string(t.name) + " does not apply to " + s.instance->provider + " (" +
           s.instance->name + ")";
  if (t.needs_scaling && !s.scaling)
    return std::string(t.name) + " needs autoscale's settings: ask deploy from an autoscale answer";
  if (s.role == "serving" && std::string(t.name) == "skypilot")
    return "skypilot launches instances of its own for each service, so the packing's shared "
           "instances are not kept: use kubernetes";
  if (std::string(t.name) == "ecs" && !s.shares_gpu_with.empty())
    return "ecs gives a container whole GPUs; this model shares one with " +
           names_of(s.shares_gpu_with);
  if (t.one_instance_per_replica && s.instances_per_replica.value > 1)
    return std::string(t.name) + " runs a replica on one instance; this one spans " +
           text::short_number(s.instances_per_replica.value);
  if (std::string(t.name) == "ecs" && !(s.host_memory_mib.value > 0))
    return "ecs needs the instance's RAM, which the catalog does not state";
  if (s.instance->provider == "gcp" && deploy::gcp_accelerator(*s.instance).empty())
    return s.instance->gpu_type +
           " has no Google Cloud accelerator name in gpufleet's table (docs/deploy.md)";
  if (serving && s.model_id.empty())
    return std::string(t.name) +
           " runs the model: name a model of the catalog (model.name), not a size or a parameter "
           "count";
  if (serving && s.engine != "vllm" && s.engine != "sglang")
    return std::string(t.name) + " writes vLLM or SGLang: ask with engine vllm or sglang";
  return "";
}

// A site's figures as the answer shows them.
Json figures(const Site& s) {
  Json j = report::object(22);
  j["name"] = s.name;
  if (!s.role.empty()) j["role"] = s.role;
  j["instance"] = s.instance->name;
  j["provider"] = s.instance->provider;
  j["region"] = s.region;
  j["pricing"] = s.pricing;
  if (s.role != "plan") {
    j["model"] = s.model_id;
    j["engine"] = s.engine;
    j["engine_image"] = s.engine_image;
  }
  j["fallback_instance_types"] = s.fallback_types;
  auto put = [&](const char* key, const Traced& t) {
    j[key] = {{"value", text::round_to(t.value, 4)}, {"from", t.from}};
  };
  put("gpus_per_instance", s.gpus_per_instance);
  put("instances", s.instances);
  put("min_instances", s.min_instances);
  put("max_instances", s.max_instances);
  put("mean_instances", s.mean_instances);
  put("replicas", s.replicas);
  put("instances_per_replica", s.instances_per_replica);
  put("gpus_per_replica", s.gpus_per_replica);
  if (s.role != "plan") {  // a plan's workload runs no model
    put("tensor_parallel", s.tensor_parallel);
    put("pipeline_parallel", s.pipeline_parallel);
    put("max_num_seqs", s.max_num_seqs);
    put("max_model_len", s.max_model_len);
    put("gpu_memory_utilization", s.gpu_memory_utilization);
  }
  put("on_demand_base_instances", s.on_demand_base);
  if (s.pricing != "on_demand" && s.role.empty())
    put("on_demand_base_replicas", s.on_demand_base_replicas);
  put("on_demand_above_base_pct", s.on_demand_above_base_pct);
  put("usd_per_month", s.usd_per_month);
  if (s.role == "plan") {
    j["workload"] = s.plan_workload;
    put("hours_per_month", s.hours_per_month);
  }
  if (s.scaling) {
    Json c = report::object(8);
    c["metric"] = s.scaling->metric;
    c["min_replicas"] = s.scaling->min_replicas.value;
    c["max_replicas"] = s.scaling->max_replicas.value;
    c["threshold"] = s.scaling->threshold.value;
    j["scaling"] = std::move(c);
  }
  return j;
}

// The source question asked through its own answer function, its faults under /from.
std::optional<Json> ask_source(const Catalog& catalog, const Reader& r, const Json& from,
                               const Source& source, std::shared_ptr<const Catalog>& view) {
  Errors errors;
  Reader inner_reader(kRequest, errors);
  const QuestionFields* row = question_fields(source.name);
  const std::vector<std::string> allowed = field_names(*row);
  for (const auto& [key, _] : from.items())
    if (key != "question" && std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      r.fail("unknown_field", "/from/" + key,
             "\"" + std::string(source.name) + "\" takes " + names_of(allowed) + "; got \"" + key +
                 "\"");
  if (!r.ok()) return std::nullopt;
  const Catalog* cat = &catalog;
  if (from.contains("region") || from.contains("regions")) {
    auto choice = read_region_choice(catalog, from, inner_reader);
    if (choice) view = regional_view(catalog, *choice), cat = view.get();
  }
  Json result;
  if (errors.empty()) {
    Session inner(*cat, from, errors);
    result = source.answer(*cat, inner, from);
  }
  for (const Error& e : errors) r.fail(e.code, "/from" + e.path, e.message);
  if (!errors.empty() || result.is_null()) {
    if (errors.empty())
      r.fail("cannot_answer", "/from", "the source question could not be answered");
    return std::nullopt;
  }
  return result;
}

// The sites of the source answer's chosen deployment(s), or none after a failure `r` recorded.
std::optional<std::vector<Site>> read_sites(const Catalog& cat, const Json& from,
                                            const Json& result, const std::string& question,
                                            std::optional<double> candidate,
                                            const std::optional<std::string>& packing,
                                            const Reader& r) {
  if (candidate && question != "recommend" && question != "decide") {
    r.fail("unknown_field", "/candidate",
           "candidate picks a row of recommend's candidates or decide's options; the source is " +
               question);
    return std::nullopt;
  }
  if (packing && question != "placement") {
    r.fail("unknown_field", "/packing",
           "packing picks one of placement's packings; the source is " + question);
    return std::nullopt;
  }
  std::vector<Site> sites(1);
  if (question == "fit") {
    if (!member(result, "deployment").value("runs", false)) {
      r.fail("cannot_answer", "/from",
             "fit says " + text_at(result, "status") + ": " +
                 text_at(member(result, "deployment"), "refusal") +
                 "; nothing to deploy (its ways_out say what would run)");
      return std::nullopt;
    }
    read_deployment(cat, result, member(result, "deployment"), "fit result.deployment", sites[0]);
  } else if (question == "recommend") {
    const Json& list = member(result, "candidates");
    const std::size_t k = static_cast<std::size_t>(candidate.value_or(0));
    if (k >= list.size()) {
      r.fail("out_of_range", "/candidate",
             "recommend ranked " + decimal::whole(list.size()) + " candidates; expected 0 to " +
                 decimal::whole(list.empty() ? 0 : list.size() - 1) + ", got " + decimal::whole(k));
      return std::nullopt;
    }
    read_deployment(cat, result, list[k], "recommend result.candidates/" + decimal::whole(k),
                    sites[0]);
  } else if (question == "migrate") {
    if (!read_migrate(cat, result, sites[0])) {
      r.fail("cannot_answer", "/from",
             "migrate recommends no deployment to write: " +
                 text_at(member(result, "recommendation"), "summary"));
      return std::nullopt;
    }
  } else if (question == "autoscale") {
    read_autoscale(cat, result, sites[0]);
  } else if (question == "decide") {
    auto site = deploy::read_decide(cat, result, candidate, r);
    if (!site) return std::nullopt;
    sites[0] = std::move(*site);
  } else if (question == "plan") {
    sites = deploy::read_plan(cat, from, result);
  } else {
    sites = question == "spot"        ? read_spot(cat, from, result, r)
            : question == "placement" ? deploy::read_placement(cat, from, result, packing, r)
                                      : deploy::read_regions(cat, from, result, r);
    if (sites.empty()) return std::nullopt;
  }
  for (Site& s : sites) {
    if (!s.instance) {
      r.fail("cannot_answer", "/from", "the answer's instance type is not in the catalog");
      return std::nullopt;
    }
    finish(cat, question, s);
  }
  return sites;
}

// Each target, whether it applies (to some site) and, if not, why.
Json applicable(const std::vector<Site>& sites) {
  Json targets = Json::array();
  for (auto t = deploy::targets_begin(); t != deploy::targets_end(); ++t) {
    std::string why;
    bool any = false;
    for (const Site& s : sites) {
      if (!wanted(*t, s)) continue;
      const std::string w = refusal(*t, s);
      if (w.empty())
        any = true;
      else if (why.empty())
        why = w;
    }
    if (!any && why.empty()) why = std::string(t->name) + " has nothing to write here";
    targets.push_back(
        {{"target", t->name}, {"applies", any}, {"reason", any ? Json(nullptr) : Json(why)}});
  }
  return targets;
}

// Every site's files for the target(s) asked; a site a target applies to elsewhere (`usable`) but
// not there is listed in `left_out` with the reason. Files are under their region when the sites
// span several.
Json write_files(const std::vector<Site>& sites, const std::string& target,
                 const std::vector<std::string>& usable, Json& left_out) {
  bool regions = false;
  for (const Site& s : sites) regions = regions || s.region != sites[0].region;
  Json files = Json::array();
  for (const Site& s : sites) {
    for (auto t = deploy::targets_begin(); t != deploy::targets_end(); ++t) {
      if ((target != "all" && target != t->name) || !wanted(*t, s)) continue;
      const std::string why = refusal(*t, s);
      if (!why.empty()) {
        if (std::find(usable.begin(), usable.end(), t->name) != usable.end())
          left_out.push_back({{"deployment", s.name}, {"target", t->name}, {"reason", why}});
        continue;
      }
      for (deploy::File& f : t->write(s)) {
        if (regions) f.name = s.region + "/" + f.name;
        files.push_back({{"target", f.target},
                         {"name", f.name},
                         {"media_type", f.media_type},
                         {"content", f.content}});
      }
    }
  }
  return files;
}
}  // namespace

std::string keda_for_autoscale(const Catalog& catalog, const Json& result) {
  Site s;
  read_autoscale(catalog, result, s);
  if (!s.instance) return "";
  finish(catalog, "autoscale", s);
  if (s.model_id.empty()) s.model_id = "MODEL";
  return deploy::keda(s).front().content;
}

Json answer_deploy(const Catalog& catalog, Session& session, const Json& req) {
  Reader& r = session.reader();
  auto target = pick(r, "deploy", req, "target");
  const Json* from = r.object(req, "from", "", true);
  auto candidate = r.number(req, "candidate", "", false, {0, 999});
  auto packing = req.contains("packing") ? pick(r, "deploy", req, "packing") : std::nullopt;
  if (!target || !from || !r.ok()) return nullptr;
  const std::string question = lower(r.string(*from, "question", "/from", true).value_or(""));
  const Source* source = nullptr;
  for (const Source& s : kSources)
    if (question == s.name) source = &s;
  if (!source) {
    if (r.ok())
      r.fail("unknown_name", "/from/question",
             "expected fit, recommend, migrate, autoscale, spot, placement, decide, regions or "
             "plan, got \"" +
                 question + "\"");
    return nullptr;
  }
  std::shared_ptr<const Catalog> view;
  auto result = ask_source(catalog, r, *from, *source, view);
  if (!result) return nullptr;
  const Catalog& cat = view ? *view : catalog;
  const std::string task =
      result->contains("request") ? text_at(member(*result, "request"), "workload") : "";
  if (!task.empty() && task != "inference" && task != "batch_inference") {
    r.fail("cannot_answer", "/from/workload",
           "deploy writes serving files (vLLM or SGLang); the workload is " + task +
               ": ask with workload inference");
    return nullptr;
  }
  auto sites = read_sites(cat, *from, *result, question, candidate, packing, r);
  if (!sites) return nullptr;
  Json targets = applicable(*sites);
  std::vector<std::string> usable;
  for (const Json& t : targets)
    if (t["applies"].get<bool>()) usable.push_back(t["target"].get<std::string>());
  if (usable.empty()) {
    r.fail("cannot_answer", "/target",
           "no target applies: " + targets[0]["reason"].get<std::string>());
    return nullptr;
  }
  if (*target != "all" && std::find(usable.begin(), usable.end(), *target) == usable.end()) {
    for (const Json& t : targets)
      if (t["target"] == *target)
        r.fail("cannot_answer", "/target",
               t["reason"].get<std::string>() + "; the targets that apply: " + names_of(usable));
    return nullptr;
  }
  Json left_out = Json::array();
  Json files = write_files(*sites, *target, usable, left_out);
  Json deployments = Json::array();
  for (const Site& s : *sites) deployments.push_back(figures(s));
  Json answer = report::object(6);
  answer["source"] = question;
  answer["target"] = *target;
  answer["deployments"] = std::move(deployments);
  answer["targets"] = std::move(targets);
  answer["files"] = std::move(files);
  if (!left_out.empty()) answer["left_out"] = std::move(left_out);
  answer["basis"] =
      "each number in a file names the figure of the " + question +
      " answer it came from; no spot maximum price, "
      "price-capacity-optimized spot allocation, the NVIDIA device plugin pinned to " +
      std::string(deploy::kDevicePluginVersion) + " (docs/deploy.md)";
  return answer;
}

}  // namespace gpufleet::detail
