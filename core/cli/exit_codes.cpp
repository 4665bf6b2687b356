#include "exit_codes.hpp"

#include <algorithm>
#include <string>

namespace gpufleet::cli {
namespace {

// Whether an answered question says its setup cannot run: fit's status, regions' placement, a
// placement that does not hold its models, the GPU a memory question named that does not hold it.
bool cannot_run(const std::string& question, const Json& result) {
  if (!result.is_object()) return false;
  const std::string status = result.value("status", "");
  if (status.rfind("CANNOT", 0) == 0) return true;
  if (question == "placement" && result.contains("on_instance") &&
      result["on_instance"].is_object())
    return !result["on_instance"].value("fits", true);
  if (question == "memory" && result.contains("gpu") && result["gpu"].is_object())
    return !result["gpu"].value("fits", true);
  return false;
}

}  // namespace

int answer_exit_code(const Json& response) {
  if (!response.value("ok", false)) {
    // A valid request whose setup cannot run (no type serves it, a deadline below the work, a
    // latency target missed at one sequence): refused as an answer would be.
    const Json errors = response.value("errors", Json::array());
    const bool cannot = !errors.empty() && std::all_of(errors.begin(), errors.end(), [](const Json& e) {
      return e.is_object() && e.value("code", "") == "cannot_answer";
    });
    return cannot ? kExitCannot : kExitInvalid;
  }
  return cannot_run(response.value("question", ""), response.value("result", Json())) ? kExitCannot
                                                                                      : kExitOk;
}

}  // namespace gpufleet::cli
