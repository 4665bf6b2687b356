// strtod for the WebAssembly module, in place of the C library's (which the linker then leaves
// out). Its only caller is the JSON parser (nlohmann's lexer, on a number token it has checked);
// the C library's reads through 128-bit long double arithmetic in software, about 5 KB gzipped of
// the module (docs/performance.md). Correctly rounded like it: a decimal of at most 19
// significant digits times a power of ten up to 10^22 is one exact IEEE operation (Clinger's fast
// path: nearly every number of a catalog or request); any other number is read by JavaScript's
// Number(), which is correctly rounded too. Reads the decimal forms, "inf", "infinity" and "nan";
// hexadecimal floats are not read (nothing in gpufleet writes them).
// tests/unit/strtod_test.cpp compiles this file natively as gpufleet_strtod, the slow path read by
// the C library, and compares it with the C library's strtod.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define GPUFLEET_STRTOD strtod
#else
#include <string>
#define GPUFLEET_STRTOD gpufleet_strtod
#endif

namespace {

#ifdef __EMSCRIPTEN__
// The exact decimal text [text, text + size) (ASCII) as JavaScript reads it.
EM_JS(double, gpufleet_read_number, (const char* text, int size),
      { return Number(new TextDecoder().decode(HEAPU8.subarray(text, text + size))); });
#else
double gpufleet_read_number(const char* text, int size) {
  return std::strtod(std::string(text, static_cast<std::size_t>(size)).c_str(), nullptr);
}
#endif

bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// How many characters of `word` text starts with, ignoring case (all of them or 0).
int starts_with(const char* text, const char* word) {
  int n = 0;
  for (; word[n] != '\0'; ++n) {
    if (lower(text[n]) != word[n]) return 0;
  }
  return n;
}

}  // namespace

extern "C" double GPUFLEET_STRTOD(const char* text, char** end) {
  const char* p = text;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) ++p;
  const char* start = p;
  const bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  const double sign = negative ? -1.0 : 1.0;
  if (int n = starts_with(p, "infinity") ? 8 : starts_with(p, "inf") ? 3 : 0) {
    if (end) *end = const_cast<char*>(p + n);
    return sign * HUGE_VAL;
  }
  if (int n = starts_with(p, "nan")) {
    if (end) *end = const_cast<char*>(p + n);
    return NAN;
  }
  std::uint64_t digits = 0;  // the first 19 significant digits
  int kept = 0, exponent = 0;
  bool any = false, exact = true;
  auto digit = [&](char c, bool fraction) {
    any = true;
    if (digits == 0 && c == '0') {
      exponent -= fraction;  // a leading zero
    } else if (kept < 19) {
      digits = digits * 10 + static_cast<std::uint64_t>(c - '0');
      ++kept;
      exponent -= fraction;
    } else {
      exponent += !fraction;
      exact = exact && c == '0';
    }
  };
  for (; is_digit(*p); ++p) digit(*p, false);
  if (*p == '.') {
    for (++p; is_digit(*p); ++p) digit(*p, true);
  }
  if (!any) {
    if (end) *end = const_cast<char*>(text);
    return 0.0;
  }
  if (lower(*p) == 'e') {
    const char* q = p + 1;
    const bool minus = *q == '-';
    if (*q == '-' || *q == '+') ++q;
    if (is_digit(*q)) {
      int e = 0;
      for (; is_digit(*q); ++q) e = e < 100000 ? e * 10 + (*q - '0') : e;
      exponent += minus ? -e : e;
      p = q;
    }
  }
  if (end) *end = const_cast<char*>(p);
  if (digits == 0) return sign * 0.0;
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (exact && digits <= (std::uint64_t{1} << 53) && exponent >= -22 && exponent <= 22) {
    const double m = static_cast<double>(digits);
    return sign * (exponent < 0 ? m / kPowers[-exponent] : m * kPowers[exponent]);
  }
  const double value = gpufleet_read_number(start, static_cast<int>(p - start));
  if (value == 0.0 || std::isinf(value)) errno = ERANGE;
  return value;
}

#ifdef __EMSCRIPTEN__
// The C library's strtod.o also defines these two; libc++ names strtof (std::stof), so both are
// defined here, or the linker would bring that file back. Nothing in gpufleet calls them.
extern "C" float strtof(const char* text, char** end) {
  return static_cast<float>(strtod(text, end));
}
extern "C" long double strtold(const char* text, char** end) { return strtod(text, end); }
#endif
