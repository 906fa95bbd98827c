// SharedProgress: a progress callback fed by several workers at once. Each
// adds what it has done; the callback runs at most ~10 times a second and
// never on two threads at the same time.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>

namespace plx {

class SharedProgress {
 public:
  /// `report(done, total)`; may be empty.
  SharedProgress(std::function<void(uint64_t, uint64_t)> report, uint64_t total)
      : report_(std::move(report)), total_(total), last_(std::chrono::steady_clock::now()) {}

  void Add(uint64_t n) {
    const uint64_t done = done_.fetch_add(n) + n;
    if (!report_) return;
    std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    report_(done, total_);
  }

  /// Reports done == total once more (after every worker finished).
  void Finish() {
    if (!report_) return;
    std::lock_guard<std::mutex> lock(mu_);
    report_(total_, total_);
  }

  uint64_t done() const { return done_.load(); }

 private:
  const std::function<void(uint64_t, uint64_t)> report_;
  const uint64_t total_;
  std::atomic<uint64_t> done_{0};
  std::mutex mu_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace plx
