#include "table.hpp"

#include <cmath>

#include "edges.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace gpufleet::cli {

PrintOptions g_options;
std::ostream* g_tables = nullptr;

// printf's "%.*f" at any magnitude (1e308 has 309 digits).
std::string fixed(double x, int decimals) {
  const int size = std::snprintf(nullptr, 0, "%.*f", decimals, x);
  std::string text(static_cast<std::size_t>(std::max(size, 0)) + 1, '\0');
  std::snprintf(text.data(), text.size(), "%.*f", decimals, x);
  text.resize(static_cast<std::size_t>(std::max(size, 0)));
  return text;
}

std::string num(const Json& value, int decimals) {
  if (!value.is_number()) return "-";
  return fixed(value.get<double>(), decimals);
}

std::string money(const Json& value) {
  if (!value.is_number()) return "n/a";
  const double x = value.get<double>();
  const std::string digits = fixed(x < 0 ? -x : x, 2);
  const std::size_t point = std::min(digits.find('.'), digits.size());
  std::string whole = digits.substr(0, point), grouped;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
    grouped += whole[i];
  }
  return std::string(x < 0 ? "-$" : "$") + grouped + digits.substr(point);
}

std::string text(const Json& value) {
  if (value.is_string()) return escape_controls(value.get<std::string>());
  if (value.is_null()) return "-";
  return value.dump();
}

Cell cell(const Json& value) { return {text(value), {value}}; }
Cell cell(std::string shown, std::vector<Json> raw) { return {std::move(shown), std::move(raw)}; }
// A number shown with `decimals` and a unit after it; the raw value keeps its full precision.
Cell quantity(const Json& value, int decimals, const std::string& unit) {
  return {value.is_number() ? num(value, decimals) + unit : "-",
          {value.is_number() ? value : Json()}};
}
Cell usd(const Json& value) { return {money(value), {value.is_number() ? value : Json()}}; }
Cell blank() { return {"", {}}; }

// A text a spreadsheet would run as a formula (=, +, -, @, tab or CR first; not a plain number or
// the lone "-" of an empty cell) gets a leading apostrophe (OWASP, CSV injection).
static bool formula_like(const std::string& field) {
  if (field.empty() || field == "-" || std::string("=+-@\t\r").find(field[0]) == std::string::npos)
    return false;
  std::size_t i = field[0] == '+' || field[0] == '-' ? 1 : 0, digits = 0, dots = 0;
  for (; i < field.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(field[i])))
      ++digits;
    else if (field[i] == '.' && dots == 0 && digits > 0)
      ++dots;
    else
      return true;
  }
  return digits == 0;
}

std::string csv_field(const std::string& text) {
  const std::string field = formula_like(text) ? "'" + text : text;
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string quoted = "\"";
  for (char c : field) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// A raw value as one CSV cell: numbers as the JSON has them (a number is never text, so a negative
// number stays a number), strings neutralised and quoted, null empty.
static std::string csv_value(const Json& value) {
  if (value.is_null()) return "";
  // A count held as a floating-point number (4.0) is written as the integer it is (4).
  if (value.is_number_float() && std::abs(value.get<double>()) < 1e15 &&
      value.get<double>() == std::floor(value.get<double>()))
    return fixed(value.get<double>(), 0);
  if (value.is_number() || value.is_boolean()) return value.dump();
  if (value.is_string()) return csv_field(escape_controls(value.get<std::string>()));
  if (value.is_array()) {
    std::string joined;
    for (const auto& v : value) joined += (joined.empty() ? "" : " ") + text(v);
    return csv_field(joined);
  }
  return csv_field(value.dump());
}

static std::string md_field(const std::string& field) {
  std::string out;
  for (char c : field) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string paint(const std::string& text, const char* colour) {
  return g_options.colour ? std::string("\x1b[") + colour + "m" + text + "\x1b[0m" : text;
}

// Columns a terminal shows: UTF-8 code points, ANSI colour sequences left out.
std::size_t display_width(const std::string& s) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++width;
  }
  return width;
}

// The first `n` columns of S (whole UTF-8 characters).
static std::string take_columns(const std::string& s, std::size_t n) {
  std::size_t i = 0, seen = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && seen++ == n) break;
  }
  return s.substr(0, i);
}

