#include "catalog/batch_api.hpp"

#include "catalog/fields.hpp"

namespace gpufleet {

using detail::Reader;

std::vector<BatchApi> read_batch_apis(const Reader& r, const Json& doc) {
  std::vector<BatchApi> out;
  if (!doc.is_object() || !doc.contains("providers") || !doc["providers"].is_object()) return out;
  for (const auto& [key, provider] : doc["providers"].items()) {
    if (!provider.is_object() || !provider.contains("batch_api")) continue;
    const std::string path = Reader::child(Reader::child("/providers", key), "batch_api");
    const Json* api = r.object(provider, "batch_api", Reader::child("/providers", key), false);
    if (!api || !detail::fields::check_fields(r, *api, path, "batch_api")) continue;
    BatchApi b;
    b.provider = key;
    b.name = r.string(*api, "name", path, true).value_or(key);
    b.discount_pct = r.number(*api, "discount_pct", path, true, {0, 100}).value_or(0);
    b.turnaround_hours = r.number(*api, "turnaround_hours", path, false, {0, 8760});
    b.applies_to = r.string(*api, "applies_to", path, false).value_or("");
    b.source = r.string(*api, "source", path, true).value_or("");
    b.source_date = r.string(*api, "source_date", path, true).value_or("");
    b.token_prices_notes = r.string(*api, "token_prices_notes", path, false).value_or("");
    if (const Json* prices = r.object(*api, "token_prices", path, false)) {
      for (const auto& [model, price] : prices->items()) {
        const std::string pp = Reader::child(path + "/token_prices", model);
        if (!r.expect_object(price, pp) ||
            !detail::fields::check_fields(r, price, pp, "token_price"))
          continue;
        TokenPrice t;
        t.input_usd_per_million_tokens =
            r.number(price, "input_usd_per_million_tokens", pp, true, {0, 1e6}).value_or(0);
        t.output_usd_per_million_tokens =
            r.number(price, "output_usd_per_million_tokens", pp, true, {0, 1e6}).value_or(0);
        t.source = r.string(price, "source", pp, true).value_or("");
        t.source_date = r.string(price, "source_date", pp, true).value_or("");
        b.token_prices.emplace(model, std::move(t));
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<BatchApi> batch_apis(const Catalog& catalog) {
  Errors ignored;
  return read_batch_apis(Reader("gpu_instances.json", ignored), catalog.gpu_instances_doc);
}

}  // namespace gpufleet
