// LiveQueue: a single-producer, single-consumer byte ring of frames.
#include "capture/live_queue.h"

#include <cstdlib>
#include <cstring>

#include "capture/live_protocol.h"

namespace plx::capture {

LiveQueue::~LiveQueue() {
  std::free(ring_);
}

bool LiveQueue::Init(size_t capacity) {
  ring_ = static_cast<uint8_t*>(std::malloc(capacity));
  capacity_ = ring_ != nullptr ? capacity : 0;
  return ring_ != nullptr;
}

void LiveQueue::CopyIn(uint64_t position, const uint8_t* p, size_t n) {
  const size_t at = static_cast<size_t>(position % capacity_);
  const size_t first = n < capacity_ - at ? n : capacity_ - at;
  std::memcpy(ring_ + at, p, first);
  if (first < n) std::memcpy(ring_, p + first, n - first);
}

bool LiveQueue::Push(uint8_t kind, std::span<const uint8_t> payload, size_t limit) {
  if (ring_ == nullptr) return false;
  if (limit > capacity_) limit = capacity_;
  const uint64_t head = head_.load(std::memory_order_relaxed);
  const uint64_t used = head - tail_.load(std::memory_order_acquire);
  const uint64_t need = kFrameHeaderSize + payload.size();
  if (need > limit || used > limit - need) return false;
  uint8_t header[kFrameHeaderSize];
  EncodeFrameHeader(kind, payload.size(), header);
  CopyIn(head, header, sizeof header);
  CopyIn(head + sizeof header, payload.data(), payload.size());
  head_.store(head + need, std::memory_order_release);
  return true;
}

std::span<const uint8_t> LiveQueue::Front() const {
  const uint64_t tail = tail_.load(std::memory_order_relaxed);
  const uint64_t head = head_.load(std::memory_order_acquire);
  if (head == tail) return {};
  const size_t at = static_cast<size_t>(tail % capacity_);
  const uint64_t contiguous = capacity_ - at;
  return {ring_ + at, static_cast<size_t>(head - tail < contiguous ? head - tail : contiguous)};
}

void LiveQueue::Pop(size_t n) {
  tail_.store(tail_.load(std::memory_order_relaxed) + n, std::memory_order_release);
}

uint64_t LiveQueue::FrameBytesAt(uint64_t position) const {
  uint32_t length = 0;
  for (int k = 0; k < 4; ++k)
    length |= static_cast<uint32_t>(ring_[(position + k) % capacity_]) << (8 * k);
  return 4 + static_cast<uint64_t>(length);
}

}  // namespace plx::capture
