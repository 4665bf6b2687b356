// The auto-scaling question (docs/api.md, autoscale): a traffic profile on the road's deployment,
// each scaling policy simulated over it (fleet/autoscale.hpp), priced, with the recommended
// autoscaler settings and the committed base.

#include <algorithm>
#include "support/civil_date.hpp"
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "api/answers.hpp"
#include "api/questions/questions.hpp"
#include "api/session.hpp"
#include "catalog/fields.hpp"
#include "fleet/autoscale.hpp"
#include "fleet/band.hpp"
#include "fleet/recommend.hpp"
#include "support/decimal.hpp"
#include "support/json_guard.hpp"

namespace gpufleet::detail {

Json answer_autoscale(const Catalog& catalog, Session& s, const Json& req);

namespace {

using report::round_to;

constexpr std::size_t kMaxIntervals = 8784;  // a leap year's hours
constexpr double kMaxRps = 1e7;
const double kMonthHours = Billing{}.hours_per_month;  // 720

// Cold start defaults: estimates, not measurements (docs/api.md, autoscale, says so).
constexpr double kProvisioningS = 180;   // a GPU node launched and joined to the cluster
constexpr double kImagePullS = 60;       // a serving image of about 10 GB at about 200 MB/s
constexpr double kWeightsGbPerS = 1;     // weights read from object or network storage
constexpr double kWarmupS = 60;          // the engine's profiling run and CUDA graph capture

struct Profile {
  std::vector<double> rps;
  std::string source;  // requests_per_s | csv
  std::string month;   // how the profile's hours make a month
  double month_scale = 1;
  std::string start;   // csv: the first hour bucketed (UTC)
  std::string shape, shape_source;  // a named shape, and where it comes from
  bool shape_synthetic = false;
  std::string gaps;  // csv: the hours no row fell in, and how they were read
};

using civil::days_from_civil;

std::string trim(std::string text) {
  const auto first = text.find_first_not_of(" \t\r\"");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\"");
  return text.substr(first, last - first + 1);
}

bool all_digits(const std::string& t, std::size_t from, std::size_t count) {
  if (from + count > t.size()) return false;
  for (std::size_t i = from; i < from + count; ++i)
    if (t[i] < '0' || t[i] > '9') return false;
  return true;
}

long digits(const std::string& t, std::size_t from, std::size_t count) {
  return std::strtol(t.substr(from, count).c_str(), nullptr, 10);
}

std::optional<double> parse_number(const std::string& t) {
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Seconds since the epoch (UTC) of a Unix time (seconds, or milliseconds from 1e11 on) or an ISO
// 8601 time: YYYY-MM-DD, then optionally [T ]HH:MM[:SS[.fff]] and Z, +HH:MM or +HHMM.
std::optional<double> parse_time(const std::string& t) {
  if (auto v = parse_number(t)) return *v >= 1e11 ? *v / 1000 : *v;
  if (!all_digits(t, 0, 4) || t.size() < 10 || t[4] != '-' || !all_digits(t, 5, 2) || t[7] != '-' || !all_digits(t, 8, 2))
    return std::nullopt;
  const long y = digits(t, 0, 4), mo = digits(t, 5, 2), d = digits(t, 8, 2);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return std::nullopt;
  double seconds = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * 86400.0;
  std::size_t i = 10;
  if (i == t.size()) return seconds;
  if (t[i] != 'T' && t[i] != ' ') return std::nullopt;
  ++i;
  if (!all_digits(t, i, 2) || i + 5 > t.size() || t[i + 2] != ':' || !all_digits(t, i + 3, 2)) return std::nullopt;
  const long h = digits(t, i, 2), mi = digits(t, i + 3, 2);
  if (h > 23 || mi > 59) return std::nullopt;
  seconds += h * 3600.0 + mi * 60.0;
  i += 5;
  if (i < t.size() && t[i] == ':') {
    if (!all_digits(t, i + 1, 2)) return std::nullopt;
    const long sec = digits(t, i + 1, 2);
    if (sec > 60) return std::nullopt;
    seconds += sec;
    i += 3;
    if (i < t.size() && t[i] == '.') {
      ++i;
      while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    }
  }
  if (i == t.size()) return seconds;
  if (t[i] == 'Z' && i + 1 == t.size()) return seconds;
  if (t[i] == '+' || t[i] == '-') {
    const double sign = t[i] == '+' ? 1 : -1;
    std::string zone = t.substr(i + 1);
    if (zone.size() == 5 && zone[2] == ':') zone.erase(2, 1);
    if (zone.size() != 4 || !all_digits(zone, 0, 4)) return std::nullopt;
    const long zh = digits(zone, 0, 2), zm = digits(zone, 2, 2);
    if (zh > 14 || zm > 59) return std::nullopt;
    return seconds - sign * (zh * 3600.0 + zm * 60.0);
  }
  return std::nullopt;
}

std::string iso_hour(double seconds) {
  const long days = static_cast<long>(std::floor(seconds / 86400));
  const long hour = static_cast<long>(std::floor((seconds - days * 86400.0) / 3600));
  // civil_from_days (H. Hinnant)
  const long z = days + 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  const long y = static_cast<long>(yoe) + era * 400 + (m <= 2);
  auto two = [](long v) { return (v < 10 ? "0" : "") + decimal::whole(static_cast<std::size_t>(v)); };
  return decimal::whole(static_cast<std::size_t>(y)) + "-" + two(m) + "-" + two(d) + "T" + two(hour) + ":00Z";
}

// A CSV of timestamp,requests rows bucketed to the hours of UTC days: requests counted in each
// hour / 3600 ("count", CloudWatch's Sum), or the mean of the rates sampled in it ("rate", a
// Prometheus rate()). A first line that is not a row is a header. The lines come as one string
// (up to the request's 4 KiB a string) or as an array of strings, one a line (up to its 1 MiB).
bool read_csv(const Reader& r, const std::vector<std::string>& lines, bool array, bool rates, Profile& p) {
  const std::string path = "/profile/csv";
  std::vector<std::pair<double, double>> rows;
  bool ok = true;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (trim(line).empty()) continue;
    const std::size_t comma = line.find(',');
    const std::string when = trim(line.substr(0, comma));
    std::string value = comma == std::string::npos ? "" : line.substr(comma + 1);
    if (const auto next = value.find(','); next != std::string::npos) value = value.substr(0, next);
    value = trim(value);
    const auto t = parse_time(when);
    const auto v = parse_number(value);
    if (rows.empty() && ok && !t && i == 0) continue;  // a header
    if (!t || !v || *v < 0) {
      if (ok)
        r.fail(!t || !v ? "wrong_type" : "out_of_range", array ? path + "/" + decimal::whole(i) : path,
               "line " + decimal::whole(i + 1) + ": expected timestamp,requests (a Unix time or ISO 8601, then a number >= 0), got \"" +
                   line.substr(0, 80) + "\"");
      ok = false;
    }
    if (ok) rows.emplace_back(*t, *v);
  }
  if (!ok) return false;
  if (rows.empty()) {
    r.fail("missing_field", path, "expected rows of timestamp,requests, got none");
    return false;
  }
  double first = rows.front().first, last = first;
  for (const auto& [t, _] : rows) {
    first = std::min(first, t);
    last = std::max(last, t);
  }
  const double day0 = std::floor(first / 86400) * 86400;
  const double hours = std::floor((last - day0) / 3600) + 1;
  if (hours > static_cast<double>(kMaxIntervals)) {
    r.fail("too_large", path,
           "the rows span " + decimal::whole(static_cast<std::size_t>(hours)) + " hours from " + iso_hour(day0) +
               ", more than " + decimal::whole(kMaxIntervals) + " (a leap year)");
    return false;
  }
  const std::size_t n = static_cast<std::size_t>(hours);
  std::vector<double> sum(n, 0), count(n, 0);
  for (const auto& [t, v] : rows) {
    const std::size_t h = static_cast<std::size_t>(std::floor((t - day0) / 3600));
    sum[h] += v;
    count[h] += 1;
  }
  // A count is a log of requests: an hour without rows had none. A rate is a sampled gauge: an hour
  // without a sample holds the rate sampled before it (never 0 by omission).
  p.rps.assign(n, 0);
  std::size_t empty = 0;
  for (std::size_t h = 0; h < n; ++h) {
    empty += count[h] == 0;
    p.rps[h] = !rates ? sum[h] / 3600 : count[h] > 0 ? sum[h] / count[h] : h > 0 ? p.rps[h - 1] : 0;
  }
  if (empty > 0)
    p.gaps = decimal::whole(empty) + " of the profile's " + decimal::whole(n) + " hours have no row: " +
             (rates ? "each holds the rate sampled in the hour before it (csv_values rate)"
                    : "read as hours without requests (csv_values count: each row counts requests)");
  for (std::size_t h = 0; h < n; ++h) {
    if (p.rps[h] > kMaxRps) {
      r.fail("out_of_range", path, "hour " + decimal::whole(h) + " (" + iso_hour(day0 + h * 3600.0) + ") has " +
                                       text::short_number(p.rps[h]) + " requests/s, more than 1e7");
      return false;
    }
  }
  p.start = iso_hour(day0);
  return true;
}

// The shapes of config/traffic_shapes.json, compiled in (core/CMakeLists.txt).
constexpr const char* kShapes =
#include "api/traffic_shapes.inc"
    ;

// A named shape x its peak: the shape's hourly shares of the peak, its source stated.
bool read_shape(const Reader& r, const Json& obj, Profile& p) {
  const std::string path = "/profile";
  auto name = r.string(obj, "shape", path, true);
  auto peak = r.number(obj, "peak_requests_per_s", path, true, {0, kMaxRps, true});
  if (!name || !peak) return false;
  Errors errors;
  auto doc = parse_checked(kShapes, "traffic_shapes.json", kCatalogLimits, errors);
  const Json* shapes = doc && doc->is_object() && doc->contains("shapes") ? &(*doc)["shapes"] : nullptr;
  if (!shapes || !shapes->is_object()) {
    r.fail("cannot_answer", path + "/shape", "the traffic shapes compiled in could not be read");
    return false;
  }
  auto found = shapes->find(lower(*name));
  if (found == shapes->end() || !found->is_object() || !found->contains("values") || !(*found)["values"].is_array()) {
    std::vector<std::string> names;
    for (const auto& [key, _] : shapes->items()) names.push_back(key);
    r.fail("unknown_name", path + "/shape", "expected one of " + names_of(names) + ", got \"" + *name + "\"");
    return false;
  }
  for (const Json& v : (*found)["values"]) p.rps.push_back(v.is_number() ? v.get<double>() * *peak : 0);
  p.shape = lower(*name);
  p.shape_source = found->value("source", std::string());
  p.shape_synthetic = found->value("synthetic", false);
  return true;
}

std::optional<Profile> read_profile(const Reader& r, const Json& obj) {
  const std::string path = "/profile";
  fields::check_fields(r, obj, path, "autoscale_profile");
  Profile p;
  const bool values = obj.contains("requests_per_s"), csv = obj.contains("csv"), shape = obj.contains("shape");
  if (values + csv + shape != 1) {
    r.fail(values || csv || shape ? "wrong_type" : "missing_field", path,
           "expected exactly one of requests_per_s (24 or 168 hourly values), csv or shape");
    return std::nullopt;
  }
  if (!shape && obj.contains("peak_requests_per_s")) {
    r.fail("unknown_field", path + "/peak_requests_per_s", "peak_requests_per_s scales a shape: give it with shape");
    return std::nullopt;
  }
  if (shape) {
    if (!read_shape(r, obj, p)) return std::nullopt;
    p.source = "shape";
  } else if (values) {
    const Json& list = obj["requests_per_s"];
    if (!list.is_array() || (list.size() != 24 && list.size() != 168)) {
      r.fail("wrong_type", path + "/requests_per_s",
             "expected 24 or 168 hourly requests/s values, got " +
                 (list.is_array() ? decimal::whole(list.size()) + " values" : Reader::describe(list)));
      return std::nullopt;
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Json& v = list[i];
      const std::string at = path + "/requests_per_s/" + decimal::whole(i);
      if (!v.is_number()) {
        r.fail("wrong_type", at, "expected a number of requests/s >= 0, got " + Reader::describe(v));
        continue;
      }
      const double x = v.get<double>();
      if (!std::isfinite(x) || x < 0 || x > kMaxRps) {
        r.fail("out_of_range", at, "expected requests/s from 0 to 1e7, got " + text::short_number(x));
        continue;
      }
      p.rps.push_back(x);
    }
    p.source = "requests_per_s";
  } else {
    const Json& csv_value = obj["csv"];
    std::vector<std::string> lines;
    const bool array = csv_value.is_array();
    if (csv_value.is_string()) {
      const std::string& text = csv_value.get_ref<const std::string&>();
      std::size_t start = 0;
      while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
      }
    } else if (array) {
      for (std::size_t i = 0; i < csv_value.size(); ++i) {
        if (!csv_value[i].is_string()) {
          r.fail("wrong_type", path + "/csv/" + decimal::whole(i), "expected a line of the CSV (a string), got " + Reader::describe(csv_value[i]));
          return std::nullopt;
        }
        lines.push_back(csv_value[i].get<std::string>());
      }
    } else {
      r.fail("wrong_type", path + "/csv", "expected the CSV as a string or an array of lines, got " + Reader::describe(csv_value));
      return std::nullopt;
    }
    std::string kind = lower(r.string(obj, "csv_values", path, false).value_or("count"));
    if (kind != "count" && kind != "rate") {
      r.fail("unknown_name", path + "/csv_values", "expected count or rate, got \"" + kind + "\"");
      return std::nullopt;
    }
    if (!read_csv(r, lines, array, kind == "rate", p)) return std::nullopt;
    p.source = "csv";
  }
  if (!r.ok()) return std::nullopt;
  // The month of every other answer (recommend's, cost's): 720 h, the seed's.
  p.month_scale = kMonthHours / static_cast<double>(p.rps.size());
  if (p.rps.size() == 24) p.month = "24 h profile x 30 days (a 720 h month, as recommend's)";
  else if (p.rps.size() == 168) p.month = "168 h profile x 720/168 weeks (a 720 h month, as recommend's)";
  else p.month = decimal::whole(p.rps.size()) + " h profile scaled to a 720 h month (as recommend's)";
  return p;
}

