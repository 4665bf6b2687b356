// The members of the questions' results, as answers.cpp and api/questions/*.cpp write them
// (result_fields.hpp). A member written under a condition is optional ("?"); every golden
// response (tests/cases) is checked against the schema these rows make (tests/schemas).

#include "api/result_fields.hpp"

namespace gpufleet::detail {
namespace {

// report::deployment: the instance, layout, memory, speed (serving, batch or training) and price.
#define DEPLOYMENT                                                                             \
  "instance:string family:string provider:string region:string accelerator_kind:string "       \
  "gpu_type:string instance_count:number gpus:number layout:@layout runs:boolean "             \
  "refusal?:string way_out?:string compute_precision:string memory_per_gpu_gb:number "         \
  "memory_per_gpu_gib:number engine_reserves_per_gpu_gib?:number capacity_per_gpu_gib:number " \
  "capacity_per_gpu_gb:number memory_utilization_pct:number|null "                             \
  "concurrency_per_replica?:number max_concurrency_by_kv_cache?:number "                       \
  "time_to_first_token_ms?:number p95_time_to_first_token_ms?:number "                         \
  "time_per_output_token_ms?:number output_tokens_per_s?:number utilization_pct?:number|null " \
  "usd_per_million_output_tokens?:number|null run_hours?:number|null run_days?:number|null "   \
  "usd_per_run?:number|null tokens_per_s?:number tokens_per_s_per_gpu?:number mfu?:number "    \
  "usd_per_hour:number|null usd_per_month:number|null bound:string uncalibrated:boolean "      \
  "notes:string[] cost?:@cost memory_per_gpu?:array basis?:any"

constexpr ResultShape kShapes[] = {
    {"layout", "tensor_parallel:number pipeline_parallel:number replicas:number"},
    {"placement_answer",
     "requested:string instance:string family:string provider:string region:string "
     "accelerator_kind:string resolved_from_family:boolean gpu_type:string gpus_used:number "
     "gpus_per_instance:number gpu_fraction?:number instance_count:number "
     "memory_per_gpu_gb:number memory_per_gpu_basis:string note?:string source:string "
     "source_date:string"},
    {"commitment",
     "way:string kind:string name:string term:string upfront:string discount_pct:number|null "
     "up_to_pct?:number usd_per_hour:number|null usd_per_month:number|null "
     "recurring_usd_per_month:number|null upfront_usd:number|null "
     "break_even_utilization_pct:number|null note?:string estimates?:string source:string "
     "source_date:string"},
    {"price_flag", "code:string name:string"},
    {"cost",
     "provider:string region:string pricing:string way?:string usd_per_hour:number|null "
     "monthly_hours:number schedule:string usd_per_month:number|null "
     "on_demand_usd_per_hour:number|null spot_usd_per_hour:number|null "
     "on_demand_usd_per_month:number|null spot_usd_per_month:number|null "
     "spot_savings_pct:number|null spot_interruption_notice_s:number|null "
     "commitments?:@commitment[] basis:string note?:string price_flags?:@price_flag[] "
     "priced_from_region?:string|null"},
    {"fit_summary",
     "fits:boolean gpus:number per_gpu_gb:number capacity_per_gpu_gb:number "
     "utilization_pct:number"},
    {"deployment", DEPLOYMENT},
    {"performance",
     "score:number unit:string bound:string ratio_to_current:number|null "
     "capacity_ratio_to_current:number|null usd_per_million_tokens:number|null "
     "time_per_output_token_ms:number|null"},
    {"band_range", "low:number|null high:number|null"},
    {"error_band",
     "output_tokens_per_s?:@band_range tokens_per_s?:@band_range replicas?:@band_range "
     "instance_count?:@band_range usd_per_month?:@band_range usd_per_million_tokens?:@band_range "
     "run_hours?:@band_range usd_per_run?:@band_range misses_deadline_at_low_throughput?:boolean "
     "basis?:string text:string expected_error:object"},
    {"candidate",
     "...deployment sizing:string fit:@fit_summary cost:@cost performance:@performance "
     "savings_pct:number|null savings_usd_per_month:number|null risk_level:string "
     "migration_complexity:string reasons:string[] band?:@error_band"},
    {"ways_out",
     "formats:string[] more_gpus:@deployment|null other_families:@deployment[] summary:string"},
    {"excluded", "family:string reason:string way_out:string"},
    {"recommendation",
     "priority:string action:string instance:string family?:string instance_count?:number "
     "gpus_used?:number layout?:@layout pricing?:string usd_per_month?:number|null "
     "savings_pct?:number|null savings_usd_per_month?:number|null performance_ratio?:number|null "
     "risk_level?:string migration_complexity?:string usd_per_million_tokens?:number|null "
     "current_usd_per_million_tokens?:number|null summary:string"},
};

constexpr ResultShape kResults[] = {
    {"fit",
     "price_flags?:@price_flag[] request:object placement:@placement_answer memory:object "
     "fit:@fit_summary status:string deployment:@deployment ways_out?:@ways_out cost:@cost"},
    {"cost",
     "price_flags?:@price_flag[] placement:@placement_answer cost:@cost spot:@cost "
     "pricing_note:string by_region?:object"},
    {"recommend",
     "first_pick_caveat?:string request:object candidates:@candidate[] excluded:@excluded[] "
     "ranking:string pricing_note:string"},
    {"migrate",
     "price_flags?:@price_flag[] request:object current:@candidate assessment:string "
     "ways_out?:@ways_out alternatives:@candidate[] excluded:@excluded[] best_by_priority:object "
     "recommendation:@recommendation warnings:string[]"},
    {"precisions", "model:object precisions:array basis:string"},
    {"validate",
     "valid:boolean counts:object instances_without_on_demand_price:array warnings:array"},
    {"memory",
     "model:object settings:object per_gpu:array total_gib:number total_bytes:number "
     "tensors_gib:number weights_gib:number trainable_parameters?:number "
     "kv_cache_capacity?:object notes:string[] expected_error:any basis:string gpu?:object "
     "gpus:array"},
    {"performance", "request:object setups:array basis:string"},
    {"placement",
     "models:array on_instance?:object cheapest_single_instance:object|null "
     "cheapest_split:object|null basis:string"},
    {"spot",
     "request:object data:object assumptions:object pools:array plan?:object all_on_demand?:object "
     "all_spot?:object jobs?:array checkpoint?:object method:string"},
    {"batch",
     "jobs:array schedule:array total:object jobs_at_risk:array simulation:object "
     "assumptions:object batch_apis?:array"},
    {"workload_set", "id:string reports:array"},
    {"regions",
     "request:object instance:string regions:array status:string refusal?:string way_out?:any "
     "regions_chosen:array totals?:object failover?:object notes?:string[] method?:any"},
};

}  // namespace

std::span<const ResultShape> result_shapes() { return kShapes; }
std::span<const ResultShape> question_results() { return kResults; }

}  // namespace gpufleet::detail
