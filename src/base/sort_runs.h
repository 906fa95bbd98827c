// SortRuns: a stable sort for data that mostly arrives in order. Trace tables
// are sorted by thread, then time, so what the analyses re-sort (a thread's
// sends by channel, pairs by send row) is often already sorted or a few
// sorted runs (one per thread). SortRuns finds the runs in one pass and
// merges them (n log runs); with more than kMaxRuns runs it is
// std::stable_sort.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <vector>

namespace plx {

template <typename It, typename Less>
void SortRuns(It first, It last, Less less) {
  constexpr size_t kMaxRuns = 64;
  if (std::is_sorted(first, last, less)) return;  // the common case, without allocating
  const auto n = static_cast<size_t>(last - first);
  std::vector<size_t> bounds{0};
  for (size_t i = 1; i < n; ++i) {
    if (!less(first[i], first[i - 1])) continue;
    if (bounds.size() == kMaxRuns) {
      std::stable_sort(first, last, less);
      return;
    }
    bounds.push_back(i);
  }
  bounds.push_back(n);
  // Merge neighbouring runs until one is left (stable: the left run's equal
  // elements stay first).
  while (bounds.size() > 2) {
    std::vector<size_t> next{0};
    for (size_t k = 0; k + 2 < bounds.size(); k += 2) {
      std::inplace_merge(first + static_cast<ptrdiff_t>(bounds[k]),
                         first + static_cast<ptrdiff_t>(bounds[k + 1]),
                         first + static_cast<ptrdiff_t>(bounds[k + 2]), less);
      next.push_back(bounds[k + 2]);
    }
    if (bounds.size() % 2 == 0) next.push_back(bounds.back());  // an odd run out waits
    bounds = std::move(next);
  }
}

template <typename It>
void SortRuns(It first, It last) {
  SortRuns(first, last, std::less<>());
}

/// The numbers 0..n-1 grouped by `group_of(i)` (a dense number below
/// `groups`), in increasing group order and in index order within a group: a
/// counting sort. Followed by SortRuns with the full order, it orders rows
/// already in time order within their group at the cost of two passes.
/// `starts` (when given) gets where each group begins: group g is
/// order[starts[g], starts[g + 1]).
template <typename GroupOf>
std::vector<uint32_t> CountingOrder(size_t n, size_t groups, GroupOf group_of,
                                    std::vector<uint32_t>* starts = nullptr) {
  std::vector<uint32_t> start(groups + 1, 0);
  for (size_t i = 0; i < n; ++i)
    ++start[group_of(i) + 1];
  for (size_t g = 0; g < groups; ++g)
    start[g + 1] += start[g];
  if (starts != nullptr) *starts = start;
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[start[group_of(i)]++] = static_cast<uint32_t>(i);
  return order;
}

}  // namespace plx
