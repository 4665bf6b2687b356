#pragma once
// Field definitions in one place: every object the catalog files and the price files hold (here)
// and every field of a request (api/request_fields.cpp, added to the same lookup), each with its
// JSON type, whether it is required, the range or the values its reader checks, and a line of description. The readers reject a member no definition
// names (check_fields: unknown_field with file and JSON path); the schema emitter (schema.cpp,
// native builds only) turns the same table into JSON Schema (config/schemas/, docs/api.md
// "Schemas"). The table is data, not code per field: a few KB of strings in the WebAssembly module
// (the descriptions are left out of it, FIELD_DOC below).

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "support/json_reader.hpp"

#if defined(__EMSCRIPTEN__)
#define FIELD_DOC(text) nullptr
#else
#define FIELD_DOC(text) text
#endif

namespace gpufleet::detail::fields {

// A CUDA compute capability as the catalogs write it: major.minor ("9.0").
inline bool compute_capability(std::string_view s) {
  const std::size_t dot = s.find('.');
  const auto digits = [](std::string_view d) {
    return !d.empty() && d.find_first_not_of("0123456789") == std::string_view::npos;
  };
  return dot != std::string_view::npos && digits(s.substr(0, dot)) && digits(s.substr(dot + 1));
}

// The prices a catalog or a price file may give, USD per instance-hour. No offer costs less than
// a millionth of a dollar an hour; a smaller positive rate (5e-324 was accepted) rounds every
// per-token cost to 0 and ranks first with a tokens-per-dollar figure that means nothing, and 0 is
// no price (leave the field out). The price pipeline refuses the same range (upstream.py).
inline constexpr double kMinPriceUsdPerHour = 1e-6;
inline constexpr double kMaxPriceUsdPerHour = 10000;

enum class Type : unsigned char {
  kString,
  kNumber,
  kBoolean,
  kObject,           // an object of the kind `of`
  kStrings,          // an array of strings
  kNumbers,          // an array of numbers
  kObjects,          // an array of objects of the kind `of`
  kStringOrStrings,  // a string or an array of strings
  kArray,            // an array of any values
  kAny,              // any JSON value (a Hugging Face config.json: the architecture reader says what it reads)
};

enum Flags : unsigned {
  kRequired = 1,
  kMinExclusive = 2,  // the range's minimum is not allowed
  kZeroOr = 4,        // 0 (unknown) or a number in the range: a speed
  kInfo = 8,          // kept but not read by a reader (documentation, metadata): check_fields checks its type
  kUsual = 16,        // `values` are the usual ones, not all (a catalog key or an alias is taken too)
};

struct Field {
  const char* name;
  Type type;
  unsigned flags = 0;
  const char* of = nullptr;      // kObject, kObjects: the kind's name
  double min = 0, max = 0;       // kNumber, kNumbers: the range the reader checks (none when min == max)
  // kString, kStrings: the allowed values, space-separated (none: any string); a value's other
  // spellings the reader takes follow it after "|" ("training|pretraining").
  const char* values = nullptr;
  const char* doc = nullptr;     // one line (FIELD_DOC)
};

// The table's rows are written with these (catalog/fields.cpp, api/request_fields.cpp).
namespace define {
#define KIND_FIELDS(array) array, std::size(array)
inline constexpr Field field(const char* name, Type type, unsigned flags, const char* doc) {
  return Field{name, type, flags, nullptr, 0, 0, nullptr, doc};
}
inline constexpr Field str(const char* name, unsigned flags, const char* doc, const char* values = nullptr) {
  return Field{name, Type::kString, flags, nullptr, 0, 0, values, doc};
}
inline constexpr Field num(const char* name, unsigned flags, double min, double max, const char* doc) {
  return Field{name, Type::kNumber, flags, nullptr, min, max, nullptr, doc};
}
// An array of strings; values: the allowed (or, with kUsual, the usual) ones.
inline constexpr Field strings(const char* name, unsigned flags, const char* doc, const char* values = nullptr) {
  return Field{name, Type::kStrings, flags, nullptr, 0, 0, values, doc};
}
inline constexpr Field boolean(const char* name, unsigned flags, const char* doc) { return field(name, Type::kBoolean, flags, doc); }
inline constexpr Field obj(const char* name, unsigned flags, const char* of, const char* doc) {
  return Field{name, Type::kObject, flags, of, 0, 0, nullptr, doc};
}
// An array of objects; min and max bound its length.
inline constexpr Field objects(const char* name, unsigned flags, const char* of, double min, double max, const char* doc) {
  return Field{name, Type::kObjects, flags, of, min, max, nullptr, doc};
}
}  // namespace define

enum KindFlags : unsigned {
  kCatalog = 1,   // a catalog object: null means "unknown" for an optional field, and the free-text
                  // fields (kFreeText, "*_notes") are allowed beside the definitions
  kOpen = 2,      // any other member is allowed too (free metadata)
  kExactlyOne = 4,  // exactly one of the fields (a request's "model")
  kNoNull = 8,      // null is no value here (a price file): wrong_type
};

// A kind whose `when_field` equals `when_value` has `when_fields` in place of the base
// definitions of the same names (a CPU family: no accelerators, RAM required).
struct Kind {
  const char* name;  // "family", "gpu", ... (the schema's $defs name)
  const char* what;  // for messages: "an instance family"
  const Field* fields;
  std::size_t count;
  unsigned flags = 0;
  const Field* rest = nullptr;  // the definition of every other member (a table keyed by names)
  const char* when_field = nullptr;
  const char* when_value = nullptr;
  const Field* when_fields = nullptr;
  std::size_t when_count = 0;
  const char* doc = nullptr;
};

// The free-text fields every catalog object may hold beside its definitions (strings the core never
// reads; the shipped files use each of them), and the suffix that makes a name free text too.
inline constexpr const char* kFreeText[] = {"description", "notes", "note", "source", "source_date",
                                            "estimate", "estimates", "about"};
inline constexpr std::string_view kFreeTextSuffix = "_notes";

// The catalog's kinds (this layer's table), and one by name among them and the kinds a higher layer
// added (a kind neither has is a programming error: an empty kind).
const Kind* kinds_begin();
const Kind* kinds_end();
const Kind& kind(std::string_view name);

// A higher layer's kinds (api/request_fields.cpp: a request's), found by kind(name) after the
// catalog's. Called once, during static initialization, by the file that defines them.
struct KindTable {
  const Kind* begin;
  const Kind* end;
};
bool add_kinds(KindTable table);

// The words of a `values` list (space-separated), each value's first spelling.
std::vector<std::string> values_of(const Field& field);
// Every spelling of each value: {"training", "pretraining"} for "training|pretraining".
std::vector<std::vector<std::string>> spellings_of(const Field& field);
const Field* find(const Kind& kind, std::string_view name);
bool is_free_text(const Kind& kind, std::string_view name);

// Fails with unknown_field for every member of `obj` that `kind` does not define; for a kNoNull
// kind, with wrong_type for a null member; and for kInfo fields (which no reader
// reads) with wrong_type for a value of another type. True when nothing was wrong.
bool check_fields(const Reader& r, const Json& obj, const std::string& path, const Kind& kind);
inline bool check_fields(const Reader& r, const Json& obj, const std::string& path, std::string_view name) {
  return check_fields(r, obj, path, kind(name));
}

// The names a kind defines, comma-separated, for messages.
std::string names(const Kind& kind);

}  // namespace gpufleet::detail::fields
