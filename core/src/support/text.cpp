#include "support/text.hpp"

#include <cmath>

#include "support/decimal.hpp"

namespace gpufleet::text {

double round_to(double value, int decimals) {
  if (!std::isfinite(value)) return 0;
  static constexpr double kScale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
  const double scale = kScale[decimals < 0 ? 0 : decimals > 6 ? 6 : decimals];
  const double r = std::round(value * scale) / scale;
  return r == 0 ? 0 : r;  // no "-0"
}

std::string short_number(double value) {
  const double rounded = round_to(value, 3);
  // Whole numbers (GPU, token and sequence counts) are most of them and need no printf.
  if (rounded == std::floor(rounded) && std::fabs(rounded) < 1e15) {
    return decimal::whole(static_cast<long long>(rounded));
  }
  std::string text = decimal::fixed(rounded, 3);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

}  // namespace gpufleet::text
