// RingQueue: a queue in one ring of 2^k slots. Appending and popping move
// nothing, the room is reused, and it is at most twice what the queue held
// at its fullest. A std::deque of the 88-byte records the message joins
// hold allocates a 512-byte block every 5 of them; a vector with a popped
// front needs up to four times what it holds.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace plx {

template <typename T>
class RingQueue {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return slots_[(head_ + i) & mask_]; }
  const T& operator[](size_t i) const { return slots_[(head_ + i) & mask_]; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void push_back(const T& x) {
    if (size_ == slots_.size()) Grow();
    slots_[(head_ + size_) & mask_] = x;
    ++size_;
  }
  /// Puts x at position `at` (<= size()), moving those after it back: for
  /// the rare element that comes out of order.
  void insert(size_t at, const T& x) {
    push_back(x);
    for (size_t i = size_ - 1; i > at; --i)
      std::swap((*this)[i], (*this)[i - 1]);
  }
  void pop_front() {
    head_ = (head_ + 1) & mask_;
    if (--size_ == 0) head_ = 0;
  }

 private:
  void Grow() {
    std::vector<T> slots(slots_.empty() ? 4 : 2 * slots_.size());
    for (size_t i = 0; i < size_; ++i)
      slots[i] = std::move((*this)[i]);
    slots_.swap(slots);
    head_ = 0;
    mask_ = slots_.size() - 1;
  }

  std::vector<T> slots_;  // 0 or 2^k of them
  size_t mask_ = 0;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace plx
