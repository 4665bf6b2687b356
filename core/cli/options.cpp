#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "gpufleet/analyzer.hpp"
#include "gpufleet/schema.hpp"

namespace gpufleet::cli {
namespace {

// The core's field table: the questions and the request fields' allowed values (the same lists the
// page's menus read), asked once.
const Json& request_menus() {
  static const Json menus = Json::parse(gpufleet::request_menus_json());
  return menus;
}

}  // namespace

CLI::Validator choices(const std::string& field, const std::string& more) {
  std::string listed;
  for (const auto& v : request_menus()["values"].value(field, Json::array()))
    listed += (listed.empty() ? "" : ",") + v.get<std::string>();
  if (!more.empty()) listed += "," + more;
  return CLI::Validator([](std::string&) { return std::string(); }, "{" + listed + "}");
}

std::string question_names() {
  std::string out;
  for (const auto& q : request_menus()["questions"])
    out += (out.empty() ? "" : " ") + q.get<std::string>();
  return out;
}

const std::vector<std::string> kDemandOptions{
    "--requests-per-s", "--input",        "--output",           "--max-ttft-ms",
    "--max-tpot-ms",    "--utilization",  "--tokens-per-month", "--tokens",
    "--epochs",         "--deadline-days"};

void WorkloadArgs::add(CLI::App* cmd, bool with_task, const std::string& default_precision) {
  precision = default_precision;
  auto* s =
      cmd->add_option("--size", size, "model size class")->check(choices("request_model.size"));
  auto* p = cmd->add_option("--params-b", params_b,
                            "model parameters in billions (a generic dense decoder)");
  auto* m = cmd->add_option("--model", model,
                            "a model of model_config.json (llama-3.1-8b, mixtral-8x7b-v0.1, ...)");
  auto* h = cmd->add_option("--hf-config", hf_config, "your model: a Hugging Face config.json file")
                ->type_name("FILE");
  s->excludes(p)->excludes(m)->excludes(h);
  p->excludes(m)->excludes(h);
  m->excludes(h);
  if (with_task) cmd->add_option("--workload", workload, "the task")->check(choices("workload"));
  cmd->add_option(
         "--precision", precision,
         "weight format: fp32 | fp16 | bf16 | fp8 | int8 | awq_int4 | gptq_int4 | nf4 | ...")
      ->capture_default_str();
  cmd->add_option(
      "--engine", engine,
      "serving or training engine (default vllm for serving, transformers for training)");
  cmd->add_option("--kv-cache", kv, "KV-cache format: fp16 | bf16 | fp8 | int8 ...");
  cmd->add_option("--requests-per-s", rps, "serving demand: requests per second");
  cmd->add_option("--input", input, "serving: prompt tokens per request (default 500)");
  cmd->add_option("--output", output, "serving: output tokens per request (default 200)");
  cmd->add_option("--max-ttft-ms", max_ttft,
                  "serving: p95 time to first token target, queueing included");
  cmd->add_option("--max-tpot-ms", max_tpot, "serving: time per output token target");
  cmd->add_option("--utilization", utilization,
                  "serving: target utilization of the replicas (default 0.7)");
  cmd->add_option("--tokens-per-month", tokens_per_month, "batch inference: output tokens a month");
  cmd->add_option(
      "--tokens", tokens,
      "training: dataset tokens; batch inference: output tokens of the job (with --deadline-days)");
  cmd->add_option("--epochs", epochs, "training: passes over the dataset (default 1)");
  cmd->add_option("--deadline-days", deadline,
                  "training or batch inference: days the run may take");
  cmd->add_flag(
      "--seed-memory", seed,
      "rule-of-thumb memory (weights x 1.2 serving, x 1.5 training) instead of the architecture");
}

bool WorkloadArgs::given() const {
  return !size.empty() || params_b != 0 || !model.empty() || !hf_config.empty();
}

void WorkloadArgs::apply(Json& request) const {
  if (!model.empty())
    request["model"] = {{"name", model}};
  else if (!size.empty())
    request["model"] = {{"size", size}};
  else if (params_b != 0)
    request["model"] = {{"params_b", params_b}};
  if (!workload.empty()) request["workload"] = workload;
  request["precision"] = precision;
  if (!engine.empty()) request["engine"] = engine;
  if (!kv.empty()) request["kv_cache_format"] = kv;
  if (seed) request["memory_method"] = "seed";
  Json demand = Json::object();
  if (rps > 0) demand["requests_per_s"] = rps;
  if (input > 0) demand["input_tokens"] = input;
  if (output > 0) demand["output_tokens"] = output;
  if (max_ttft > 0) demand["max_ttft_ms"] = max_ttft;
  if (max_tpot > 0) demand["max_tpot_ms"] = max_tpot;
  if (utilization > 0) demand["target_utilization"] = utilization;
  if (tokens_per_month > 0) demand["tokens_per_month"] = tokens_per_month;
  if (tokens > 0) demand["dataset_tokens"] = tokens;
  if (epochs > 0) demand["epochs"] = epochs;
  if (deadline > 0) demand["deadline_days"] = deadline;
  if (!demand.empty()) request["demand"] = demand;
}

void BillingArgs::add(CLI::App* cmd, unsigned parts) {
  const std::string group = "Billing";
  if (parts & kRegion) {
    auto* one =
        cmd->add_option("--region", region,
                        "price in this region (its provider's; others keep their usual region)")
            ->group(group);
    cmd->add_option("--regions", regions,
                    "price in the cheapest of these regions (comma-separated), or all")
        ->delimiter(',')
        ->group(group)
        ->excludes(one);
  }
  if (parts & kHours)
    cmd->add_option("--hours", hours, "hours per month (default 720: 30 days x 24 h)")
        ->group(group);
  if (parts & kSchedule) {
    cmd->add_option("--hours-per-day", hours_per_day, "schedule: hours a day (with --days)")
        ->group(group);
    cmd->add_option("--days", days, "schedule: days a month (default 30.4)")->group(group);
    cmd->add_option("--hours-per-week", hours_per_week, "schedule: hours a week (with --weeks)")
        ->group(group);
    cmd->add_option("--weeks", weeks, "schedule: weeks a month (default 4.35)")->group(group);
    cmd->add_flag("--always-on", always_on, "schedule: 24/7, 730 h a month")->group(group);
    cmd->add_option("--scale-to-zero", off_hours, "schedule: hours a day scaled to zero")
        ->group(group);
  }
  if (parts & kPay) {
    auto* s = cmd->add_flag("--spot", spot, "pay spot prices where known")->group(group);
    cmd->add_option("--pricing", pricing,
                    "how to pay: the usual ways, or a way to pay's id "
                    "(savings_plan_ec2_instance_1y_no_upfront, committed_use_3y, ...: docs/api.md)")
        ->check(choices("pricing", "WAY"))
        ->group(group)
        ->excludes(s);
    cmd->add_option("--spot-share", spot_share,
                    "share of hours on spot with --pricing mixed (default 0.5)")
        ->group(group);
  }
  if (parts & kProviders)
    cmd->add_option("--provider", providers, "only these providers (repeat)")
        ->check(choices("providers"))
        ->group(group);
}

void BillingArgs::apply(Json& request) const {
  Json schedule = Json::object();
  if (hours_per_day > 0) schedule["hours_per_day"] = hours_per_day;
  if (hours_per_week > 0) schedule["hours_per_week"] = hours_per_week;
  if (days > 0) schedule["days_per_month"] = days;
  if (weeks > 0) schedule["weeks_per_month"] = weeks;
  if (always_on) schedule["always_on"] = true;
  if (off_hours >= 0) schedule["off_hours_per_day"] = off_hours;
  if (!schedule.empty()) {
    if (hours > 0) schedule["hours_per_month"] = hours;
    request["schedule"] = schedule;
  } else if (hours > 0) {
    request["hours_per_month"] = hours;
  }
  if (!pricing.empty()) request["pricing"] = pricing;
  if (spot) request["use_spot"] = true;
  if (spot_share >= 0) request["spot_share"] = spot_share;
  if (!providers.empty()) request["providers"] = providers;
  if (!region.empty()) request["region"] = region;
  if (regions.size() == 1 && regions.front() == "all")
    request["regions"] = "all";
  else if (!regions.empty())
    request["regions"] = regions;
}

std::string number_fault(const std::string& text) {
  std::string low;
  for (char c : text) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::size_t sign = !low.empty() && (low[0] == '+' || low[0] == '-') ? 1 : 0;
  const std::string body = low.substr(sign);
  if (text.empty()) return "an empty value is not a number";
  if (body.rfind("nan", 0) == 0) return "NaN is not a number";
  if (body.rfind("inf", 0) == 0) return "an infinite value is not a finite number";
  if (body.rfind("0x", 0) == 0) return "hexadecimal is not read (write the decimal number)";
  // from_chars reads decimal and exponent forms only.
  double x = 0;
  const auto [end, ec] = std::from_chars(text.data() + (text[0] == '+' ? 1 : 0), text.data() + text.size(), x);
  if (ec == std::errc::result_out_of_range) return "too large to be a finite number";
  if (ec != std::errc()) return "not a decimal number";
  if (end != text.data() + text.size()) return "trailing text \"" + std::string(end) + "\" after the number";
  if (text[0] == '-' || x < 0) return "a negative value";
  if (!std::isfinite(x)) return "not a finite number";
  return "";
}

bool plain_decimal(const std::string& text) { return number_fault(text).empty(); }

std::string whole_number_fault(const std::string& text) {
  if (std::string fault = number_fault(text); !fault.empty()) return fault;
  const double x = std::strtod(text.c_str(), nullptr);
  return x == std::floor(x) ? "" : "a fraction where a whole number is needed";
}

void check_numbers(CLI::App& app) {
  // Counts of things (rows, GPUs in a layout, tokens, sequences, replicas): whole numbers.
  static const std::vector<std::string> kWhole{"limit",   "tp",           "pp",           "lora-rank",
                                               "beams",   "min-replicas", "max-replicas", "concurrency",
                                               "context", "new-tokens",   "seq",          "input",
                                               "output",  "batch"};
  // Where 0 is an answer of its own (nothing generated, no delay, seed 0); elsewhere an option left
  // out takes its default, so a 0 given is refused rather than read as "not given".
  static const std::vector<std::string> kZeroMeans{
      "new-tokens",         "min-replicas",      "earliest-start-hours", "checkpoint-write-s", "restart-s",
      "replacement-minutes", "provisioning-s",   "scale-up-delay-s",     "scale-down-delay-s", "scale-to-zero",
      "spot-share",          "concurrency",      "dataset-gb",           "seed"};
  auto validator = [](bool whole_only, bool zero) {
    return CLI::Validator(
        [whole_only, zero](std::string& text) -> std::string {
          std::string fault = whole_only ? whole_number_fault(text) : number_fault(text);
          if (fault.empty() && !zero && std::strtod(text.c_str(), nullptr) == 0)
            fault = "0 is not taken here (leave the option out for its default)";
          return fault.empty() ? ""
                               : std::string("expected a ") + (whole_only ? "whole number" : "finite decimal number") +
                                     (zero ? " >= 0" : " > 0") + ", got \"" + text + "\": " + fault;
        },
        std::string(whole_only ? "WHOLE" : "NUMBER") + (zero ? ">=0" : ">0"));
  };
  static const CLI::Validator number = validator(false, true), whole = validator(true, true),
                              positive = validator(false, false), positive_whole = validator(true, false);
  for (CLI::Option* o : app.get_options()) {
    const std::string type = o->get_type_name();
    if (type != "FLOAT" && type != "INT" && type != "UINT") continue;
    const auto& names = o->get_lnames();
    auto listed = [&](const std::vector<std::string>& list) {
      return !names.empty() && std::find(list.begin(), list.end(), names.front()) != list.end();
    };
    const bool zero = listed(kZeroMeans);
    o->check(listed(kWhole) ? (zero ? whole : positive_whole) : (zero ? number : positive));
  }
  for (CLI::App* sub : app.get_subcommands({})) check_numbers(*sub);
}

void share_global_options(CLI::App& app, CLI::App& cmd, std::string& config_dir, bool& as_json,
                          std::string& format, bool& no_colour) {
  auto copy = [&](CLI::Option* mine, const char* name) {
    const CLI::Option* theirs = app.get_option(name);
    mine->description(theirs->get_description())->group(theirs->get_group());
    if (!theirs->get_default_str().empty()) mine->default_str(theirs->get_default_str());
    for (int i = 0;; ++i) {
      try {
        mine->check(*const_cast<CLI::Option*>(theirs)->get_validator(i));
      } catch (const CLI::OptionNotFound&) {
        break;
      }
    }
    if (!theirs->get_option_text().empty()) mine->option_text(theirs->get_option_text());
  };
  copy(cmd.add_option("--config", config_dir)->type_name("DIR"), "--config");
  copy(cmd.add_flag("--json", as_json), "--json");
  copy(cmd.add_option("--format", format), "--format");
  copy(cmd.add_flag("--no-color", no_colour), "--no-color");
  for (CLI::App* sub : cmd.get_subcommands({}))
    share_global_options(app, *sub, config_dir, as_json, format, no_colour);
}

void refuse(CLI::App* cmd, const std::vector<std::string>& names, bool when,
            const std::string& why) {
  if (!when) return;
  for (const std::string& name : names) {
    const CLI::Option* o = cmd->get_option_no_throw(name);
    if (o && o->count() > 0) throw CLI::ValidationError(name, why);
  }
}

}  // namespace gpufleet::cli
