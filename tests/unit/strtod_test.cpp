// The WebAssembly module's strtod (wasm/strtod.cpp), compiled natively: the same value, bit for
// bit, and the same end as the C library's for decimal texts of every kind a JSON number can be.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

extern "C" double gpufleet_strtod(const char* text, char** end);

namespace {

void same_as_libc(const std::string& text) {
  char* ours_end = nullptr;
  char* libc_end = nullptr;
  const double ours = gpufleet_strtod(text.c_str(), &ours_end);
  const double libc = std::strtod(text.c_str(), &libc_end);
  INFO(text);
  CHECK(ours_end - text.c_str() == libc_end - text.c_str());
  if (std::isnan(libc)) {
    CHECK(std::isnan(ours));
  } else {
    CHECK(std::memcmp(&ours, &libc, sizeof ours) == 0);  // bit for bit, the sign of zero included
  }
}

}  // namespace

TEST_CASE("strtod: hand-picked texts") {
  for (const char* text :
       {"0",
        "-0",
        "0.0",
        "1",
        "-1",
        "0.1",
        "0.2",
        "0.3",
        "17.6289",
        "55.04",
        "0.9154",
        "1e22",
        "1e23",
        "9007199254740992",
        "9007199254740993",
        "9007199254740995",
        "123456789012345678901234567890",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "1e400",
        "-1e400",
        "2.2250738585072011e-308",
        "2.2250738585072014e-308",
        "4.9e-324",
        "2.4e-324",
        "1e-400",
        "0.000000000000000000000000001",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "7.44e2",
        "744.",
        ".5",
        "5.e3",
        "1e",
        "1e+",
        "1e-",
        "1e+5x",
        "  42",
        "+3.5",
        "-",
        "",
        "abc",
        "inf",
        "-Infinity",
        "nan",
        "1x",
        "00012.500",
        "0.00000000000000000000000000000000000000000000000000000000000000000000001",
        "1000000000000000000000000000000000000000000000000000000000000000000000000e-70",
        "4503599627370496.5",
        "4503599627370497.5",
        "1e-22",
        "1e-23",
        "123456789e-30",
        "12345678901234567e5"}) {
    same_as_libc(text);
  }
}

TEST_CASE("strtod: random decimals of 1 to 40 digits, exponents -340 to 340") {
  std::mt19937_64 random(18);
  for (int i = 0; i < 200000; ++i) {
    std::string text = (random() % 4 == 0) ? "-" : "";
    const int digits = 1 + static_cast<int>(random() % 40);
    const int point = static_cast<int>(random() % (digits + 1));
    for (int d = 0; d < digits; ++d) {
      if (d == point && d > 0) text += '.';
      text += static_cast<char>('0' + random() % 10);
    }
    if (random() % 2 == 0) text += "e" + std::to_string(static_cast<int>(random() % 681) - 340);
    same_as_libc(text);
  }
}