// TEXT broken at spaces into lines of at most `width` columns; a longer word stays whole, or with
// `break_words` is cut into pieces of the width.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width, bool break_words) {
  std::vector<std::string> lines;
  std::string line, word;
  std::istringstream words(text);
  while (words >> word) {
    while (break_words && width > 0 && display_width(word) > width) {
      if (!line.empty()) lines.push_back(line);
      line.clear();
      const std::string piece = take_columns(word, width);
      lines.push_back(piece);
      word.erase(0, piece.size());
    }
    if (word.empty()) continue;
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

static std::size_t longest_word(const std::string& text) {
  std::size_t longest = 0;
  std::istringstream words(text);
  for (std::string word; words >> word;) longest = std::max(longest, display_width(word));
  return longest;
}

static void csv_table(std::ostream& out, const std::vector<Column>& columns,
                      const std::vector<Row>& rows) {
  static int tables_written = 0;
  if (tables_written++ > 0) out << "\r\n";  // a blank line between tables
  bool first = true;
  for (const auto& c : columns)
    for (const auto& name : c.csv)
      out << (std::exchange(first, false) ? "" : ",") << csv_field(name);
  out << "\r\n";
  for (const auto& row : rows) {
    first = true;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      for (std::size_t k = 0; k < columns[c].csv.size(); ++k) {
        const bool have = c < row.size() && k < row[c].raw.size();
        out << (std::exchange(first, false) ? "" : ",") << (have ? csv_value(row[c].raw[k]) : "");
      }
    }
    out << "\r\n";
  }
}

