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
    {"price_flag", "code:string name:string provider?:string"},
    {"cost",
     "provider:string region:string pricing:string way?:string usd_per_hour:number|null "
     "monthly_hours:number schedule:string usd_per_month:number|null "
     "on_demand_usd_per_hour:number|null spot_usd_per_hour:number|null "
     "on_demand_usd_per_month:number|null spot_usd_per_month:number|null "
     "spot_savings_pct:number|null spot_interruption_notice_s:number|null spot_basis?:string "
     "commitments?:@commitment[] basis:string note?:string price_flags?:@price_flag[] "
     "priced_from_region?:string|null"},
    {"fit_summary",
     "fits:boolean gpus:number per_gpu_gb:number capacity_per_gpu_gb:number "
     "utilization_pct:number fit_band?:object"},
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
    // report::migration: a migration report (migrate, and each workload scenario's report).
    {"migration",
     "request:object current:@candidate assessment:string ways_out?:@ways_out "
     "alternatives:@candidate[] excluded:@excluded[] best_by_priority:object "
     "recommendation:@recommendation warnings:string[]"},
    {"scenario",
     "current_instance:string current_gpu_count:number workload_type:string model_size:string "
     "monthly_hours:number use_spot:boolean precision:string priority:string"},
    {"workload_summary",
     "id:string name:string description:string scenario:@scenario expected_outcome:string "
     "tags:string[]"},
    {"workload_report", "...workload_summary report:@migration"},
    {"workload_list", "workloads:@workload_summary[] workload_sets:object"},
    {"memory_line", "key:string label:string gib:number bytes:number basis:string"},
    {"plan_alternative",
     "provider:string region:string instance:string usd_per_month:number|null source:string "
     "source_date:string host_short_of?:string[]"},
    {"planned_workload",
     "name:string instance:string provider:string region:string count:number cost:@cost "
     "alternatives:@plan_alternative[]"},
    {"planned_environment", "name:string workloads:@planned_workload[] usd_per_month:number|null"},
    {"plan_choice",
     "workload:string environment:string instance:string provider:string "
     "usd_per_month:number|null"},
    {"cheapest_mix", "usd_per_month:number choices:@plan_choice[] savings_pct?:number"},
    {"decide_option",
     "kind:string name:string suitable:boolean migration_complexity:string risk_level:string "
     "cheapest_instance:@candidate|null reasons:string[] recommended:boolean"},
    {"model_name",
     "typed:string key:string|null name:string|null matched_by:string|null "
     "suggestions:@key_name[] message:string|null"},
    {"key_name", "key:string name:string"},
    // catalog's instances: a menu row (section "menus") has the first members only.
    {"catalog_instance",
     "family:string instance:string provider:string region?:string accelerator_kind:string "
     "gpu_type:string gpus:number gpu_memory_gb_label?:number memory_per_gpu_gb?:number "
     "vcpus?:number ram_gib?:number|null on_demand_usd_per_hour?:number|null "
     "spot_usd_per_hour?:number|null compute_tflops?:number memory_bandwidth_gb_per_s?:number "
     "interconnect?:string price_notes?:string source?:string source_date?:string"},
    {"model_size_row",
     "size:string name:string description:string parameter_count_billion:number "
     "memory_overhead_multiplier:number examples:string[]"},
    {"concrete_model",
     "key:string name:string hf_id:string model_type:string parameters_billion:number "
     "max_context:number"},
    {"catalog_gpu", "key:string vendor:string capacity_gib:number estimable:boolean"},
    {"memory_menus",
     "weight_formats:string[] kv_cache_formats:string[] optimizers:string[] "
     "engines:@key_name[]"},
    {"choice", "key:string name:string memory_mode?:string"},
    {"way_to_pay",
     "key:string provider:string kind:string term_years:number upfront:string priced:boolean "
     "name:string priced_for?:string[]"},
    {"traced", "value:number from:string"},
    {"deploy_scaling", "metric:string min_replicas:number max_replicas:number threshold:number"},
    // deploy's deployment: its figures, each traced to the answer's member it came from.
    {"deploy_site",
     "name:string role?:string instance:string provider:string region:string pricing:string "
     "model?:string engine?:string engine_image?:string fallback_instance_types:string[] "
     "gpus_per_instance:@traced instances:@traced min_instances:@traced max_instances:@traced "
     "mean_instances:@traced replicas:@traced instances_per_replica:@traced "
     "gpus_per_replica:@traced tensor_parallel?:@traced pipeline_parallel?:@traced "
     "max_num_seqs?:@traced max_model_len?:@traced gpu_memory_utilization?:@traced "
     "on_demand_base_instances:@traced on_demand_base_replicas?:@traced "
     "on_demand_above_base_pct:@traced usd_per_month:@traced workload?:string "
     "hours_per_month?:@traced scaling?:@deploy_scaling"},
    {"deploy_target", "target:string applies:boolean reason:string|null"},
    {"deploy_file", "target:string name:string media_type:string content:string"},
    {"deploy_left_out", "deployment:string target:string reason:string"},
    {"accuracy_case",
     "id:string quantity:string confidence:string metric:string unit:string measured:number "
     "skipped?:string predicted?:number error_pct?:number per_gpu?:@memory_line[] "
     "assumptions:string[]"},
    {"accuracy_summary",
     "n:number median_abs_err_pct:number p90_abs_err_pct:number max_abs_err_pct:number "
     "skipped:number"},
    {"accuracy_summaries", "memory:@accuracy_summary throughput:@accuracy_summary"},
    {"accuracy_band",
     "quantity:string phase:string engine:string vendor:string n:number sources:number "
     "pool:string median_abs_err_pct:number p90_abs_err_pct:number"},
    {"autoscale_deployment",
     "instance:string provider:string region:string tensor_parallel:number "
     "pipeline_parallel:number gpus_per_replica:number concurrency_per_replica:number "
     "requests_per_s_per_replica:number target_requests_per_s_per_replica:number ttft_ms:number "
     "pricing:string replicas_per_instance:number instances_per_replica:number "
     "usd_per_instance_hour:number priced_from_region?:string|null replicas_at_peak:number"},
    {"traffic_profile",
     "source:string intervals:number interval_s:number start?:string shape?:string "
     "shape_source?:string synthetic?:boolean time_zone:string requests_per_s:number[] "
     "peak_requests_per_s:number month:string"},
    {"cold_start_figures",
     "provisioning_s:number image_pull_s:number weights_gb:number weights_gb_per_s:number "
     "weights_load_s:number warmup_s:number total_s:number basis:string"},
    {"scaling_policy",
     "name:string metric:string target:number min_replicas:number max_replicas:number "
     "control_period_s:number scale_up_delay_s:number scale_down_delay_s:number "
     "tolerance:number"},
    {"policy_run",
     "name:string replicas:number[] replica_hours_per_month:number "
     "instance_hours_per_month:number usd_per_month:number gpu_hours_idle:number "
     "slo_attainment:number usd_per_month_band?:@band_range"},
    {"autoscale_band", "peak_replicas?:@band_range text:string expected_error:object"},
    {"scaling_advice",
     "min_replicas:number max_replicas:number metric:string threshold:number "
     "control_period_s:number scale_up_delay_s:number scale_down_delay_s:number basis:string "
     "keda_scaled_object:string"},
    {"committed_base",
     "commitment:string replicas:number instances:number usd_per_month:number|null "
     "usd_per_instance_hour:number|null break_even_utilization:number|null basis:string"},
    {"right_size_instance",
     "instance:string provider:string gpu_type:string gpus_used:number gpus_per_instance:number "
     "usd_per_hour:number usd_per_month:number basis:string"},
    {"right_size_model",
     "model:string key:string weights_gb:number min_vram_gb:number min_vram_gib:number "
     "smallest_gpu:string|null cheapest_instance:@right_size_instance|null "
     "per_gpu:@memory_line[]"},
    // estimate with "rank": one row per instance; the instances it could not rank.
    {"estimate_row",
     "instance:string provider:string region:string gpu:string gpus:number "
     "tensor_parallel:number model_copies:number concurrency_per_copy:number "
     "time_to_first_token_ms:number time_per_output_token_ms:number output_tokens_per_s:number "
     "usd_per_hour:number usd_per_million_output_tokens:number output_tokens_per_usd:number "
     "bound:string estimate_note:string|null price_source:string"},
    {"unranked", "instance:string reason:string"},
    {"estimate_device",
     "gpu:string bandwidth_gb_per_s:number peak_tflops:number precision:string "
     "tensor_parallel:number link_gb_per_s:number link?:string link_basis?:string "
     "layout_note?:string note?:string"},
    {"estimate_instance",
     "instance:string provider:string gpus:number model_copies:number usd_per_hour:number "
     "spot_usd_per_hour:number|null price_source:string price_flags?:@price_flag[] "
     "priced_from_region?:string price_note?:string spot_basis?:string"},
    {"phase_time",
     "bound:string compute_ms:number memory_ms:number interconnect_ms:number basis:string"},
    {"cost_band", "low:number high:number|null p90_abs_err_pct:number n:number basis:string"},
    {"estimate_inference",
     "concurrency:number max_concurrency_by_kv_cache:number time_to_first_token_ms:number "
     "time_per_output_token_ms:number decode_step_ms:number end_to_end_latency_ms:number "
     "output_tokens_per_s:number output_tokens_per_s_per_gpu:number "
     "single_stream_tokens_per_s:number prefill:@phase_time batch_prefill_ms:number "
     "decode:@phase_time limit:string usd_per_million_output_tokens?:number|null "
     "usd_per_million_output_tokens_spot?:number|null usd_per_million_input_tokens?:number|null "
     "cost_basis?:string usd_per_million_output_tokens_band?:@cost_band"},
    {"estimate_training",
     "tokens_per_s_per_gpu:number tokens_per_s:number tflops_per_gpu:number mfu:number "
     "hfu:number gflop_per_token:number bound:string basis:string hours?:number "
     "gpu_hours?:number usd_on_demand?:number usd_spot?:number"},
};

