#pragma once
// The CLI's edges (issue 39): arguments that are not UTF-8, control characters on their way to a
// terminal, and an answer that could not be written.

#include <string>
#include <string_view>

namespace gpufleet::cli {

bool valid_utf8(std::string_view text);
// The offset of the first byte of TEXT that does not begin a valid UTF-8 character (overlong forms
// and surrogates included); npos when it is all valid.
std::size_t utf8_error_at(std::string_view text);

// The first argument that is not valid UTF-8, as a usage message naming it (its position and the
// option it belongs to); "" when every argument is valid.
std::string invalid_utf8_argument(int argc, char** argv);

// TEXT with its control characters (C0 but newline and tab, DEL, C1) written as \xHH, so that a
// catalog string cannot move the cursor, recolour or retitle a terminal.
std::string escape_controls(std::string_view text);

// escape_controls over a whole text, except, with `keep_colour`, the colour sequences (ESC [ n ; n
// m) the printer paints status words with; without it (NO_COLOR, not a terminal) every ESC is
// escaped.
std::string escape_terminal(std::string_view text, bool keep_colour);

// Flushes standard output; on a failure (closed descriptor, full disk, closed pipe) says so on
// standard error and returns false.
bool output_written();

}  // namespace gpufleet::cli
