// SortRuns against std::stable_sort: sorted input, a few interleaved runs,
// descending input (a run per element: the stable_sort path), and stability
// of equal keys in every case.
#include "base/sort_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace plx {
namespace {

using Item = std::pair<int, int>;  // key, original position

bool ByKey(const Item& a, const Item& b) {
  return a.first < b.first;
}

void ExpectLikeStableSort(std::vector<Item> v) {
  std::vector<Item> want = v;
  std::stable_sort(want.begin(), want.end(), ByKey);
  SortRuns(v.begin(), v.end(), ByKey);
  EXPECT_EQ(v, want);
}

std::vector<Item> Runs(int runs, int length, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Item> v;
  for (int r = 0; r < runs; ++r) {
    int key = static_cast<int>(rng() % 50);
    for (int i = 0; i < length; ++i) {
      key += static_cast<int>(rng() % 3);  // repeats: equal keys across runs
      v.push_back({key, static_cast<int>(v.size())});
    }
  }
  return v;
}

TEST(SortRuns, EmptyAndOne) {
  ExpectLikeStableSort({});
  ExpectLikeStableSort({{3, 0}});
}

TEST(SortRuns, SortedStaysAsItIs) {
  ExpectLikeStableSort(Runs(1, 1000, 1));
}

TEST(SortRuns, MergesRunsStably) {
  for (int runs : {2, 3, 5, 17, 63, 64, 65, 200})
    for (uint32_t seed = 0; seed < 5; ++seed) {
      SCOPED_TRACE(testing::Message() << runs << " runs, seed " << seed);
      ExpectLikeStableSort(Runs(runs, 37, seed));
    }
}

TEST(SortRuns, DescendingAndRandom) {
  std::vector<Item> down;
  for (int i = 0; i < 500; ++i)
    down.push_back({500 - i / 2, i});
  ExpectLikeStableSort(down);
  std::mt19937 rng(7);
  std::vector<Item> random;
  for (int i = 0; i < 2000; ++i)
    random.push_back({static_cast<int>(rng() % 100), i});
  ExpectLikeStableSort(random);
}

TEST(SortRuns, DefaultOrder) {
  std::vector<uint32_t> v = {5, 6, 9, 1, 2, 3, 7, 0, 4, 8};
  SortRuns(v.begin(), v.end());
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  EXPECT_EQ(v.size(), 10u);
}

TEST(CountingOrder, GroupsInIndexOrder) {
  const std::vector<size_t> group = {2, 0, 1, 0, 2, 2, 1, 0};
  const std::vector<uint32_t> order =
      CountingOrder(group.size(), 3, [&](size_t i) { return group[i]; });
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 3, 7, 2, 6, 0, 4, 5}));
  std::vector<uint32_t> starts;
  CountingOrder(
      group.size(), 4, [&](size_t i) { return group[i]; }, &starts);
  EXPECT_EQ(starts, (std::vector<uint32_t>{0, 3, 5, 8, 8}));  // group 3 is empty
  EXPECT_TRUE(CountingOrder(0, 0, [](size_t) { return size_t{0}; }).empty());
}

}  // namespace
}  // namespace plx
