#pragma once
// The providers' batch-inference APIs (gpu_instances.json providers.<p>.batch_api): the published
// discount off real-time token prices, and the real-time list prices per model it applies to. Read
// from the catalog's document, checked when the catalog loads; the batch question prices a batch
// inference job's tokens with them beside its GPU plans.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "support/json_reader.hpp"

namespace gpufleet {

// A model's real-time (on-demand) list price per token at the service, with its source.
struct TokenPrice {
  double input_usd_per_million_tokens = 0;
  double output_usd_per_million_tokens = 0;
  std::string source, source_date;
};

struct BatchApi {
  std::string provider;  // the provider's key
  std::string name;      // the service
  double discount_pct = 0;
  std::optional<double> turnaround_hours;
  std::string applies_to, source, source_date, token_prices_notes;
  std::map<std::string, TokenPrice> token_prices;  // model key -> its real-time list price
};

// Every provider's batch API in the document, in key order; faults reported through `r`.
std::vector<BatchApi> read_batch_apis(const detail::Reader& r, const Json& gpu_instances_doc);
// The same from a loaded catalog (its document was checked when it loaded).
std::vector<BatchApi> batch_apis(const Catalog& catalog);

}  // namespace gpufleet
