#pragma once
// Reads values out of a parsed JSON document while recording every fault as an Error that names
// the file, the JSON pointer and what was expected. Internal to the core.

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/json.hpp"
#include "gpufleet/errors.hpp"

namespace gpufleet::detail {

// The "file" of every error about a request (catalog errors name their file).
inline constexpr const char* kRequest = "request";

struct Range {
  double min = 0;
  double max = std::numeric_limits<double>::max();
  bool min_exclusive = false;
};

class Reader {
 public:
  Reader(std::string file, Errors& errors) : file_(std::move(file)), errors_(errors) {}

  void fail(const std::string& code, const std::string& path, const std::string& message) const {
    errors_.push_back({code, file_, path, message});
  }

  const std::string& file() const { return file_; }

  static std::string child(const std::string& path, std::string_view key) {
    return path + "/" + pointer_token(key);
  }

  // The member `key` of `obj`, or nullptr (recording missing_field when required).
  const Json* member(const Json& obj, std::string_view key, const std::string& path,
                     bool required) const;

  const Json* object(const Json& obj, std::string_view key, const std::string& path,
                     bool required) const;
  std::optional<double> number(const Json& obj, std::string_view key, const std::string& path,
                               bool required, Range range = {}) const;
  // False (after saying so, too_large) when `container` holds more than `most` members: every
  // list the core iterates is bounded, so that any accepted input answers in bounded time.
  bool at_most(const Json& container, const std::string& path, std::size_t most, const char* what) const;
  // A speed or efficiency: 0 where unknown, else in [least, most]. A positive figure far below any
  // real one (1e-300 GB/s) would make every time computed from it overflow to infinity.
  std::optional<double> speed(const Json& obj, std::string_view key, const std::string& path,
                              bool required, double least, double most) const;
  std::optional<std::string> string(const Json& obj, std::string_view key,
                                    const std::string& path, bool required) const;
  std::optional<bool> boolean(const Json& obj, std::string_view key, const std::string& path,
                              bool required) const;
  std::vector<std::string> strings(const Json& obj, std::string_view key,
                                   const std::string& path, bool required) const;

  bool expect_object(const Json& value, const std::string& path) const;

  static std::string describe(const Json& value);

  // True while no fault has been recorded through any reader sharing this error list.
  bool ok() const { return errors_.empty(); }

 private:
  std::string file_;
  Errors& errors_;
};

std::string lower(std::string text);
// ASCII case-insensitive comparisons, without the copies lower() makes (catalog lookups run in the
// sweeps' inner loops).
bool iequals(std::string_view a, std::string_view b);
bool istarts_with(std::string_view text, std::string_view prefix);

}  // namespace gpufleet::detail
