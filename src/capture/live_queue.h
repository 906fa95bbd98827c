// The bounded queue between the trace writer and the live sender thread: a
// ring of bytes holding whole wire frames. One producer (chunk appends, which
// the trace output serialises) and one consumer (the sender); neither waits.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

namespace plx::capture {

class LiveQueue {
 public:
  LiveQueue() = default;
  ~LiveQueue();
  LiveQueue(const LiveQueue&) = delete;
  LiveQueue& operator=(const LiveQueue&) = delete;

  /// Allocates a ring of `capacity` bytes (pages are touched as they fill).
  bool Init(size_t capacity);
  size_t capacity() const { return capacity_; }

  /// Producer: appends the frame (header and payload) if the queued bytes stay
  /// within `limit`; otherwise writes nothing and returns false.
  bool Push(uint8_t kind, std::span<const uint8_t> payload, size_t limit);

  /// Consumer: the queued bytes after the read position that are contiguous
  /// in the ring (empty when nothing is queued).
  std::span<const uint8_t> Front() const;
  /// Consumer: the first n bytes of Front() have been sent.
  void Pop(size_t n);
  /// Consumer: position of the next byte to send (bytes sent so far).
  uint64_t read_position() const { return tail_.load(std::memory_order_relaxed); }
  /// Consumer: size (header included) of the queued frame starting at `position`.
  uint64_t FrameBytesAt(uint64_t position) const;
  /// Bytes queued and not yet sent.
  uint64_t queued() const {
    return head_.load(std::memory_order_acquire) - tail_.load(std::memory_order_acquire);
  }

 private:
  void CopyIn(uint64_t position, const uint8_t* p, size_t n);

  uint8_t* ring_ = nullptr;
  size_t capacity_ = 0;
  std::atomic<uint64_t> head_{0};  // bytes pushed: written by the producer
  std::atomic<uint64_t> tail_{0};  // bytes sent: written by the consumer
};

}  // namespace plx::capture
