#pragma once
// How many sequences one model copy holds at once: the one answer every question gives.

#include "model/memory_model.hpp"

namespace gpufleet {

// The most sequences of the question's length (its max_model_len, else prompt + new tokens) one
// model copy serves at once with its memory per GPU within `limit_bytes`, after the weights, the
// runtime and the activations: a pool engine's pool at that length (less what the limit leaves
// of it); any other engine the largest batch whose memory stays within the limit. `at_one` is the
// memory model's estimate of `q` (at one sequence, else it is asked again at one); 0 when not
// even one fits.
double sequences_that_fit(const MemoryConstants& k, MemoryQuestion q, const MemoryEstimate& at_one,
                          double limit_bytes);

}  // namespace gpufleet