constexpr ResultShape kResults[] = {
    {"fit",
     "price_flags?:@price_flag[] request:object placement:@placement_answer memory:object "
     "fit:@fit_summary status:string deployment:@deployment ways_out?:@ways_out cost:@cost "
     "expected_error:object band?:@error_band"},
    {"cost",
     "price_flags?:@price_flag[] placement:@placement_answer cost:@cost spot:@cost "
     "pricing_note:string by_region?:object"},
    {"recommend",
     "first_pick_caveat?:string request:object candidates:@candidate[] excluded:@excluded[] "
     "ranking:string pricing_note:string"},
    {"migrate", "price_flags?:@price_flag[] ...migration"},
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
    {"workload_set", "id:string reports:@workload_report[]"},
    {"regions",
     "request:object instance:string regions:array status:string refusal?:string way_out?:any "
     "regions_chosen:array totals?:object band?:object failover?:object notes?:string[] "
     "method?:any"},
    {"workload", "...workload_report"},
    {"workloads", "...workload_list"},
    {"plan",
     "name:string environments:@planned_environment[] total_usd_per_month:number|null "
     "by_provider_usd_per_month:object by_provider_note:string cheapest_mix:@cheapest_mix"},
    {"decide",
     "decision_tree:string branch:string recommended_kind:string recommended_families:string[] "
     "request:object options:@decide_option[] prices_disagree?:string source:string"},
    // Each member is written for some sections only (request field "section").
    {"catalog",
     "model_name?:@model_name info?:object instances?:@catalog_instance[] providers?:object "
     "model_sizes?:@model_size_row[] memory_planning?:object concrete_models?:@concrete_model[] "
     "gpus?:@catalog_gpu[] memory_menus?:@memory_menus tasks?:@choice[] priorities?:@choice[] "
     "pricing_modes?:@choice[] provider_names?:object ways_to_pay?:@way_to_pay[] "
     "request?:object precision_formats?:any workloads?:@workload_list files?:object"},
    {"deploy",
     "source:string target:string deployments:@deploy_site[] targets:@deploy_target[] "
     "files:@deploy_file[] left_out?:@deploy_left_out[] basis:string"},
    {"accuracy",
     "cases:@accuracy_case[] summary:@accuracy_summaries by_kind:@accuracy_band[] basis:string"},
    {"autoscale",
     "price_flags?:@price_flag[] request:object deployment:@autoscale_deployment "
     "profile:@traffic_profile cold_start:@cold_start_figures policy:@scaling_policy "
     "needed_replicas:number[] policies:@policy_run[] band:@autoscale_band recommended:@scaling_advice "
     "committed_base:@committed_base basis:string notes:string[]"},
    {"right_size", "models:@right_size_model[] hours_per_month:number basis:string"},
    // estimate: a ranking ("rank": true; model and settings of its own) or one device's figures.
    {"estimate",
     "model:object settings:object ranked?:@estimate_row[] candidates?:number "
     "excluded?:@unranked[] device?:@estimate_device instance?:@estimate_instance "
     "training?:@estimate_training inference?:@estimate_inference expected_error?:any "
     "basis:string"},
};

}  // namespace

std::span<const ResultShape> result_shapes() { return kShapes; }
std::span<const ResultShape> question_results() { return kResults; }

}  // namespace gpufleet::detail
