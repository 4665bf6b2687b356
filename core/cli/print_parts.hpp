#pragma once
// What print.cpp, print_tools.cpp and print_catalog.cpp share: the workload's lines and each
// tool's and the catalog's printers.

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

void print_workloads(std::ostream& out, const Json& r);
void print_validate(std::ostream& out, const Json& r);
void print_catalog(std::ostream& out, const Json& r);
void print_accuracy(std::ostream& out, const Json& r);

}  // namespace gpufleet::cli::detail
