#pragma once
// A request's fields (docs/api.md): the fields questions share, each question's own, the nested
// objects, and every question with the fields it takes. Rows of the same table as the catalog's
// kinds (catalog/fields.hpp: kind(name) finds these too), so one place says each field's type,
// range and allowed values: the readers, the unknown-field check, the JSON Schema, docs/api.md's
// tables, the CLI's choices and the page's menus (the catalog question's "menus") all read it.
// Internal to the core.

#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "catalog/fields.hpp"
#include "support/json.hpp"
#include "support/json_reader.hpp"

namespace gpufleet::detail {

// A question and the request fields it takes, space-separated ("!" marks a required one).
struct QuestionFields {
  const char* name;
  const char* fields;
};

// Every question of the table (the page's module answers fewer: analyzer.cpp's kPageLeavesOut).
const QuestionFields* questions_begin();
const QuestionFields* questions_end();
// A question's row, or nullptr.
const QuestionFields* question_fields(std::string_view question);
// The fields a question takes, without the "!".
std::vector<std::string> field_names(const QuestionFields& question);

// The request's kinds (the shared fields, each question's own, the nested objects).
const fields::Kind* request_kinds_begin();
const fields::Kind* request_kinds_end();

// The field a question reads under `name` (its own definition first, then the shared one; a
// nested kind's with "recipe.sharding"), or nullptr.
const fields::Field* request_field(std::string_view question, std::string_view name);
// Its allowed values, for a reader's check and message.
std::vector<std::string> allowed_values(std::string_view question, std::string_view name);

// Fails with unknown_name unless `value` (any case) is one of the allowed values of the field; the
// lowercased value, or nullopt.
std::optional<std::string> pick(const Reader& r, std::string_view question, const Json& req, const char* name);

// For the doors: the questions, and every field with a list of values as "question.field" (a
// nested kind's as "kind.field", the shared request fields by name) -> values, with "usual"
// when others are taken too: {"questions": [...], "values": {...}, "usual": [...]}.
Json request_menus();

}  // namespace gpufleet::detail
