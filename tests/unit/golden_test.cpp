// Golden cases: tests/cases/NAME.request.json answered exactly as NAME.expected.json. The node test
// of the WebAssembly module checks the same files, so native and browser answers stay identical.
#include <catch2/catch.hpp>

#include <filesystem>

#include "support.hpp"

using namespace gpufleet;

TEST_CASE("golden cases answer byte for byte as recorded") {
  const std::filesystem::path dir = test::source_path("tests/cases");
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = ".request.json";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string stem = name.substr(0, name.size() - suffix.size());
    INFO(stem);
    const std::string request = test::read_file(entry.path().string());
    const std::string expected = test::read_file((dir / (stem + ".expected.json")).string());
    CHECK(test::shipped().analyze_json(request, 2) + "\n" == expected);
    ++checked;
  }
  CHECK(checked >= 10);
}
