#pragma once
// "Did you mean": the names nearest a mistyped one, for every door (the core's errors, the CLI's
// commands and options).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpufleet {

// Edit distance (Levenshtein) of two short names: insertions, deletions and substitutions.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The names of `candidates` a typo of `typed` could be (ASCII case ignored), nearest first, at
// most `limit`: those within a quarter of the longer name's length (at least 2 edits).
std::vector<std::string> nearest_names(std::string_view typed,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit = 3);

}  // namespace gpufleet
