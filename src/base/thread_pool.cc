// ThreadPool: workers sleep on a condition variable until a loop is posted;
// every participant then takes indices from one atomic counter until none
// are left, and the last one out wakes the caller.
#include "base/thread_pool.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>

#include "base/foreground.h"

namespace plx {

namespace {

// The pool whose loop body this thread runs (null outside loops), and the
// thread's number in it: a loop started from a body of the same pool runs
// inline instead of waiting for workers that are busy with the outer one.
thread_local const ThreadPool* t_pool = nullptr;
thread_local size_t t_index = 0;

// A thread's nice value is its own on Linux (the tid names it): at least
// 10 from now on.
void LowerPriority(int tid) {
  const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
  if (nice < 10) setpriority(PRIO_PROCESS, static_cast<id_t>(tid), 10);
}

}  // namespace

struct ThreadPool::Loop {
  size_t n = 0;
  const std::function<void(size_t, size_t)>* fn = nullptr;
  std::atomic<size_t> next{0};
  std::atomic<size_t> active{0};  // participants still running, the caller included
  std::mutex done_mu;
  std::condition_variable done;
};

ThreadPool::ThreadPool(size_t threads) {
  if (threads == 0) threads = HardwareThreads();
  for (size_t i = 1; i < threads; ++i)
    workers_.emplace_back([this, i] { Work(i); });
}

void ThreadPool::GiveWay() {
  std::lock_guard<std::mutex> lock(mu_);
  give_way_.store(true, std::memory_order_relaxed);
  for (int tid : tids_)
    LowerPriority(tid);
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& w : workers_)
    w.join();
}

void ThreadPool::Run(Loop* loop, const ThreadPool* pool, size_t index) {
  const ThreadPool* outer_pool = t_pool;
  const size_t outer_index = t_index;
  const bool outer_background = IsBackground();
  t_pool = pool;
  t_index = index;
  // The workers of a pool that gives way are background; the caller stays what it is.
  if (index != 0 && pool->give_way_.load(std::memory_order_relaxed)) MarkBackground(true);
  for (size_t i = loop->next.fetch_add(1); i < loop->n; i = loop->next.fetch_add(1))
    (*loop->fn)(i, index);
  t_pool = outer_pool;
  t_index = outer_index;
  MarkBackground(outer_background);
  // Under the lock: once it is released, this participant never touches the
  // loop again, and the caller may return and destroy it.
  std::lock_guard<std::mutex> lock(loop->done_mu);
  if (loop->active.fetch_sub(1) == 1) loop->done.notify_all();
}

void ThreadPool::Work(size_t index) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    tids_.push_back(gettid());
    if (give_way_.load(std::memory_order_relaxed)) LowerPriority(tids_.back());
  }
  size_t seen = 0;
  for (;;) {
    Loop* loop = nullptr;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      loop = loop_;
      if (loop == nullptr) continue;
      // Joined under mu_, so the caller cannot retire the loop in between.
      loop->active.fetch_add(1);
    }
    Run(loop, this, index);
  }
}

void ThreadPool::ParallelFor(size_t n, const std::function<void(size_t)>& fn) {
  ParallelFor(n, std::function<void(size_t, size_t)>([&fn](size_t i, size_t) { fn(i); }));
}

void ThreadPool::ParallelFor(size_t n, const std::function<void(size_t, size_t)>& fn) {
  if (n == 0) return;
  if (t_pool == this) {  // nested: inline, as the same thread
    for (size_t i = 0; i < n; ++i)
      fn(i, t_index);
    return;
  }
  std::lock_guard<std::mutex> one_at_a_time(loops_mu_);
  if (workers_.empty() || n == 1) {
    const ThreadPool* outer_pool = t_pool;
    const size_t outer_index = t_index;
    t_pool = this;
    t_index = 0;
    for (size_t i = 0; i < n; ++i)
      fn(i, 0);
    t_pool = outer_pool;
    t_index = outer_index;
    return;
  }
  Loop loop;
  loop.n = n;
  loop.fn = &fn;
  loop.active.store(1);  // the caller
  {
    std::lock_guard<std::mutex> lock(mu_);
    loop_ = &loop;
    ++generation_;
  }
  wake_.notify_all();
  Run(&loop, this, 0);
  {
    // No worker may join once the loop is retired; those that joined are
    // counted in `active` and are waited for below.
    std::lock_guard<std::mutex> lock(mu_);
    loop_ = nullptr;
  }
  std::unique_lock<std::mutex> lock(loop.done_mu);
  loop.done.wait(lock, [&] { return loop.active.load() == 0; });
}

void LowerThreadPriority() {
  LowerPriority(gettid());
  MarkBackground(true);
}

size_t HardwareThreads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace plx
