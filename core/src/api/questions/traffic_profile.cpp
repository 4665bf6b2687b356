// The autoscale question's traffic profile (traffic_profile.hpp).
#include "api/questions/traffic_profile.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "catalog/fields.hpp"
#include "support/civil_date.hpp"
#include "support/decimal.hpp"
#include "support/json_guard.hpp"
#include "support/text.hpp"

namespace gpufleet::detail {
namespace {

constexpr std::size_t kMaxIntervals = 8784;  // a leap year's hours
constexpr double kMaxRps = 1e7;
const double kMonthHours = Billing{}.hours_per_month;  // 720


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

}  // namespace

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

}  // namespace gpufleet::detail