struct ColdStart {
  double provisioning_s = kProvisioningS, image_pull_s = kImagePullS, weights_gb_per_s = kWeightsGbPerS,
         warmup_s = kWarmupS, weights_gb = 0;
  double weights_load_s() const { return weights_gb / weights_gb_per_s; }
  double total_s() const { return provisioning_s + image_pull_s + weights_load_s() + warmup_s; }
};

std::optional<ColdStart> read_cold_start(const Reader& r, const Json* obj, double weights_bytes) {
  ColdStart c;
  c.weights_gb = weights_bytes / 1e9;
  if (obj) {
    const std::string path = "/cold_start";
    fields::check_fields(r, *obj, path, "cold_start");
    c.provisioning_s = r.number(*obj, "provisioning_s", path, false, {0, 3600}).value_or(c.provisioning_s);
    c.image_pull_s = r.number(*obj, "image_pull_s", path, false, {0, 3600}).value_or(c.image_pull_s);
    c.weights_gb_per_s = r.number(*obj, "weights_gb_per_s", path, false, {0, 1e4, true}).value_or(c.weights_gb_per_s);
    c.warmup_s = r.number(*obj, "warmup_s", path, false, {0, 3600}).value_or(c.warmup_s);
    if (!r.ok()) return std::nullopt;
    if (c.total_s() > 3600) {
      r.fail("out_of_range", path, "the cold start adds up to " + text::short_number(round_to(c.total_s(), 1)) +
                                       " s, more than an interval (3600 s)");
      return std::nullopt;
    }
  }
  return c;
}

