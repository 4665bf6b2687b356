#include "support/json_guard.hpp"

#include "support/decimal.hpp"
#include "support/guarded.hpp"

#include <vector>

namespace gpufleet::detail {
namespace {

// One SAX pass that checks the structure and, while it holds, builds the document: one parser in
// the WebAssembly core instead of two, and one pass over the text. It builds the document itself
// (as nlohmann's DOM builder does) so that a duplicate key is found in the object being built: a
// set of each object's keys beside it cost an allocation per key, 40 % of a catalog's load.
class Guard : public nlohmann::json_sax<Json> {
 public:
  Guard(const ParseLimits& limits, Json& doc) : limits_(limits), root_(doc) {}

  Error error;  // set when the pass stops early

  bool null() override { return put(nullptr); }
  bool boolean(bool x) override { return put(x); }
  bool number_integer(number_integer_t x) override { return put(x); }
  bool number_unsigned(number_unsigned_t x) override { return put(x); }
  bool number_float(number_float_t x, const string_t&) override { return put(x); }
  bool string(string_t& text) override {
    if (text.size() > limits_.max_string_bytes) {
      return fail("too_large", "a string of " + decimal::whole(text.size()) +
                                   " bytes; expected at most " +
                                   decimal::whole(limits_.max_string_bytes));
    }
    return put(std::move(text));
  }
  bool binary(binary_t&) override { return fail("invalid_json", "binary data; expected JSON text"); }
  bool start_object(std::size_t) override { return open(Json::value_t::object); }
  bool key(string_t& name) override {
    Members& members = members_.back();
    for (const auto& member : members) {
      if (member.first == name) {
        return fail("duplicate_key", "the key \"" + name.substr(0, 64) +
                                         "\" appears twice in one object; expected unique keys", &name);
      }
    }
    members.emplace_back(std::move(name), nullptr);
    return true;
  }
  bool end_object() override {
    // The members move into the document's object at once, its room reserved: appended one by one,
    // each growth of the object would copy every member already in it, whole (its key is const,
    // so the pair cannot be moved).
    Json::object_t& object = *open_.back()->get_ptr<Json::object_t*>();
    object.reserve(members_.back().size());
    for (auto& [key, value] : members_.back()) object.emplace_back(std::move(key), std::move(value));
    members_.pop_back();
    return close();
  }
  bool start_array(std::size_t) override { return open(Json::value_t::array); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = {"invalid_json", "", path(), std::string("not valid JSON: ") + e.what()};
    return false;
  }

 private:
  // The JSON pointer of where the pass is: each open object's last key (for the innermost one,
  // `key` where given: a key read but not added), each open array's last element.
  std::string path(const std::string* key = nullptr) const {
    std::string out;
    std::size_t object = 0;
    for (const Json* container : open_) {
      if (container->is_object()) {
        const Members& members = members_[object++];
        if (key && container == open_.back()) out.append("/").append(pointer_token(*key));
        else if (!members.empty()) out.append("/").append(pointer_token(members.back().first));
      } else if (const auto* array = container->get_ptr<const Json::array_t*>(); !array->empty()) {
        out.append("/").append(decimal::whole(array->size() - 1));
      }
    }
    return out;
  }
  // The value's place: the document, the next element of the open array, or the member whose key
  // was read last. Containers (and members) are only appended to while they are the innermost
  // open one, so the pointers to the open ones stay valid.
  template <class Value>
  Json* place(Value&& value) {
    if (open_.empty()) {
      root_ = Json(std::forward<Value>(value));
      return &root_;
    }
    Json& parent = *open_.back();
    if (auto* array = parent.get_ptr<Json::array_t*>()) {
      array->emplace_back(std::forward<Value>(value));
      return &array->back();
    }
    Json& member = members_.back().back().second;
    member = Json(std::forward<Value>(value));
    return &member;
  }
  template <class Value>
  bool put(Value&& value) {
    place(std::forward<Value>(value));
    return true;
  }
  bool open(Json::value_t kind) {
    if (static_cast<int>(open_.size()) >= limits_.max_depth) {
      error = {"too_deep", "", path(), "nesting deeper than " + decimal::whole(limits_.max_depth) +
                                           " levels; expected at most " + decimal::whole(limits_.max_depth)};
      // The element that would open the level too many, in an array: the next one.
      if (const auto* array = open_.back()->get_ptr<const Json::array_t*>()) error.path.append("/").append(decimal::whole(array->size()));
      return false;
    }
    open_.push_back(place(kind));
    if (kind == Json::value_t::object) members_.emplace_back();
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
  bool fail(const std::string& code, const std::string& message, const std::string* key = nullptr) {
    error = {code, "", path(key), message};
    return false;
  }

  // An open object's members, until it closes (a pair with a non-const key moves when the
  // vector grows).
  using Members = std::vector<std::pair<std::string, Json>>;

  const ParseLimits& limits_;
  Json& root_;
  std::vector<Json*> open_;
  std::vector<Members> members_;  // one per open object, innermost last
};

}  // namespace

std::optional<Json> parse_checked(const std::string& text, const std::string& file,
                                  const ParseLimits& limits, Errors& errors) {
  if (text.size() > limits.max_bytes) {
    errors.push_back({"too_large", file, "",
                      "the text is " + decimal::whole(text.size()) + " bytes; expected at most " +
                          decimal::whole(limits.max_bytes)});
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
