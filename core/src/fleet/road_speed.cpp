#include <algorithm>
#include <cmath>

#include "fleet/road_parts.hpp"
#include "model/queueing.hpp"

namespace gpufleet {
using namespace road_parts;

namespace {

ThroughputQuestion throughput_question(const Catalog& catalog, const Workload& w,
                                       const InstanceType& it, const WholeModel& whole,
                                       const std::string& compute, double tp) {
  ThroughputQuestion q;
  q.arch = *w.model.arch;
  q.params = count_parameters(q.arch);
  q.weight_bytes = whole.weight_bytes;
  q.kv_bytes_per_token = whole.kv_bytes_per_token;
  q.device = instance_device(catalog, it, tp);
  q.compute = compute;
  q.engine = w.engine_key();
  q.weight_format = w.weight_format;
  q.tensor_parallel = q.gpus = tp;
  q.input_tokens = w.demand.input_tokens;
  q.output_tokens = w.demand.output_tokens;
  q.sequence = w.recipe.sequence;
  q.full_recompute = w.recipe.gradient_checkpointing;
  q.explain = true;
  return q;
}

// The throughput model's setup for `it`'s device at the precision, tensor-parallel degree and
// pipeline stages (what throughput_question's answer varies by between candidates), its question
// made on first use and kept for the workload.
RoadMemo::InferenceSetup& inference_setup(const Catalog& catalog, const Workload& w,
                                          const InstanceType& it, const WholeModel& whole,
                                          const std::string& compute, double tp, double pp) {
  for (auto& s : w.memo.inference) {
    if (s.tensor_parallel == tp && s.pipeline_parallel == pp && s.compute == compute &&
        same_device(*s.instance, it, tp) &&
        (pp == 1 || (s.instance->network_gbit_per_s == it.network_gbit_per_s &&
                     s.instance->network_fabric == it.network_fabric)))
      return s;
  }
  ThroughputQuestion q = throughput_question(catalog, w, it, whole, compute, tp);
  q.device.memory_bytes *= pp;
  q.pipeline_parallel = pp;
  q.network_gbit_per_s = it.network_gbit_per_s.value_or(0);
  q.network_latency_us = it.network_fabric == "tcp" ? catalog.throughput.tcp_message_latency_us
                                                    : catalog.throughput.rdma_message_latency_us;
  if (w.memo.inference.empty()) w.memo.inference.reserve(kSetupsKept);
  return w.memo.inference.emplace_back(
      RoadMemo::InferenceSetup{&it, compute, tp, pp, std::move(q), {}, {}});
}

}  // namespace

namespace road_parts {

// Serving: the largest concurrency that fits and meets the latency targets, the copies the demand
// needs, and the queueing its p95 time to first token pays.
void size_serving(const Catalog& catalog, const Workload& w, const Billing& billing,
                  const WholeModel& whole, const std::string& compute,
                  std::optional<double> fixed_copies, Deployment& d) {
  const InstanceType& it = *d.instance;
  const Demand& dm = w.demand;
  RoadMemo::InferenceSetup& setup = inference_setup(
      catalog, w, it, whole, compute, d.layout.tensor_parallel, d.layout.pipeline_parallel);
  ThroughputQuestion& q = setup.question;
  bool explain = false;
  const double pp = d.layout.pipeline_parallel;
  // A reference into the memo: valid until the next run.
  auto run = [&](double batch) -> const InferenceEstimate& {
    std::vector<InferenceEstimate>& known = explain ? setup.explained : setup.figures;
    // Pipeline stages: the copy's sequences go through in pp micro-batches, one per stage, and a
    // sequence's token takes a round of every stage: the full model's step at the micro-batch.
    if (pp > 1) batch = std::max(1.0, std::ceil(batch / pp));
    for (const auto& e : known)
      if (e.batch == batch) return e;
    q.batch = batch;
    q.explain = explain;
    return known.emplace_back(estimate_inference(catalog.throughput, q));
  };
  auto meets = [&](const InferenceEstimate& e) {
    return (!dm.max_ttft_ms || e.ttft_ms <= *dm.max_ttft_ms) &&
           (!dm.max_tpot_ms || e.tpot_ms <= *dm.max_tpot_ms);
  };
  const double cap = std::max(
      1.0, std::min(d.max_concurrency_by_kv, serving_max_batch(catalog.throughput, q.engine)));
  if (const InferenceEstimate& one = run(1); !meets(one)) {
    refuse(d,
           "misses the latency target even at one sequence: time to first token " +
               num(text::round_to(one.ttft_ms, 1)) + " ms, time per output token " +
               num(text::round_to(one.tpot_ms, 2)) + " ms",
           "more tensor parallelism, a faster GPU or a smaller weight format");
    d.inference = one;
    return;
  }
  double lo = 1, hi = cap + 1;
  if (meets(run(cap))) lo = cap;
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (meets(run(mid)) ? lo : hi) = mid;
  }
  d.concurrency = lo;
  // A pool engine reserves its share of the device; the copy holds its sequences' KV cache of it.
  // Its lines say the same: the KV line is what the sequences hold, of the pool.
  if (d.memory && d.memory->kv_pool_bytes) {
    const double held =
        lo * (d.memory->kv_bytes_per_sequence > 0
                  ? d.memory->kv_bytes_per_sequence
                  : d.memory->kv_bytes_per_token * (dm.input_tokens + dm.output_tokens));
    d.memory_per_gpu_bytes += held;
    for (auto& l : d.memory->lines) {
      if (l.key != "kv_cache" || held >= l.bytes) continue;
      l.basis = num(lo) + " sequences at " + num(dm.input_tokens + dm.output_tokens) +
                " tokens hold " + gb(held) + " of the pool: " + l.basis;
      l.bytes = held;
    }
  }
  explain = w.explain;
  d.inference = run(lo);
  const InferenceEstimate& e = *d.inference;
  // The copy's capacity at its concurrency: its sequences, a token each per TPOT (Little's law;
  // with pipeline stages, pp micro-batches in flight at once).
  const double copy_tps = e.tpot_ms > 0 ? d.concurrency * 1e3 / e.tpot_ms : 0;
  const double copy_rps = copy_tps / dm.output_tokens;
  double copies = copies_per_instance(it, d.layout);
  std::optional<double> demand_rps;
  if (dm.requests_per_s) demand_rps = *dm.requests_per_s;
  if (dm.tokens_per_month && billing.hours_per_month > 0)
    demand_rps = *dm.tokens_per_month / (billing.hours_per_month * 3600) / dm.output_tokens;
  else if (w.task == WorkloadType::kBatchInference && dm.dataset_tokens && dm.deadline_days)
    demand_rps = *dm.dataset_tokens / (*dm.deadline_days * 86400) /
                 dm.output_tokens;  // the job within its deadline
  d.p95_ttft_ms = e.ttft_ms;
  if (fixed_copies) {
    copies = *fixed_copies;
  } else if (demand_rps) {
    const double target = dm.requests_per_s ? dm.target_utilization : 1.0;
    // Decode slots and the prefill that feeds them both stay under the target utilization.
    const double prefill_rps = e.first_token.seconds > 0 ? 1 / e.first_token.seconds : copy_rps;
    d.sized_for_demand = true;
    d.demand_rps = *demand_rps;
    d.copy_rps = std::min(copy_rps, prefill_rps * pp) * target;
    copies = copies_for(d.demand_rps, d.copy_rps);
  }
  if (demand_rps && dm.requests_per_s) {
    // Queueing at the demanded rate: a request waits for a free sequence slot (Erlang C, c =
    // concurrency slots per copy) and behind the prompts prefilled before it (M/D/1): the 95th
    // percentile of their sum (model/queueing.hpp).
    for (int step = 0; step < 256; ++step) {
      const QueueDelay delay = queue_delay(*demand_rps / copies, d.concurrency,
                                           d.concurrency / copy_rps, e.first_token.seconds / pp);
      d.queue_wait_ms = delay.p95_wait_s * 1e3;
      d.p95_ttft_ms = e.ttft_ms + d.queue_wait_ms;
      const bool saturated = delay.p95_wait_s >= 1e8;  // the queue grows without bound
      if (fixed_copies || (!saturated && (!dm.max_ttft_ms || d.p95_ttft_ms <= *dm.max_ttft_ms)))
        break;
      copies += 1;
    }
  }
  if (d.sized_for_demand) d.copies_beyond_demand = copies - copies_for(d.demand_rps, d.copy_rps);
  d.layout.replicas = copies;
  d.gpus = copies * d.layout.gpus_per_copy();
  d.instance_count = instances_for(it, d.layout, copies);
  d.output_tokens_per_s = copy_tps * copies;
  d.bound = e.limit;
  // A batch job of a dataset runs until its tokens are out: its hours, not a month's.
  if (w.task == WorkloadType::kBatchInference && dm.dataset_tokens && !dm.tokens_per_month &&
      d.output_tokens_per_s > 0)
    d.run_hours = *dm.dataset_tokens / d.output_tokens_per_s / 3600;
  if (demand_rps) {
    d.utilization = *demand_rps * dm.output_tokens / d.output_tokens_per_s;
    if (d.utilization > 1 + 1e-9)
      d.notes.push_back(
          "serves " + num(text::round_to(d.output_tokens_per_s / dm.output_tokens, 2)) +
          " requests/s, below the demand of " + num(*demand_rps) + ": needs " +
          num(std::ceil(*demand_rps / copy_rps / dm.target_utilization)) + " model copies");
    if (d.queue_wait_ms >= 1e11)
      d.notes.push_back(
          "requests arrive faster than the copies prefill them: the queue grows without bound");
    else if (dm.max_ttft_ms && d.p95_ttft_ms > *dm.max_ttft_ms)
      d.notes.push_back("p95 time to first token " + num(text::round_to(d.p95_ttft_ms, 0)) +
                        " ms is above the target of " + num(*dm.max_ttft_ms) + " ms at this rate");
  }
}

void size_training(const Catalog& catalog, const Workload& w, const WholeModel& whole,
                   const std::string& compute, Deployment& d) {
  const InstanceType& it = *d.instance;
  // The workload's question on this device, at this layout's GPUs and tokens.
  ThroughputQuestion& q =
      inference_setup(catalog, w, it, whole, compute, d.layout.tensor_parallel, 1).question;
  q.gpus = d.gpus;
  q.explain = true;
  const Demand& dm = w.demand;
  if (dm.dataset_tokens) q.dataset_tokens = *dm.dataset_tokens * dm.epochs;
  take_training_recipe(catalog.memory,
                       memory_question(w, d.layout, d.gpus, d.capacity_per_gpu_bytes, compute),
                       d.memory ? d.memory->trainable_parameters : 0, q);
  TrainingEstimate t = estimate_training(catalog.throughput, q);
  const double scale = d.instance_count > 1 ? it.interconnect_multiplier : 1.0;
  t.tokens_per_s *= scale;
  t.tokens_per_s_per_gpu *= scale;
  d.output_tokens_per_s = t.tokens_per_s;
  d.bound = "compute";
  if (dm.dataset_tokens && t.tokens_per_s > 0) {
    d.run_hours = *dm.dataset_tokens * dm.epochs / t.tokens_per_s / 3600;
    t.seconds = *d.run_hours * 3600;
    t.gpu_hours = *d.run_hours * d.gpus;
  }
  d.training = std::move(t);
  if (d.run_hours && dm.deadline_days && *d.run_hours > *dm.deadline_days * 24) {
    refuse(d,
           "misses the deadline: " + num(text::round_to(*d.run_hours / 24, 2)) + " days on " +
               num(d.gpus) + " x " + it.gpu_type + ", the deadline is " + num(*dm.deadline_days) +
               " days",
           "more instances, or faster GPUs");
  }
}

}  // namespace road_parts
}  // namespace gpufleet
