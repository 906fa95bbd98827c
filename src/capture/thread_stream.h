// ThreadStream: one thread's ring of record slots. The owning thread is the
// only producer; consumers (the background writer, the owner itself when the
// ring is full, a signal handler, finalize) drain it under `lock`.
#pragma once

#include <atomic>
#include <cstdint>

#include "capture/owner_lock.h"
#include "capture/raw_record.h"

namespace plx::capture {

struct alignas(64) ThreadStream {
  // Producer side, touched on every record by the owning thread only.
  Slot* ring = nullptr;
  uint64_t mask = 0;                   // capacity - 1 (capacity is a power of two)
  uint64_t capacity = 0;               // in slots
  uint64_t head = 0;                   // next slot to write
  uint64_t limit = 0;                  // head may advance to here without looking at tail
  std::atomic<uint64_t> published{0};  // head as consumers may read it
  uint64_t lost = 0;                   // records dropped (PLX_FULL=drop) and not yet reported
  uint32_t id = 0;                     // stream id in the file
  int tid = 0;

  // Consumer side.
  alignas(64) std::atomic<uint64_t> tail{0};  // first slot not yet in the file
  OwnerLock lock;                             // held while draining
  uint64_t next_index = 0;                    // file index of the next record drained
  uint64_t last_tick = 0;                     // tick of the last record drained
  std::atomic<bool> retired{false};           // thread ended; ring drained and freed
};

}  // namespace plx::capture
