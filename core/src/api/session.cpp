#include "api/session.hpp"
#include "catalog/architecture_reader.hpp"
#include "catalog/model_names.hpp"
#include "gpufleet/names.hpp"

#include <algorithm>
#include <cmath>

#include "support/decimal.hpp"
#include "catalog/fields.hpp"

namespace gpufleet::detail {

std::optional<ModelSpec> Session::model(const Json& obj, const std::string& path) {
  const Json* m = r_.object(obj, "model", path, true);
  if (!m) return std::nullopt;
  const std::string mp = path + "/model";
  if (!fields::check_fields(r_, *m, mp, "request_model")) return std::nullopt;
  const std::size_t forms = m->size();
  if (forms != 1) {
    r_.fail(forms ? "wrong_type" : "missing_field", mp,
            "expected exactly one of \"name\" (a model of model_config.json), \"hf_config\" (a Hugging Face "
            "config.json object), \"size\" (a model size class) or \"params_b\" (billions of parameters)");
    return std::nullopt;
  }
  ModelSpec spec;
  if (m->contains("name")) {
    auto name = r_.string(*m, "name", mp, true);
    if (!name) return std::nullopt;
    const ModelNameMatch match = resolve_model_name(catalog_.models, *name);
    if (!match.model) {
      r_.fail("unknown_name", mp + "/name", unknown_model_message(match, *name));
      return std::nullopt;
    }
    const NamedModel* named = match.model;
    if (match.how != "key") spec.typed_name = {*name, match.how};
    spec.label = named->name;
    spec.named = named;
    spec.arch = named->arch;
    spec.parameters = named->params.total;
    spec.shape_basis = named->source;
    return spec;
  }
  if (m->contains("hf_config")) {
    Errors errors;
    auto arch = read_architecture((*m)["hf_config"], kRequest, mp + "/hf_config", errors);
    for (auto& e : errors) r_.fail(e.code, e.path, e.message);
    if (!arch) return std::nullopt;
    spec.arch = *arch;
    spec.parameters = count_parameters(*arch).total;
    spec.label = "your model (" + arch->model_type + ", " + report::short_number(round_to(spec.parameters / 1e9, 2)) + "B)";
    spec.shape_basis = arch->multimodal_type.empty()
                           ? "the config.json given"
                           : "the text model (text_config) of the " + arch->multimodal_type +
                                 " config.json given; its vision tower is not counted";
    return spec;
  }
  if (m->contains("params_b")) {
    auto b = r_.number(*m, "params_b", mp, true, {0, 100000, true});
    if (!b) return std::nullopt;
    spec.parameters = *b * 1e9;
    spec.label = report::short_number(*b) + "B parameters";
    spec.arch = generic_decoder(catalog_, spec.parameters, spec.shape_basis);
    return spec;
  }
  {
    auto key = r_.string(*m, "size", mp, true);
    if (!key) return std::nullopt;
    const ModelSize* size = catalog_.model_size(*key);
    if (!size) {
      const auto keys = keys_of(catalog_.model_sizes, [](const ModelSize& x) { return x.key; });
      r_.fail("unknown_name", mp + "/size", "expected one of " + names_of(keys) + ", got \"" + *key + "\"");
      return std::nullopt;
    }
    return size_class_model(catalog_, *size);
  }
}

std::optional<Workload> Session::road_workload(const Json& obj, const std::string& path, bool task_required) {
  Workload w;
  auto m = model(obj, path);
  auto task = workload(obj, path, task_required);
  const std::string format = weight_format(obj, path).value_or("fp16");
  w.weight_format = format;
  w.precision = catalog_.precision(format);
  w.kv_format = lower(r_.string(obj, "kv_cache_format", path, false).value_or(""));
  if (!w.kv_format.empty() && !catalog_.memory.kv_bytes.count(w.kv_format)) {
    const auto keys = keys_of(catalog_.memory.kv_bytes, first_of);
    r_.fail("unknown_name", path + "/kv_cache_format", "expected one of " + names_of(keys) + ", got \"" + w.kv_format + "\"");
  }
  w.engine = lower(r_.string(obj, "engine", path, false).value_or(""));
  if (!w.engine.empty() && !catalog_.memory.engines.count(w.engine)) {
    const auto keys = keys_of(catalog_.memory.engines, first_of);
    r_.fail("unknown_name", path + "/engine", "expected one of " + names_of(keys) + ", got \"" + w.engine + "\"");
  }
  if (auto method = r_.string(obj, "memory_method", path, false)) {
    const std::string mm = lower(*method);
    if (mm != "seed" && mm != "architecture")
      r_.fail("unknown_name", path + "/memory_method", "expected architecture or seed, got \"" + *method + "\"");
    w.seed_memory = mm == "seed";
  }
  if (const Json* d = r_.object(obj, "demand", path, false)) demand(*d, path + "/demand", w.demand);
  if (auto tpot = r_.number(obj, "max_tpot_ms", path, false, {0, 1e7, true})) w.demand.max_tpot_ms = *tpot;
  if (const Json* rc = r_.object(obj, "recipe", path, false)) recipe(*rc, path + "/recipe", w.recipe);
  if (!m || !task || !r_.ok()) return std::nullopt;
  w.model = *m;
  w.task = *task;
  if (w.seed_memory && !w.precision) {
    r_.fail("wrong_type", path + "/memory_method", "the seed method sizes the seed's precisions only (fp32, fp16, bf16, fp8, int8)");
    return std::nullopt;
  }
  if (!w.model.arch && !w.seed_memory) w.seed_memory = true;  // a seed catalog: no shape to borrow
  return w;
}

std::optional<std::string> Session::weight_format(const Json& obj, const std::string& path) {
  // "precision" (the seed's name) and "weight_format" name the same thing.
  if (obj.contains("precision") && obj.contains("weight_format")) {
    r_.fail("wrong_type", path + "/weight_format", "give precision or weight_format, not both");
    return std::nullopt;
  }
  const char* format_key = obj.contains("weight_format") ? "weight_format" : "precision";
  auto text = r_.string(obj, format_key, path, false);
  if (!text) return std::nullopt;
  const std::string format = lower(*text);
  if (!catalog_.memory.weight_formats.empty() && !catalog_.memory.weight_formats.count(format) && !catalog_.precision(format)) {
    const auto keys = keys_of(catalog_.memory.weight_formats, first_of);
    r_.fail("unknown_name", path + "/" + format_key, "expected one of " + names_of(keys) + ", got \"" + format + "\"");
  }
  return format;
}

void Session::demand(const Json& d, const std::string& dp, Demand& dm) {
  fields::check_fields(r_, d, dp, "demand");
  dm.requests_per_s = r_.number(d, "requests_per_s", dp, false, {0, 1e7, true});
  dm.input_tokens = r_.number(d, "input_tokens", dp, false, {1, 1e7}).value_or(dm.input_tokens);
  dm.output_tokens = r_.number(d, "output_tokens", dp, false, {1, 1e7}).value_or(dm.output_tokens);
  dm.max_ttft_ms = r_.number(d, "max_ttft_ms", dp, false, {0, 1e9, true});
  dm.max_tpot_ms = r_.number(d, "max_tpot_ms", dp, false, {0, 1e9, true});
  dm.target_utilization = r_.number(d, "target_utilization", dp, false, {0, 1, true}).value_or(dm.target_utilization);
  dm.tokens_per_month = r_.number(d, "tokens_per_month", dp, false, {0, 1e18, true});
  dm.dataset_tokens = r_.number(d, "dataset_tokens", dp, false, {0, 1e16, true});
  dm.epochs = r_.number(d, "epochs", dp, false, {0.01, 1e4}).value_or(1);
  dm.deadline_days = r_.number(d, "deadline_days", dp, false, {0, 36500, true});
}

void Session::recipe(const Json& rc, const std::string& rp, Recipe& re) {
  fields::check_fields(r_, rc, rp, "recipe");
  re.optimizer = lower(r_.string(rc, "optimizer", rp, false).value_or(re.optimizer));
  if (!catalog_.memory.optimizers.empty() && !catalog_.memory.optimizers.count(re.optimizer))
    r_.fail("unknown_name", rp + "/optimizer", "expected an optimizer of model_config.json memory_model.optimizers, got \"" + re.optimizer + "\"");
  re.gradient_checkpointing = r_.boolean(rc, "gradient_checkpointing", rp, false).value_or(re.gradient_checkpointing);
  re.master_weights = r_.boolean(rc, "master_weights", rp, false).value_or(re.master_weights);
  re.sharding = lower(r_.string(rc, "sharding", rp, false).value_or(re.sharding));
  static const std::vector<std::string> kSharding{"none", "zero1", "zero2", "zero3", "fsdp"};
  if (std::find(kSharding.begin(), kSharding.end(), re.sharding) == kSharding.end())
    r_.fail("unknown_name", rp + "/sharding", "expected one of " + names_of(kSharding) + ", got \"" + re.sharding + "\"");
  re.micro_batch = r_.number(rc, "micro_batch", rp, false, {1, 1e5}).value_or(re.micro_batch);
  re.sequence = r_.number(rc, "sequence_length", rp, false, {1, 1e7}).value_or(re.sequence);
  re.lora_rank = r_.number(rc, "lora_rank", rp, false, {1, 65536}).value_or(0);
}

std::optional<WorkloadType> Session::workload(const Json& obj, const std::string& path, bool required) {
  auto text = r_.string(obj, "workload", path, required);
  if (!text) return required ? std::nullopt : std::optional(WorkloadType::kInference);
  auto type = parse_workload_type(*text);
  if (!type) {
    r_.fail("unknown_name", path + "/workload",
            "expected one of inference, batch_inference, fine_tuning, lora, qlora, training, got \"" + *text + "\"");
  }
  return type;
}

const Precision* Session::precision(const Json& obj, const std::string& path, bool required) {
  auto text = r_.string(obj, "precision", path, required);
  if (!text) return required ? nullptr : catalog_.precision("fp16");
  const Precision* p = catalog_.precision(*text);
  if (!p) {
    std::vector<std::string> keys;
    for (const auto& x : catalog_.precisions) keys.push_back(x.key);
    r_.fail("unknown_name", path + "/precision",
            "expected one of " + names_of(keys) + ", got \"" + *text + "\"");
  }
  return p;
}

std::optional<Placement> Session::placement(const Json& obj, const std::string& path, const Workload* w,
                                            const Billing* billing) {
  auto name = r_.string(obj, "instance", path, true);
  auto gpus = r_.number(obj, "gpus", path, false, {0, kMaxGpus, true});
  if (!name) return std::nullopt;
  if (!gpus && w && billing) {
    if (auto whole = whole_instance(*name, *w, *billing)) return whole;
  }
  auto p = place(catalog_, *name, gpus.value_or(1));
  if (!p) {
    std::vector<std::string> names;
    for (const InstanceType& it : catalog_.instances) names.push_back(it.name);
    for (const Family& f : catalog_.families) names.push_back(f.key);
    const auto near = nearest_names(*name, names);
    r_.fail("unknown_name", path + "/instance",
            "expected an instance family (e.g. P5) or instance type (e.g. p5.48xlarge) of "
            "gpu_instances.json, got \"" + *name + "\"" +
                (near.empty() ? "" : "; did you mean " + names_of(near) + "?"));
  }
  return p;
}

std::optional<Placement> Session::whole_instance(const std::string& name, const Workload& w, const Billing& billing) {
  if (const InstanceType* it = catalog_.instance(name)) {
    Placement p{it, std::max(1.0, it->gpus), 1, name, false, ""};
    if (it->gpus > 1)
      p.note = "no GPU count given: all " + report::short_number(it->gpus) + " GPUs of " + it->name + " (give gpus for fewer)";
    return p;
  }
  const Family* family = catalog_.family(name);
  if (!family || family->instances.empty()) return std::nullopt;
  // family.instances is sorted by GPU count: the first size the road runs the job on.
  std::string smaller;
  const InstanceType* largest = nullptr;
  for (std::size_t index : family->instances) {
    const InstanceType& it = catalog_.instances[index];
    if (!largest || it.gpus > largest->gpus) largest = &it;
    const Deployment d = deploy_on_gpus(catalog_, w, billing, it, std::max(1.0, it.gpus));
    if (!d.runs()) {
      if (smaller.empty() || d.refusal.rfind("does not fit", 0) == 0) smaller = it.name + ": " + d.refusal;
      continue;
    }
    Placement p{&it, std::max(1.0, it.gpus), 1, name, true, ""};
    p.note = "\"" + name + "\" resolved to " + it.name + ", the smallest size of " + family->key + " that holds the job (all " +
             report::short_number(p.gpus) + " GPU" + (p.gpus == 1 ? "" : "s") + ")" +
             (smaller.empty() ? "" : "; smaller sizes do not (" + smaller + ")");
    return p;
  }
  Placement p{largest, std::max(1.0, largest->gpus), 1, name, true, ""};
  p.note = "\"" + name + "\": no size of " + family->key + " holds the job; judged on its largest, " + largest->name + " (all " +
           report::short_number(p.gpus) + " GPUs)";
  return p;
}

std::optional<Billing> Session::billing(const Json& obj, const std::string& path) {
  Billing b;
  const bool has_hours = obj.contains("hours_per_month"), has_schedule = obj.contains("schedule");
  if (has_hours && has_schedule) {
    r_.fail("wrong_type", path + "/schedule", "give hours_per_month or schedule, not both");
    return std::nullopt;
  }
  if (has_hours) {
    auto hours = r_.number(obj, "hours_per_month", path, true, {0, kMaxHoursPerMonth, true});
    if (!hours) return std::nullopt;
    b.hours_per_month = *hours;
    b.schedule_basis = report::short_number(*hours) + " h/month";
  } else if (has_schedule) {
    if (!schedule(obj, path, b)) return std::nullopt;
  }
  const bool has_spot = obj.contains("use_spot"), has_pricing = obj.contains("pricing");
  if (has_spot && has_pricing) {
    r_.fail("wrong_type", path + "/pricing", "give use_spot or pricing, not both");
    return std::nullopt;
  }
  if (has_spot) {
    auto spot = r_.boolean(obj, "use_spot", path, true);
    if (!spot) return std::nullopt;
    b.mode = *spot ? PaymentMode::kSpot : PaymentMode::kOnDemand;
  } else if (has_pricing) {
    auto text = r_.string(obj, "pricing", path, true);
    if (!text) return std::nullopt;
    const std::string name = lower(*text);
    auto mode = parse_payment_mode(name);
    if (mode) {
      b.mode = *mode;
    } else if (std::any_of(catalog_.providers.begin(), catalog_.providers.end(),
                           [&](const auto& p) { return p.second.way(name) != nullptr; })) {
      b.mode = PaymentMode::kWay;
      b.way = name;
    } else {
      std::vector<std::string> ways;
      for (const auto& [_, terms] : catalog_.providers)
        for (const auto& w : terms.ways) ways.push_back(w.id);
      r_.fail("unknown_name", path + "/pricing",
              "expected one of on_demand, spot, mixed, reserved_1y, reserved_3y" +
                  (ways.empty() ? std::string() : " or a way to pay of the catalog (" + names_of(ways) + ")") +
                  ", got \"" + *text + "\"");
      return std::nullopt;
    }
  }
  if (obj.contains("spot_share")) {
    if (b.mode != PaymentMode::kMixed) {
      r_.fail("wrong_type", path + "/spot_share", "spot_share only applies to \"pricing\": \"mixed\"");
      return std::nullopt;
    }
    auto share = r_.number(obj, "spot_share", path, true, {0, 1});
    if (!share) return std::nullopt;
    b.spot_share = *share;
  } else if (b.mode == PaymentMode::kMixed) {
    b.spot_share = 0.5;  // seed 003: "with 50% spot instances"
  }
  return b;
}

bool Session::schedule(const Json& obj, const std::string& path, Billing& b) {
  const std::string sp = path + "/schedule";
  const Json* s = r_.object(obj, "schedule", path, true);
  if (!s) return false;
  static const std::vector<std::string> kForms{"hours_per_month", "hours_per_day", "hours_per_week",
                                               "always_on", "off_hours_per_day"};
  if (!fields::check_fields(r_, *s, sp, "schedule")) return false;
  int forms = 0;
  for (const auto& [key, _] : s->items()) forms += std::find(kForms.begin(), kForms.end(), key) != kForms.end();
  if (forms != 1 && !(forms == 2 && s->contains("always_on") && s->contains("hours_per_month"))) {
    r_.fail("wrong_type", sp, "expected exactly one of " + names_of(kForms));
    return false;
  }
  const double days = r_.number(*s, "days_per_month", sp, false, {0, 31, true})
                          .value_or(kAlwaysOnHoursPerMonth / 24);
  const std::string days_text = report::short_number(report::round_to(days, 1)) + " days";
  if (s->contains("always_on")) {
    auto on = r_.boolean(*s, "always_on", sp, true);
    if (!on) return false;
    if (!*on) {
      r_.fail("out_of_range", sp + "/always_on", "expected true (use another form for part-time use)");
      return false;
    }
    auto hours = r_.number(*s, "hours_per_month", sp, false, {672, kMaxHoursPerMonth});
    b.hours_per_month = hours.value_or(kAlwaysOnHoursPerMonth);
    b.schedule_basis = hours ? "24/7 at " + report::short_number(*hours) + " h/month"
                             : "24/7: 730 h/month (8,760 h / 12)";
  } else if (s->contains("hours_per_month")) {
    auto hours = r_.number(*s, "hours_per_month", sp, true, {0, kMaxHoursPerMonth, true});
    if (!hours) return false;
    b.hours_per_month = *hours;
    b.schedule_basis = report::short_number(*hours) + " h/month";
  } else if (s->contains("hours_per_day")) {
    auto per_day = r_.number(*s, "hours_per_day", sp, true, {0, 24, true});
    if (!per_day) return false;
    b.hours_per_month = *per_day * days;
    b.schedule_basis = report::short_number(*per_day) + " h/day x " + days_text + " = " +
                       report::short_number(report::round_to(b.hours_per_month, 1)) + " h/month";
  } else if (s->contains("hours_per_week")) {
    auto per_week = r_.number(*s, "hours_per_week", sp, true, {0, 168, true});
    const double weeks = r_.number(*s, "weeks_per_month", sp, false, {0, 31.0 / 7, true})
                             .value_or(kAlwaysOnHoursPerMonth / 168);
    if (!per_week) return false;
    b.hours_per_month = *per_week * weeks;
    b.schedule_basis = report::short_number(*per_week) + " h/week x " +
                       report::short_number(report::round_to(weeks, 2)) + " weeks = " +
                       report::short_number(report::round_to(b.hours_per_month, 1)) + " h/month";
  } else {
    auto off = r_.number(*s, "off_hours_per_day", sp, true, {0, 24});
    if (!off || *off >= 24) {
      if (off) r_.fail("out_of_range", sp + "/off_hours_per_day", "expected fewer than 24 hours off a day");
      return false;
    }
    b.hours_per_month = (24 - *off) * days;
    b.schedule_basis = "scale to zero " + report::short_number(*off) + " h/day: " +
                       report::short_number(24 - *off) + " h/day x " + days_text + " = " +
                       report::short_number(report::round_to(b.hours_per_month, 1)) + " h/month";
  }
  if (b.hours_per_month > kMaxHoursPerMonth) {
    r_.fail("out_of_range", sp, "the schedule gives " + report::short_number(b.hours_per_month) +
                                    " h/month; a month has at most 744 h");
    return false;
  }
  return true;
}

std::vector<std::string> Session::providers(const Json& obj, const std::string& path) {
  std::vector<std::string> list = r_.strings(obj, "providers", path, false);
  for (std::size_t i = 0; i < list.size(); ++i) {
    list[i] = lower(list[i]);
    bool known = catalog_.providers.count(list[i]) > 0;
    for (const auto& f : catalog_.families) known = known || f.provider == list[i];
    if (!known) {
      r_.fail("unknown_name", path + "/providers/" + decimal::whole(i),
              "expected a provider of the catalog (aws, gcp, azure), got \"" + list[i] + "\"");
    }
  }
  return list;
}

std::optional<Question> Session::question(bool with_priority) {
  Question q;
  auto w = road_workload(request_, "", true);
  auto billed = billing(request_, "");
  q.providers = providers(request_, "");
  q.kinds = r_.strings(request_, "kinds", "", false);
  for (std::size_t i = 0; i < q.kinds.size(); ++i) {
    static const std::vector<std::string> kKinds{"gpu", "trainium", "inferentia", "cpu"};
    if (std::find(kKinds.begin(), kKinds.end(), q.kinds[i]) == kKinds.end()) {
      r_.fail("unknown_name", "/kinds/" + decimal::whole(i), "expected one of " + names_of(kKinds) + ", got \"" + q.kinds[i] + "\"");
    }
  }
  if (with_priority) {
    if (auto text = r_.string(request_, "priority", "", false)) {
      if (auto p = parse_priority(*text)) {
        q.priority = *p;
      } else {
        r_.fail("unknown_name", "/priority",
                "expected one of cost, performance, balanced, cost_per_token, reliability, got \"" + *text + "\"");
      }
    }
  }
  if (!w || !billed || !r_.ok()) return std::nullopt;
  q.billing = *billed;
  q.w = std::move(*w);
  return q;
}

}  // namespace gpufleet::detail
