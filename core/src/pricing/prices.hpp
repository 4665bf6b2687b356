#pragma once
// Reading price files into a catalog's offers, and choosing one offer per instance type for the
// regions a question names. Internal to the core.

#include "catalog/catalog.hpp"

namespace gpufleet {

struct CatalogLoad {
  // Set when errors is empty; built in place and shared as it is (a catalog is never copied or
  // moved: its move alone was 1.4 KB of the WebAssembly core).
  std::shared_ptr<const Catalog> catalog;
  Errors errors;
};

// Parses and validates the three catalog files and the price files. Never throws.
CatalogLoad load_catalog(const CatalogSources& sources);

// The same catalog with each instance type priced in the regions `choice` names: a copy that
// shares the offers (built once per choice; the Analyzer keeps the recent ones).
std::shared_ptr<const Catalog> regional_view(const Catalog& catalog, const RegionChoice& choice);

// Which instances a search by price considers: any, accelerators (GPUs, Inferentia, Trainium) or
// GPUs only.
enum class Kinds { kAny, kAccelerators, kGpus };

// The one "priced and trusted" test of the searches that rank by price: an on-demand price with no
// price flag, on an instance of `kinds` (with at least one accelerator unless kAny) at one of
// `providers` (every provider when empty).
bool priced_on_demand(const InstanceType& it, Kinds kinds = Kinds::kAny,
                      const std::vector<std::string>& providers = {});

}  // namespace gpufleet

namespace gpufleet::detail {

// Reads every price file into catalog.offers (after the instance types are read) and its
// snapshots; faults go to `errors`, suspect rows to catalog.warnings.
void read_price_files(const std::vector<PriceFile>& files, Catalog& catalog, Errors& errors);

// Sets catalog.instances to one offer of each type for `choice`, and the families' indices.
void apply_regions(Catalog& catalog, const RegionChoice& choice);

// Every offer of the instance type `name` in the regions `choice` allows (all regions: every offer).
std::vector<const InstanceType*> offers_in(const Catalog& catalog, const std::string& name, const RegionChoice& choice);

class Reader;
// The request's "region" or "regions", or nullopt after recording the fault.
std::optional<RegionChoice> read_region_choice(const Catalog& catalog, const Json& request, const Reader& r);

}  // namespace gpufleet::detail
