// OwnerLock: spin, then yield, then sleep; owner = kernel thread id.
#include "capture/owner_lock.h"

#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace plx::capture {

namespace {
thread_local __attribute__((tls_model("initial-exec"))) int tls_tid = 0;
}  // namespace

int CurrentTid() {
  if (tls_tid == 0) tls_tid = static_cast<int>(::syscall(SYS_gettid));
  return tls_tid;
}

void ForgetTidAfterFork() {
  tls_tid = 0;
}

namespace {
void Backoff(int round) {
  if (round < 64) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } else if (round < 128) {
    ::sched_yield();
  } else {
    struct timespec ts = {0, 50'000};
    ::nanosleep(&ts, nullptr);
  }
}
}  // namespace

bool OwnerLock::TryLock() {
  int expected = 0;
  return owner_.compare_exchange_strong(expected, CurrentTid(), std::memory_order_acquire);
}

void OwnerLock::Lock() {
  for (int round = 0; !TryLock(); ++round)
    Backoff(round);
}

OwnerLock::CrashResult OwnerLock::LockForCrash(int timeout_ms) {
  const int self = CurrentTid();
  struct timespec start;
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  for (int round = 0;; ++round) {
    int expected = 0;
    if (owner_.compare_exchange_strong(expected, self, std::memory_order_acquire))
      return CrashResult::kLocked;
    if (expected == self) return CrashResult::kHeldBySelf;
    if ((round & 63) == 63) {
      struct timespec now;
      ::clock_gettime(CLOCK_MONOTONIC, &now);
      const int64_t ms =
          (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
      if (ms >= timeout_ms) return CrashResult::kTimedOut;
    }
    Backoff(round);
  }
}

}  // namespace plx::capture
