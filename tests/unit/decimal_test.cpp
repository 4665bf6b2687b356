// The core's number texts (core/src/decimal.cpp) against the C library's printf, which they
// replace: the same text for "%.*f" and "%.*g" at every magnitude, ties rounded half to even on
// the exact binary value.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <climits>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "support/decimal.hpp"

namespace {

void same_as_printf(double x) {
  char expected[2048];
  for (int decimals : {0, 1, 2, 3, 4, 5, 6, 7, 8, 17, 27, 28, 40}) {
    std::snprintf(expected, sizeof expected, "%.*f", decimals, x);
    INFO("%." << decimals << "f of " << x);
    CHECK(gpufleet::decimal::fixed(x, decimals) == expected);
  }
  for (int precision = 0; precision <= 17; ++precision) {
    std::snprintf(expected, sizeof expected, "%.*g", precision, x);
    INFO("%." << precision << "g of " << x);
    CHECK(gpufleet::decimal::general(x, precision) == expected);
  }
}

}  // namespace

TEST_CASE("decimal: hand-picked values") {
  const double inf = std::numeric_limits<double>::infinity();
  for (double x : {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 2.675, 1.005, 0.0001, 0.00001, 9.9995,
                   99999.5, 999999.5, 123456.5, 0.00049999, 1e15, 1e16, 1e22, 1e300, -1e308,
                   5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, inf, -inf}) {
    same_as_printf(x);
  }
  CHECK(gpufleet::decimal::general(std::nan("")) == "nan");
  CHECK(gpufleet::decimal::fixed(0.125, 2) == "0.12");  // a tie: half to even
  CHECK(gpufleet::decimal::fixed(2.675, 2) == "2.67");  // 2.67499999... in binary
  CHECK(gpufleet::decimal::general(1.5e20, 4) == "1.5e+20");
}

TEST_CASE("decimal: random values of every magnitude") {
  std::mt19937_64 random(20261124);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = random();
    double any;
    std::memcpy(&any, &bits, sizeof any);
    if (std::isfinite(any)) same_as_printf(any);
    same_as_printf(std::ldexp(static_cast<double>(random() >> 11), static_cast<int>(random() % 120) - 90));
    // Prices, percentages and counts as the catalogs write them, and exact binary fractions (ties).
    same_as_printf(static_cast<double>(random() % 100000000) / std::pow(10.0, static_cast<int>(random() % 9)));
    same_as_printf(-static_cast<double>(random() % 2000000) / static_cast<double>(1 << (random() % 12)));
  }
}

TEST_CASE("decimal: whole numbers as std::to_string writes them") {
  std::mt19937_64 random(20261125);
  for (long long n : {0LL, 1LL, -1LL, 9LL, 10LL, -10LL, 4096LL, LLONG_MAX, LLONG_MIN}) CHECK(gpufleet::decimal::whole(n) == std::to_string(n));
  for (int i = 0; i < 20000; ++i) {
    const auto n = static_cast<long long>(random() >> (random() % 64));
    CHECK(gpufleet::decimal::whole(n) == std::to_string(n));
    if (n != LLONG_MIN) CHECK(gpufleet::decimal::whole(-n) == std::to_string(-n));
  }
}
