#pragma once
// The tables and text of the CLI's output: cells that keep their raw values for CSV, columns with
// their CSV names (units in the names), text tables fitted to the terminal, CSV and Markdown.

#include <ostream>
#include <string>
#include <vector>

#include "json.hpp"
#include "print.hpp"

namespace gpufleet::cli {

extern PrintOptions g_options;  // set once per print() call; the CLI prints one response per run
extern std::ostream* g_tables;  // CSV: where tables go while the prose is discarded

// Marks a line of a text table, already fitted, for the prose wrapper (which removes the mark).
constexpr char kTableLine = '\x01';

// One cell of a table: the text people read, and the values behind it, one per CSV column of its
// table column (full precision, no units: the unit is in the CSV header).
struct Cell {
  std::string shown;
  std::vector<Json> raw;
};

// A table column: its title, its CSV columns (units in their names), and how it yields to a
// narrow terminal: `detail` > 0 moves it to a line under each row (highest first), `wrap` lets free
// text wrap onto more lines. An empty title is a CSV-only column.
struct Column {
  std::string title;
  std::vector<std::string> csv;
  int detail = 0;
  bool wrap = false;
};

using Row = std::vector<Cell>;

// printf's "%.*f" at any magnitude (1e308 has 309 digits).
std::string fixed(double x, int decimals);
std::string num(const Json& value, int decimals = 2);
std::string money(const Json& value);
std::string text(const Json& value);

Cell cell(const Json& value);
Cell cell(std::string shown, std::vector<Json> raw);
// A number shown with `decimals` and a unit after it; the raw value keeps its full precision.
Cell quantity(const Json& value, int decimals, const std::string& unit = "");
Cell usd(const Json& value);
Cell blank();

std::string csv_field(const std::string& text);
std::string paint(const std::string& text, const char* colour);
// Columns a terminal shows: UTF-8 code points, ANSI colour sequences left out.
std::size_t display_width(const std::string& s);
// TEXT broken at spaces into lines of at most `width` columns; a longer word stays whole, or with
// `break_words` is cut into pieces of the width.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width,
                                    bool break_words = false);

// A table as the output format asks: CSV, Markdown or text fitted to the terminal.
void table(std::ostream& prose_out, const std::vector<Column>& columns,
           const std::vector<Row>& rows);

// Prose lines longer than the width broken at spaces, each continuation indented under its line;
// table lines already fit.
std::string wrap_prose(const std::string& text, std::size_t width);

}  // namespace gpufleet::cli
