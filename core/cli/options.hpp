#pragma once
// The CLI's options: the workload and billing options the sizing commands share, the allowed
// values from the core's field table, the numeric option rule, and the checks that refuse an
// option a question would not honour.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "json.hpp"

namespace gpufleet::cli {

// The values of a request field ("workload", "recipe.sharding", "decide.goal": the field table's
// names), named for --help, the completion scripts and the man page; the core checks the value
// itself (it takes aliases and other spellings too) and says what it expected. `more`: a
// placeholder for the other values a field takes (WAY: a way to pay's id).
CLI::Validator choices(const std::string& field, const std::string& more = "");

// The questions a raw request may ask, for --help.
std::string question_names();

// The workload every sizing command shares: the model, the task, formats, engine, the demand and
// the memory method.
struct WorkloadArgs {
  std::string size, model, hf_config, workload, precision, engine, kv;
  double params_b = 0, rps = 0, input = 0, output = 0, max_ttft = 0, max_tpot = 0, tokens = 0,
         epochs = 0, deadline = 0, tokens_per_month = 0, utilization = 0;
  bool seed = false;
  void add(CLI::App* cmd, bool with_task = true, const std::string& default_precision = "fp16");
  bool given() const;
  void apply(Json& request) const;
};

// The option names of WorkloadArgs that describe the demand (not the model or its formats).
extern const std::vector<std::string> kDemandOptions;

// Hours, ways to pay, regions and providers: each pricing command takes the parts its question
// accepts (docs/api.md).
struct BillingArgs {
  enum Parts : unsigned {
    kHours = 1,
    kSchedule = 2,
    kPay = 4,
    kRegion = 8,
    kProviders = 16,
    kAll = 31
  };
  static inline const std::vector<std::string> kOptionNames{
      "--region",         "--regions",    "--hours",     "--hours-per-day", "--days",
      "--hours-per-week", "--weeks",      "--always-on", "--scale-to-zero", "--spot",
      "--pricing",        "--spot-share", "--provider"};
  double hours = 0, hours_per_day = 0, days = 0, hours_per_week = 0, weeks = 0, off_hours = -1;
  bool always_on = false, spot = false;
  std::string pricing;
  double spot_share = -1;
  std::vector<std::string> providers;
  std::string region;
  std::vector<std::string> regions;
  void add(CLI::App* cmd, unsigned parts = kAll & ~kProviders);
  void apply(Json& request) const;
};

// Every numeric option: a plain decimal number, finite and not negative (no nan, inf, hex or
// octal surprises): counts, tokens, hours, prices and shares are never negative.
bool plain_decimal(const std::string& text);
// Why TEXT breaks that rule ("NaN is not a number", "trailing text ...", "hexadecimal ..."); "" when
// it keeps it. Options and the numbers inside option values (NAME=GB) are read by the same rule.
std::string number_fault(const std::string& text);
// The rule, and a whole number: the options that count things (--limit, --tp, --context, ...).
std::string whole_number_fault(const std::string& text);
void check_numbers(CLI::App& app);

// The options of the whole program, accepted before or after any command: each command gets its own
// copy, bound to the same variable, with the same description, default and allowed values, so that
// `gpufleet recommend --json ...` is `gpufleet --json recommend ...` and every --help lists them.
void share_global_options(CLI::App& app, CLI::App& cmd, std::string& config_dir, bool& as_json,
                          std::string& format, bool& no_colour);

// Options a command read that its question cannot honour in this form: a usage error naming the
// first one given, never an option silently ignored.
void refuse(CLI::App* cmd, const std::vector<std::string>& names, bool when,
            const std::string& why);

}  // namespace gpufleet::cli