// The road's deployment for the profile's peak: on the instance type asked, the cheapest of a
// family's, or the cheapest of every family (recommend's first).
std::optional<Deployment> deployment_for(const Catalog& catalog, const Reader& r, const Workload& w,
                                         const Billing& billing, const std::optional<std::string>& name) {
  std::optional<Deployment> best;
  auto keep = [&](Deployment d) {
    refuse_without_speed(d);
    if (!best || (d.runs() && !best->runs()) ||
        (d.runs() == best->runs() && d.cost.usd_per_month.value_or(1e300) < best->cost.usd_per_month.value_or(1e300)))
      best = std::move(d);
  };
  if (name) {
    if (const InstanceType* it = catalog.instance(*name)) {
      keep(best_on(catalog, w, billing, *it));
    } else if (const Family* f = catalog.family(*name)) {
      for (std::size_t index : f->instances) keep(best_on(catalog, w, billing, catalog.instances[index]));
    } else {
      r.fail("unknown_name", "/instance", "expected an instance family or instance type of gpu_instances.json, got \"" + *name + "\"");
      return std::nullopt;
    }
  } else {
    Question q;
    q.w = w;
    q.billing = billing;
    q.kinds = {"gpu", "inferentia"};
    Recommendation rec = recommend(catalog, q);
    for (auto& c : rec.ranked)
      if (c.d.runs() && c.d.inference) return std::move(c.d);
    r.fail("cannot_answer", "", "no family serves the model at the profile's peak");
    return std::nullopt;
  }
  if (!best || !best->runs() || !best->inference) {
    r.fail("cannot_answer", "/instance",
           "the model cannot be served there: " + (best ? best->refusal + (best->way_out.empty() ? "" : "; " + best->way_out) : std::string("no instance")));
    return std::nullopt;
  }
  return best;
}

