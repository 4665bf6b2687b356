#pragma once
// "Did you mean" for a command line CLI11 refused: the nearest command or option names.

#include <CLI/CLI.hpp>
#include <string>

namespace gpufleet::cli {

// A line naming the nearest commands or options to the first word of argv that none matches
// ("did you mean recommend?"); "" when there is no such word or nothing near it.
std::string did_you_mean(const CLI::App& app, int argc, char** argv);

}  // namespace gpufleet::cli
