// snprintf for the WebAssembly module, in place of the C library's (which the linker then leaves
// out, with its printf engine: about 3 KB gzipped of the module, docs/performance.md). The core
// formats its numbers itself (core/src/support/decimal.cpp); the only callers left are nlohmann_json's
// string escapes ("\\u%04x", "\\u%04x\\u%04x" for control characters) and its parse errors' names of
// bytes ("<U+%.4X>"). Reads literal text, "%%" and integer conversions (d, u, x, X; zero padding, a
// width or a precision, h/hh/l modifiers); any other conversion is a programming error and traps,
// so that a new caller cannot print silently wrong text.
#include <cstdarg>
#include <cstddef>

extern "C" int snprintf(char* out, std::size_t size, const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::size_t n = 0;
  auto put = [&](char c) {
    if (n + 1 < size) out[n] = c;
    ++n;
  };
  for (const char* f = format; *f; ++f) {
    if (*f != '%') {
      put(*f);
      continue;
    }
    ++f;
    if (*f == '%') {
      put('%');
      continue;
    }
    bool zero = *f == '0';
    int width = 0;
    for (; *f >= '0' && *f <= '9'; ++f) width = width * 10 + (*f - '0');
    if (*f == '.') {  // an integer's precision: at least that many digits
      zero = true;
      width = 0;
      for (++f; *f >= '0' && *f <= '9'; ++f) width = width * 10 + (*f - '0');
    }
    while (*f == 'h' || *f == 'l') ++f;  // int and long are one size here; hh/h values come promoted
    unsigned base = 10;
    bool upper = false, negative = false;
    unsigned value = 0;
    switch (*f) {
      case 'd': {
        const int v = va_arg(args, int);
        negative = v < 0;
        value = negative ? 0u - static_cast<unsigned>(v) : static_cast<unsigned>(v);
        break;
      }
      case 'u': value = va_arg(args, unsigned); break;
      case 'X': upper = true; [[fallthrough]];
      case 'x': base = 16; value = va_arg(args, unsigned); break;
      default: __builtin_trap();
    }
    char digits[12];
    int count = 0;
    do {
      const unsigned d = value % base;
      digits[count++] = static_cast<char>(d < 10 ? '0' + d : (upper ? 'A' : 'a') + d - 10);
      value /= base;
    } while (value);
    int pad = width - count - (negative ? 1 : 0);
    if (!zero) for (; pad > 0; --pad) put(' ');
    if (negative) put('-');
    if (zero) for (; pad > 0; --pad) put('0');
    while (count) put(digits[--count]);
  }
  if (size) out[n < size ? n : size - 1] = '\0';
  va_end(args);
  return static_cast<int>(n);
}
