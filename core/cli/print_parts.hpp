#pragma once
// What print.cpp and print_tools.cpp share: the workload's lines and each tool's printer.

#include <ostream>

#include "json.hpp"

namespace gpufleet::cli::detail {

// The workload as the core understood it, with its stated defaults.
void print_request(std::ostream& out, const Json& q);

void print_plan(std::ostream& out, const Json& r);
void print_autoscale(std::ostream& out, const Json& r);
void print_batch(std::ostream& out, const Json& r);
void print_placement(std::ostream& out, const Json& r);
void print_decide(std::ostream& out, const Json& r);
void print_spot(std::ostream& out, const Json& r);
void print_regions(std::ostream& out, const Json& r);

}  // namespace gpufleet::cli::detail
