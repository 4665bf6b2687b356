#include "fleet/rank.hpp"

#include <algorithm>
#include <cmath>

#include "model/sequences.hpp"
#include "pricing/prices.hpp"
#include "support/small_sort.hpp"
#include "support/text.hpp"

namespace gpufleet {
namespace {

bool fits(const MemoryConstants& k, const MemoryQuestion& q, double capacity) {
  auto a = estimate_memory(k, q);
  return a.estimate && memory_refusal(q, *a.estimate, capacity).empty();
}

// One device and layout searched: the largest concurrency that meets the latency targets (time per
// token grows with the batch), or the KV cache's largest when it misses them at every one.
struct Searched {
  const InstanceType* instance;
  double tp;
  double sequences;  // what one copy's memory holds at the shape (0: not one; then no estimate)
  InferenceEstimate estimate;
  bool meets;
};

// The ranking's searches, once per device (offers of one type in every region share it).
class Search {
 public:
  Search(const Catalog& catalog, const MemoryQuestion& mq, const TokenShape& t, double weights, double kv)
      : catalog_(catalog), mq_(mq), t_(t), weights_(weights), kv_(kv) {}

  const Searched& at(const InstanceType& it, const GpuSpec& gpu, double tp) {
    for (const Searched& s : searched_)
      if (s.tp == tp && same_device(*s.instance, it, tp)) return s;
    const double sequences = sequences_on(catalog_, mq_, t_, tp, it.memory_per_gpu_bytes, gpu_name(it),
                                          tensor_link(it, tp).kind == "domain");
    if (sequences < 1) {
      searched_.push_back(Searched{&it, tp, 0, {}, false});
      return searched_.back();
    }
    // One question per device and layout; the search changes only its batch and reads no basis text.
    ThroughputQuestion question = roofline_question(catalog_, mq_, gpu, tp, t_, weights_, kv_);
    question.device = instance_device(catalog_, it, tp);  // its own link: PCIe A100s are not NVLink ones
    question.explain = false;
    question.kv_sequences = sequences;
    auto run = [&](double batch) {
      question.batch = batch;
      return estimate_inference(catalog_.throughput, question);
    };
    InferenceEstimate e = run(t_.concurrency);
    if (!meets(e) && t_.concurrency <= 0) {
      // Bisect the concurrency between 1 and what the KV cache holds.
      double lo = 0, hi = e.batch;
      while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        (meets(run(mid)) ? lo : hi) = mid;
      }
      if (lo >= 1) e = run(lo);
    }
    const bool met = meets(e);
    searched_.push_back(Searched{&it, tp, sequences, std::move(e), met});
    return searched_.back();
  }

 private:
  bool meets(const InferenceEstimate& e) const {
    return (!t_.max_ttft_ms || e.ttft_ms <= *t_.max_ttft_ms) && (!t_.max_tpot_ms || e.tpot_ms <= *t_.max_tpot_ms);
  }

  const Catalog& catalog_;
  const MemoryQuestion& mq_;
  const TokenShape& t_;
  double weights_, kv_;
  std::vector<Searched> searched_;  // at() returns a reference that is valid until its next call
};

// Every tensor-parallel layout (powers of two up to the instance's GPUs) whose memory holds the
// weights with room for one full sequence, at its searched concurrency: the layout that serves the
// most tokens per instance, so the lowest $ per token (`missed`: a layout that fits but misses the
// latency targets). The $ per token is the on-demand price's, 0 where the instance has none.
std::optional<RankedOffer> cheapest_layout(Search& search, const InstanceType& it,
                                           const GpuSpec& gpu,
                                           std::optional<InferenceEstimate>& missed) {
  std::optional<RankedOffer> best;
  for (double tp = 1; tp <= it.gpus; tp *= 2) {
    const Searched& s = search.at(it, gpu, tp);
    if (s.sequences < 1) continue;
    if (!s.meets) {
      missed = s.estimate;
      continue;
    }
    const double copies = std::max(1.0, std::floor(it.gpus / tp));
    const double tps = s.estimate.output_tokens_per_s * copies;
    if (tps > 0 && (!best || tps > best->output_tokens_per_s)) {
      const double usd =
          it.on_demand_usd_per_hour ? *it.on_demand_usd_per_hour / (tps * 3600) * 1e6 : 0;
      best = RankedOffer{&it, &gpu, tp, copies, usd, tps, s.estimate};
    }
  }
  return best;
}

}  // namespace

