#pragma once
// Reads the fields questions share (model, workload, precision, instance, hours and ways to pay)
// out of a request, recording every fault with its JSON path. Internal to the core.

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "pricing/cost.hpp"
#include "fleet/recommend.hpp"
#include "fleet/road.hpp"
#include "support/json_reader.hpp"
#include "api/answers.hpp"

namespace gpufleet::detail {

using text::round_to;

inline constexpr double kMaxGpus = 4096;
inline constexpr double kMaxHoursPerMonth = 744;  // 31 days x 24 h

// A failed request: the errors collected while reading it.
struct Invalid {
  Errors errors;
};

inline std::string names_of(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

// The keys of a catalog table or list, for "expected one of ..." messages.
template <class Table, class Key>
std::vector<std::string> keys_of(const Table& table, Key key) {
  std::vector<std::string> keys;
  for (const auto& item : table) keys.push_back(key(item));
  return keys;
}
inline auto first_of = [](const auto& pair) { return pair.first; };

class Session {
 public:
  Session(const Catalog& catalog, const Json& request, Errors& errors)
      : catalog_(catalog), request_(request), r_(kRequest, errors) {}

  std::optional<ModelSpec> model(const Json& obj, const std::string& path);
  // The workload every sizing question shares: model, task, formats, engine, demand, recipe.
  std::optional<Workload> road_workload(const Json& obj, const std::string& path, bool task_required);
  std::optional<WorkloadType> workload(const Json& obj, const std::string& path, bool required);
  // "weight_format" or its seed name "precision" (not both), lower case; nullopt when neither.
  std::optional<std::string> weight_format(const Json& obj, const std::string& path);
  // A demand object (at `path`) and a recipe object, over the values `dm` and `re` already hold.
  void demand(const Json& d, const std::string& path, Demand& dm);
  void recipe(const Json& rc, const std::string& path, Recipe& re);
  const Precision* precision(const Json& obj, const std::string& path, bool required);
  // An instance type or family and its GPUs. Without "gpus" and with the workload `w`: the whole
  // instance type named, or the family's smallest size that holds the job (each said in its note).
  std::optional<Placement> placement(const Json& obj, const std::string& path, const Workload* w = nullptr,
                                     const Billing* billing = nullptr);

  // Hours (hours_per_month or a schedule) and the way they are paid (use_spot or pricing).
  std::optional<Billing> billing(const Json& obj, const std::string& path);
  bool schedule(const Json& obj, const std::string& path, Billing& b);
  std::vector<std::string> providers(const Json& obj, const std::string& path);

  // Fields shared by fit, recommend and migrate.
  std::optional<Question> question(bool with_priority);

  Reader& reader() { return r_; }

 private:
  std::optional<Placement> whole_instance(const std::string& name, const Workload& w, const Billing& billing);

  const Catalog& catalog_;
  const Json& request_;
  Reader r_;
};

}  // namespace gpufleet::detail
