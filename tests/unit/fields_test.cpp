// The field definitions (core/src/fields.cpp): unknown fields are errors at every depth of every
// file, free text is allowed where documented, and the table says what the readers check: each
// definition's range, type, required flag and allowed values is tried on the shipped files, one
// field at a time, and the core must answer as the table (and so the JSON Schema) says.
#include <catch2/catch.hpp>

#include <map>

#include "catalog/fields.hpp"
#include "catalog/catalog.hpp"
#include "gpufleet/schema.hpp"
#include "support.hpp"
#include "pricing/prices.hpp"

using namespace gpufleet;
namespace fields = gpufleet::detail::fields;

namespace {

// The shipped catalog with only one region's prices (the readers are the same; loads are fast).
CatalogSources small_sources() {
  CatalogSources s = test::config_sources();
  std::vector<PriceFile> one;
  for (auto& f : s.price_files) {
    if (f.name == "prices/aws/us-east-1.json") one.push_back(f);
  }
  s.price_files = one;
  return s;
}

std::string& text_of(CatalogSources& s, const std::string& file) {
  if (file == kGpuInstancesFile) return s.gpu_instances_json;
  if (file == kModelConfigFile) return s.model_config_json;
  if (file == kWorkloadsFile) return s.workloads_json;
  return s.price_files.front().text;
}

// The errors of loading the shipped catalog with `file` edited.
Errors load_with(const std::string& file, const std::function<void(Json&)>& edit) {
  CatalogSources s = small_sources();
  std::string& text = text_of(s, file);
  Json doc = Json::parse(text);
  edit(doc);
  text = doc.dump();
  return load_catalog(s).errors;
}

bool has(const Errors& errors, const std::string& code, const std::string& file, const std::string& path) {
  for (const auto& e : errors) {
    if (e.code == code && e.file == file && e.path == path) return true;
  }
  return false;
}

std::string dump(const Errors& errors) {
  std::string out;
  for (const auto& e : errors) out += e.code + " " + e.file + " " + e.path + ": " + e.message + "\n";
  return out;
}

const std::string kPriceFileName = "prices/aws/us-east-1.json";

}  // namespace

TEST_CASE("the shipped files with their $schema load without errors") {
  const Errors errors = load_catalog(test::config_sources()).errors;
  CHECK(errors.empty());
  INFO(dump(errors));
  const Json gpu = Json::parse(test::read_file(test::source_path("config/gpu_instances.json")));
  CHECK(gpu["$schema"] == "./schemas/gpu_instances.schema.json");
}

TEST_CASE("a typo in a size of G5 is an unknown field with file and path and the name meant") {
  const Errors errors = load_with(kGpuInstancesFile, [](Json& d) {
    d["gpu_instances"]["G5"]["sizes"]["g5.2xlarge"]["on_demand_cost_per_hr"] = 1.5;
  });
  REQUIRE(has(errors, "unknown_field", kGpuInstancesFile, "/gpu_instances/G5/sizes/g5.2xlarge/on_demand_cost_per_hr"));
  CHECK_THAT(errors.front().message, Catch::Contains("did you mean \"on_demand_cost_per_hour\"") &&
                                         Catch::Contains("expected one of") && Catch::Contains("got \"on_demand_cost_per_hr\""));
}

TEST_CASE("unknown fields are errors at every depth of every catalog file") {
  struct Case {
    const char* file;
    std::string pointer;  // where the unknown member is put
  };
  const std::vector<Case> cases{
      {kGpuInstancesFile, "/gpu_instance"},
      {kGpuInstancesFile, "/gpus/A10G/memroy_gb"},
      {kGpuInstancesFile, "/providers/aws/spot_notice_seconds"},
      {kGpuInstancesFile, "/providers/aws/ways_to_pay/savings_plan_ec2_instance_1y_no_upfront/discount"},
      {kGpuInstancesFile, "/providers/gcp/ways_to_pay/committed_use_1y/families/A2/discount"},
      {kModelConfigFile, "/memory_model/engines/vllm/profile_bands/0/max_seqs"},
      {kGpuInstancesFile, "/gpu_instances/P5/gpu_count"},
      {kModelConfigFile, "/model_size"},
      {kModelConfigFile, "/model_sizes/small/parameters_billion"},
      {kModelConfigFile, "/precision_formats/fp16/bytes"},
      {kModelConfigFile, "/memory_planning/train_multiplier"},
      {kModelConfigFile, "/memory_model/engines/vllm/kv_cach"},
      {kModelConfigFile, "/memory_model/lora/rank"},
      {kModelConfigFile, "/throughput_model/prefill_mfu/short"},
      {kModelConfigFile, "/throughput_model/serving/batch"},
      {kModelConfigFile, "/generic_decoder/shapes"},
      {kWorkloadsFile, "/workload"},
      {kWorkloadsFile, "/workloads/inference_small_p5/expected"},
      {kWorkloadsFile, "/workloads/inference_small_p5/scenario/gpu_count"},
      {kPriceFileName.c_str(), "/offers/g5.xlarge/spot_price"},
      {kPriceFileName.c_str(), "/snapshot/when"},
  };
  for (const auto& c : cases) {
    INFO(c.file << c.pointer);
    const Errors errors = load_with(c.file, [&](Json& d) { d[Json::json_pointer(c.pointer)] = 1; });
    CHECK(has(errors, "unknown_field", c.file, c.pointer));
    if (!has(errors, "unknown_field", c.file, c.pointer)) FAIL_CHECK(dump(errors));
  }
}

