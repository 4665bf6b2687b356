#pragma once
// A stable sort for the short lists the core orders (catalog instances, candidates, table rows: a
// few hundred at most). Insertion is O(n^2) but instantiates a few hundred bytes of code per use
// where std::stable_sort's buffered merge sort costs several kilobytes each in the WebAssembly
// core (scripts/bench.sh, README "Performance").

#include <iterator>
#include <utility>

namespace gpufleet::detail {

template <class It, class Less>
void small_stable_sort(It first, It last, Less less) {
  if (first == last) return;
  for (It i = std::next(first); i != last; ++i) {
    for (It j = i; j != first && less(*j, *std::prev(j)); --j) std::iter_swap(j, std::prev(j));
  }
}

}  // namespace gpufleet::detail
