#include "gpufleet/names.hpp"

#include <algorithm>
#include <cctype>

namespace gpufleet {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Names are short, so the quadratic table is small.
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> nearest_names(std::string_view typed,
                                       const std::vector<std::string>& candidates,
                                       std::size_t limit) {
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string want = lower(typed);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const std::string& name : candidates) {
    const std::size_t d = edit_distance(want, lower(name));
    if (d > 0 && d <= std::max<std::size_t>(2, std::max(want.size(), name.size()) / 4))
      near.emplace_back(d, name);
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, name] : near) {
    if (out.size() == limit) break;
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

}  // namespace gpufleet
