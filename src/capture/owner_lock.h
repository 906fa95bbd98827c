// A spin lock that knows which thread holds it. Signal handlers use it to see
// that they interrupted their own thread while it held the lock (and must not
// wait), and to give up after a timeout instead of hanging a dying process.
#pragma once

#include <atomic>
#include <cstdint>

namespace plx::capture {

/// The calling thread's kernel thread id (cached; async-signal-safe).
int CurrentTid();
/// In a forked child: the calling thread has a new id.
void ForgetTidAfterFork();

class OwnerLock {
 public:
  void Lock();
  bool TryLock();
  void Unlock() { owner_.store(0, std::memory_order_release); }

  enum class CrashResult { kLocked, kHeldBySelf, kTimedOut };
  /// For signal handlers: takes the lock, or reports that this thread already
  /// holds it, or gives up after timeout_ms.
  CrashResult LockForCrash(int timeout_ms);

 private:
  std::atomic<int> owner_{0};
};

/// RAII holder for OwnerLock.
class OwnerLockGuard {
 public:
  explicit OwnerLockGuard(OwnerLock& lock) : lock_(lock) { lock_.Lock(); }
  ~OwnerLockGuard() { lock_.Unlock(); }
  OwnerLockGuard(const OwnerLockGuard&) = delete;
  OwnerLockGuard& operator=(const OwnerLockGuard&) = delete;

 private:
  OwnerLock& lock_;
};

}  // namespace plx::capture
