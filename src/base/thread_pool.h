// ThreadPool: the worker threads of the trace engine's parallel passes.
// Streams are the unit of parallel work (decode, index building, analyses),
// so the one operation is a parallel loop over indices with dynamic
// scheduling: a worker takes the next index when it is done with one.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace plx {

class ThreadPool {
 public:
  /// `threads` workers in all, the caller of ParallelFor counted as one
  /// (so 1 runs everything on the caller); 0 = the machine's cores.
  explicit ThreadPool(size_t threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Threads that run a loop, the caller included.
  size_t size() const { return workers_.size() + 1; }

  /// From now on the workers give way to the process's other threads
  /// (LowerThreadPriority; for good: an unprivileged process cannot raise
  /// it again), for work that must not slow what answers users; in its
  /// loops they are background threads (base/foreground.h).
  void GiveWay();

  /// Runs fn(i) for every i in [0, n), on the workers and the caller, and
  /// returns when all are done. `fn` must not throw. Loops from different
  /// callers run one after the other; a loop started from inside `fn` (of
  /// the same pool) runs on the calling thread alone.
  void ParallelFor(size_t n, const std::function<void(size_t)>& fn);

  /// The same, with the number of the thread that runs each index: in
  /// [0, size()), one thread at a time per number, so per-thread scratch
  /// (decoders, buffers) can be indexed by it.
  void ParallelFor(size_t n, const std::function<void(size_t i, size_t thread)>& fn);

 private:
  struct Loop;
  void Work(size_t index);
  static void Run(Loop* loop, const ThreadPool* pool, size_t index);

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::mutex loops_mu_;    // one loop at a time
  Loop* loop_ = nullptr;   // the loop being run, under mu_
  std::vector<int> tids_;  // the workers' thread ids, under mu_
  // Set under mu_ (against tids_); read without it in the workers' loops.
  std::atomic<bool> give_way_{false};
  size_t generation_ = 0;
  bool stop_ = false;
};

/// The machine's cores (at least 1).
size_t HardwareThreads();

/// Makes the calling thread give way to the process's threads of normal
/// priority when the cores are busy (Linux: nice 10 for this thread alone;
/// nothing where that is not possible), and marks it background
/// (base/foreground.h).
void LowerThreadPriority();

}  // namespace plx
