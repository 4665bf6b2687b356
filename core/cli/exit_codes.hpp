#pragma once
// The CLI's exit codes (docs/cli.md, the man page's EXIT STATUS), for scripts to branch on.

#include "json.hpp"

namespace gpufleet::cli {

constexpr int kExitOk = 0;
constexpr int kExitUsage =
    2;  // a usage error: an unknown command or option, a bad value, bad UTF-8
constexpr int kExitInvalid =
    3;  // an invalid catalog or request (the error names file, path, expectation)
constexpr int kExitCannot =
    4;  // answered, and the answer is CANNOT FIT / CANNOT RUN / CANNOT PLACE
constexpr int kExitOutput = 5;  // the answer could not be written (closed output, full disk)

// The codes in words, for --help and the man page's EXIT STATUS.
inline constexpr const char* kExitCodesText =
    "0 success; 2 usage error (unknown command or option, a bad value, an argument or file that is "
    "not "
    "UTF-8); 3 invalid catalog or request (the error names the file, the JSON path and what was "
    "expected); 4 answered CANNOT FIT, CANNOT RUN or CANNOT PLACE, or refused with cannot_answer (the "
    "setup asked cannot run; the answer says why and a way out); 5 the answer could not be written (closed output, full disk)";

// 0, 3 or 4 for an analyzer response: 4 when it answers that the setup asked cannot run.
int answer_exit_code(const Json& response);

}  // namespace gpufleet::cli
