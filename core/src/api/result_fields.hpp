#pragma once
// The members of the questions' results (docs/api.md) as answers.cpp and api/questions/*.cpp write
// them: what the response schema says of a result, and so the typings of the JavaScript doors
// (wasm/requests.d.ts). Only results and objects whose every member is listed here are closed;
// the others stay open objects. Internal to the core; native builds only (the schema emitter).

#include <span>

namespace gpufleet::detail {

// A shape: its members, space-separated, each "name:type" ("name?:type" when only some answers
// have it). A type is string, number, boolean, object, array, any, string[], a shape "@name" or
// a list of one "@name[]"; "|null" adds null. "...name" takes every member of the shape `name`
// (a later member of the same name replaces it).
struct ResultShape {
  const char* name;
  const char* members;
};

// The shapes results are built of (deployment, cost, placement, ...).
std::span<const ResultShape> result_shapes();
// Each question whose result is closed, by the question's name.
std::span<const ResultShape> question_results();

}  // namespace gpufleet::detail
