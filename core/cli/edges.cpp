#include "edges.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace gpufleet::cli {

bool valid_utf8(std::string_view s) { return utf8_error_at(s) == std::string_view::npos; }

std::size_t utf8_error_at(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t more = 0;
    unsigned min = 0, code = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      more = 1, min = 0x80, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      more = 2, min = 0x800, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      more = 3, min = 0x10000, code = c & 0x07;
    } else {
      return i;
    }
    if (i + more >= s.size()) return i;
    for (std::size_t k = 1; k <= more; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return i;
      code = (code << 6) | (d & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if (code < min || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return i;
    i += more + 1;
  }
  return std::string_view::npos;
}

std::string invalid_utf8_argument(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (valid_utf8(arg)) continue;
    std::string where = "argument " + std::to_string(i);
    if (arg.rfind("--", 0) == 0) {
      const std::string_view name = arg.substr(0, arg.find('='));
      if (valid_utf8(name)) where += " (" + std::string(name) + ")";
    } else if (i > 1 && std::string_view(argv[i - 1]).rfind("--", 0) == 0 &&
               valid_utf8(argv[i - 1])) {
      where += " (the value of " + std::string(argv[i - 1]) + ")";
    }
    // The argument as it can be shown: its bytes that are not UTF-8 as \xHH.
    std::string shown;
    for (std::size_t k = 0; k < arg.size();) {
      std::size_t n = 1;
      while (n <= 4 && k + n <= arg.size() && !valid_utf8(arg.substr(k, n))) ++n;
      if (n <= 4 && k + n <= arg.size()) {
        shown += escape_controls(arg.substr(k, n));
        k += n;
      } else {
        static const char* kHex = "0123456789abcdef";
        const auto c = static_cast<unsigned char>(arg[k++]);
        shown += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
      }
    }
    return where + " is not valid UTF-8: \"" + shown + "\"";
  }
  return "";
}

std::string escape_controls(std::string_view text) {
  static const char* kHex = "0123456789abcdef";
  auto hex = [](unsigned char c) { return std::string("\\x") + kHex[c >> 4] + kHex[c & 15]; };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      out += hex(c);
    } else if (c == 0xC2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      out += "\\u00" + std::string(1, kHex[static_cast<unsigned char>(text[i + 1]) >> 4]) +
             kHex[static_cast<unsigned char>(text[i + 1]) & 15];
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string escape_terminal(std::string_view text, bool keep_colour) {
  std::string out;
  out.reserve(text.size());
  std::size_t done = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\x1b' || !keep_colour) continue;
    // ESC [ digits and semicolons m: a colour (SGR) and nothing else.
    std::size_t j = i + 1;
    if (j < text.size() && text[j] == '[') {
      ++j;
      while (j < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == ';'))
        ++j;
      if (j < text.size() && text[j] == 'm') {
        out += escape_controls(text.substr(done, i - done));
        out += text.substr(i, j + 1 - i);
        done = j + 1;
        i = j;
      }
    }
  }
  out += escape_controls(text.substr(done));
  return out;
}

bool output_written() {
  std::cout.flush();
  const bool ok = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (ok) return true;
  const int error = errno;
  std::cerr << "gpufleet: the answer could not be written to standard output"
            << (error != 0 ? std::string(": ") + std::strerror(error) : std::string()) << "\n";
  return false;
}

}  // namespace gpufleet::cli
