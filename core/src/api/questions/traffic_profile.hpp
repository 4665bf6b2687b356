#pragma once
// The autoscale question's traffic profile: hourly requests/s given as values, a CSV of
// timestamped rows (CloudWatch counts or Prometheus rates) or a named shape x its peak, read into
// the hours of a 720 h month. Internal to the core.

#include <optional>
#include <string>
#include <vector>

#include "api/session.hpp"

namespace gpufleet::detail {

struct Profile {
  std::vector<double> rps;
  std::string source;  // requests_per_s | csv
  std::string month;   // how the profile's hours make a month
  double month_scale = 1;
  std::string start;                // csv: the first hour bucketed (UTC)
  std::string shape, shape_source;  // a named shape, and where it comes from
  bool shape_synthetic = false;
  std::string gaps;  // csv: the hours no row fell in, and how they were read
};

// The profile of a request's `profile` object; nullopt with the fault named at its JSON path.
std::optional<Profile> read_profile(const Reader& r, const Json& obj);

}  // namespace gpufleet::detail
