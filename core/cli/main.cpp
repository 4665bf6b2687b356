// gpufleet: the native CLI. Parses arguments into a request, asks the Analyzer, prints the answer.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "catalog_files.hpp"
#include "cli.hpp"
#include "completion.hpp"
#include "edges.hpp"
#include "examples.hpp"
#include "exit_codes.hpp"
#include "gpufleet/analyzer.hpp"
#include "gpufleet/schema.hpp"
#include "inputs.hpp"
#include "options.hpp"
#include "print.hpp"
#include "suggest.hpp"

namespace gpufleet::cli {

namespace {

// deploy's files: printed (one file as it is, several each after a "==> NAME <==" line), or
// written under `dir`, each path a name the core gave (relative, no "..").
bool write_deploy_files(const Json& files, const std::string& dir) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string name = files[i].value("name", ""), content = files[i].value("content", "");
    if (dir.empty()) {
      if (files.size() > 1) std::cout << (i ? "\n" : "") << "==> " << name << " <==\n";
      std::cout << content;
      continue;
    }
    const std::filesystem::path rel(name);
    if (rel.is_absolute() || name.find("..") != std::string::npos) {
      std::cerr << "gpufleet: refusing to write " << name << "\n";
      return false;
    }
    const std::filesystem::path path = std::filesystem::path(dir) / rel;
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    out << content;
    if (ec || !out) {
      std::cerr << "gpufleet: cannot write " << path.string() << "\n";
      return false;
    }
    std::cout << path.string() << "\n";
  }
  return true;
}

}  // namespace

// Parses; an exit code when the command line is refused (or only asked for help).
std::optional<int> Cli::parse(int argc, char** argv) {
  try {
    app.parse(argc, argv);
    // Options the question would not honour in the form asked: usage errors, not silence.
    std::vector<std::string> billing = BillingArgs::kOptionNames;
    const bool memory_fit =
        f_instance.empty() && (!f_work.model.empty() || !f_work.hf_config.empty());
    std::vector<std::string> memory_only{"--gpu",
                                         "--context",
                                         "--batch",
                                         "--new-tokens",
                                         "--mode",
                                         "--optimizer",
                                         "--tp",
                                         "--pp",
                                         "--sharding",
                                         "--cpu-offload",
                                         "--gradient-checkpointing",
                                         "--lora-rank"};
    refuse(fit, memory_only, !f_instance.empty(),
           "applies to fit without --instance (a concrete model's memory on a GPU); with "
           "--instance the workload "
           "options apply");
    std::vector<std::string> not_memory = billing;
    not_memory.insert(not_memory.end(), kDemandOptions.begin(), kDemandOptions.end());
    not_memory.push_back("--seed-memory");
    refuse(fit, not_memory, memory_fit,
           "fit without --instance gives a concrete model's memory on a GPU and prices nothing; "
           "add --instance to "
           "size and price a deployment");
    std::vector<std::string> with_model{"--engine", "--kv-cache", "--seed-memory"};
    with_model.insert(with_model.end(), kDemandOptions.begin(), kDemandOptions.end());
    refuse(perf, with_model, !pf_work.given(),
           "applies to performance with a model (--model, --hf-config, --size or --params-b); "
           "without one the "
           "score is relative (GB/s or TFLOPS)");
    const bool training = e_phase == "training";
    refuse(est, {"--rank"}, training,
           "a ranking compares serving costs; it does not apply to --phase training");
    refuse(est, {"--input", "--output", "--concurrency"}, training,
           "applies to serving; --phase training takes --seq, --tokens and --epochs");
    refuse(est, {"--tokens", "--epochs", "--seq", "--full-recompute"}, !training,
           "applies only with --phase training");
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    if (code != 0)
      if (const std::string hint = did_you_mean(app, argc, argv); !hint.empty())
        std::cerr << hint << "\n";
    return code == 0 ? kExitOk : kExitUsage;
  }
  return std::nullopt;
}

