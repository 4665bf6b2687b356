#pragma once
// Numbers as the answers show them: rounded once, and short decimal texts for basis strings.

#include <string>

namespace gpufleet::text {

// `value` rounded to `decimals` (0-6); 0 for NaN or infinity, never "-0".
double round_to(double value, int decimals);
// "13", "0.25", "1.5": at most 3 decimals, no trailing zeros.
std::string short_number(double value);

}  // namespace gpufleet::text
