#pragma once
// Several regions: where the users are, how far (a great-circle estimate of the network round
// trip), which regions a residency rule allows, and the road per region for each region's share of
// the demand, with egress, a dataset's one-time copy and the premium for surviving the loss of a
// region (N+1). Structs in, structs out; docs/spot.md ("Regions") states the method.

#include <optional>
#include <string>
#include <vector>

#include "fleet/road.hpp"

namespace gpufleet::regions {

inline constexpr double kFiberKmPerS = 200000;  // light in fiber, about 2/3 c
inline constexpr double kPathFactor = 1.5;      // routes are longer than the great circle
inline constexpr double kBytesPerOutputToken = 4;  // UTF-8 text, about 4 characters a token

double great_circle_km(double lat1, double lon1, double lat2, double lon2);
// RTT ~= 2 x distance / (200,000 km/s) x 1.5, in ms: an estimate, never a measurement.
double rtt_ms(double km);
std::string rtt_method();

// Where a share of the demand comes from.
struct UserGroup {
  std::string label;  // the region or "lat,lon" given
  double lat = 0, lon = 0;
  double share = 1;
};

// One region the workload may run in: its offer of the instance type, where it is and what moving
// bytes out of it costs.
struct Candidate {
  const InstanceType* offer = nullptr;
  const RegionSite* site = nullptr;             // nullptr: location unknown
  double internet_usd_per_gb = 0;
  double inter_region_usd_per_gb = 0;
  double internet_free_gb_per_month = 0;  // the provider's, once over every region
};

struct Input {
  const Catalog* catalog = nullptr;
  Workload workload;
  Billing billing;
  std::vector<Candidate> candidates;  // residency already applied
  std::vector<UserGroup> users;       // empty: one group without a location
  bool failover = false;              // N+1: survive the loss of any one region
  double response_bytes = 0;          // per request, egress
  double dataset_gb = 0;              // copied once into each region chosen but its home
  std::string dataset_region;         // where the dataset is ("" : copied into every region)
};

struct Chosen {
  const Candidate* candidate = nullptr;
  double share = 0;          // of the demand served here
  double sized_share = 0;    // of the demand sized here (N+1: more than its share)
  Deployment deployment;     // the road at the sized share
  double worst_rtt_ms = -1;  // of the user groups sent here (-1: no location)
  double p95_ttft_with_rtt_ms = 0;
  bool meets_ttft = true;
  double egress_gb_per_month = 0;
  double egress_usd_per_month = 0;
  double copy_usd = 0;
  std::vector<std::string> users;
};

struct Result {
  std::vector<Chosen> chosen;
  double compute_usd_per_month = 0;
  double egress_usd_per_month = 0;
  double one_time_usd = 0;
  std::optional<double> without_failover_compute_usd_per_month;  // when failover asked
  std::string refusal, way_out;
  std::vector<std::string> notes;
};

// The cheapest placement: each user group goes to the allowed region where its share costs least
// (compute at the region's price + egress) among those whose RTT + p95 TTFT meets max_ttft_ms
// (or, when none does, the nearest); each region is then sized by the road for its share. With
// failover, a second region is added when one is chosen, and each region is sized to carry its
// share plus the largest other region's.
Result place(const Input& in);

}  // namespace gpufleet::regions
