// ThreadPool: every index runs exactly once, on several threads, loops run
// back to back and nested loops do not deadlock; workers give way to the
// process's other threads when told.
#include "base/thread_pool.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace plx {
namespace {

TEST(ThreadPool, RunsEveryIndexOnce) {
  ThreadPool pool(4);
  EXPECT_EQ(pool.size(), 4u);
  for (size_t n : {0u, 1u, 2u, 7u, 1000u}) {
    std::vector<std::atomic<int>> hits(n);
    pool.ParallelFor(n, [&](size_t i) { hits[i].fetch_add(1); });
    for (size_t i = 0; i < n; ++i)
      EXPECT_EQ(hits[i].load(), 1) << "n " << n << " index " << i;
  }
}

TEST(ThreadPool, UsesSeveralThreads) {
  ThreadPool pool(3);
  std::mutex mu;
  std::set<std::thread::id> seen;
  std::atomic<int> arrived{0};
  // Each index waits until three have started, so one thread cannot run them all.
  pool.ParallelFor(3, [&](size_t) {
    {
      std::lock_guard<std::mutex> lock(mu);
      seen.insert(std::this_thread::get_id());
    }
    arrived.fetch_add(1);
    while (arrived.load() < 3)
      std::this_thread::yield();
  });
  EXPECT_EQ(seen.size(), 3u);
}

// The nice value of the calling thread alone.
int ThreadNice() {
  return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
}

TEST(ThreadPool, WorkersGiveWayWhenToldAndTheCallerKeepsItsPriority) {
  const int before = ThreadNice();
  ThreadPool pool(3);
  // Each thread's nice value in a loop where every thread takes an index.
  const auto nice_values = [&] {
    std::atomic<int> arrived{0};
    std::vector<int> nice(pool.size(), -100);
    pool.ParallelFor(3, [&](size_t, size_t thread) {
      nice[thread] = ThreadNice();
      arrived.fetch_add(1);
      while (arrived.load() < 3)
        std::this_thread::yield();
    });
    return nice;
  };
  for (int nice : nice_values())
    EXPECT_EQ(nice, before);
  pool.GiveWay();
  const std::vector<int> after = nice_values();
  EXPECT_EQ(after[0], before);  // the caller
  for (size_t t = 1; t < after.size(); ++t)
    EXPECT_EQ(after[t], std::max(before, 10)) << "worker " << t;
  int worker = -100;
  std::thread([&] {
    LowerThreadPriority();
    worker = ThreadNice();
  }).join();
  EXPECT_EQ(worker, std::max(before, 10));
  EXPECT_EQ(ThreadNice(), before);
}

TEST(ThreadPool, OneThreadRunsOnTheCaller) {
  ThreadPool pool(1);
  EXPECT_EQ(pool.size(), 1u);
  const std::thread::id caller = std::this_thread::get_id();
  pool.ParallelFor(10, [&](size_t) { EXPECT_EQ(std::this_thread::get_id(), caller); });
}

TEST(ThreadPool, NestedLoopsRunInline) {
  ThreadPool pool(2);
  std::atomic<int> total{0};
  pool.ParallelFor(4, [&](size_t) { pool.ParallelFor(5, [&](size_t) { total.fetch_add(1); }); });
  EXPECT_EQ(total.load(), 20);
}

TEST(ThreadPool, ManyLoopsInARow) {
  ThreadPool pool(2);
  std::atomic<uint64_t> sum{0};
  for (int round = 0; round < 2000; ++round)
    pool.ParallelFor(3, [&](size_t i) { sum.fetch_add(i + 1); });
  EXPECT_EQ(sum.load(), 2000u * 6);
}

TEST(ThreadPool, LoopsFromSeveralCallers) {
  ThreadPool pool(2);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 3; ++c)
    callers.emplace_back([&] {
      for (int round = 0; round < 200; ++round)
        pool.ParallelFor(4, [&](size_t) { total.fetch_add(1); });
    });
  for (std::thread& t : callers)
    t.join();
  EXPECT_EQ(total.load(), 3 * 200 * 4);
}

TEST(ThreadPool, ThreadNumbersAreNeverShared) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> inside(pool.size());
  std::atomic<bool> shared{false};
  pool.ParallelFor(300, [&](size_t, size_t thread) {
    ASSERT_LT(thread, pool.size());
    if (inside[thread].fetch_add(1) != 0) shared.store(true);
    std::this_thread::yield();
    inside[thread].fetch_sub(1);
  });
  EXPECT_FALSE(shared.load());
}

}  // namespace
}  // namespace plx
