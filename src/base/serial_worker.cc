#include "base/serial_worker.h"

#include <utility>

#include "base/foreground.h"
#include "base/thread_pool.h"

namespace plx {

// The thread is background work when its creator is (a solver started by a
// pass that gives way gives way too).
SerialWorker::SerialWorker(size_t max_queued)
    : max_queued_(max_queued == 0 ? 1 : max_queued), thread_([this, background = IsBackground()] {
        if (background) LowerThreadPriority();
        Run();
      }) {}

SerialWorker::~SerialWorker() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return tasks_.empty() && !running_; });
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void SerialWorker::Post(std::function<void()> task) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait(lock, [&] { return tasks_.size() < max_queued_; });
    tasks_.push_back(std::move(task));
  }
  changed_.notify_all();
}

void SerialWorker::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [&] { return tasks_.empty() && !running_; });
}

void SerialWorker::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // stopping, nothing left
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    running_ = true;
    lock.unlock();
    changed_.notify_all();  // room for a waiting Post
    task();
    lock.lock();
    running_ = false;
    changed_.notify_all();
  }
}

}  // namespace plx
