#include "support/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include "support/decimal.hpp"


namespace gpufleet {

std::string pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

namespace detail {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && istarts_with(a, b);
}

bool istarts_with(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i])))
      return false;
  }
  return true;
}

namespace {

std::string bound_text(double x) {
  return decimal::general(x, 15);
}

}  // namespace

std::string Reader::describe(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return std::string(value.type_name()) + " " + text;
}

bool Reader::expect_object(const Json& value, const std::string& path) const {
  if (value.is_object()) return true;
  fail("wrong_type", path, "expected an object, got " + describe(value));
  return false;
}

const Json* Reader::member(const Json& obj, std::string_view key, const std::string& path,
                           bool required) const {
  if (obj.is_object()) {
    auto it = obj.find(key);
    if (it != obj.end() && it->is_null() && file_ == kRequest) {
      // A request says what it means: null is not "the default" (catalogs use null for unknown).
      fail("wrong_type", child(path, key),
           required ? "expected a value, got null" : "expected a value, got null; leave \"" + std::string(key) + "\" out for its default");
      return nullptr;
    }
    if (it != obj.end() && !(it->is_null() && required)) return it->is_null() ? nullptr : &*it;
  }
  if (required) fail("missing_field", child(path, key), "required field \"" + std::string(key) + "\" is missing");
  return nullptr;
}

const Json* Reader::object(const Json& obj, std::string_view key, const std::string& path,
                           bool required) const {
  const Json* value = member(obj, key, path, required);
  if (value && !expect_object(*value, child(path, key))) return nullptr;
  return value;
}

std::optional<double> Reader::number(const Json& obj, std::string_view key,
                                     const std::string& path, bool required, Range range) const {
  const Json* value = member(obj, key, path, required);
  if (!value) return std::nullopt;
  const double x = value->is_number() ? value->get<double>() : 0;
  const bool below = range.min_exclusive ? !(x > range.min) : !(x >= range.min);
  if (value->is_number() && std::isfinite(x) && !below && x <= range.max) return x;
  // The message is built only for a value that fails: catalogs hold thousands of good numbers.
  std::string expected = "a number " + std::string(range.min_exclusive ? "> " : ">= ") +
                         bound_text(range.min);
  if (range.max < std::numeric_limits<double>::max()) expected += " and <= " + bound_text(range.max);
  fail(value->is_number() ? "out_of_range" : "wrong_type", child(path, key),
       "expected " + expected + ", got " + describe(*value));
  return std::nullopt;
}

bool Reader::at_most(const Json& container, const std::string& path, std::size_t most, const char* what) const {
  if (container.size() <= most) return true;
  fail("too_large", path, "expected at most " + decimal::whole(most) + " " + what + ", got " + decimal::whole(container.size()));
  return false;
}

std::optional<double> Reader::speed(const Json& obj, std::string_view key, const std::string& path,
                                    bool required, double least, double most) const {
  auto x = number(obj, key, path, required, {0, most});
  if (x && *x > 0 && *x < least) {
    fail("out_of_range", child(path, key),
         "expected 0 (unknown) or a number >= " + bound_text(least) + " and <= " + bound_text(most) + ", got " +
             describe(*obj.find(key)));
    return std::nullopt;
  }
  return x;
}

std::optional<std::string> Reader::string(const Json& obj, std::string_view key,
                                          const std::string& path, bool required) const {
  const Json* value = member(obj, key, path, required);
  if (!value) return std::nullopt;
  if (!value->is_string()) {
    fail("wrong_type", child(path, key), "expected a string, got " + describe(*value));
    return std::nullopt;
  }
  return value->get<std::string>();
}

std::optional<bool> Reader::boolean(const Json& obj, std::string_view key,
                                    const std::string& path, bool required) const {
  const Json* value = member(obj, key, path, required);
  if (!value) return std::nullopt;
  if (!value->is_boolean()) {
    fail("wrong_type", child(path, key), "expected true or false, got " + describe(*value));
    return std::nullopt;
  }
  return value->get<bool>();
}

std::vector<std::string> Reader::strings(const Json& obj, std::string_view key,
                                         const std::string& path, bool required) const {
  std::vector<std::string> out;
  const Json* value = member(obj, key, path, required);
  if (!value) return out;
  if (!value->is_array()) {
    fail("wrong_type", child(path, key), "expected an array of strings, got " + describe(*value));
    return out;
  }
  bool all_strings = true;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    if (!item.is_string()) {
      fail("wrong_type", child(path, key) + "/" + decimal::whole(i),
           "expected a string, got " + describe(item));
      all_strings = false;
      continue;
    }
    out.push_back(item.get<std::string>());
  }
  // Callers name an element by its index in the list returned: with an element left out, every
  // later one would be named by its neighbour's index.
  if (!all_strings) out.clear();
  return out;
}

}  // namespace detail
}  // namespace gpufleet
