// SerialWorker: one thread that runs the tasks given to it one after the
// other, in the order given, while the giver goes on. For the sequential
// tail of a pipeline (a solver fed slab by slab) that should not hold up
// the stage in front of it. At most `max_queued` tasks wait: Post blocks
// beyond that, so memory stays that of a few tasks. Created by a background
// thread (base/foreground.h), its thread is background too.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace plx {

class SerialWorker {
 public:
  explicit SerialWorker(size_t max_queued = 2);
  /// Waits for the tasks given, then stops the thread.
  ~SerialWorker();
  SerialWorker(const SerialWorker&) = delete;
  SerialWorker& operator=(const SerialWorker&) = delete;

  /// Runs `task` after those given before; blocks while max_queued wait.
  /// `task` must not throw.
  void Post(std::function<void()> task);
  /// Returns when every task given so far has run.
  void Wait();

 private:
  void Run();

  const size_t max_queued_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> tasks_;
  bool running_ = false;  // a task taken off the queue is running
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace plx
