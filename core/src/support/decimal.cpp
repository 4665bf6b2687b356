#include "support/decimal.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gpufleet::decimal {
namespace {

// A whole number's decimal digits.
std::string digits_of(std::uint64_t u) {
  char text[20];
  char* p = text + sizeof text;
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  return std::string(p, text + sizeof text);
}

// The exact value of |x| (finite) as decimal digits and how many of them follow the point:
// x = m * 2^e, so m << e when e >= 0 and m * 5^-e / 10^-e otherwise, in base-1e9 limbs.
struct Exact {
  std::string digits;  // at least frac + 1 digits (leading zeros kept for that)
  int frac = 0;
};

void multiply(std::vector<std::uint32_t>& limbs, std::uint32_t factor) {
  std::uint64_t carry = 0;
  for (std::uint32_t& limb : limbs) {
    const std::uint64_t v = std::uint64_t{limb} * factor + carry;
    limb = static_cast<std::uint32_t>(v % 1000000000u);
    carry = v / 1000000000u;
  }
  while (carry) {
    limbs.push_back(static_cast<std::uint32_t>(carry % 1000000000u));
    carry /= 1000000000u;
  }
}

Exact exact(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
  int e = biased ? biased - 1075 : -1074;
  if (biased) m |= std::uint64_t{1} << 52;
  if (m == 0) return Exact{"0", 0};
  std::vector<std::uint32_t> limbs;
  limbs.reserve(e < 0 ? 4 + (-e * 7 / 64) : 4 + e / 29);
  limbs.push_back(static_cast<std::uint32_t>(m % 1000000000u));
  limbs.push_back(static_cast<std::uint32_t>(m / 1000000000u % 1000000000u));
  limbs.push_back(static_cast<std::uint32_t>(m / 1000000000000000000u));
  Exact out;
  if (e >= 0) {
    for (; e > 0; e -= 29) multiply(limbs, std::uint32_t{1} << (e < 29 ? e : 29));
  } else {
    out.frac = -e;
    for (int k = -e; k > 0; k -= 13) {
      std::uint32_t p = 1;
      for (int i = 0; i < (k < 13 ? k : 13); ++i) p *= 5;
      multiply(limbs, p);
    }
  }
  while (limbs.size() > 1 && limbs.back() == 0) limbs.pop_back();
  char text[10];
  for (std::size_t i = limbs.size(); i-- > 0;) {
    std::uint32_t v = limbs[i];
    for (int d = 8; d >= 0; --d, v /= 10) text[d] = static_cast<char>('0' + v % 10);
    out.digits.append(text, 9);
  }
  const std::size_t lead = out.digits.find_first_not_of('0');
  const std::size_t keep = static_cast<std::size_t>(out.frac) + 1;
  const std::size_t drop = lead == std::string::npos ? out.digits.size() : lead;
  if (out.digits.size() - drop >= keep) {
    out.digits.erase(0, drop);
  } else if (out.digits.size() >= keep) {
    out.digits.erase(0, out.digits.size() - keep);
  } else {
    out.digits.insert(0, keep - out.digits.size(), '0');
  }
  return out;
}

// Cuts `digits` to its first `keep` digits (keep >= 1), rounding half to even; true when the
// carry added a digit in front.
bool round_to(std::string& digits, std::size_t keep) {
  if (digits.size() <= keep) return false;
  const char next = digits[keep];
  bool up = next > '5';
  if (next == '5') {
    up = digits.find_first_not_of('0', keep + 1) != std::string::npos || (digits[keep - 1] - '0') % 2;
  }
  digits.resize(keep);
  if (!up) return false;
  for (std::size_t i = keep; i-- > 0;) {
    if (digits[i] != '9') {
      ++digits[i];
      return false;
    }
    digits[i] = '0';
  }
  digits.insert(0, 1, '1');
  return true;
}

// |x| rounded half to even to a whole number of 10^-decimals, when that takes no big numbers:
// x = m * 2^e, so |x| * 10^d = m * 5^d * 2^(e + d), and with m < 2^53 and 5^d < 2^63 (d <= 27)
// the product fits 128 bits: a shift and the bits it drops give the rounded value exactly.
// False when the result would not fit 64 bits (then exact() answers).
__extension__ typedef unsigned __int128 Wide;  // GCC and Clang, wasm32 included

bool scaled(double x, int d, std::uint64_t& q) {
  if (d > 27) return false;
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
  const int e = biased ? biased - 1075 : -1074;
  if (biased) m |= std::uint64_t{1} << 52;
  std::uint64_t five = 1;
  for (int i = 0; i < d; ++i) five *= 5;
  const Wide n = static_cast<Wide>(m) * five;
  const int k = e + d;
  if (k >= 0) {
    if (k >= 64 || (n >> (64 - k)) != 0) return false;
    q = static_cast<std::uint64_t>(n << k);
    return true;
  }
  const int s = -k;
  if (s >= 118) {  // n < 2^116 <= half of 2^s: below one half
    q = 0;
    return true;
  }
  Wide whole = n >> s;
  const Wide dropped = n - (whole << s);
  const Wide half = static_cast<Wide>(1) << (s - 1);
  if (dropped > half || (dropped == half && (whole & 1))) ++whole;
  if (whole >> 64) return false;
  q = static_cast<std::uint64_t>(whole);
  return true;
}

std::string special(double x) {
  if (std::isnan(x)) return std::signbit(x) ? "-nan" : "nan";
  return x < 0 ? "-inf" : "inf";
}

// Removes trailing zeros after a point, and the point if nothing follows it.
void strip_zeros(std::string& text) {
  if (text.find('.') == std::string::npos) return;
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
}

}  // namespace

