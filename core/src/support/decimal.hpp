#pragma once
// Numbers as decimal text, exactly as printf writes them (round half to even on the exact binary
// value), without printf: the C library's printf formats through 128-bit long double arithmetic
// done in software, a large part of the WebAssembly module (docs/performance.md).
#include <string>

namespace gpufleet::decimal {

// printf's "%.*f": `decimals` digits after the point (0 to 40).
std::string fixed(double x, int decimals);

// printf's "%.*g": `precision` significant digits (0 counts as 1, at most 40), trailing zeros
// removed, the exponent form ("1.5e+20") where printf uses it.
std::string general(double x, int precision = 6);

// A whole number, as std::to_string writes it (without libc++'s digit tables beside nlohmann's).
std::string whole(long long n);

}  // namespace gpufleet::decimal
