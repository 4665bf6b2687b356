#pragma once
// Shell completion scripts and the manual page, generated from the CLI's own option definitions
// (the CLI11 app), so that they name exactly the commands, options and allowed values it parses.

#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpufleet::cli {

// The catalog's names a value completes to, by option ("--model": the concrete models' keys,
// "--instance": instance types and families, "--gpu", "--region", ...).
using CatalogNames = std::map<std::string, std::vector<std::string>>;

// The names of the catalogs the CLI finds (--config, GPUFLEET_CONFIG, installed, source tree),
// asked of the analyzer (the catalog question); empty when none are found.
CatalogNames catalog_names(const std::string& config_dir, const char* argv0);

// A bash completion script (`complete -F _gpufleet gpufleet`).
std::string bash_completion(const CLI::App& app, const CatalogNames& names = {});

// A zsh completion function (`#compdef gpufleet`, for a directory of $fpath as `_gpufleet`).
std::string zsh_completion(const CLI::App& app, const CatalogNames& names = {});

// The manual page in roff (man(7)), section 1.
std::string man_page(const CLI::App& app, const std::string& version);

}  // namespace gpufleet::cli
