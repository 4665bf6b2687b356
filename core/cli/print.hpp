#pragma once
// Human-readable tables for analyzer responses (the --json flag prints the response itself).

#include <ostream>

#include "gpufleet/analyzer.hpp"
#include "json.hpp"

namespace gpufleet::cli {

enum class Format { kTable, kCsv, kMarkdown };

struct PrintOptions {
  Format format = Format::kTable;
  bool colour = false;  // ANSI colour for status words (only on a terminal)
  int width = 100;      // columns a table line (and a line of prose) may take
};

// The width output should fit: COLUMNS when set to a number, else the terminal's when standard
// output is one, else 100.
int terminal_width();

// Tables and prose; CSV prints the tables only (RFC 4180), Markdown prints pipe tables.
void print(std::ostream& out, std::ostream& err, const Json& response, const PrintOptions& options = {});

}  // namespace gpufleet::cli
