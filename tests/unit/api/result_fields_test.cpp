// The result table (core/src/api/result_fields.cpp): each row is a question of the request table,
// once; each member is "name:type" with a known type, and every shape it names ("@name",
// "...name") is a row of the shapes. The schema emitter reads it as it is, so a typo here would be
// a dangling $ref in config/schemas/response.schema.json (tests/schemas checks the answers).
#include "api/result_fields.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "api/questions/memory.hpp"
#include "api/request_fields.hpp"

using namespace gpufleet;

TEST_CASE("result table: a row for every question, members are name:type, shapes named exist") {
  std::set<std::string> shapes;
  for (const auto& s : detail::result_shapes()) CHECK(shapes.insert(s.name).second);
  const std::set<std::string> plain{"string", "number", "boolean", "object", "array", "any"};
  auto check_members = [&](const detail::ResultShape& row) {
    for (std::string word : detail::words(row.members)) {
      INFO(row.name << ": " << word);
      if (word.starts_with("...")) {
        CHECK(shapes.count(word.substr(3)) == 1);
        continue;
      }
      const auto colon = word.find(':');
      REQUIRE(colon != std::string::npos);
      std::string type = word.substr(colon + 1);
      if (type.ends_with("|null")) type.erase(type.size() - 5);
      if (type.ends_with("[]")) type.erase(type.size() - 2);
      if (type.starts_with("@"))
        CHECK(shapes.count(type.substr(1)) == 1);
      else
        CHECK(plain.count(type) == 1);
    }
  };
  for (const auto& s : detail::result_shapes()) check_members(s);
  std::set<std::string> questions;
  for (const auto& q : detail::question_results()) {
    INFO(q.name);
    CHECK(detail::question_fields(q.name) != nullptr);
    CHECK(questions.insert(q.name).second);
    check_members(q);
  }
  // Every question's result is closed: a misspelled member of any answer fails the schema.
  for (auto q = detail::questions_begin(); q != detail::questions_end(); ++q) {
    INFO(q->name);
    CHECK(questions.count(q->name) == 1);
  }
}
