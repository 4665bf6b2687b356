#include "api/answers.hpp"

#include <cmath>
#include <utility>
#include "fleet/spot.hpp"
#include "support/decimal.hpp"


namespace gpufleet::report {

Json object(std::size_t members) {
  Json j = Json::object();
  j.get_ref<Json::object_t&>().reserve(members);
  return j;
}

Json gb(double bytes) { return round_to(bytes / 1e9, 2); }

Json report_optional(const std::optional<double>& value, int decimals) {
  return value ? Json(round_to(*value, decimals)) : Json(nullptr);
}

namespace {
// Which instance an answer speaks of: the members every placement and deployment starts with.
void add_instance(Json& j, const InstanceType& it) {
  add(j, "instance", it.name);
  add(j, "family", it.family_key);
  add(j, "provider", it.provider);
  add(j, "region", it.region);
  add(j, "accelerator_kind", it.accelerator_kind);
}
}  // namespace

Json typed_name(const std::pair<std::string, std::string>& typed) {
  Json j = object(2);
  add(j, "typed", typed.first);
  add(j, "matched_by", typed.second);
  return j;
}

Json placement(const Placement& p) {
  const InstanceType& it = *p.instance;
  Json j = object(18);
  add(j, "requested", p.requested);
  add_instance(j, it);
  add(j, "resolved_from_family", p.resolved_from_family);
  add(j, "gpu_type", it.gpu_type);
  add(j, "gpus_used", round_to(p.gpus, 3));
  add(j, "gpus_per_instance", round_to(it.gpus, 3));
  if (it.gpu_fraction < 1) add(j, "gpu_fraction", round_to(it.gpu_fraction, 3));
  add(j, "instance_count", p.instance_count);
  add(j, "memory_per_gpu_gb", gb(it.memory_per_gpu_bytes));
  add(j, "memory_per_gpu_basis", it.memory_is_usable_figure ? "usable memory as the cloud reports it"
                                 : "rated memory, " + short_number(it.gpu_memory_gb) + " GiB as the cloud lists it");
  if (!p.note.empty()) {
    add(j, "note", p.note);
  } else if (p.resolved_from_family) {
    add(j, "note", "\"" + p.requested + "\" resolved to " + it.name + ", the family's smallest size with at least " +
                short_number(p.gpus) + " GPU" + (p.gpus == 1 ? "" : "s") +
                (p.instance_count > 1 ? " (x" + decimal::whole(p.instance_count) + " instances)" : ""));
  }
  add(j, "source", it.source);
  add(j, "source_date", it.source_date);
  return j;
}

Json memory(const MemoryRequirement& need) {
  Json j = object(8);
  j["weights_gb"] = gb(need.weights_bytes);
  j["overhead_gb"] = gb(need.overhead_bytes);
  j["overhead_covers"] = need.overhead_label;
  j["multiplier"] = round_to(need.multiplier, 3);
  j["multiplier_source"] = need.multiplier_basis;
  j["total_gb"] = gb(need.total_bytes);
  j["total_bytes"] = round_to(need.total_bytes, 0);
  j["basis"] = "weights " + short_number(need.weights_bytes / 1e9) + " GB x " +
               short_number(need.multiplier) + " = " + short_number(need.total_bytes / 1e9) + " GB";
  return j;
}

Json cost(const Cost& c, bool ways) {
  Json j = object(18);
  add(j, "provider", c.provider);
  add(j, "region", c.region);
  add(j, "pricing", c.pricing);
  if (!c.way.empty()) add(j, "way", c.way);
  add(j, "usd_per_hour", report_optional(c.usd_per_hour, 4));
  add(j, "monthly_hours", round_to(c.monthly_hours, 2));
  add(j, "schedule", c.schedule_basis);
  add(j, "usd_per_month", report_optional(c.usd_per_month, 2));
  add(j, "on_demand_usd_per_hour", report_optional(c.on_demand_usd_per_hour, 4));
  add(j, "spot_usd_per_hour", report_optional(c.spot_usd_per_hour, 4));
  add(j, "on_demand_usd_per_month", report_optional(c.on_demand_usd_per_month, 2));
  add(j, "spot_usd_per_month", report_optional(c.spot_usd_per_month, 2));
  add(j, "spot_savings_pct", report_optional(c.spot_savings_pct, 1));
  add(j, "spot_interruption_notice_s", report_optional(c.spot_interruption_notice_s, 0));
  if (!c.spot_basis.empty()) add(j, "spot_basis", c.spot_basis);
  Json commitments = Json::array();
  for (const auto& x : ways ? c.commitments : std::vector<CommitmentCost>{}) {
    const WayToPay& w = *x.way;
    Json way = object(18);
    add(way, "way", w.id);
    add(way, "kind", w.kind);
    add(way, "name", w.name);
    add(way, "term", decimal::whole(w.term_years) + "y");
    add(way, "upfront", w.upfront);
    add(way, "discount_pct", report_optional(x.discount_pct, 1));
    if (w.up_to_pct) add(way, "up_to_pct", round_to(*w.up_to_pct, 1));
    add(way, "usd_per_hour", report_optional(x.usd_per_hour, 4));
    add(way, "usd_per_month", report_optional(x.usd_per_month, 2));
    add(way, "recurring_usd_per_month", report_optional(x.recurring_usd_per_month, 2));
    add(way, "upfront_usd", report_optional(x.upfront_usd, 2));
    add(way, "break_even_utilization_pct", report_optional(x.break_even_utilization_pct, 1));
    if (const std::string note = x.note(); !note.empty()) add(way, "note", note);
    if (!x.estimates().empty()) add(way, "estimates", x.estimates());
    add(way, "source", x.source());
    add(way, "source_date", x.source_date());
    commitments.push_back(std::move(way));
  }
  if (ways) add(j, "commitments", std::move(commitments));
  add(j, "basis", c.basis);
  if (!c.note.empty()) add(j, "note", c.note);
  if (!c.price_flags.empty()) {
    add(j, "price_flags", price_flags(c.price_flags));
    add(j, "priced_from_region", c.priced_from_region.empty() ? Json(nullptr) : Json(c.priced_from_region));
  }
  return j;
}

Json price_flags_first(Json result, const Cost& cost) {
  if (cost.price_flags.empty()) return result;
  Json out = object(result.size() + 1);
  Json flags = price_flags(cost.price_flags);
  // Whose regions may price it instead (the doors load them: core/cli/inputs.cpp,
  // catalog-store.js).
  for (Json& flag : flags) flag["provider"] = cost.provider;
  add(out, "price_flags", std::move(flags));
  for (auto& [key, value] : result.items()) out[key] = std::move(value);
  return out;
}

std::string uncalibrated_caveat(const Deployment& d, const ErrorKind& throughput) {
  return d.instance->name + " (" + d.instance->gpu_type +
         "): its throughput comes from datasheet peaks with GPU efficiency factors (expected "
         "error: " +
         expected_error(throughput)["text"].get<std::string>() +
         "), and models must be compiled for AWS Neuron first; measure before committing, or ask "
         "for GPUs only (kinds: "
         "[\"gpu\"])";
}

std::string catalog_date(const Catalog& catalog) {
  auto it = catalog.info.is_object() ? catalog.info.find("date") : catalog.info.end();
  return it != catalog.info.end() && it->is_string() ? it->get<std::string>() : "";
}

Json interruption_band(const InterruptionBand& b, const Catalog& catalog) {
  Json band = {{"low_pct", b.low_pct}, {"high_pct", b.high_pct}, {"label", b.label}, {"source", b.source}, {"as_of", b.as_of}};
  const auto age = spot::days_between(b.as_of, catalog_date(catalog));
  if (age) band["age_days"] = *age;
  band["stale"] = !age || *age > 30;
  return band;
}

Json price_flags(const std::vector<std::string>& codes) {
  Json list = Json::array();
  for (const std::string& code : codes) list.push_back({{"code", code}, {"name", price_flag_name(code)}});
  return list;
}

Json excluded(const Excluded& e) {
  Json j = object(3);
  add(j, "family", e.family);
  add(j, "reason", e.reason);
  add(j, "way_out", e.way_out);
  return j;
}

namespace {
constexpr double kGiB = 1024.0 * 1024 * 1024;
Json gib(double bytes) { return round_to(bytes / kGiB, 2); }
}  // namespace

Json memory_lines(const MemoryEstimate& e) {
  Json lines = Json::array();
  for (const auto& l : e.lines) {
    Json line = object(4);
    add(line, "key", l.key);
    add(line, "label", l.label);
    add(line, "gib", gib(l.bytes));
    add(line, "basis", l.basis);
    lines.push_back(std::move(line));
  }
  return lines;
}

Json deployment(const Deployment& d, bool details) {
  const InstanceType& it = *d.instance;
  Json j = object(40);
  add_instance(j, it);
  add(j, "gpu_type", it.gpu_type);
  add(j, "instance_count", d.instance_count);
  add(j, "gpus", round_to(d.gpus, 3));
  Json layout = object(3);
  add(layout, "tensor_parallel", d.layout.tensor_parallel);
  add(layout, "pipeline_parallel", d.layout.pipeline_parallel);
  add(layout, "replicas", d.layout.replicas);
  add(j, "layout", std::move(layout));
  add(j, "runs", d.runs());
  if (!d.runs()) {
    add(j, "refusal", d.refusal);
    add(j, "way_out", d.way_out);
  }
  add(j, "compute_precision", d.compute_precision);
  add(j, "memory_per_gpu_gb", gb(d.memory_per_gpu_bytes));
  add(j, "memory_per_gpu_gib", gib(d.memory_per_gpu_bytes));
  // What the engine takes on each GPU, the memory question's total: a pool engine its whole share
  // (its KV pool included, however many sequences fill it); other engines what the copy uses.
  if (d.memory) add(j, "engine_reserves_per_gpu_gib", gib(d.memory->total_bytes));
  add(j, "capacity_per_gpu_gib", gib(d.capacity_per_gpu_bytes));
  add(j, "capacity_per_gpu_gb", gb(d.capacity_per_gpu_bytes));
  add(j, "memory_utilization_pct",
      d.capacity_per_gpu_bytes > 0 ? Json(round_to(100 * d.memory_per_gpu_bytes / d.capacity_per_gpu_bytes, 1)) : Json(nullptr));
  if (d.inference) {
    const InferenceEstimate& e = *d.inference;
    add(j, "concurrency_per_replica", d.concurrency);
    add(j, "max_concurrency_by_kv_cache", d.max_concurrency_by_kv);
    add(j, "time_to_first_token_ms", round_to(e.ttft_ms, 2));
    add(j, "p95_time_to_first_token_ms", round_to(d.p95_ttft_ms, 2));
    add(j, "time_per_output_token_ms", round_to(e.tpot_ms, 3));
    add(j, "output_tokens_per_s", round_to(d.output_tokens_per_s, 1));
    add(j, "utilization_pct", d.utilization > 0 ? Json(round_to(100 * d.utilization, 1)) : Json(nullptr));
    add(j, "usd_per_million_output_tokens", report_optional(d.usd_per_million_output_tokens, 4));
  }
  if (d.inference && d.run_hours) {  // a batch job: its hours and its cost
    add(j, "run_hours", report_optional(d.run_hours, 2));
    add(j, "run_days", round_to(*d.run_hours / 24, 2));
    add(j, "usd_per_run", report_optional(d.usd_per_run, 2));
  }
  if (d.training) {
    const TrainingEstimate& t = *d.training;
    add(j, "tokens_per_s", round_to(d.output_tokens_per_s, 1));
    add(j, "tokens_per_s_per_gpu", round_to(t.tokens_per_s_per_gpu, 1));
    add(j, "mfu", round_to(t.mfu, 4));
    add(j, "run_hours", report_optional(d.run_hours, 2));
    add(j, "run_days", d.run_hours ? Json(round_to(*d.run_hours / 24, 2)) : Json(nullptr));
    add(j, "usd_per_run", report_optional(d.usd_per_run, 2));
  }
  add(j, "usd_per_hour", report_optional(d.cost.usd_per_hour, 4));
  // A one-off job (a dataset to process or train on) is not a monthly bill: its cost is usd_per_run.
  add(j, "usd_per_month", d.run_hours ? Json(nullptr) : report_optional(d.cost.usd_per_month, 2));
  add(j, "bound", d.bound);
  add(j, "uncalibrated", d.uncalibrated);
  add(j, "notes", d.notes);
  if (details) {
    add(j, "cost", cost(d.cost));
    if (d.memory) add(j, "memory_per_gpu", memory_lines(*d.memory));
    if (d.inference) {
      Json basis = object(5);
      add(basis, "prefill", d.inference->first_token.basis);
      add(basis, "decode", d.inference->decode.basis);
      add(basis, "link", tensor_link(*d.instance, d.layout.tensor_parallel).basis);
      if (d.layout.pipeline_parallel > 1 && d.instance->network_gbit_per_s)
        add(basis, "pipeline_link",
            short_number(d.layout.pipeline_parallel) + " pipeline stages on as many " +
                d.instance->name + " over their " + short_number(*d.instance->network_gbit_per_s) +
                " Gbit/s " + d.instance->network_fabric +
                " network: each decode step and each prompt sends every boundary's activations and "
                "pays a message "
                "latency per hop (in the prefill and decode bases)");
      add(basis, "queueing",
          "p95 time to first token = own prefill " + short_number(round_to(d.inference->ttft_ms, 1)) +
              " ms + p95 wait " + short_number(round_to(d.queue_wait_ms, 1)) +
              " ms: the 95th percentile of the slot wait (Erlang C, M/M/c with c = the concurrency) plus the wait behind "
              "other prompts' prefill (M/D/1, its Cramer-Lundberg exponential tail), taken as independent");
      add(j, "basis", std::move(basis));
    }
    if (d.training) add(j, "basis", d.training->basis);
  }
  return j;
}

namespace {
double gib3(double bytes) { return round_to(bytes / kGiB, 3); }
}  // namespace

Json fit_band(const MemoryEstimate& e, double sequence, double capacity, bool pool, const Json& expected) {
  if (!expected.contains("p90_abs_err_pct")) return nullptr;
  const double p90 = expected["p90_abs_err_pct"].get<double>();
  Json band = object(6);
  band["p90_abs_err_pct"] = p90;
  band["n"] = expected["n"];
  if (pool) {
    if (!e.kv_pool_tokens) return nullptr;
    const MeasuredRange tokens = measured_range(*e.kv_pool_tokens, p90);
    const double low = std::floor(tokens.low);
    band["kv_cache_tokens"] = {{"low", low}, {"high", tokens.high ? Json(std::floor(*tokens.high)) : Json(nullptr)}};
    band["fits_at_low"] = low >= sequence;
    band["text"] = low >= sequence ? "the KV pool holds a " + short_number(sequence) +
                                         "-token sequence even at the measured error (" + short_number(low) +
                                         " tokens at least)"
                                   : "may not hold a " + short_number(sequence) +
                                         "-token sequence at the measured error: the pool may hold " +
                                         short_number(low) + " tokens";
    return band;
  }
  const MemoryBand m = memory_band(e.total_bytes, capacity, p90);
  band["used_gib"] = {{"low", gib3(m.bytes.low)}, {"high", m.bytes.high ? Json(gib3(*m.bytes.high)) : Json(nullptr)}};
  band["fits_at_low"] = m.fits_low;
  band["fits_at_high"] = m.fits_high;
  auto gb = [](double bytes) { return short_number(round_to(bytes / 1e9, 1)) + " GB"; };
  const std::string of = " of " + gb(capacity);
  band["text"] = m.fits_high   ? "fits even at the measured error: up to " + gb(*m.bytes.high) + of
                 : !m.fits_low ? "does not fit even at the measured error: at least " + gb(m.bytes.low) + of
                               : "may not fit at the measured error: " + gb(m.bytes.low) + " to " +
                                     (m.bytes.high ? gb(*m.bytes.high) : std::string("no upper bound")) + of;
  return band;
}

Json expected_error(const ErrorKind& k) {
  const MeasuredError* found = k.measured;
  const std::string on = found ? found->vendor : k.vendor;
  const std::string kind = k.engine + " " + k.phase + " " + k.quantity + (on.empty() ? "" : " on " + on + " GPUs");
  Json out = object(7);
  out["kind"] = kind;
  if (!found) {
    out["n"] = 0;
    out["text"] = "no measured case of this kind (" + kind + "): its error is unknown";
    return out;
  }
  const std::string cases = short_number(found->n) + " case" + (found->n == 1 ? "" : "s");
  const std::string publications =
      short_number(found->sources) + " publication" + (found->sources == 1 ? "" : "s");
  // The vendor's most measured engine standing in for one never measured on its devices.
  const std::string stand_in = found->engine == k.engine ? ""
                               : "no case of " + kind + " was measured: the band of " + found->engine + " " + k.phase +
                                     " " + k.quantity + " on the same devices stands in; ";
  out["n"] = static_cast<std::int64_t>(found->n);
  out["sources"] = static_cast<std::int64_t>(found->sources);
  if (!stand_in.empty()) out["stands_in"] = found->engine;
  out["median_abs_err_pct"] = found->median_abs_err_pct;
  out["p90_abs_err_pct"] = found->p90_abs_err_pct;
  const std::string measured = found->engine + " " + k.phase + " " + k.quantity + (on.empty() ? "" : " on " + on + " GPUs");
  const std::string few = " (" + measured + " has fewer than 3 publications)";
  const std::string over = found->pool == "phase"    ? "every engine's " + k.phase + " " + k.quantity + few
                           : found->pool == "engine" ? found->engine + " " + k.phase + " " + k.quantity + " on any GPU" + few
                                                     : measured;
  out["from"] = stand_in + "leave one source out: " + short_number(found->n) + " measured case" + (found->n == 1 ? "" : "s") +
                " of " + over + " from " + publications + ", each publication weighted equally";
  out["text"] = stand_in + "within " + short_number(found->median_abs_err_pct) + " % (median; 90 % within " +
                short_number(found->p90_abs_err_pct) + " %) on a source it was not tuned on: " + cases + " from " +
                publications + " of " + over;
  return out;
}

Json band_error(const ErrorKind& kind) {
  Json error = expected_error(kind);
  error.erase("text");
  return error;
}

Json no_band(const ErrorKind& kind) {
  Json j = object(2);
  add(j, "text", "no band: " + expected_error(kind)["text"].get<std::string>());
  add(j, "expected_error", band_error(kind));
  return j;
}

std::string at_measured_error(const MeasuredError& measured) {
  return " at the measured error (throughput 90 % within " +
         short_number(measured.p90_abs_err_pct) + " %, " + short_number(measured.n) + " cases)";
}

namespace {
// {"low", "high"}: a figure's range, null at an end the band does not bound.
Json range(std::optional<double> low, std::optional<double> high, int decimals) {
  Json j = object(2);
  add(j, "low", report_optional(low, decimals));
  add(j, "high", report_optional(high, decimals));
  return j;
}

// A figure's range over the band's ends; a figure that grows with the speed (capacity) or falls
// with it without bound ($ per token of a fleet not sized for a demand) has no end at an unbounded
// throughput.
template <typename Get>
Json band_range(const DeploymentBand& b, bool grows_with_speed, int decimals, Get get, bool unbounded_too = false) {
  const bool open = b.kind.measured->p90_abs_err_pct >= 100 && (grows_with_speed || unbounded_too);
  std::optional<double> slow = b.slow ? get(*b.slow) : std::nullopt;
  std::optional<double> fast = b.fast && !open ? get(*b.fast) : std::nullopt;
  return grows_with_speed ? range(slow, fast, decimals) : range(fast, slow, decimals);
}

std::string span(const Json& r, const std::string& unit, bool money) {
  auto one = [&](const Json& x) {
    const double v = x.get<double>();
    return money ? usd(v) : short_number(v);
  };
  if (r["low"].is_null() && r["high"].is_null()) return "";
  if (r["low"].is_null()) return "up to " + one(r["high"]) + unit;
  if (r["high"].is_null()) return "at least " + one(r["low"]) + unit;
  if (r["low"] == r["high"]) return one(r["low"]) + unit;
  return one(r["low"]) + "-" + one(r["high"]) + unit;
}
}  // namespace

Json band(const DeploymentBand& b, const Deployment& d) {
  Json j = object(10);
  // Every candidate carries one: the error's prose once (its `from`), the method in
  // docs/accuracy.md, so that a large catalog's answers stay within the answer limit.
  Json error = expected_error(b.kind);
  const std::string error_text = error["text"].get<std::string>();
  error.erase("text");
  if (!b.slow) {
    add(j, "expected_error", std::move(error));
    add(j, "text", "no band: " + error_text);
    return j;
  }
  const bool serving = d.inference.has_value();
  // The capacity of the fleet as sized, at the throughput's ends (the replicas say how it resizes).
  add(j, serving ? "output_tokens_per_s" : "tokens_per_s",
      band_range(b, true, 1, [&](const BandEnd& e) -> std::optional<double> { return e.factor * d.output_tokens_per_s; }));
  add(j, "replicas", band_range(b, false, 0, [](const BandEnd& e) -> std::optional<double> { return e.replicas; }));
  add(j, "instance_count",
      band_range(b, false, 0, [](const BandEnd& e) -> std::optional<double> { return e.instance_count; }));
  const bool job = d.run_hours.has_value();
  if (!job) add(j, "usd_per_month", band_range(b, false, 2, [](const BandEnd& e) { return e.usd_per_month; }));
  add(j, "usd_per_million_tokens",
      band_range(b, false, 4, [](const BandEnd& e) { return e.usd_per_million_tokens; }, !d.sized_for_demand));
  if (job) {
    add(j, "run_hours", band_range(b, false, 2, [](const BandEnd& e) { return e.run_hours; }, true));
    add(j, "usd_per_run", band_range(b, false, 2, [](const BandEnd& e) { return e.usd_per_run; }, true));
  }
  if (d.training && b.slow->misses_deadline) add(j, "misses_deadline_at_low_throughput", true);
  std::string text = span(j["instance_count"], " x " + d.instance->name, false);
  const std::string cost = job ? span(j["usd_per_run"], " per run", true) : span(j["usd_per_month"], "/month", true);
  if (!cost.empty()) text += ", " + cost;
  const std::string per_token = span(j["usd_per_million_tokens"], " per 1M tokens", true);
  if (!per_token.empty()) text += ", " + per_token;
  add(j, "text", text + at_measured_error(*b.kind.measured));
  add(j, "expected_error", std::move(error));
  return j;
}

Json summed_band(const std::vector<Json>& bands, double fixed_usd_per_month,
                 const std::string& what) {
  Json j = object(5);
  if (bands.empty()) return j;
  for (const Json& b : bands) {
    if (b.contains("replicas")) continue;
    add(j, "expected_error", b["expected_error"]);
    add(j, "text", b["text"]);
    return j;
  }
  const auto sum = [&](const char* key, double fixed, int decimals) {
    std::optional<double> low = fixed, high = fixed;
    for (const Json& b : bands) {
      const Json& r = b[key];
      low = low && r["low"].is_number() ? std::optional<double>(*low + r["low"].get<double>())
                                        : std::nullopt;
      high = high && r["high"].is_number() ? std::optional<double>(*high + r["high"].get<double>())
                                           : std::nullopt;
    }
    return range(low, high, decimals);
  };
  add(j, "replicas", sum("replicas", 0, 0));
  add(j, "instance_count", sum("instance_count", 0, 0));
  add(j, "usd_per_month", sum("usd_per_month", fixed_usd_per_month, 2));
  const Json& error = bands.front()["expected_error"];
  std::string text = span(j["replicas"], " replicas", false);
  const std::string cost = span(j["usd_per_month"], "/month", true);
  if (!cost.empty()) text += (text.empty() ? "" : ", ") + cost;
  add(j, "text",
      text + " " + what + " at the measured error (throughput 90 % within " +
          short_number(error["p90_abs_err_pct"].get<double>()) + " %, " +
          short_number(error["n"].get<double>()) + " cases)");
  add(j, "expected_error", error);
  return j;
}

Json candidate(const Candidate& c) {
  Json j = deployment(c.d, false);
  add(j, "sizing", c.sizing);
  // The page's and the seed report's shapes: fit, cost and performance objects.
  Json fit = object(5);
  add(fit, "fits", c.d.runs());
  add(fit, "gpus", round_to(c.d.gpus, 3));
  add(fit, "per_gpu_gb", gb(c.d.memory_per_gpu_bytes));
  add(fit, "capacity_per_gpu_gb", gb(c.d.capacity_per_gpu_bytes));
  add(fit, "utilization_pct", c.d.capacity_per_gpu_bytes > 0 ? round_to(100 * c.d.memory_per_gpu_bytes / c.d.capacity_per_gpu_bytes, 1) : 0.0);
  add(j, "fit", std::move(fit));
  add(j, "cost", cost(c.d.cost));
  Json perf = object(6);
  const bool serving = c.d.inference.has_value();
  add(perf, "score", round_to(serving ? c.d.output_tokens_per_s : c.d.output_tokens_per_s, 1));
  add(perf, "unit", serving ? "output tokens/s" : "training tokens/s");
  add(perf, "bound", c.d.bound);
  add(perf, "ratio_to_current", report_optional(c.performance_ratio, 3));
  add(perf, "capacity_ratio_to_current", report_optional(c.capacity_ratio, 3));
  add(perf, "usd_per_million_tokens", report_optional(usd_per_million_tokens(c.d), 4));
  add(perf, "time_per_output_token_ms", serving ? Json(round_to(c.d.inference->tpot_ms, 2)) : Json(nullptr));
  add(j, "performance", std::move(perf));
  add(j, "savings_pct", report_optional(c.savings_pct, 1));
  add(j, "savings_usd_per_month", report_optional(c.savings_usd_per_month, 2));
  add(j, "risk_level", c.risk_level);
  add(j, "migration_complexity", c.migration_complexity);
  add(j, "reasons", c.reasons);
  if (c.band) add(j, "band", band(*c.band, c.d));
  return j;
}

Json ways_out(const WaysOut& w) {
  Json j = object(4);
  add(j, "formats", w.formats);
  add(j, "more_gpus", w.more_gpus ? deployment(*w.more_gpus, false) : Json(nullptr));
  Json others = Json::array();
  for (const auto& d : w.other_families) others.push_back(deployment(d, false));
  add(j, "other_families", others);
  std::string text;
  if (w.more_gpus) {
    text += short_number(w.more_gpus->gpus) + " x " + w.more_gpus->instance->gpu_type + " (" +
            short_number(w.more_gpus->instance_count) + " x " + w.more_gpus->instance->name + ")";
  }
  if (!w.formats.empty()) text += (text.empty() ? "" : ", or ") + w.formats.front() + " on the same GPUs";
  if (!w.other_families.empty()) {
    text += std::string(text.empty() ? "" : ", or ") + "another family (";
    for (std::size_t i = 0; i < w.other_families.size(); ++i) text += (i ? ", " : "") + w.other_families[i].instance->name;
    text += ")";
  }
  add(j, "summary", text.empty() ? "no instance in the catalog runs this workload" : text);
  return j;
}

Json workload(const Workload& w) {
  Json j = object(12);
  Json model = object(5);
  add(model, "label", w.model.label);
  if (w.model.size) add(model, "size", *w.model.size);
  if (w.model.named) add(model, "key", w.model.named->key);
  if (w.model.typed_name) add(model, "typed_name", typed_name(*w.model.typed_name));
  add(model, "parameters_billion", round_to(w.model.parameters / 1e9, 3));
  add(model, "shape", w.model.shape_basis);
  add(j, "model", std::move(model));
  add(j, "workload", to_string(w.task));
  add(j, "weight_format", w.weight_format);
  add(j, "precision", w.weight_format);
  add(j, "kv_cache_format", w.kv_format.empty() ? "16-bit (the compute precision)" : w.kv_format);
  add(j, "engine", w.engine_key());
  add(j, "memory_method", w.seed_memory ? "seed" : "architecture");
  const Demand& d = w.demand;
  Json demand = object(10);
  if (w.serving()) {
    add(demand, "requests_per_s", report_optional(d.requests_per_s, 4));
    add(demand, "input_tokens", d.input_tokens);
    add(demand, "output_tokens", d.output_tokens);
    add(demand, "max_ttft_ms", report_optional(d.max_ttft_ms, 2));
    add(demand, "max_tpot_ms", report_optional(d.max_tpot_ms, 3));
    add(demand, "target_utilization", d.target_utilization);
    add(demand, "tokens_per_month", report_optional(d.tokens_per_month, 0));
    if (w.task == WorkloadType::kBatchInference) {
      add(demand, "dataset_tokens", report_optional(d.dataset_tokens, 0));
      add(demand, "deadline_days", report_optional(d.deadline_days, 2));
    }
  } else {
    add(demand, "dataset_tokens", report_optional(d.dataset_tokens, 0));
    add(demand, "epochs", d.epochs);
    add(demand, "deadline_days", report_optional(d.deadline_days, 2));
  }
  add(j, "demand", std::move(demand));
  if (w.trains()) {
    Json recipe = object(7);
    add(recipe, "optimizer", w.recipe.optimizer);
    add(recipe, "master_weights", w.recipe.master_weights);
    add(recipe, "gradient_checkpointing", w.recipe.gradient_checkpointing);
    add(recipe, "sharding", w.recipe.sharding + " over the data-parallel GPUs");
    add(recipe, "micro_batch", w.recipe.micro_batch);
    add(recipe, "sequence_length", w.recipe.sequence);
    add(j, "recipe", std::move(recipe));
  }
  return j;
}

Json question(const Question& q) {
  Json j = workload(q.w);
  j["monthly_hours"] = round_to(q.billing.hours_per_month, 2);
  j["schedule"] = q.billing.schedule_basis;
  j["pricing"] = q.billing.pricing();
  if (q.billing.mode == PaymentMode::kMixed) j["spot_share"] = round_to(q.billing.spot_share, 3);
  j["use_spot"] = q.billing.uses_spot();
  if (!q.providers.empty()) j["providers"] = q.providers;
  j["priority"] = to_string(q.priority);
  return j;
}

Json migration(const MigrationReport& r, const Question& q) {
  Json j;
  j["request"] = question(q);
  j["current"] = candidate(r.current);
  j["assessment"] = r.assessment;
  if (r.ways_out) j["ways_out"] = ways_out(*r.ways_out);
  Json alternatives = Json::array();
  for (const auto& c : r.options.ranked) alternatives.push_back(candidate(c));
  j["alternatives"] = std::move(alternatives);
  Json excluded = Json::array();
  for (const auto& e : r.options.excluded) excluded.push_back(report::excluded(e));
  j["excluded"] = std::move(excluded);
  Json best = Json::object();
  for (const auto& pick : r.best_by_priority) best[to_string(pick.priority)] = r.options.ranked[pick.index].d.instance->name;
  j["best_by_priority"] = best;
  Json rec;
  rec["priority"] = to_string(q.priority);
  if (r.recommended) {
    const Candidate& c = r.options.ranked[*r.recommended];
    rec["action"] = "migrate";
    rec["instance"] = c.d.instance->name;
    rec["family"] = c.d.instance->family_key;
    rec["instance_count"] = c.d.instance_count;
    rec["gpus_used"] = round_to(c.d.gpus, 3);
    rec["layout"] = {{"tensor_parallel", c.d.layout.tensor_parallel}, {"pipeline_parallel", c.d.layout.pipeline_parallel}, {"replicas", c.d.layout.replicas}};
    rec["pricing"] = c.d.cost.pricing;
    rec["usd_per_month"] = report_optional(c.d.cost.usd_per_month, 2);
    rec["savings_pct"] = report_optional(c.savings_pct, 1);
    rec["savings_usd_per_month"] = report_optional(c.savings_usd_per_month, 2);
    rec["performance_ratio"] = report_optional(c.performance_ratio, 3);
    rec["risk_level"] = c.risk_level;
    rec["migration_complexity"] = c.migration_complexity;
    std::string summary = "move to " + decimal::whole(c.d.instance_count) + " x " + c.d.instance->name;
    if (c.savings_pct) {
      summary += std::string(*c.savings_pct >= 0 ? ", saving " : ", costing ") + usd(std::fabs(*c.savings_usd_per_month)) +
                 "/month (" + short_number(round_to(std::fabs(*c.savings_pct), 1)) + "%" + (*c.savings_pct >= 0 ? "" : " more") + ")";
    }
    const auto now = usd_per_million_tokens(r.current.d), then = usd_per_million_tokens(c.d);
    rec["usd_per_million_tokens"] = report_optional(then, 4);
    rec["current_usd_per_million_tokens"] = report_optional(now, 4);
    if (c.performance_ratio) summary += " at " + short_number(round_to(*c.performance_ratio, 2)) + "x the speed";
    if (then && now)
      summary += ", $" + short_number(round_to(*then, 2)) + " per 1M tokens against $" + short_number(round_to(*now, 2)) + " today";
    rec["summary"] = summary;
  } else {
    rec["action"] = r.options.ranked.empty() ? "none_fits" : "stay";
    rec["instance"] = r.current.d.instance->name;
    rec["summary"] = r.options.ranked.empty() ? "no instance in the catalog runs this workload"
                                              : "the current deployment is already the best for the " + to_string(q.priority) + " priority";
  }
  j["recommendation"] = rec;
  j["warnings"] = r.warnings;
  return j;
}

}  // namespace gpufleet::report
