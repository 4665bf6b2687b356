// What the inference and the training estimates share: peaks, widths, parameter counts,
// all-reduces.
#include "model/throughput_parts.hpp"

#include <algorithm>

#include "support/text.hpp"

namespace gpufleet::throughput_parts {

std::string num(double x) { return text::short_number(x); }
// Peak dense TFLOPS for the precision, falling back to 16-bit (quantized weights are dequantized
// to 16 bits for their matmuls) and then to whatever the device lists.
double peak_tflops(const DeviceSpec& d, std::string_view precision) {
  for (std::string_view p : {precision, std::string_view("bf16"), std::string_view("fp16")}) {
    auto it = d.tflops.find(p);
    if (it != d.tflops.end() && it->second > 0) return it->second;
  }
  return 0;
}

// Width of the attention queries (and scores): MLA's per-head query is its no-RoPE and RoPE parts.
double query_width(const Architecture& a) {
  return a.mla() ? a.heads * (a.qk_nope_head_dim + a.qk_rope_head_dim) : a.heads * a.head_dim;
}

// The output layer's parameters: its own matrix, or the input embedding's when the two are tied
// (the logits still take a vocabulary x width matmul). Encoders here end without one.
double output_params(const Architecture& a, const ParameterCount& p) {
  if (!a.tied_embeddings) return p.lm_head;
  return a.kind == ArchKind::kEncoder ? 0 : a.vocab * a.hidden;
}

// Matmul parameters a token passes through (the input embedding is a lookup, not a matmul).
double matmul_params(const Architecture& a, const ParameterCount& p) {
  return std::max(0.0, p.active - p.embedding - p.lm_head + output_params(a, p));
}

// Ring all-reduce of `bytes` over tp GPUs: 2 (tp - 1) / tp of the data crosses each link.
double allreduce_s(const ThroughputConstants& k, const DeviceSpec& d, double tp, double bytes) {
  if (tp <= 1) return 0;
  const double link = d.link_gb_per_s > 0 ? d.link_gb_per_s : kUnknownLinkGbPerS;
  return k.allreduce_latency_us * 1e-6 +
         2 * (tp - 1) / tp * bytes / (link * 1e9 * k.interconnect_efficiency);
}

}  // namespace gpufleet::throughput_parts