// A table in the terminal's width: free-text columns wrap, then low-priority columns move to a
// detail line under each row, until every line fits (or nothing more can give way).
static void text_table(std::ostream& out, const std::vector<Column>& columns,
                       const std::vector<Row>& rows) {
  const std::size_t limit = g_options.width > 0 ? static_cast<std::size_t>(g_options.width) : 100;
  std::vector<std::size_t> shown, moved;
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (!columns[c].title.empty()) shown.push_back(c);
  auto shown_text = [&](const Row& row, std::size_t c) {
    return c < row.size() ? row[c].shown : std::string();
  };
  std::vector<std::size_t> natural(columns.size()), floor(columns.size());
  for (std::size_t c : shown) {
    natural[c] = display_width(columns[c].title);
    std::size_t word = natural[c];
    for (const auto& row : rows) {
      natural[c] = std::max(natural[c], display_width(shown_text(row, c)));
      word = std::max(word, longest_word(shown_text(row, c)));
    }
    floor[c] = columns[c].wrap ? std::min(natural[c], std::max<std::size_t>(word, 16)) : natural[c];
  }
  std::vector<std::size_t> width;
  auto visible_of = [&] {
    std::vector<std::size_t> visible;
    for (std::size_t c : shown)
      if (std::find(moved.begin(), moved.end(), c) == moved.end()) visible.push_back(c);
    return visible;
  };
  // Sets `width` for the columns not moved, narrowing the wrapping ones (the widest first) down to
  // their floors; true when the line then fits.
  auto fits = [&] {
    const std::vector<std::size_t> visible = visible_of();
    width = natural;
    std::size_t total = 0;
    for (std::size_t c : visible) total += width[c] + 2;
    total -= 2;
    while (total > limit) {
      std::size_t widest = columns.size();
      for (std::size_t c : visible)
        if (width[c] > floor[c] && (widest == columns.size() || width[c] > width[widest]))
          widest = c;
      if (widest == columns.size()) break;
      --width[widest];
      --total;
    }
    return total <= limit;
  };
  // Move columns to the detail line, the highest `detail` first, until the line fits; then bring
  // back, the most important first, those that fit beside the rest after all.
  while (!fits()) {
    std::size_t next = columns.size();
    for (std::size_t c : visible_of())
      if (columns[c].detail > 0 &&
          (next == columns.size() || columns[c].detail >= columns[next].detail))
        next = c;
    if (next == columns.size())
      break;  // nothing more can give way: the content is wider than the line
    moved.push_back(next);
  }
  for (std::size_t i = moved.size(); i-- > 0;) {
    const std::size_t c = moved[i];
    moved.erase(moved.begin() + static_cast<std::ptrdiff_t>(i));
    if (!fits()) moved.insert(moved.begin() + static_cast<std::ptrdiff_t>(i), c);
  }
  // Still too wide: free text may break inside its words (paths, long names), down to 8 columns.
  std::vector<bool> wrapping(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) wrapping[c] = columns[c].wrap;
  bool break_words = false;
  if (!fits()) {
    break_words = true;
    for (std::size_t c : shown)
      if (columns[c].wrap)
        floor[c] = std::min<std::size_t>(natural[c],
                                         std::max<std::size_t>(8, display_width(columns[c].title)));
  }
  // And last, any column but the first.
  if (!fits()) {
    for (std::size_t c : shown) {
      if (c == shown.front()) continue;
      wrapping[c] = true;
      floor[c] = std::min<std::size_t>(natural[c],
                                       std::max<std::size_t>(8, display_width(columns[c].title)));
    }
  }
  fits();
  const std::vector<std::size_t> visible = visible_of();
  auto emit = [&](const std::vector<std::string>& fields) {
    std::string line;
    for (std::size_t i = 0; i < visible.size(); ++i) {
      line += fields[i];
      if (i + 1 < visible.size())
        line += std::string(
            width[visible[i]] - std::min(width[visible[i]], display_width(fields[i])) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << kTableLine << line << "\n";
  };
  std::vector<std::string> fields;
  for (std::size_t c : visible) fields.push_back(columns[c].title);
  emit(fields);
  fields.clear();
  for (std::size_t c : visible) fields.push_back(std::string(width[c], '-'));
  emit(fields);
  for (const auto& row : rows) {
    std::vector<std::vector<std::string>> cells;
    std::size_t height = 1;
    for (std::size_t c : visible) {
      const std::string t = shown_text(row, c);
      cells.push_back(wrapping[c] && display_width(t) > width[c]
                          ? wrap_words(t, width[c], break_words)
                          : std::vector<std::string>{t});
      height = std::max(height, cells.back().size());
    }
    for (std::size_t line = 0; line < height; ++line) {
      fields.clear();
      for (const auto& lines : cells) fields.push_back(line < lines.size() ? lines[line] : "");
      emit(fields);
    }
    std::string detail;
    for (std::size_t c : shown) {
      if (std::find(moved.begin(), moved.end(), c) == moved.end()) continue;
      const std::string t = shown_text(row, c);
      if (t.empty() || t == "-") continue;
      detail += (detail.empty() ? "" : "; ") + columns[c].title + ": " + t;
    }
    if (!detail.empty())
      for (const auto& line : wrap_words(detail, limit > 8 ? limit - 4 : limit, true))
        out << kTableLine << "    " << line << "\n";
  }
}

void table(std::ostream& prose_out, const std::vector<Column>& columns,
           const std::vector<Row>& rows) {
  std::ostream& out = g_tables ? *g_tables : prose_out;
  if (g_options.format == Format::kCsv) return csv_table(out, columns, rows);
  if (g_options.format == Format::kMarkdown) {
    out << "\n|";
    for (const auto& c : columns)
      if (!c.title.empty()) out << " " << md_field(c.title) << " |";
    out << "\n|";
    for (const auto& c : columns)
      if (!c.title.empty()) out << " --- |";
    out << "\n";
    for (const auto& row : rows) {
      out << "|";
      for (std::size_t c = 0; c < columns.size(); ++c)
        if (!columns[c].title.empty())
          out << " " << md_field(c < row.size() ? row[c].shown : "") << " |";
      out << "\n";
    }
    out << "\n";
    return;
  }
  text_table(out, columns, rows);
}

// Prose lines longer than the width broken at spaces, each continuation indented under its line;
// table lines already fit.
std::string wrap_prose(const std::string& text, std::size_t width) {
  std::istringstream lines(text);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == kTableLine) {
      out += line.substr(1) + "\n";
      continue;
    }
    if (display_width(line) <= width) {
      out += line + "\n";
      continue;
    }
    const std::size_t indent =
        line.find_first_not_of(' ') == std::string::npos ? 0 : line.find_first_not_of(' ');
    if (indent + 8 > width) {
      out += line + "\n";
      continue;
    }
    std::string prefix(indent, ' '), current, word;
    std::size_t room = width - indent;
    std::istringstream words(line.substr(indent));
    while (words >> word) {
      if (!current.empty() && display_width(current) + 1 + display_width(word) > room) {
        out += prefix + current + "\n";
        current.clear();
        prefix.assign(indent + 2, ' ');
        room = width - prefix.size();
      }
      current += (current.empty() ? "" : " ") + word;
    }
    out += prefix + current + "\n";
  }
  return out;
}

int terminal_width() {
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && n > 0 && n < 10000) return static_cast<int>(n);
  }
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return 100;
}

}  // namespace gpufleet::cli
