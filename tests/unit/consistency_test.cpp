// The consistency suite over the native analyzer: every setup of tests/data/consistency/setups.json
// asked through every question that can express it, the same figure compared wherever two
// questions report it (docs/road.md, "The consistency suite"). tests/wasm/consistency.mjs
// interprets the same file the same way for the WebAssembly core; keep the two in step.
#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support.hpp"

using namespace gpufleet;

namespace {

struct Row {
  std::string setup, comparison, status = "not_applicable", reason;
  Json a, b;
};

// The value at a JSON pointer, or nothing when the document has no such member.
std::optional<Json> at_pointer(const Json& doc, const std::string& ptr) {
  const Json* v = &doc;
  if (ptr.empty()) return *v;
  size_t start = 1;
  while (start <= ptr.size()) {
    size_t end = ptr.find('/', start);
    if (end == std::string::npos) end = ptr.size();
    std::string key = ptr.substr(start, end - start);
    for (size_t i; (i = key.find("~1")) != std::string::npos;) key.replace(i, 2, "/");
    for (size_t i; (i = key.find("~0")) != std::string::npos;) key.replace(i, 2, "~");
    if (v->is_array()) {
      if (key.empty() || key.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
      const size_t index = std::stoul(key);
      if (index >= v->size()) return std::nullopt;
      v = &(*v)[index];
    } else if (v->is_object()) {
      if (!v->contains(key)) return std::nullopt;
      v = &(*v)[key];
    } else {
      return std::nullopt;
    }
    start = end + 1;
  }
  return *v;
}

class Suite {
 public:
  explicit Suite(Json doc) : doc_(std::move(doc)) {}

  std::vector<Row> run_setup(const Json& setup) const {
    const std::string kind = doc_["tasks"][setup["task"].get<std::string>()]["kind"];
    std::map<std::string, Json> answers;
    std::map<std::string, std::string> errors;
    const Json none = Json::object();
    const Json& not_expressible = setup.contains("not_expressible") ? setup["not_expressible"] : none;
    for (const Json& q : doc_["questions"]) {
      const std::string name = q["name"];
      if (!has(q["kinds"], kind) || not_expressible.contains(name)) continue;
      bool missing_answer = false;
      const std::optional<Json> request = fill(q["request"], setup, answers, missing_answer);
      if (missing_answer || !request) continue;
      const Json response = test::ask(test::shipped(), *request);
      // A refusal (cannot_answer) is an answer: its verdict is /ok false. Any other error is a fault.
      if (response["ok"] == true || response["errors"][0]["code"] == "cannot_answer") {
        answers[name] = response;
      } else {
        errors[name] = request->dump() + " -> " + response["errors"].dump();
      }
    }
    std::vector<Row> rows;
    const Json& known = setup.contains("known_disagreements") ? setup["known_disagreements"] : none;
    for (const Json& c : doc_["comparisons"]) {
      Row row;
      row.setup = setup["id"];
      row.comparison = c["id"];
      compare(c, kind, known, answers, errors, row);
      rows.push_back(row);
    }
    return rows;
  }

  const Json& doc() const { return doc_; }

 private:
  static bool has(const Json& list, const std::string& value) {
    for (const Json& v : list) {
      if (v == value) return true;
    }
    return false;
  }

  // "$name": the setup's field, else its task's, else the defaults' (null: missing).
  std::optional<Json> lookup(const Json& setup, const std::string& name) const {
    const Json& task = doc_["tasks"][setup["task"].get<std::string>()];
    for (const Json* source : {&setup, &task, &doc_["defaults"]}) {
      if (source->contains(name)) {
        const Json& v = (*source)[name];
        if (v.is_null()) return std::nullopt;
        return v;
      }
    }
    return std::nullopt;
  }

  static std::optional<Json> reference(const std::string& ref, const std::map<std::string, Json>& answers) {
    const size_t colon = ref.find(':');
    const auto answer = answers.find(ref.substr(0, colon));
    if (answer == answers.end()) return std::nullopt;
    return at_pointer(answer->second, ref.substr(colon + 1));
  }

  std::optional<Json> fill(const Json& t, const Json& setup, const std::map<std::string, Json>& answers,
                           bool& missing_answer) const {
    if (t.is_string()) {
      const std::string s = t;
      if (!s.empty() && s[0] == '$') return lookup(setup, s.substr(1));
      if (!s.empty() && s[0] == '@') {
        const std::optional<Json> v = reference(s.substr(1), answers);
        if (!v || v->is_null()) {
          missing_answer = true;
          return std::nullopt;
        }
        return v;
      }
      return t;
    }
    if (t.is_array()) {
      Json out = Json::array();
      for (const Json& item : t) {
        if (auto v = fill(item, setup, answers, missing_answer)) out.push_back(*v);
      }
      return out;
    }
    if (t.is_object()) {
      Json out = Json::object();
      for (const auto& [key, value] : t.items()) {
        if (auto v = fill(value, setup, answers, missing_answer)) out[key] = *v;
      }
      if (!t.empty() && out.empty()) return std::nullopt;
      return out;
    }
    return t;
  }

  static std::vector<std::string> refs_of(const Json& side) {
    std::vector<std::string> refs;
    if (side.is_array()) {
      for (const Json& r : side) refs.push_back(r);
    } else {
      refs.push_back(side);
    }
    return refs;
  }

  static Json side_value(const Json& side, const Json* scale, const std::map<std::string, Json>& answers) {
    const std::vector<std::string> refs = refs_of(side);
    std::vector<Json> values;
    for (const auto& r : refs) values.push_back(reference(r, answers).value_or(Json(nullptr)));
    for (const Json& v : values) {
      if (v.is_null()) return nullptr;
    }
    if (values.size() == 1 && scale == nullptr) return values[0];
    double product = scale != nullptr ? scale->get<double>() : 1.0;
    for (const Json& v : values) {
      if (!v.is_number()) return nullptr;
      product *= v.get<double>();
    }
    return product;
  }

  static bool agree(const Json& a, const Json& b, const Json& c) {
    if (a.is_number() && b.is_number()) {
      const double x = a.get<double>(), y = b.get<double>(), diff = std::fabs(x - y);
      if (c.contains("abs") && diff <= c["abs"].get<double>() + 1e-9) return true;
      if (c.contains("rel") && diff <= c["rel"].get<double>() * std::max(std::fabs(x), std::fabs(y)) + 1e-12) return true;
      return diff == 0;
    }
    return a == b;
  }

  void compare(const Json& c, const std::string& kind, const Json& known, const std::map<std::string, Json>& answers,
               const std::map<std::string, std::string>& errors, Row& row) const {
    if (!has(c["kinds"], kind)) return;
    std::vector<std::string> refs = refs_of(c["a"]);
    for (const auto& r : refs_of(c["b"])) refs.push_back(r);
    std::set<std::string> asked;
    for (const auto& r : refs) asked.insert(r.substr(0, r.find(':')));
    std::string failed;
    for (const auto& q : asked) {
      if (errors.count(q)) failed += errors.at(q) + "; ";
    }
    if (!failed.empty()) {
      row.status = "fail";
      row.reason = "asked, refused: " + failed;
      return;
    }
    for (const auto& q : asked) {
      if (!answers.count(q)) {
        row.reason = "a question was not asked";
        return;
      }
    }
    bool reads_verdict = false;
    for (const auto& r : refs) reads_verdict = reads_verdict || (r.size() >= 4 && r.substr(r.size() - 4) == ":/ok");
    std::string refused;
    for (const auto& q : asked) {
      if (answers.at(q)["ok"] != true) refused += (refused.empty() ? "" : ", ") + q;
    }
    if (!refused.empty() && !reads_verdict) {
      row.reason = "refused by " + refused + " (a verdict comparison covers it)";
      return;
    }
    if (c.contains("when")) {
      for (const Json& pair : c["when"]) {
        if (reference(pair[0], answers).value_or(Json(nullptr)) != reference(pair[1], answers).value_or(Json(nullptr))) {
          row.reason = "condition not met";
          return;
        }
      }
    }
    row.a = side_value(c["a"], c.contains("scale_a") ? &c["scale_a"] : nullptr, answers);
    row.b = side_value(c["b"], c.contains("scale_b") ? &c["scale_b"] : nullptr, answers);
    if (row.b.is_null() && c.contains("b_else")) row.b = side_value(c["b_else"], nullptr, answers);
    if (row.a.is_null() && row.b.is_null()) {
      row.reason = "neither reports it";
      return;
    }
    const bool ok = agree(row.a, row.b, c);
    const std::string id = c["id"];
    if (known.contains(id)) {
      row.status = ok ? "agrees_now" : "known";
      row.reason = known[id];
    } else {
      row.status = ok ? "pass" : "fail";
    }
  }

  Json doc_;
};

const Suite& suite() {
  static const Suite s(Json::parse(test::read_file(test::source_path("tests/data/consistency/setups.json"))));
  return s;
}

}  // namespace

TEST_CASE("consistency suite: every question that can express a setup reports the same figures") {
  const Json& doc = suite().doc();
  REQUIRE(doc["setups"].size() >= 40);
  std::map<std::string, int> totals;
  for (const Json& setup : doc["setups"]) {
    const std::vector<Row> rows = suite().run_setup(setup);
    int passed = 0;
    for (const Row& row : rows) {
      ++totals[row.status];
      if (row.status == "pass") ++passed;
      INFO(row.setup << ": " << row.comparison << ": " << row.a.dump() << " vs " << row.b.dump() << " "
                     << row.reason);
      CHECK(row.status != "fail");
      if (row.status == "known" || row.status == "agrees_now") {
        std::cout << "consistency " << (row.status == "known" ? "known disagreement" : "agrees now, remove the marker")
                  << ": " << row.setup << ": " << row.comparison << ": " << row.a.dump() << " vs " << row.b.dump()
                  << " (" << row.reason << ")\n";
      }
    }
    INFO(setup["id"].get<std::string>());
    CHECK(passed > 0);
  }
  std::cout << "consistency: " << doc["setups"].size() << " setups x " << doc["comparisons"].size()
            << " comparisons: pass " << totals["pass"] << ", fail " << totals["fail"] << ", known "
            << totals["known"] << ", agrees_now " << totals["agrees_now"] << ", not_applicable "
            << totals["not_applicable"] << "\n";
  CHECK(totals["pass"] >= 500);
}
