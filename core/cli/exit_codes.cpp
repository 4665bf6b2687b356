#include "exit_codes.hpp"

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
  if (!response.value("ok", false)) return kExitInvalid;
  return cannot_run(response.value("question", ""), response.value("result", Json())) ? kExitCannot
                                                                                      : kExitOk;
}

}  // namespace gpufleet::cli
