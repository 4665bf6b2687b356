#pragma once
// Reading price files into a catalog's offers, and choosing one offer per instance type for the
// regions a question names. Internal to the core.

#include "gpufleet/catalog.hpp"

namespace gpufleet::detail {

// Reads every price file into catalog.offers (after the instance types are read) and its
// snapshots; faults go to `errors`, suspect rows to catalog.warnings.
void read_price_files(const std::vector<PriceFile>& files, Catalog& catalog, Errors& errors);

// Sets catalog.instances to one offer of each type for `choice`, and the families' indices.
void apply_regions(Catalog& catalog, const RegionChoice& choice);
void index_families(Catalog& catalog);

// Every offer of the instance type `name` in the regions `choice` allows (all regions: every offer).
std::vector<const InstanceType*> offers_in(const Catalog& catalog, const std::string& name, const RegionChoice& choice);

class Reader;
// The request's "region" or "regions", or nullopt after recording the fault.
std::optional<RegionChoice> read_region_choice(const Catalog& catalog, const Json& request, const Reader& r);

}  // namespace gpufleet::detail