// One instance of the deployment's type, priced the way `billing` asks (a flagged price comes from
// the nearest trustworthy region, and says so).
Cost instance_cost(const Catalog& catalog, const Deployment& d, const Billing& billing) {
  const InstanceType& it = *d.instance;
  return cost_of(catalog, Placement{&it, it.gpus, 1, it.name, false, ""}, billing, false, false);
}

std::string number_text(double v) { return text::short_number(v); }

Json rounded(const std::vector<double>& values, int decimals) {
  Json list = Json::array();
  for (double v : values) list.push_back(round_to(v, decimals));
  return list;
}


// The policy asked (its members over the defaults in `st`); false with the fault.
bool read_policy(Reader& r, const Json& policy, ScalingSettings& st, bool& target_asked) {
  const std::string path = "/policy";
  fields::check_fields(r, policy, path, "autoscale_policy");
  const std::string kind = lower(r.string(policy, "kind", path, false).value_or("target_tracking"));
  if (auto p = parse_scaling_policy(kind)) st.policy = *p;
  else r.fail("unknown_name", path + "/kind", "expected target_tracking, scheduled or oracle, got \"" + kind + "\"");
  const std::string metric = lower(r.string(policy, "metric", path, false).value_or("concurrency"));
  if (auto m = parse_scaling_metric(metric)) st.metric = *m;
  else r.fail("unknown_name", path + "/metric", "expected concurrency, queue_length or requests_per_s, got \"" + metric + "\"");
  auto target = r.number(policy, "target", path, false, {0, 1e7, true});
  auto lo = r.number(policy, "min_replicas", path, false, {0, 10000});
  auto hi = r.number(policy, "max_replicas", path, false, {1, 10000});
  st.control_period_s = r.number(policy, "control_period_s", path, false, {5, 3600}).value_or(st.control_period_s);
  st.scale_up_delay_s = r.number(policy, "scale_up_delay_s", path, false, {0, 86400}).value_or(st.scale_up_delay_s);
  st.scale_down_delay_s = r.number(policy, "scale_down_delay_s", path, false, {0, 86400}).value_or(st.scale_down_delay_s);
  st.tolerance = r.number(policy, "tolerance", path, false, {0, 1, false}).value_or(st.tolerance);
  if (!r.ok()) return false;
  if (lo) st.min_replicas = static_cast<int>(std::floor(*lo));
  if (hi) st.max_replicas = static_cast<int>(std::floor(*hi));
  if (st.min_replicas > st.max_replicas) {
    r.fail("out_of_range", path + (hi ? "/max_replicas" : "/min_replicas"),
           "expected min_replicas <= max_replicas, got " + decimal::whole(static_cast<std::size_t>(st.min_replicas)) + " and " +
               decimal::whole(static_cast<std::size_t>(st.max_replicas)));
    return false;
  }
  if (target) {
    st.target = *target;
    target_asked = true;
  }
  return true;
}

