#pragma once
// What the inference (throughput.cpp) and the training (throughput_training.cpp) estimates share.

#include <string>
#include <string_view>

#include "model/throughput.hpp"

namespace gpufleet::throughput_parts {

std::string num(double x);  // a figure in an explanation
// Peak dense TFLOPS for the precision, else 16-bit's, else 0.
double peak_tflops(const DeviceSpec& d, std::string_view precision);
double query_width(const Architecture& a);  // the attention queries' (and scores') width
double output_params(const Architecture& a, const ParameterCount& p);  // the output layer's matmul
double matmul_params(const Architecture& a, const ParameterCount& p);  // what a token multiplies by
// Seconds of a ring all-reduce of `bytes` over tp GPUs.
double allreduce_s(const ThroughputConstants& k, const DeviceSpec& d, double tp, double bytes);

}  // namespace gpufleet::throughput_parts
