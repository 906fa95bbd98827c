// A growable byte buffer that does not zero what it grows into: writers reserve
// room for a record, encode into it, then commit how much they used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace plx {

class ByteBuffer {
 public:
  ByteBuffer() = default;
  ~ByteBuffer() { std::free(data_); }
  ByteBuffer(ByteBuffer&& o) noexcept : data_(o.data_), size_(o.size_), capacity_(o.capacity_) {
    o.data_ = nullptr;
    o.size_ = o.capacity_ = 0;
  }
  ByteBuffer& operator=(ByteBuffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
    return *this;
  }
  ByteBuffer(const ByteBuffer&) = delete;
  ByteBuffer& operator=(const ByteBuffer&) = delete;

  /// Room for at least n more bytes; returns where they start.
  uint8_t* Reserve(size_t n) {
    if (size_ + n > capacity_) Grow(size_ + n);
    return data_ + size_;
  }
  /// Marks the bytes up to `end` (inside the last Reserve) as used.
  void Commit(const uint8_t* end) { size_ = static_cast<size_t>(end - data_); }
  void Append(const void* p, size_t n) {
    std::memcpy(Reserve(n), p, n);
    size_ += n;
  }
  void Clear() { size_ = 0; }

  const uint8_t* data() const { return data_; }
  uint8_t* data() { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  void Grow(size_t need) {
    size_t cap = capacity_ ? capacity_ * 2 : 4096;
    while (cap < need)
      cap *= 2;
    auto* p = static_cast<uint8_t*>(std::realloc(data_, cap));
    if (p == nullptr) throw std::bad_alloc();
    data_ = p;
    capacity_ = cap;
  }

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace plx