Json deployment_json(const Deployment& d, const AutoscaleQuestion& q, const Billing& billing, const Cost& above, double target_rps,
                     int peak) {
  Json dep = report::object(16);
  const InstanceType& it = *d.instance;
  dep["instance"] = it.name;
  dep["provider"] = it.provider;
  dep["region"] = it.region;
  dep["tensor_parallel"] = d.layout.tensor_parallel;
  dep["pipeline_parallel"] = d.layout.pipeline_parallel;
  dep["gpus_per_replica"] = round_to(q.replica.gpus, 3);
  dep["concurrency_per_replica"] = round_to(q.replica.concurrency, 1);
  dep["requests_per_s_per_replica"] = round_to(std::min(q.replica.copy_rps, q.replica.prefill_rps), 3);
  dep["target_requests_per_s_per_replica"] = round_to(target_rps, 3);
  dep["ttft_ms"] = round_to(q.replica.ttft_ms, 1);
  dep["pricing"] = billing.pricing();
  dep["replicas_per_instance"] = q.replica.copies_per_unit;
  dep["instances_per_replica"] = q.replica.instances_per_unit;
  dep["usd_per_instance_hour"] = round_to(q.replica.usd_per_unit_hour / q.replica.instances_per_unit, 4);
  if (!above.price_flags.empty())
    dep["priced_from_region"] = above.priced_from_region.empty() ? Json(nullptr) : Json(above.priced_from_region);
  dep["replicas_at_peak"] = peak;
  return dep;
}

Json profile_json(const Profile& profile, double peak_rps) {
  Json prof = report::object(8);
  prof["source"] = profile.source;
  prof["intervals"] = profile.rps.size();
  prof["interval_s"] = 3600;
  if (!profile.start.empty()) prof["start"] = profile.start;
  if (!profile.shape.empty()) {
    prof["shape"] = profile.shape;
    prof["shape_source"] = profile.shape_source;
    prof["synthetic"] = profile.shape_synthetic;
  }
  prof["time_zone"] = "UTC";
  prof["requests_per_s"] = rounded(profile.rps, 4);
  prof["peak_requests_per_s"] = round_to(peak_rps, 4);
  prof["month"] = profile.month;
  return prof;
}

Json cold_start_json(const ColdStart& cold) {
  Json cs = report::object(8);
  cs["provisioning_s"] = round_to(cold.provisioning_s, 1);
  cs["image_pull_s"] = round_to(cold.image_pull_s, 1);
  cs["weights_gb"] = round_to(cold.weights_gb, 2);
  cs["weights_gb_per_s"] = round_to(cold.weights_gb_per_s, 3);
  cs["weights_load_s"] = round_to(cold.weights_load_s(), 1);
  cs["warmup_s"] = round_to(cold.warmup_s, 1);
  cs["total_s"] = round_to(cold.total_s(), 1);
  cs["basis"] = "defaults are estimates, not measurements: a GPU node launched and joined to the cluster 180 s, a serving "
                "image of about 10 GB pulled 60 s, the weights read at 1 GB/s from object storage, the engine's "
                "profiling run and CUDA graph capture 60 s (docs/api.md, autoscale)";
  return cs;
}

