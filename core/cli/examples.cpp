#include "examples.hpp"

#include <map>
#include <stdexcept>
#include <string>

namespace gpufleet::cli {
namespace {

// Command path -> command lines that work against the shipped catalogs (tests/cli runs each).
const std::map<std::string, std::string>& examples() {
  static const std::map<std::string, std::string> kExamples{
      {"analyze",
       "echo '{\"question\": \"cost\", \"instance\": \"g6.xlarge\"}' | gpufleet analyze -"},
      {"precisions", "gpufleet precisions --params-b 70"},
      {"fit",
       "gpufleet fit --model Llama-3.1-70B-Instruct --instance p5.48xlarge --precision fp8\n"
       "gpufleet fit --model llama3.1-8b --gpu L4 --context 8192"},
      {"cost", "gpufleet cost --instance p5.48xlarge --gpus 8 --pricing reserved_1y"},
      {"performance",
       "gpufleet performance --instance p5.48xlarge --instance p4d.24xlarge --model llama-3.1-70b"},
      {"recommend",
       "gpufleet recommend --model meta-llama/Llama-3.1-8B-Instruct --requests-per-s 20 --limit 5"},
      {"spot", "gpufleet spot --model llama-3.1-8b --requests-per-s 5 --target-availability 0.999"},
      {"regions",
       "gpufleet regions --model llama-3.1-8b --requests-per-s 5 --user us-east-1=0.7 --user "
       "eu-west-1=0.3"},
      {"migrate",
       "gpufleet migrate --model llama-3.1-8b --workload inference --current p4d.24xlarge --gpus "
       "8"},
      {"right-size",
       "gpufleet right-size --model llama-3.1-8b --model mixtral-8x7b --precision int8"},
      {"estimate",
       "gpufleet estimate --model llama-3.1-8b --gpu H100\n"
       "gpufleet estimate --model llama-3.1-8b --rank --max-ttft-ms 500"},
      {"accuracy", "gpufleet accuracy tests/data/cases/*.json"},
      {"plan", "gpufleet plan my-plan.json --region us-east-1"},
      {"placement", "gpufleet placement --model chat=40 --model embed:0.5 --instance g6e.12xlarge"},
      {"decide", "gpufleet decide --model llama-3.1-8b --workload inference --goal cost"},
      {"autoscale",
       "gpufleet autoscale --model llama-3.1-8b --shape business_hours --peak-requests-per-s 20"},
      {"batch",
       "gpufleet batch --model llama-3.1-8b --workload lora --tokens 2e8 --deadline-hours 48 "
       "--instance-type g6e.xlarge"},
      {"deploy",
       "echo '{\"question\": \"fit\", \"model\": {\"name\": \"llama-3.1-8b\"}, \"workload\": "
       "\"inference\", \"instance\": \"g6e.xlarge\"}' | gpufleet deploy --target kubernetes --from -\n"
       "gpufleet deploy --target all --from my-fit-request.json --out deploy/"},
      {"workload", "gpufleet workload inference_small_p5"},
      {"workload-set", "gpufleet workload-set basic_demos"},
      {"workloads", "gpufleet workloads"},
      {"catalog", "gpufleet catalog show models"},
      {"catalog check", "gpufleet catalog check --config ./my-catalogs"},
      {"catalog show", "gpufleet catalog show instances --region eu-west-1 --format csv"},
      {"schema", "gpufleet schema request > request.schema.json"},
      {"completion",
       "gpufleet completion bash > ~/.local/share/bash-completion/completions/gpufleet"},
      {"man", "man -l <(gpufleet man)"},
  };
  return kExamples;
}

void add(CLI::App& command, const std::string& path) {
  for (CLI::App* sub : command.get_subcommands({})) {
    const std::string sub_path = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    const auto found = examples().find(sub_path);
    if (found == examples().end())
      throw std::logic_error("gpufleet " + sub_path + " has no example (core/cli/examples.cpp)");
    sub->footer("Example" + std::string(found->second.find('\n') == std::string::npos ? "" : "s") +
                ":\n  " + [&] {
                  std::string lines = found->second;
                  for (std::size_t at = lines.find('\n'); at != std::string::npos;
                       at = lines.find('\n', at + 3))
                    lines.replace(at, 1, "\n  ");
                  return lines;
                }());
    add(*sub, sub_path);
  }
}

}  // namespace

void add_examples(CLI::App& app) { add(app, ""); }

}  // namespace gpufleet::cli
