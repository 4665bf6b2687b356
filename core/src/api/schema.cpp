// The JSON Schema emitter (native builds only): turns the field definitions of catalog/fields.cpp and
// api/request_fields.cpp (the questions' field lists included) into draft 2020-12 schemas. Nothing here decides what a
// field is; a schema says only what the table says.

#include "gpufleet/schema.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <string_view>

#include "catalog/fields.hpp"
#include "api/questions/memory.hpp"
#include "api/request_fields.hpp"
#include "api/result_fields.hpp"
#include "support/decimal.hpp"

namespace gpufleet {
namespace {

using detail::fields::Field;
using detail::fields::Kind;
using Type = detail::fields::Type;
namespace f = detail::fields;

constexpr const char* kDraft = "https://json-schema.org/draft/2020-12/schema";

// The error codes of docs/api.md (errors.hpp).
constexpr const char* kErrorCodes[] = {"invalid_json",  "too_large",    "too_deep",      "duplicate_key", "missing_field",
                                       "wrong_type",    "out_of_range", "unknown_name",  "unknown_field", "duplicate_name",
                                       "missing_file",  "cannot_answer", "internal_error"};

// What marks a member no reader reads (kInfo): kept for people; scripts/stage-site.sh leaves such
// members out of the page's catalog copies.
constexpr const char* kUnread = "kept for people: gpufleet reads no value here";

Json with_null(Json schema) {
  if (schema.contains("type") && schema["type"].is_string()) {
    schema["type"] = Json::array({schema["type"], "null"});
    return schema;
  }
  Json any = {{"anyOf", Json::array({schema, {{"type", "null"}}})}};
  if (schema.contains("description")) any["description"] = schema["description"];
  return any;
}

void add_range(Json& s, const Field& field, const char* low, const char* high) {
  if (field.min == field.max) return;
  s[(field.flags & f::kMinExclusive) && std::string(low) == "minimum" ? "exclusiveMinimum" : low] = field.min;
  s[high] = field.max;
}

Json ref(const char* kind, std::set<std::string>& needed) {
  needed.insert(kind);
  return {{"$ref", std::string("#/$defs/") + kind}};
}

// A pattern that matches `text` in any case: "[tT][pP]_[sS]..." (ECMA-262 has no (?i)).
std::string any_case(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      out += '[';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      out += ']';
    } else {
      if (std::string_view(".^$*+?()[]{}|\\/").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out;
}

// A request's list of values: the canonical values (what tools offer), or any of their spellings
// in any case (what the core's readers take).
Json values_schema(const Field& field, bool catalog) {
  if (field.flags & f::kUsual) return {{"examples", f::values_of(field)}};
  if (catalog) return {{"enum", f::values_of(field)}};
  std::string pattern;
  for (const auto& spellings : f::spellings_of(field))
    for (const auto& spelling : spellings) pattern += (pattern.empty() ? "" : "|") + any_case(spelling);
  return {{"anyOf", Json::array({{{"enum", f::values_of(field)}}, {{"pattern", "^(?:" + pattern + ")$"}}})}};
}

Json field_schema(const Field& field, bool nullable, std::set<std::string>& needed, bool loose = false) {
  Json s = Json::object();
  switch (field.type) {
    case Type::kString:
      s["type"] = "string";
      if (field.values) s.update(values_schema(field, nullable));
      break;
    case Type::kNumber:
      s["type"] = "number";
      if (loose) break;
      if (field.flags & f::kZeroOr) {
        Json range = {{"minimum", field.min}, {"maximum", field.max}};
        s = {{"type", "number"}, {"anyOf", Json::array({{{"const", 0}}, range})}};
      } else {
        add_range(s, field, "minimum", "maximum");
      }
      break;
    case Type::kBoolean: s["type"] = "boolean"; break;
    case Type::kObject:
      if (field.of) {
        s = ref(field.of, needed);
      } else {
        s["type"] = "object";
      }
      break;
    case Type::kStrings:
      s = {{"type", "array"}, {"items", {{"type", "string"}}}};
      if (field.values) s["items"].update(values_schema(field, nullable));
      break;
    case Type::kNumbers: s = {{"type", "array"}, {"items", {{"type", "number"}}}}; break;
    case Type::kObjects:
      s = {{"type", "array"}, {"items", field.of ? ref(field.of, needed) : Json{{"type", "object"}}}};
      if (field.min > 0) s["minItems"] = field.min;
      if (field.max > 0) s["maxItems"] = field.max;
      break;
    case Type::kStringOrStrings:
      s = {{"anyOf", Json::array({{{"type", "string"}}, {{"type", "array"}, {"items", {{"type", "string"}}}}})}};
      break;
    case Type::kArray: s["type"] = "array"; break;
    case Type::kAny: break;
  }
  if (field.doc) s["description"] = field.doc;
  Json out = nullable && !(field.flags & f::kRequired) ? with_null(std::move(s)) : s;
  if (field.flags & f::kInfo) out["$comment"] = kUnread;
  return out;
}

bool overridden(const Kind& kind, const char* name) {
  for (std::size_t i = 0; i < kind.when_count; ++i) {
    if (std::string(kind.when_fields[i].name) == name) return true;
  }
  return false;
}

Json kind_schema(const Kind& kind, std::set<std::string>& needed) {
  const bool catalog = kind.flags & f::kCatalog;
  Json s = {{"type", "object"}};
  if (kind.doc) s["description"] = kind.doc;
  Json properties = Json::object();
  Json required = Json::array();
  for (std::size_t i = 0; i < kind.count; ++i) {
    const Field& field = kind.fields[i];
    const bool loose = overridden(kind, field.name);  // ranges under if/then/else below
    properties[field.name] = field_schema(field, catalog, needed, loose);
    if ((field.flags & f::kRequired) && !loose) required.push_back(field.name);
  }
  if (catalog) {
    for (const char* name : f::kFreeText) {
      if (!properties.contains(name)) properties[name] = {{"type", Json::array({"string", "null"})}, {"description", "free text"}};
    }
    // Any name ending in _notes, but for a defined field of another type (catalog_info's field_notes).
    std::string pattern = std::string(f::kFreeTextSuffix) + "$";
    for (std::size_t i = 0; i < kind.count; ++i) {
      const std::string name = kind.fields[i].name;
      if (kind.fields[i].type != Type::kString && name.size() > f::kFreeTextSuffix.size() &&
          name.compare(name.size() - f::kFreeTextSuffix.size(), std::string::npos, f::kFreeTextSuffix) == 0)
        pattern = "^(?!" + name + "$).*" + pattern;
    }
    s["patternProperties"] = {{pattern, {{"type", Json::array({"string", "null"})}, {"description", "free text"}}}};
  }
  if (!properties.empty()) s["properties"] = std::move(properties);
  if (!required.empty()) s["required"] = std::move(required);
  if (kind.rest) {
    s["additionalProperties"] = field_schema(*kind.rest, catalog && !(kind.rest->type == Type::kObject), needed);
  } else {
    s["additionalProperties"] = (kind.flags & f::kOpen) != 0;
  }
  if (kind.flags & f::kExactlyOne) {
    s["minProperties"] = 1;
    s["maxProperties"] = 1;
  }
  if (kind.when_field) {
    Json then = {{"properties", Json::object()}}, otherwise = {{"properties", Json::object()}};
    Json then_required = Json::array(), else_required = Json::array();
    for (std::size_t i = 0; i < kind.when_count; ++i) {
      const Field& field = kind.when_fields[i];
      then["properties"][field.name] = field_schema(field, catalog, needed);
      if (field.flags & f::kRequired) then_required.push_back(field.name);
      const Field* base = f::find(kind, field.name);
      otherwise["properties"][field.name] = field_schema(*base, catalog, needed);
      if (base->flags & f::kRequired) else_required.push_back(field.name);
    }
    if (!then_required.empty()) then["required"] = then_required;
    if (!else_required.empty()) otherwise["required"] = else_required;
    s["if"] = {{"properties", {{kind.when_field, {{"const", kind.when_value}}}}}, {"required", {kind.when_field}}};
    s["then"] = std::move(then);
    s["else"] = std::move(otherwise);
  }
  return s;
}

// The schema of every kind in `needed` and of every kind those reach, by name (for $defs).
Json definitions(std::set<std::string>& needed) {
  Json defs = Json::object();
  std::set<std::string> done;
  while (true) {
    std::set<std::string> todo;
    for (const auto& n : needed) {
      if (!done.count(n)) todo.insert(n);
    }
    if (todo.empty()) break;
    for (const auto& n : todo) {
      defs[n] = kind_schema(f::kind(n), needed);
      done.insert(n);
    }
  }
  return defs;
}

// A document: the top kind's schema with every kind it reaches under $defs.
Json document(const char* title, const Kind& top) {
  std::set<std::string> needed;
  Json body = kind_schema(top, needed);
  Json defs = definitions(needed);
  Json s = {{"$schema", kDraft}, {"title", title}};
  for (auto& [key, value] : body.items()) s[key] = value;
  if (!defs.empty()) s["$defs"] = std::move(defs);
  return s;
}

Json request_schema() {
  std::set<std::string> needed;
  const f::Kind& shared = f::kind("request");
  Json names = Json::array();
  Json branches = Json::array();
  for (auto row = detail::questions_begin(); row != detail::questions_end(); ++row) {
    const detail::QuestionFields& q = *row;
    names.push_back(q.name);
    const f::Kind& own = f::kind(std::string("request.") + q.name);
    Json properties = {{"question", {{"const", q.name}}}};
    Json required = Json::array({"question"});
    for (std::string word : detail::words(q.fields)) {
      const bool needed_here = !word.empty() && word.back() == '!';
      if (needed_here) {
        word.pop_back();
        required.push_back(word);
      }
      const Field* field = f::find(own, word);
      if (!field) field = f::find(shared, word);
      if (!field) {
        properties[word] = {{"description", "see docs/api.md"}};
        continue;
      }
      properties[word] = field_schema(*field, false, needed);
      if ((field->flags & f::kRequired) && !needed_here) required.push_back(word);
    }
    branches.push_back({{"if", {{"properties", {{"question", {{"const", q.name}}}}}, {"required", {"question"}}}},
                        {"then", {{"properties", std::move(properties)}, {"required", std::move(required)}, {"additionalProperties", false}}}});
  }
  Json s = {{"$schema", kDraft},
            {"title", "gpufleet request"},
            {"description", "A request to Analyzer::analyze_json (docs/api.md): \"question\" says which; each question takes its own fields and no other."},
            {"type", "object"},
            {"required", {"question"}},
            {"properties", {{"question", {{"enum", names}, {"description", "what is asked (docs/api.md, Questions)"}}}}},
            {"allOf", std::move(branches)}};
  s["$defs"] = definitions(needed);
  return s;
}

// ---- results (api/result_fields.cpp) ----------------------------------------------------------

Json member_type(std::string type) {
  const bool nullable = type.ends_with("|null");
  if (nullable) type.erase(type.size() - 5);
  const bool list = type.ends_with("[]");
  if (list) type.erase(type.size() - 2);
  Json s = type.starts_with("@") ? Json{{"$ref", "#/$defs/" + type.substr(1)}}
           : type == "any"       ? Json::object()
                                 : Json{{"type", type}};
  if (list) s = {{"type", "array"}, {"items", std::move(s)}};
  return nullable ? with_null(std::move(s)) : s;
}

struct Member {
  std::string name, type;
  bool optional;
};

// A shape's members in order, "...name" expanded; a later member of a name replaces the earlier.
void collect_members(const char* members, std::vector<Member>& out) {
  for (const std::string& word : detail::words(members)) {
    if (word.starts_with("...")) {
      for (const auto& shape : detail::result_shapes())
        if (word.substr(3) == shape.name) collect_members(shape.members, out);
      continue;
    }
    const auto colon = word.find(':');
    std::string name = word.substr(0, colon);
    const bool optional = name.ends_with("?");
    if (optional) name.pop_back();
    Member m{name, word.substr(colon + 1), optional};
    auto same =
        std::find_if(out.begin(), out.end(), [&](const Member& x) { return x.name == name; });
    if (same != out.end())
      *same = std::move(m);
    else
      out.push_back(std::move(m));
  }
}

Json shape_schema(const char* members) {
  std::vector<Member> all;
  collect_members(members, all);
  Json properties = Json::object();
  Json required = Json::array();
  for (const Member& m : all) {
    properties[m.name] = member_type(m.type);
    if (!m.optional) required.push_back(m.name);
  }
  return {{"type", "object"},
          {"required", std::move(required)},
          {"additionalProperties", false},
          {"properties", std::move(properties)}};
}

Json response_schema() {
  Json codes = Json::array();
  for (const char* code : kErrorCodes) codes.push_back(code);
  const Json text = {{"type", "string"}};
  // Each question's result: its members where result_fields.cpp lists them all, else an object.
  Json questions = Json::array();
  Json results = Json::array();
  Json defs = Json::object();
  for (const auto& shape : detail::result_shapes()) defs[shape.name] = shape_schema(shape.members);
  for (auto q = detail::questions_begin(); q != detail::questions_end(); ++q) {
    questions.push_back(q->name);
    for (const auto& r : detail::question_results()) {
      if (std::string_view(r.name) != q->name) continue;
      const std::string def = std::string(r.name) + "_result";
      defs[def] = shape_schema(r.members);
      results.push_back({{"if", {{"properties", {{"question", {{"const", q->name}}}}}}},
                         {"then", {{"properties", {{"result", {{"$ref", "#/$defs/" + def}}}}}}}});
    }
  }
  Json error = {{"type", "object"},
                {"required", {"code", "file", "path", "message"}},
                {"additionalProperties", false},
                {"properties",
                 {{"code", {{"enum", codes}}},
                  {"file", {{"type", "string"}, {"description", "\"request\" or the catalog or price file at fault"}}},
                  {"path", {{"type", "string"}, {"description", "JSON pointer (RFC 6901) of the value at fault; \"\" for the whole document"}}},
                  {"message", {{"type", "string"}, {"minLength", 1}, {"description", "what was expected and what was found"}}}}}};
  Json catalog = {{"type", "object"},
                  {"required", {"name", "version", "date", "prices_as_of"}},
                  {"additionalProperties", false},
                  {"properties",
                   {{"name", text},
                    {"version", text},
                    {"date", text},
                    {"prices_as_of",
                     {{"type", Json::array({"string", "null"})},
                      {"description", "the oldest price the answer could use: YYYY-MM-DD, \"unknown\", or null when nothing is priced"}}}}}};
  Json answer = {{"type", "object"},
                 {"required", {"ok", "question", "catalog", "result"}},
                 {"additionalProperties", false},
                 {"properties",
                  {{"ok", {{"const", true}}},
                   {"question", {{"enum", questions}}},
                   {"catalog", {{"$ref", "#/$defs/catalog"}}},
                   {"result", {{"type", "object"}, {"description", "the question's answer (docs/api.md)"}}}}},
                 {"allOf", std::move(results)}};
  Json failure = {{"type", "object"},
                  {"required", {"ok", "errors"}},
                  {"additionalProperties", false},
                  {"properties", {{"ok", {{"const", false}}}, {"errors", {{"type", "array"}, {"minItems", 1}, {"items", {{"$ref", "#/$defs/error"}}}}}}}};
  defs["catalog"] = std::move(catalog);
  defs["error"] = std::move(error);
  return {{"$schema", kDraft},
          {"title", "gpufleet response"},
          {"description", "The answer of Analyzer::analyze_json (docs/api.md): an answer, or the errors as data."},
          {"oneOf", Json::array({answer, failure})},
          {"$defs", std::move(defs)}};
}

}  // namespace

const std::vector<std::string>& schema_names() {
  static const std::vector<std::string> names{"gpu_instances", "model_config", "workloads", "prices", "request", "response"};
  return names;
}

std::string request_menus_json() { return detail::request_menus().dump(); }

namespace {

// A field's type, range and values as docs/api.md's reference table says them.
std::string type_cell(const Field& field) {
  switch (field.type) {
    case Type::kString: return "string";
    case Type::kNumber: return "number";
    case Type::kBoolean: return "bool";
    case Type::kObject: return field.of ? std::string("object (`") + field.of + "`)" : "object";
    case Type::kStrings: return "array of strings";
    case Type::kNumbers: return "array of numbers";
    case Type::kObjects: return field.of ? std::string("array of `") + field.of + "`" : "array of objects";
    case Type::kStringOrStrings: return "string or array of strings";
    case Type::kArray: return "array";
    case Type::kAny: return "any";
  }
  return "";
}

std::string number_text(double v) { return decimal::general(v, 6); }

std::string range_cell(const Field& field) {
  std::string out;
  if (field.values) {
    for (const auto& spellings : f::spellings_of(field)) {
      out += (out.empty() ? "" : ", ") + ("`" + spellings.front() + "`");
      for (std::size_t i = 1; i < spellings.size(); ++i) out += (i == 1 ? " (or `" : ", `") + spellings[i] + "`";
      if (spellings.size() > 1) out += ")";
    }
    if (field.flags & f::kUsual) out += ", ...";
  } else if (field.min != field.max && (field.type == Type::kNumber)) {
    out = std::string(field.flags & f::kMinExclusive ? "(" : "[") + number_text(field.min) + ", " + number_text(field.max) + "]";
    if (field.flags & f::kZeroOr) out = "0 or " + out;
  } else if (field.type == Type::kObjects && field.max > 0) {
    out = number_text(field.min) + " to " + number_text(field.max) + " items";
  }
  return out;
}

std::string kind_table(const Kind& kind) {
  std::string out = "| field | type | range or values | |\n| --- | --- | --- | --- |\n";
  for (std::size_t i = 0; i < kind.count; ++i) {
    const Field& field = kind.fields[i];
    out += "| `" + std::string(field.name) + "`" + (field.flags & f::kRequired ? " (required)" : "") + " | " +
           type_cell(field) + " | " + range_cell(field) + " | " + (field.doc ? field.doc : "") + " |\n";
  }
  return out;
}

}  // namespace

std::string request_markdown() {
  std::string out =
      "<!-- Generated by `gpufleet schema request --markdown` from the field table "
      "(core/src/api/request_fields.cpp); scripts/update-schemas writes it, the ctest schemas.up_to_date checks it. -->\n\n"
      "### Questions and their fields\n\n| question | fields (**required**) |\n| --- | --- |\n";
  for (auto q = detail::questions_begin(); q != detail::questions_end(); ++q) {
    std::string cells;
    for (std::string word : detail::words(q->fields)) {
      const bool required = !word.empty() && word.back() == '!';
      if (required) word.pop_back();
      cells += (cells.empty() ? "" : ", ") + (required ? "**`" + word + "`**" : "`" + word + "`");
    }
    out += "| `" + std::string(q->name) + "` | " + (cells.empty() ? "-" : cells) + " |\n";
  }
  for (auto k = detail::request_kinds_begin(); k != detail::request_kinds_end(); ++k) {
    const std::string name = k->name;
    out += "\n### `" + name + "`" + (k->doc ? std::string(": ") + k->doc : "") + "\n\n" + kind_table(*k);
  }
  return out;
}

std::string json_schema(const std::string& name) {
  Json s;
  if (name == "gpu_instances") s = document("gpufleet gpu_instances.json", f::kind("gpu_instances_file"));
  else if (name == "model_config") s = document("gpufleet model_config.json", f::kind("model_config_file"));
  else if (name == "workloads") s = document("gpufleet workloads.json", f::kind("workloads_file"));
  else if (name == "prices") s = document("gpufleet price file", f::kind("price_file"));
  else if (name == "request") s = request_schema();
  else if (name == "response") s = response_schema();
  else return "";
  return s.dump(2) + "\n";
}

}  // namespace gpufleet
