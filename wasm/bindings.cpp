// The door of the WebAssembly core: embind registrations of free functions on a handle (a number).
// Texts cross as bytes: the facade (gpufleet.js) writes them into a buffer of the core's memory
// that the core hands out as a typed_memory_view (one copy, no per-byte work in JavaScript), and
// reads the answer through a typed_memory_view it decodes at once. No class_ and no std::string
// in or out: embind would convert those byte by byte in JavaScript (docs/performance.md).
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gpufleet/analyzer.hpp"

namespace {

using emscripten::typed_memory_view;
using emscripten::val;

// An analyzer built once from the catalog texts, the request being written and the last answer
// (valid until the next question).
struct Door {
  explicit Door(gpufleet::CatalogSources sources) : analyzer(sources) {}
  gpufleet::Analyzer analyzer;
  std::string request;
  std::string answer;
};

// Texts staged for the next analyzer: gpu_instances, model_config, workloads, then a name and a
// text for each price file.
std::vector<std::string> staged;

val bytes(std::string& text) {
  return val(typed_memory_view(text.size(), reinterpret_cast<unsigned char*>(text.data())));
}

Door* door(std::uintptr_t handle) { return reinterpret_cast<Door*>(handle); }

// Room for the next staged text, as a view the facade fills at once.
val stage(std::size_t size) {
  staged.emplace_back(size, '\0');
  return bytes(staged.back());
}

// An analyzer from the staged texts (which it takes); 0 when fewer than three were staged.
std::uintptr_t create() {
  auto texts = std::exchange(staged, {});
  if (texts.size() < 3) return 0;
  gpufleet::CatalogSources sources{
      std::move(texts[0]), std::move(texts[1]), std::move(texts[2]), {}};
  for (std::size_t i = 3; i + 1 < texts.size(); i += 2) {
    sources.price_files.push_back({std::move(texts[i]), std::move(texts[i + 1])});
  }
  return reinterpret_cast<std::uintptr_t>(new Door(std::move(sources)));
}

// Room for the request of the next analyze, as a view the facade fills at once.
val request(std::uintptr_t handle, std::size_t size) {
  door(handle)->request.assign(size, '\0');
  return bytes(door(handle)->request);
}

// Answers the request written; the answer's bytes stay valid until the next call on this handle.
val analyze(std::uintptr_t handle) {
  Door* d = door(handle);
  d->answer = d->analyzer.analyze_json(d->request);
  return bytes(d->answer);
}

void destroy(std::uintptr_t handle) { delete door(handle); }

}  // namespace

// The built-in types the door passes, registered here instead of by embind's library
// (system/lib/embind/bind.cpp registers every built-in type, and the glue of each one it
// registers ships: 8-, 16- and 32-bit strings, 64-bit integers, floats and every kind of memory
// view: about 2 KB gzipped of glue and wasm that this door never uses). Defining __getTypeName
// keeps that object file out of the link (wasm/CMakeLists.txt links embind's JavaScript without
// -lembind, which would link it whole). A binding that passes another type fails at load naming
// this file: register the type below.
extern "C" {
EMSCRIPTEN_KEEPALIVE const char* __getTypeName(const void*) {
  return "a type that wasm/bindings.cpp does not register";
}
}

namespace {
using namespace emscripten::internal;
__attribute__((constructor)) void register_builtin_types() {
  _embind_register_void(TypeID<void>::get(), "void");
  _embind_register_integer(TypeID<unsigned long>::get(), "unsigned long", sizeof(unsigned long), 0,
                           std::numeric_limits<unsigned long>::max());
  _embind_register_emval(TypeID<val>::get(), "emscripten::val");
  _embind_register_memory_view(TypeID<emscripten::memory_view<unsigned char>>::get(),
                               1,  // Uint8Array
                               "emscripten::memory_view<unsigned char>");
}
}  // namespace

EMSCRIPTEN_BINDINGS(gpufleet) {
  emscripten::function("stage", &stage);
  emscripten::function("create", &create);
  emscripten::function("request", &request);
  emscripten::function("analyze", &analyze);
  emscripten::function("destroy", &destroy);
}