TEST_CASE("free text is allowed on catalog objects as strings") {
  CHECK(load_with(kGpuInstancesFile, [](Json& d) {
          d["gpu_instances"]["P5"]["notes"] = "text";
          d["gpu_instances"]["G5"]["sizes"]["g5.2xlarge"]["capacity_notes"] = "text";
          d["gpus"]["A10G"]["about"] = "text";
          d["providers"]["aws"]["estimates"] = "text";
        }).empty());
  CHECK(load_with(kModelConfigFile, [](Json& d) { d["memory_model"]["engines"]["vllm"]["note"] = "text"; }).empty());
  CHECK(load_with(kWorkloadsFile, [](Json& d) { d["workloads"]["inference_small_p5"]["scenario"]["notes"] = "text"; }).empty());
  // Free text and documentation fields the core never reads still have a type.
  CHECK(has(load_with(kGpuInstancesFile, [](Json& d) { d["gpu_instances"]["P5"]["interconnect_notes"] = 3; }),
            "wrong_type", kGpuInstancesFile, "/gpu_instances/P5/interconnect_notes"));
  CHECK(has(load_with(kGpuInstancesFile, [](Json& d) { d["gpus"]["A10G"]["compute_capability"] = 8.6; }),
            "wrong_type", kGpuInstancesFile, "/gpus/A10G/compute_capability"));
  // A price file is not a catalog of one's own: no free text beyond its fields, and no nulls.
  CHECK(has(load_with(kPriceFileName, [](Json& d) { d["offers"]["g5.xlarge"]["about"] = "text"; }),
            "unknown_field", kPriceFileName, "/offers/g5.xlarge/about"));
  CHECK(has(load_with(kPriceFileName, [](Json& d) { d["offers"]["g5.xlarge"]["notes"] = nullptr; }),
            "wrong_type", kPriceFileName, "/offers/g5.xlarge/notes"));
}

TEST_CASE("tables keyed by names take any name with values as defined") {
  CHECK(load_with(kModelConfigFile, [](Json& d) { d["throughput_model"]["link_gb_per_s"]["NEW-GPU"] = 100; }).empty());
  CHECK(has(load_with(kModelConfigFile, [](Json& d) { d["throughput_model"]["link_gb_per_s"]["NEW-GPU"] = "fast"; }),
            "wrong_type", kModelConfigFile, "/throughput_model/link_gb_per_s/NEW-GPU"));
  CHECK(has(load_with(kGpuInstancesFile, [](Json& d) { d["gpus"]["A10G"]["tflops"]["fp16"] = 1e-9; }),
            "out_of_range", kGpuInstancesFile, "/gpus/A10G/tflops/fp16"));
}

TEST_CASE("requests: unknown fields of nested objects are named with their path") {
  const std::vector<std::pair<Json, std::string>> cases{
      {{{"question", "recommend"}, {"model", {{"size", "small"}}}, {"workload", "inference"}, {"demand", {{"rps", 5}}}}, "/demand/rps"},
      {{{"question", "recommend"}, {"model", {{"size", "small"}}}, {"workload", "training"}, {"recipe", {{"zero", 3}}}}, "/recipe/zero"},
      {{{"question", "cost"}, {"instance", "P5"}, {"schedule", {{"days", 3}}}}, "/schedule/days"},
      {{{"question", "migrate"}, {"model", {{"size", "small"}}}, {"workload", "inference"}, {"current", {{"instance", "P5"}, {"count", 1}}}}, "/current/count"},
      {{{"question", "precisions"}, {"model", {{"parameters", 7}}}}, "/model/parameters"},
      // memory reads the model as every question does (name, hf_config, size or params_b).
      {{{"question", "memory"}, {"model", {{"name", "llama-3.1-8b"}, {"layers", 32}}}}, "/model/layers"},
  };
  for (const auto& [request, path] : cases) {
    INFO(request.dump());
    const Json answer = test::ask(test::shipped(), request);
    REQUIRE(answer["ok"] == false);
    bool found = false;
    for (const auto& e : answer["errors"]) found = found || (e["code"] == "unknown_field" && e["path"] == path);
    CHECK(found);
  }
}

// ---- the table and the readers agree, field by field ------------------------------------------