Json policy_json(const ScalingSettings& st) {
  Json simulated = report::object(10);
  simulated["name"] = to_string(st.policy);
  simulated["metric"] = to_string(st.metric);
  simulated["target"] = round_to(st.target, 3);
  simulated["min_replicas"] = st.min_replicas;
  simulated["max_replicas"] = st.max_replicas;
  simulated["control_period_s"] = st.control_period_s;
  simulated["scale_up_delay_s"] = st.scale_up_delay_s;
  simulated["scale_down_delay_s"] = st.scale_down_delay_s;
  simulated["tolerance"] = st.tolerance;
  return simulated;
}

Json policies_json(const AutoscaleResult& res, const AutoscaleQuestion& q) {
  Json policies = Json::array();
  for (const PolicyRun& run : res.runs) {
    Json p = report::object(8);
    p["name"] = to_string(run.policy);
    p["replicas"] = rounded(run.replicas, 3);
    p["replica_hours_per_month"] = round_to(run.replica_hours * q.month_scale, 1);
    p["instance_hours_per_month"] = round_to(run.unit_hours * q.replica.instances_per_unit * q.month_scale, 1);
    p["usd_per_month"] = round_to(run.usd_per_month, 2);
    p["gpu_hours_idle"] = round_to(run.gpu_hours_idle, 1);
    p["slo_attainment"] = round_to(run.slo_attainment(), 4);
    policies.push_back(std::move(p));
  }
  return policies;
}

// The answer at the measured error of the copy's throughput (fleet/band.hpp): each policy's monthly
// cost and the peak's replicas at throughput / (1 - p90) (low) and / (1 + p90) (high), a null end
// unbounded; without a measured case, a text that says so.
Json band_json(const ErrorKind& kind, const AutoscaleResult& asked, const std::optional<AutoscaleResult>& slow,
               const std::optional<AutoscaleResult>& fast, Json& policies) {
  Json band = report::object(4);
  Json error = report::expected_error(kind);
  if (!slow) {
    band["text"] = "no band: " + error["text"].get<std::string>();
    error.erase("text");
    band["expected_error"] = std::move(error);
    return band;
  }
  auto range = [](std::optional<double> low, double high) {
    return Json{{"low", low ? Json(*low) : Json(nullptr)}, {"high", high}};
  };
  for (std::size_t i = 0; i < asked.runs.size() && i < policies.size(); ++i)
    policies[i]["usd_per_month_band"] =
        range(fast ? std::optional<double>(round_to(fast->runs[i].usd_per_month, 2)) : std::nullopt,
              round_to(slow->runs[i].usd_per_month, 2));
  band["peak_replicas"] = range(fast ? std::optional<double>(fast->peak) : std::nullopt, slow->peak);
  const Json& last = policies[asked.runs.size() - 1];
  const Json& cost = last["usd_per_month_band"];
  auto span = [](const Json& r, const std::string& unit, bool money) {
    auto one = [&](const Json& v) { return money ? usd(v.get<double>()) : report::short_number(v.get<double>()); };
    return (r["low"].is_null() ? "up to " : one(r["low"]) + "-") + one(r["high"]) + unit;
  };
  band["text"] = span(band["peak_replicas"], " replicas at the peak", false) + ", " +
                 span(cost, "/month", true) + " under " + last["name"].get<std::string>() +
                 " at the measured error (throughput 90 % within " +
                 report::short_number(kind.measured->p90_abs_err_pct) + " %, " +
                 report::short_number(kind.measured->n) + " cases)";
  error.erase("text");
  band["expected_error"] = std::move(error);
  return band;
}

// The target-tracking policy advised: the profile's fewest and most replicas, no scale-up delay, a
// scale-down window at least the cold start.
Json recommended_json(const ScalingSettings& st, int least, int peak, const ColdStart& cold, double target_rps,
                      const ReplicaModel& replica, bool target_asked) {
  ScalingSettings advised = st;
  advised.policy = ScalingPolicy::kTargetTracking;
  advised.min_replicas = std::max(1, least);
  advised.max_replicas = peak;
  advised.scale_up_delay_s = 0;
  advised.scale_down_delay_s = std::max(300.0, std::ceil(cold.total_s()));
  Json rec = report::object(10);
  rec["min_replicas"] = advised.min_replicas;
  rec["max_replicas"] = advised.max_replicas;
  rec["metric"] = to_string(advised.metric);
  rec["threshold"] = round_to(advised.target, 2);
  rec["control_period_s"] = advised.control_period_s;
  rec["scale_up_delay_s"] = advised.scale_up_delay_s;
  rec["scale_down_delay_s"] = advised.scale_down_delay_s;
  rec["basis"] = advised.metric == ScalingMetric::kConcurrency && !target_asked
                     ? "threshold = requests in flight per replica at the target: the road's requests/s per replica at the target "
                       "utilization with the p95 TTFT met (" + number_text(round_to(target_rps, 3)) + ") x a slot's hold time (" +
                           number_text(round_to(replica.hold_s(), 3)) + " s); min and max: the fewest and most replicas the profile needs; "
                           "scale-down window at least the cold start"
                     : advised.metric == ScalingMetric::kRequestsPerS && !target_asked
                       ? "threshold = the road's requests/s per replica at the target utilization with the p95 TTFT met; min and max: "
                         "the fewest and most replicas the profile needs; scale-down window at least the cold start"
                   : advised.metric == ScalingMetric::kQueueLength && !target_asked
                       ? "threshold: one request waiting per replica, a default not derived from the road (give policy.target); "
                         "min and max: the fewest and most replicas the profile needs; scale-down window at least the cold start"
                       : "threshold as asked; min and max: the fewest and most replicas the profile needs; scale-down window at least the cold start";
  return rec;
}