// schema, completion and man need no catalog: printed, with the exit code.
std::optional<int> Cli::print_without_catalog(char** argv) {
  if (*sch) {
    if (schema_markdown && schema_name != "request") {
      std::cerr << "gpufleet: schema --markdown: only the request has a field reference\n";
      return kExitUsage;
    }
    std::cout << (schema_markdown ? gpufleet::request_markdown()
                                  : gpufleet::json_schema(schema_name));
    return kExitOk;
  }
  if (*completion) {
    const CatalogNames names = catalog_names(config_dir, argv[0]);
    std::cout << (shell == "bash" ? gpufleet::cli::bash_completion(app, names)
                                  : gpufleet::cli::zsh_completion(app, names));
    return kExitOk;
  }
  if (*man) {
    std::cout << gpufleet::cli::man_page(app, GPUFLEET_VERSION);
    return kExitOk;
  }
  return std::nullopt;
}

// The request asked through the analyzer, its answer printed; the exit code.
int Cli::answer(const gpufleet::cli::CatalogLocation& location,
                const gpufleet::cli::PrintOptions& print_options) {
  if (!hf_config_file.empty()) {
    auto config = read_value(hf_config_file);
    if (!config) return kExitInvalid;
    request["model"] = {{"hf_config", std::move(*config)}};
  }
  // Through the same text door as every other: the request limits and the answer cap apply.
  const Json response = Json::parse(gpufleet::cli::ask(config_dir, request.dump()));
  if (*dep && !as_json && response.value("ok", false)) {
    return write_deploy_files(response["result"]["files"], dep_out) ? kExitOk : kExitOutput;
  }
  if (as_json) {
    std::cout << response.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    // catalog check says which catalogs it checked (table output only: csv and markdown stay data).
    if (*cat && *check && format == "table") std::cout << gpufleet::cli::describe(location) << "\n";
    gpufleet::cli::print(std::cout, std::cerr, response, print_options);
  }
  return answer_exit_code(response);
}

int Cli::run(int argc, char** argv) {
  define_globals(argv);
  define_sizing();
  define_tools();
  define_reports();
  define_fleet();
  define_operations();
  define_catalog_and_help();
  finish_definitions();
  if (const auto code = parse(argc, argv)) return *code;
  if (const auto code = print_without_catalog(argv)) return *code;
  if (format == "json") as_json = true;
  const auto location = gpufleet::cli::find_catalog_dir(config_dir, argv[0]);
  if (location.dir.empty()) {
    if (as_json) {
      std::cout << gpufleet::errors_json(
                       {{"missing_file", "", "", gpufleet::cli::describe(location)}}, 2)
                << "\n";
    } else {
      std::cerr << "gpufleet: " << gpufleet::cli::describe(location) << "\n";
    }
    return kExitInvalid;
  }
  config_dir = location.dir;
  gpufleet::cli::PrintOptions print_options;
  print_options.format = format == "csv"        ? gpufleet::cli::Format::kCsv
                         : format == "markdown" ? gpufleet::cli::Format::kMarkdown
                                                : gpufleet::cli::Format::kTable;
  print_options.width = gpufleet::cli::terminal_width();
  print_options.colour = !no_colour && std::getenv("NO_COLOR") == nullptr &&
                         isatty(STDOUT_FILENO) && format == "table";

  try {
    if (const auto code = build_request()) return *code;
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  return answer(location, print_options);
}

}  // namespace gpufleet::cli

int main(int argc, char** argv) {
  using namespace gpufleet::cli;
  // A closed pipe is a write error to report, not a signal that ends the program silently.
  std::signal(SIGPIPE, SIG_IGN);
  if (const std::string bad = invalid_utf8_argument(argc, argv); !bad.empty()) {
    std::cerr << "gpufleet: " << bad << "\n";
    return kExitUsage;
  }
  int code = kExitUsage;
  try {
    code = Cli().run(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A file named by an option or argument that cannot be used (read_input): a usage error.
    std::cerr << "gpufleet: " << e.what() << "\n";
    code = kExitUsage;
  }
  return output_written() ? code : kExitOutput;
}
