#pragma once
// An example for every command's --help (its footer), which the man page prints too.

#include <CLI/CLI.hpp>

namespace gpufleet::cli {

// Sets the footer of every command of `app` to its examples; throws std::logic_error naming a
// command without one (a new command gets its example when it is added).
void add_examples(CLI::App& app);

}  // namespace gpufleet::cli
