// SerialWorker: tasks run in the order given, on a thread other than the
// giver's, at most max_queued wait before Post blocks, Wait returns once
// all have run, and the destructor runs what is still queued.
#include "base/serial_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace plx {
namespace {

TEST(SerialWorker, RunsTasksInOrderOnItsOwnThread) {
  std::vector<int> order;
  std::vector<std::thread::id> ran_on;
  {
    SerialWorker worker(4);
    for (int i = 0; i < 100; ++i)
      worker.Post([&, i] {
        order.push_back(i);
        ran_on.push_back(std::this_thread::get_id());
      });
    worker.Wait();
    ASSERT_EQ(order.size(), 100u);
  }
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(order[i], i);
  for (const std::thread::id& id : ran_on) {
    EXPECT_NE(id, std::this_thread::get_id());
    EXPECT_EQ(id, ran_on.front());
  }
}

TEST(SerialWorker, PostBlocksWhileTheQueueIsFull) {
  SerialWorker worker(1);
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> done{0};
  const auto blocked = [&] {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return release; });
    ++done;
  };
  worker.Post(blocked);  // runs, and waits for release
  worker.Post(blocked);  // waits in the queue (of one)
  std::atomic<bool> third_posted{false};
  std::thread giver([&] {
    worker.Post([&] { ++done; });
    third_posted = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(third_posted) << "the queue of one was full: Post must wait";
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
  }
  cv.notify_all();
  giver.join();
  EXPECT_TRUE(third_posted);
  worker.Wait();
  EXPECT_EQ(done.load(), 3);
}

TEST(SerialWorker, TheDestructorRunsWhatIsQueued) {
  std::atomic<int> ran{0};
  {
    SerialWorker worker(8);
    for (int i = 0; i < 8; ++i)
      worker.Post([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ++ran;
      });
  }
  EXPECT_EQ(ran.load(), 8);
}

TEST(SerialWorker, WaitWithNothingGivenReturns) {
  SerialWorker worker;
  worker.Wait();
  worker.Post([] {});
  worker.Wait();
  worker.Wait();
}

}  // namespace
}  // namespace plx