std::string fixed(double x, int decimals) {
  if (!std::isfinite(x)) return special(x);
  decimals = decimals < 0 ? 0 : decimals > 40 ? 40 : decimals;
  std::string text(std::signbit(x) ? 1 : 0, '-');
  if (std::uint64_t q = 0; scaled(x, decimals, q)) {
    std::string digits = digits_of(q);
    if (digits.size() <= static_cast<std::size_t>(decimals)) digits.insert(0, static_cast<std::size_t>(decimals) + 1 - digits.size(), '0');
    text.append(digits, 0, digits.size() - static_cast<std::size_t>(decimals));
    if (decimals > 0) text.append(1, '.').append(digits, digits.size() - static_cast<std::size_t>(decimals), std::string::npos);
    return text;
  }
  Exact e = exact(x);
  if (e.frac <= decimals) {
    e.digits.append(static_cast<std::size_t>(decimals - e.frac), '0');
  } else {
    round_to(e.digits, e.digits.size() - static_cast<std::size_t>(e.frac - decimals));
  }
  const std::size_t point = e.digits.size() - static_cast<std::size_t>(decimals);
  text.append(e.digits, 0, point);
  if (decimals > 0) text.append(1, '.').append(e.digits, point, std::string::npos);
  return text;
}

std::string general(double x, int precision) {
  if (!std::isfinite(x)) return special(x);
  const int p = precision < 1 ? 1 : precision > 40 ? 40 : precision;
  int exponent = 0;
  std::string digits;
  if (x != 0) {
    Exact e = exact(x);
    const std::size_t lead = e.digits.find_first_not_of('0');
    digits = e.digits.substr(lead);
    exponent = static_cast<int>(e.digits.size() - lead) - e.frac - 1;
    if (round_to(digits, static_cast<std::size_t>(p))) ++exponent;
  }
  std::string text;
  if (exponent < p && exponent >= -4) {
    text = fixed(x, p - 1 - exponent);
    strip_zeros(text);
    return text;
  }
  digits.resize(static_cast<std::size_t>(p), '0');
  text.assign(std::signbit(x) ? 1 : 0, '-');
  text.append(1, digits[0]);
  if (p > 1) text.append(1, '.').append(digits, 1, std::string::npos);
  strip_zeros(text);
  const int magnitude = exponent < 0 ? -exponent : exponent;
  text.append(exponent < 0 ? "e-" : "e+");
  if (magnitude < 10) text.append(1, '0');
  text.append(whole(magnitude));
  return text;
}

std::string whole(long long n) {
  const auto u = static_cast<std::uint64_t>(n);
  if (n >= 0) return digits_of(u);
  std::string text(1, '-');
  return text.append(digits_of(0 - u));
}

}  // namespace gpufleet::decimal
