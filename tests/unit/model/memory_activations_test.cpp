// The memory model's activations part (core/src/model/memory_activations.cpp), through the
// "memory" question: the prefill peak of eager attention when generating.
// The rest of its figures are checked in memory_model_test.cpp.
#include <catch2/catch.hpp>

#include "api/analyzer_access.hpp"
#include "support.hpp"

using namespace gpufleet;

namespace {

Json generate(const std::string& attention) {
  const Json request = {{"question", "memory"}, {"model", {{"name", "qwen3-4b"}}},
                        {"mode", "inference"},  {"engine", "transformers"},
                        {"context", 2048},      {"new_tokens", 128},
                        {"batch", 8},           {"attention", attention}};
  const Json answer = test::ask(test::shipped(), request);
  INFO(request.dump() << " -> " << answer.dump().substr(0, 600));
  REQUIRE(answer["ok"] == true);
  return answer["result"];
}

double line(const Json& result, const std::string& key) {
  for (const auto& l : result["per_gpu"])
    if (l["key"] == key) return l["bytes"].get<double>();
  return 0;
}

}  // namespace

TEST_CASE("eager attention's prefill peaks in its fp32 softmax over bf16 scores") {
  // Qwen3-4B, 8 prompts of 2048 tokens: 8 x 32 heads x 2048 x 2048 scores, each held as the bf16
  // input, its fp32 copy and the fp32 softmax output (2 + 4 + 4 bytes), beside the residual, Q, K,
  // V and repeat_kv's copies of K and V to all 32 heads (2560 + 4096 + 2 x 1024 + 2 x 4096
  // elements x 2 bytes per token); the cache of the 128 generated tokens (144 KiB per token) comes
  // after the prefill. = 10,737,418,240 + 553,648,128 - 150,994,944 bytes; the H200 measured
  // 20.50 GiB for the whole run (MEAS-qwen3-4b-inference-bf16-eager-b8x2048-new128-MEM), the
  // estimate 20.26 GiB.
  const Json eager = generate("eager");
  CHECK(line(eager, "activations") == 8.0 * 32 * 2048 * 2048 * 10 +
                                          16384.0 * (2560 + 4096 + 2048 + 8192) * 2 -
                                          8.0 * 128 * 147456);
  // SDPA's flash kernel keeps no scores: one layer's intermediates are the peak.
  const Json sdpa = generate("sdpa");
  CHECK(line(sdpa, "activations") ==
        Approx(16384.0 * (3 * 2560 + 3 * 9728) * 2 - 8.0 * 128 * 147456));
}
