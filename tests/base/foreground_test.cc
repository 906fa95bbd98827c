// Foreground and GiveWayPoint: background threads wait while a request
// runs, other threads never do, the wait is bounded, and a pool's workers
// are background once it gives way.
#include "base/foreground.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "base/serial_worker.h"
#include "base/thread_pool.h"

namespace plx {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

TEST(Foreground, BackgroundThreadsWaitUntilTheRequestEnds) {
  std::atomic<bool> at_point{false};
  double waited_ms = -1;
  std::optional<Foreground> request;
  request.emplace();
  std::thread background([&] {
    LowerThreadPriority();
    EXPECT_TRUE(IsBackground());
    at_point = true;
    const Clock::time_point t = Clock::now();
    GiveWayPoint();
    waited_ms = MsSince(t);
  });
  while (!at_point)
    std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  request.reset();
  background.join();
  // It waited at least as long as the request still ran after it arrived.
  EXPECT_GE(waited_ms, 30.0);
  EXPECT_EQ(ForegroundsRunning(), 0);
}

TEST(Foreground, OtherThreadsNeverWait) {
  const Foreground request;
  EXPECT_FALSE(IsBackground());
  const Clock::time_point t = Clock::now();
  for (int i = 0; i < 10; ++i)
    GiveWayPoint();
  EXPECT_LT(MsSince(t), 500.0);  // ten waits would take a second
}

TEST(Foreground, TheWaitIsBoundedWhileARequestRuns) {
  // A request that never ends while the background thread passes three
  // points: each returns after its bound, so the thread finishes.
  const Foreground request;
  std::thread background([] {
    LowerThreadPriority();
    for (int i = 0; i < 3; ++i)
      GiveWayPoint();
  });
  background.join();
  EXPECT_EQ(ForegroundsRunning(), 1);
}

TEST(Foreground, TheHolderIsForegroundMeanwhile) {
  std::thread([] {
    LowerThreadPriority();
    {
      const Foreground request;
      EXPECT_FALSE(IsBackground());
      const Clock::time_point t = Clock::now();
      for (int i = 0; i < 10; ++i)
        GiveWayPoint();  // its own request: no wait
      EXPECT_LT(MsSince(t), 500.0);
    }
    EXPECT_TRUE(IsBackground());
  }).join();
}

TEST(Foreground, APoolsWorkersAreBackgroundOnceItGivesWay) {
  ThreadPool pool(3);
  const auto background_of = [&] {
    std::atomic<int> arrived{0};
    std::vector<int> background(pool.size(), -1);
    pool.ParallelFor(3, [&](size_t, size_t thread) {
      background[thread] = IsBackground() ? 1 : 0;
      arrived.fetch_add(1);
      while (arrived.load() < 3)
        std::this_thread::yield();
    });
    return background;
  };
  for (int b : background_of())
    EXPECT_EQ(b, 0);
  pool.GiveWay();
  const std::vector<int> after = background_of();
  EXPECT_EQ(after[0], 0);  // the caller stays what it is
  for (size_t t = 1; t < after.size(); ++t)
    EXPECT_EQ(after[t], 1) << "worker " << t;
  EXPECT_FALSE(IsBackground());
}

TEST(Foreground, ASerialWorkerIsBackgroundWhenItsCreatorIs) {
  const auto background_of_worker = [] {
    bool background = false;
    SerialWorker worker;
    worker.Post([&] { background = IsBackground(); });
    worker.Wait();
    return background;
  };
  EXPECT_FALSE(background_of_worker());
  bool from_background = false;
  std::thread([&] {
    LowerThreadPriority();
    from_background = background_of_worker();
  }).join();
  EXPECT_TRUE(from_background);
}

}  // namespace
}  // namespace plx
