#include "json_guard.hpp"

#include "guarded.hpp"

#include <set>
#include <vector>

namespace gpufleet::detail {
namespace {

// A SAX pass that only checks structure; the document is built afterwards by Json::parse.
class Guard : public nlohmann::json_sax<Json> {
 public:
  Guard(const ParseLimits& limits) : limits_(limits) {}

  Error error;  // set when the pass stops early

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t& text) override {
    if (text.size() > limits_.max_string_bytes) {
      return fail("too_large", "a string of " + std::to_string(text.size()) +
                                   " bytes; expected at most " +
                                   std::to_string(limits_.max_string_bytes));
    }
    return value();
  }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return open(true); }
  bool key(string_t& name) override {
    Frame& f = frames_.back();
    if (!f.keys.insert(name).second) {
      f.key = name;
      return fail("duplicate_key", "the key \"" + name.substr(0, 64) +
                                       "\" appears twice in one object; expected unique keys");
    }
    f.key = name;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
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
  Guard guard(limits);
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
  // The guard accepted the text, so this parse succeeds; it is asked not to throw all the same.
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    errors.push_back({"invalid_json", file, "", "not valid JSON"});
    return std::nullopt;
  }
  return doc;
}

}  // namespace gpufleet::detail