double sequences_on(const Catalog& catalog, MemoryQuestion q, const TokenShape& t, double tp, double capacity_bytes,
                    const std::string& gpu, bool linked) {
  if (!tp_refusal(q.arch, tp).empty()) return 0;
  q.mode = TrainMode::kInference;
  q.batch = 1;
  q.sequence = t.input;
  q.new_tokens = t.output;
  q.max_model_len = t.input + t.output;
  q.tensor_parallel = q.gpus = tp;
  q.pipeline_parallel = 1;
  q.gpu_memory_bytes = capacity_bytes;
  q.gpu_name = gpu;
  q.gpus_linked = linked;
  q.explain = false;
  const MemoryAnswer a = estimate_memory(catalog.memory, q);
  if (!a.estimate || !memory_refusal(q, *a.estimate, capacity_bytes).empty()) return 0;
  return sequences_that_fit(catalog.memory, q, *a.estimate, capacity_bytes);
}

double largest_fitting(const MemoryConstants& k, MemoryQuestion q, double capacity,
                       double MemoryQuestion::*field, double limit) {
  q.*field = 1;
  if (!fits(k, q, capacity)) return 0;
  double lo = 1, hi = 2;
  while (hi <= limit) {
    q.*field = hi;
    if (!fits(k, q, capacity)) break;
    lo = hi;
    hi *= 2;
  }
  hi = std::min(hi, limit + 1);
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    q.*field = mid;
    (fits(k, q, capacity) ? lo : hi) = mid;
  }
  return lo;
}

ThroughputQuestion roofline_question(const Catalog& catalog, const MemoryQuestion& mq, const GpuSpec& gpu,
                                     double tp, const TokenShape& t, double weight_bytes, double kv_bytes_per_token) {
  ThroughputQuestion q;
  q.arch = mq.arch;
  q.params = count_parameters(q.arch);
  q.weight_bytes = weight_bytes;
  q.kv_bytes_per_token = kv_bytes_per_token;
  q.device = catalog.device(gpu);
  q.tensor_parallel = tp;
  q.gpus = tp;
  std::string precision = mq.weight_format;
  if (precision.rfind("gguf", 0) == 0 || precision.find("int4") != std::string::npos || precision == "nf4" ||
      precision == "fp4")
    precision = "fp16";
  q.compute = precision;
  q.engine = mq.engine;
  q.attention = mq.attention;
  q.weight_format = mq.weight_format;
  q.input_tokens = t.input;
  q.output_tokens = t.output;
  q.batch = t.concurrency;
  return q;
}

PerTokenRanking rank_per_token(const Catalog& catalog, const MemoryQuestion& mq, const TokenShape& t,
                               const std::vector<std::string>& providers, double weights, double kv) {
  PerTokenRanking out;
  Search search(catalog, mq, t, weights, kv);
  for (const auto& it : catalog.instances) {
    // GPUs and the Neuron accelerators (Inferentia, Trainium), whose datasheets give the figures.
    if (!priced_on_demand(it, Kinds::kAccelerators, providers)) continue;
    const GpuSpec* gpu = catalog.gpu(it.gpu_model);
    if (!gpu || !gpu->memory_bandwidth_gb_per_s || gpu->tflops.empty()) {
      out.excluded.push_back({&it, "no speed to rank it by: the catalog gives " + it.gpu_type +
                                       " no memory bandwidth or TFLOPS"});
      continue;
    }
    std::optional<InferenceEstimate> missed;  // a layout that fits but misses the targets
    std::optional<RankedOffer> best = cheapest_layout(search, it, *gpu, missed);
    if (best) {
      out.ranked.push_back(std::move(*best));
      continue;
    }
    out.excluded.push_back(
        {&it, missed ? "misses the latency target at every concurrency (time to first token " +
                           text::short_number(text::round_to(missed->ttft_ms, 1)) + " ms, time per output token " +
                           text::short_number(text::round_to(missed->tpot_ms, 2)) + " ms)"
                     : "the weights do not fit its " + text::short_number(it.gpus) + " GPU(s)"});
  }
  // By the price as printed: instances that print the same keep the catalog's order.
  detail::small_stable_sort(out.ranked.begin(), out.ranked.end(), [](const RankedOffer& a, const RankedOffer& b) {
    return text::round_to(a.usd_per_million_output_tokens, 4) < text::round_to(b.usd_per_million_output_tokens, 4);
  });
  return out;
}

double ranked_tp_on(const Catalog& catalog, const MemoryQuestion& mq, const TokenShape& t,
                    const InstanceType& it, double weights, double kv) {
  const GpuSpec* gpu = catalog.gpu(it.gpu_model);
  if (!gpu || !gpu->memory_bandwidth_gb_per_s || gpu->tflops.empty()) return 0;
  Search search(catalog, mq, t, weights, kv);
  std::optional<InferenceEstimate> missed;
  const std::optional<RankedOffer> best = cheapest_layout(search, it, *gpu, missed);
  return best ? best->tensor_parallel : 0;
}

}  // namespace gpufleet
