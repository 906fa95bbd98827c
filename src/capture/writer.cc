// Runtime: the background writer and flushes: drain contexts lent to
// whoever drains, which streams are due, the writer thread's loop.
#include <signal.h>

#include <algorithm>
#include <chrono>

#include "capture/fast_path.h"
#include "capture/runtime.h"

namespace plx::capture {

DrainContext* Runtime::TakeContext() {
  OwnerLockGuard guard(pool_lock_);
  if (pool_.empty()) {
    contexts_.push_back(new DrainContext(config_.zstd_level));
    return contexts_.back();
  }
  DrainContext* ctx = pool_.back();
  pool_.pop_back();
  return ctx;
}

void Runtime::GiveContext(DrainContext* ctx) {
  OwnerLockGuard guard(pool_lock_);
  pool_.push_back(ctx);
}

bool Runtime::Due(const ThreadStream* s) const {
  const uint64_t end = s->published.load(std::memory_order_acquire);
  const uint64_t tail = s->tail.load(std::memory_order_relaxed);
  if (end == tail) return false;
  if ((end - tail) * 4 >= s->capacity) return true;
  const uint64_t oldest = s->ring[tail & s->mask].tick;
  const uint64_t now = ReadTicks();
  return now > oldest && static_cast<double>(now - oldest) >= ticks_per_ns_ * period_ns_;
}

void Runtime::DrainAll(DrainContext& ctx, bool only_due) {
  const uint32_t count = std::min(stream_count_.load(std::memory_order_acquire), kMaxStreams);
  for (uint32_t i = 0; i < count; ++i) {
    ThreadStream* s = streams_[i].load(std::memory_order_acquire);
    if (s == nullptr || s->retired.load(std::memory_order_acquire)) continue;
    if (only_due) {
      if (!s->lock.TryLock()) continue;  // its owner is draining it right now
    } else {
      s->lock.Lock();
    }
    if (!s->retired.load(std::memory_order_relaxed) && (!only_due || Due(s)))
      DrainStream(s, ctx, Target(false));
    s->lock.Unlock();
  }
  DrainDefinitions(ctx, Target(false));
}

void Runtime::WriterLoop() {
  sigset_t all;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, nullptr);  // signals belong to the program's threads
  ::pthread_setname_np(::pthread_self(), "plx-writer");
  WriterSync& sync = *sync_;
  std::unique_lock<std::mutex> lock(sync.mutex);
  while (!sync.stop) {
    sync.wake.wait_for(lock, std::chrono::nanoseconds(period_ns_));
    if (sync.stop) break;
    lock.unlock();
    SyncClock(false, false);
    DrainAll(*writer_ctx_, true);
    lock.lock();
  }
}

void Runtime::Flush() {
  if (!running()) return;
  DrainContext* ctx = TakeContext();
  SyncClock(false, false);
  DrainAll(*ctx, false);
  GiveContext(ctx);
}

}  // namespace plx::capture
