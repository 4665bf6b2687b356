#include "json_guard.hpp"

#include "guarded.hpp"

#include <set>
#include <vector>

namespace gpufleet::detail {
namespace {

// One SAX pass that checks the structure and, while it holds, builds the document (nlohmann's own
// DOM builder fed event by event): one parser in the WebAssembly core instead of two, and one
// pass over the text.
class Guard : public nlohmann::json_sax<Json> {
 public:
  Guard(const ParseLimits& limits, Json& doc) : limits_(limits), dom_(doc, false) {}

  Error error;  // set when the pass stops early

  bool null() override { return value() && dom_.null(); }
  bool boolean(bool x) override { return value() && dom_.boolean(x); }
  bool number_integer(number_integer_t x) override { return value() && dom_.number_integer(x); }
  bool number_unsigned(number_unsigned_t x) override {
    return value() && dom_.number_unsigned(x);
  }
  bool number_float(number_float_t x, const string_t& text) override {
    return value() && dom_.number_float(x, text);
  }
  bool string(string_t& text) override {
    if (text.size() > limits_.max_string_bytes) {
      return fail("too_large", "a string of " + std::to_string(text.size()) +
                                   " bytes; expected at most " +
                                   std::to_string(limits_.max_string_bytes));
    }
    return value() && dom_.string(text);
  }
  bool binary(binary_t& x) override { return value() && dom_.binary(x); }
  bool start_object(std::size_t n) override { return open(true) && dom_.start_object(n); }
  bool key(string_t& name) override {
    Frame& f = frames_.back();
    if (!f.keys.insert(name).second) {
      f.key = name;
      return fail("duplicate_key", "the key \"" + name.substr(0, 64) +
                                       "\" appears twice in one object; expected unique keys");
    }
    f.key = name;
    return dom_.key(name);
  }
  bool end_object() override { return close() && dom_.end_object(); }
  bool start_array(std::size_t n) override { return open(false) && dom_.start_array(n); }
  bool end_array() override { return close() && dom_.end_array(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = {"invalid_json", "", path(), std::string("not valid JSON: ") + e.what()};
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
    std::string key;
    long index = -1;
  };

  std::string path() const {
    std::string out;
    for (const Frame& f : frames_) {
      if (f.object) {
        if (!f.key.empty() || !f.keys.empty()) out += "/" + pointer_token(f.key);
      } else if (f.index >= 0) {
        out += "/" + std::to_string(f.index);
      }
    }
    return out;
  }
  // A value starts: arrays count their elements.
  bool value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }
  bool open(bool object) {
    value();
    if (static_cast<int>(frames_.size()) >= limits_.max_depth) {
      return fail("too_deep", "nesting deeper than " + std::to_string(limits_.max_depth) +
                                  " levels; expected at most " + std::to_string(limits_.max_depth));
    }
    frames_.push_back({object, {}, {}, -1});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  bool fail(const std::string& code, const std::string& message) {
    error = {code, "", path(), message};
    return false;
  }

  const ParseLimits& limits_;
  std::vector<Frame> frames_;
  nlohmann::detail::json_sax_dom_parser<Json> dom_;
};

}  // namespace

std::optional<Json> parse_checked(const std::string& text, const std::string& file,
                                  const ParseLimits& limits, Errors& errors) {
  if (text.size() > limits.max_bytes) {
    errors.push_back({"too_large", file, "",
                      "the text is " + std::to_string(text.size()) + " bytes; expected at most " +
                          std::to_string(limits.max_bytes)});
    return std::nullopt;
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    errors.push_back({"invalid_json", file, "", "the text is empty; expected a JSON object"});
    return std::nullopt;
  }
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) {
    errors.push_back({"invalid_json", file, "",
                      "the text starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM"});
    return std::nullopt;
  }
  Json doc;
  Guard guard(limits, doc);
  const bool complete = guarded([&] { return Json::sax_parse(text, &guard); },
                                [&](const char* what) {
                                  guard.error = {"invalid_json", "", "", std::string("not valid JSON: ") + what};
                                  return false;
                                });
  if (!complete) {
    Error e = guard.error;
    if (e.code.empty()) e = {"invalid_json", "", "", "not valid JSON"};
    e.file = file;
    errors.push_back(e);
    return std::nullopt;
  }
  return doc;
}

}  // namespace gpufleet::detail
