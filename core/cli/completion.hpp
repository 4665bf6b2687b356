#pragma once
// Shell completion scripts and the manual page, generated from the CLI's own option definitions
// (the CLI11 app), so that they name exactly the commands, options and allowed values it parses.

#include <string>

#include <CLI/CLI.hpp>

namespace gpufleet::cli {

// A bash completion script (`complete -F _gpufleet gpufleet`).
std::string bash_completion(const CLI::App& app);

// A zsh completion function (`#compdef gpufleet`, for a directory of $fpath as `_gpufleet`).
std::string zsh_completion(const CLI::App& app);

// The manual page in roff (man(7)), section 1.
std::string man_page(const CLI::App& app, const std::string& version);

}  // namespace gpufleet::cli