Json base_json(const std::string& commitment, const AutoscaleResult& res, const ReplicaModel& replica) {
  Json base = report::object(6);
  base["commitment"] = commitment;
  base["replicas"] = res.base.replicas;
  base["instances"] = round_to(res.base.units * replica.instances_per_unit, 0);
  base["usd_per_month"] = report::report_optional(res.base.usd_per_month, 2);
  base["usd_per_instance_hour"] = replica.committed_usd_per_unit_hour
                                     ? Json(round_to(*replica.committed_usd_per_unit_hour / replica.instances_per_unit, 4))
                                     : Json(nullptr);
  base["break_even_utilization"] = report::report_optional(res.base.break_even_utilization, 4);
  base["basis"] = replica.committed_usd_per_unit_hour
                      ? "the most instances needed in more than a share c/o of the hours (c, o: the committed and the above-base "
                        "hourly rates), billed 730 h a month as every commitment is; the oracle's instances above it at the "
                        "above-base rate"
                      : "no public commitment price for this family: no base";
  return base;
}

// What the figures leave out: an uncalibrated replica, and target tracking below the oracle.
Json notes_of(const Deployment& d, const Profile& profile, const AutoscaleQuestion& q, const ScalingSettings& st,
              const AutoscaleResult& res) {
  Json notes = Json::array();
  if (!profile.gaps.empty()) notes.push_back(profile.gaps);
  if (d.uncalibrated) notes.push_back("the replica, " + report::uncalibrated_caveat(d));
  const PolicyRun& oracle = res.runs.front();
  for (const PolicyRun& run : res.runs)
    if (run.policy == ScalingPolicy::kTargetTracking && run.usd_per_month < oracle.usd_per_month - 0.005)
      notes.push_back("target_tracking costs less than the oracle: within the tolerance (" + number_text(st.tolerance * 100) +
                      " %) it leaves replicas above the target utilization the oracle sizes for (" +
                      number_text(q.replica.target_utilization * 100) + " %), at SLO attainment " +
                      number_text(round_to(run.slo_attainment() * 100, 2)) + " %");
  return notes;
}

}  // namespace

