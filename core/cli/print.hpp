#pragma once
// Human-readable tables for analyzer responses (the --json flag prints the response itself).

#include <ostream>

#include "gpufleet/catalog.hpp"

namespace gpufleet::cli {

void print(std::ostream& out, std::ostream& err, const Json& response);

}  // namespace gpufleet::cli