namespace {

struct Example {
  std::string file;
  std::string path;  // of the first object of the kind in the shipped files
  Json value;
};

void find_examples(const Json& v, const fields::Kind& kind, const std::string& file, const std::string& path,
                   std::map<std::string, Example>& out) {
  if (!v.is_object()) return;
  const bool cpu = v.contains("accelerator_kind") && v["accelerator_kind"] == "cpu";
  if (!out.count(kind.name) && !cpu) out[kind.name] = {file, path, v};
  for (const auto& [key, member] : v.items()) {
    const fields::Field* field = fields::find(kind, key);
    if (!field && kind.rest) field = kind.rest;
    if (field && field->type == fields::Type::kObject && field->of && !(field->flags & fields::kInfo)) {
      find_examples(member, fields::kind(field->of), file, path + "/" + pointer_token(key), out);
    }
  }
}

std::map<std::string, Example> examples() {
  std::map<std::string, Example> out;
  const std::pair<const char*, const char*> files[] = {{kGpuInstancesFile, "gpu_instances_file"},
                                                       {kModelConfigFile, "model_config_file"},
                                                       {kWorkloadsFile, "workloads_file"}};
  for (const auto& [file, kind] : files) {
    find_examples(Json::parse(test::read_file(test::source_path(std::string("config/") + file))), fields::kind(kind), file, "", out);
  }
  find_examples(Json::parse(test::read_file(test::source_path("config/" + kPriceFileName))), fields::kind("price_file"),
                kPriceFileName, "", out);
  return out;
}

// One trial: `value` at `pointer` of `file` (or the member removed when value is discarded) gives `code` there.
void expect(const std::string& file, const std::string& pointer, const Json& value, const std::string& code) {
  const Errors errors = load_with(file, [&](Json& d) {
    const Json::json_pointer p(pointer);
    if (value.is_discarded()) {
      d[p.parent_pointer()].erase(p.back());
    } else {
      d[p] = value;
    }
  });
  INFO(file << pointer << " = " << value.dump() << " should give " << code);
  if (code.empty()) {
    CHECK(errors.empty());
    if (!errors.empty()) FAIL_CHECK(dump(errors));
  } else if (!has(errors, code, file, pointer)) {
    FAIL_CHECK(dump(errors));
  }
}

}  // namespace

TEST_CASE("every catalog and price definition is what its reader checks: range and type and required and values") {
  const auto found = examples();
  int trials = 0;
  for (const fields::Kind* kind = fields::kinds_begin(); kind != fields::kinds_end(); ++kind) {
    const auto example = found.find(kind->name);
    if (example == found.end()) continue;  // request kinds, and tables the shipped files leave empty
    const Example& ex = example->second;
    auto trial = [&](const fields::Field& field, const std::string& key) {
      if (field.flags & fields::kInfo) return;
      const std::string at = ex.path + "/" + pointer_token(key);
      const bool present = ex.value.contains(key);
      if (field.type == fields::Type::kNumber) {
        expect(ex.file, at, "1", "wrong_type");
        if (field.min != field.max) {
          expect(ex.file, at, field.max * 2 + 1, "out_of_range");
          if (field.flags & fields::kMinExclusive) {
            expect(ex.file, at, field.min, "out_of_range");
          } else if (field.flags & fields::kZeroOr) {
            expect(ex.file, at, field.min / 2, "out_of_range");
          } else {
            expect(ex.file, at, field.min - 1, "out_of_range");
          }
        }
        trials += 3;
      } else if (field.type == fields::Type::kString) {
        expect(ex.file, at, 5, "wrong_type");
        ++trials;
      } else if (field.type == fields::Type::kBoolean || field.type == fields::Type::kStrings) {
        expect(ex.file, at, 5, "wrong_type");
        ++trials;
      } else if (field.type == fields::Type::kObject) {
        expect(ex.file, at, 5, "wrong_type");
        ++trials;
      }
      if (field.values && field.type == fields::Type::kString) {
        expect(ex.file, at, "no such value", "unknown_name");
        ++trials;
      }
      if ((field.flags & fields::kRequired) && present && key != "*") {
        expect(ex.file, at, Json(Json::value_t::discarded), "missing_field");
        ++trials;
      }
    };
    for (std::size_t i = 0; i < kind->count; ++i) {
      const fields::Field& field = kind->fields[i];
      if (field.name == std::string("$schema")) continue;
      // A member the example leaves out is still checked when given (the family's flagship carries
      // them all; sizes and engines leave some out): try it where the example is.
      trial(field, field.name);
    }
    if (kind->rest && kind->rest->type != fields::Type::kObject) {
      for (const auto& [key, _] : ex.value.items()) {
        if (fields::find(*kind, key)) continue;
        trial(*kind->rest, key);
        break;
      }
    }
  }
  CHECK(trials > 300);
}

TEST_CASE("schemas: every name prints a draft 2020-12 schema and other names none") {
  for (const auto& name : schema_names()) {
    const Json s = Json::parse(json_schema(name));
    CHECK(s["$schema"] == "https://json-schema.org/draft/2020-12/schema");
  }
  CHECK(json_schema("nothing").empty());
  const Json gpu = Json::parse(json_schema("gpu_instances"));
  CHECK(gpu["$defs"]["size"]["additionalProperties"] == false);
  CHECK(gpu["$defs"]["size"]["properties"].contains("on_demand_cost_per_hour"));
  CHECK(gpu["$defs"]["gpus"]["additionalProperties"]["$ref"] == "#/$defs/gpu");
  const Json request = Json::parse(json_schema("request"));
  CHECK(request["properties"]["question"]["enum"].size() >= 17);
}