Json answer_autoscale(const Catalog& catalog, Session& s, const Json& req) {
  Reader& r = s.reader();
  auto w = s.road_workload(req, "", false);
  auto billed = s.billing(req, "");
  const Json* profile_obj = r.object(req, "profile", "", true);
  const Json* policy_obj = r.object(req, "policy", "", false);
  const Json* cold_obj = r.object(req, "cold_start", "", false);
  auto instance = r.string(req, "instance", "", false);
  const std::string commitment = lower(r.string(req, "commitment", "", false).value_or("reserved_1y"));
  if (!w || !billed || !profile_obj || !r.ok()) return nullptr;
  if (w->task != WorkloadType::kInference) {
    r.fail("unknown_name", "/workload", "autoscale sizes online inference: expected inference, got \"" + to_string(w->task) + "\"");
    return nullptr;
  }
  if (w->demand.requests_per_s || w->demand.tokens_per_month) {
    r.fail("unknown_field", w->demand.requests_per_s ? "/demand/requests_per_s" : "/demand/tokens_per_month",
           "autoscale reads the rate from profile, not from the demand");
    return nullptr;
  }
  if (billed->committed()) {
    r.fail("unknown_name", "/pricing",
           "pricing is the way to pay above the committed base: on_demand, spot or mixed (the base's is \"commitment\")");
    return nullptr;
  }
  auto commit_mode = parse_payment_mode(commitment);
  if (!commit_mode || (*commit_mode != PaymentMode::kReserved1y && *commit_mode != PaymentMode::kReserved3y)) {
    r.fail("unknown_name", "/commitment", "expected reserved_1y or reserved_3y, got \"" + commitment + "\"");
    return nullptr;
  }
  auto profile = read_profile(r, *profile_obj);
  if (!profile) return nullptr;
  const double peak_rps = *std::max_element(profile->rps.begin(), profile->rps.end());
  if (!(peak_rps > 0)) {
    r.fail("out_of_range", "/profile", "the profile has no requests: nothing to scale");
    return nullptr;
  }

  // The road at the peak: the deployment, its copy's capacity and concurrency.
  Workload at_peak = *w;
  at_peak.demand.requests_per_s = peak_rps;
  auto d = deployment_for(catalog, r, at_peak, *billed, instance);
  if (!d) return nullptr;

  AutoscaleQuestion q;
  q.rps = profile->rps;
  q.month_scale = profile->month_scale;
  q.month_hours = kAlwaysOnHoursPerMonth;  // a commitment bills every hour: 730 h, as cost bills it
  q.replica = replica_model(*d, at_peak.demand);
  const Cost above = instance_cost(catalog, *d, *billed);
  if (!above.usd_per_hour) {
    r.fail("cannot_answer", "/instance", d->instance->name + " has no " + billed->pricing() + " price in " + d->instance->region);
    return nullptr;
  }
  q.replica.usd_per_unit_hour = *above.usd_per_hour * q.replica.instances_per_unit;
  Billing commit;
  commit.mode = *commit_mode;
  commit.hours_per_month = kAlwaysOnHoursPerMonth;
  if (const Cost c = instance_cost(catalog, *d, commit); c.usd_per_hour)
    q.replica.committed_usd_per_unit_hour = *c.usd_per_hour * q.replica.instances_per_unit;

  auto cold = read_cold_start(r, cold_obj, d->memory ? d->memory->weights_bytes : 0);
  if (!cold) return nullptr;

  // The need per interval, then the policy asked, its defaults from the need.
  std::vector<int> needed;
  std::map<double, int> cache;
  for (double rps : q.rps) {
    auto found = cache.find(rps);
    if (found == cache.end()) found = cache.emplace(rps, replicas_needed(q.replica, rps)).first;
    needed.push_back(found->second);
  }
  const int peak = *std::max_element(needed.begin(), needed.end());
  int least = peak;
  for (int n : needed) least = std::min(least, n);
  const double target_rps = target_rps_per_replica(q.replica);

  ScalingSettings& st = q.settings;
  st.cold_start_s = cold->total_s();
  st.min_replicas = std::max(1, least);
  st.max_replicas = peak;
  bool target_asked = false;
  if (policy_obj && !read_policy(r, *policy_obj, st, target_asked)) return nullptr;
  if (!(st.target > 0)) {
    st.target = st.metric == ScalingMetric::kConcurrency ? target_rps * q.replica.hold_s()
                : st.metric == ScalingMetric::kRequestsPerS ? target_rps
                                                            : 1.0;
  }
  const AutoscaleResult res = autoscale(q);
  const ErrorKind kind = throughput_kind(catalog, *w, *d->instance);
  std::optional<AutoscaleResult> slow, fast;
  if (kind.measured) {
    const bool derived_bounds = st.min_replicas == std::max(1, least) && st.max_replicas == peak;
    const double p90 = kind.measured->p90_abs_err_pct / 100;
    slow = autoscale_at_throughput(q, 1 / (1 + p90), derived_bounds, !target_asked);
    if (p90 < 1) fast = autoscale_at_throughput(q, 1 / (1 - p90), derived_bounds, !target_asked);
  }

  Json result = report::object(12);
  result["request"] = report::workload(*w);
  result["deployment"] = deployment_json(*d, q, *billed, above, target_rps, peak);
  result["profile"] = profile_json(*profile, peak_rps);
  result["cold_start"] = cold_start_json(*cold);
  result["policy"] = policy_json(st);
  Json needed_json = Json::array();
  for (int n : res.needed) needed_json.push_back(n);
  result["needed_replicas"] = std::move(needed_json);

  result["policies"] = policies_json(res, q);
  result["band"] = band_json(kind, res, slow, fast, result["policies"]);
  result["recommended"] = recommended_json(st, least, peak, *cold, target_rps, q.replica, target_asked);
  result["committed_base"] = base_json(commitment, res, q.replica);
  result["basis"] = "needed replicas per hour: the road's rule (ceil(requests/s / (capacity x target utilization)), then more until "
                    "the p95 TTFT target is met); target_tracking simulated every control period as the Kubernetes HPA "
                    "(ceil(replicas x metric / target), tolerance, stabilization windows), new replicas serving after the cold "
                    "start and billed from their launch; scheduled: each hour of the day the most any day needs, started a cold "
                    "start ahead; slo_attainment: the share of requests arriving while the replicas up meet the p95 TTFT target; "
                    "monthly: " + profile->month + " x the whole instances the replicas occupy x the instance-hour rate";
  // The engine labels its metrics with the served model's name: the Hugging Face id it loads.
  result["recommended"]["keda_scaled_object"] = keda_for_autoscale(catalog, result);
  result["notes"] = notes_of(*d, *profile, q, st, res);
  return report::price_flags_first(std::move(result), above);
}

}  // namespace gpufleet::detail
