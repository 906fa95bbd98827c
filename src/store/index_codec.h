// The byte-level codec of the trace index (docs/format.md, "The trace
// index"): LEB128 varints and length-prefixed strings into a growing buffer,
// and a reader that never reads past its end and refuses counts the bytes
// left could not hold, so a damaged index fails cleanly instead of
// allocating or crashing.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/varint.h"

namespace plx::store {

class IndexWriter {
 public:
  void U(uint64_t v) {
    uint8_t buf[kMaxVarintBytes];
    bytes_.insert(bytes_.end(), buf, PutUvarint(buf, v));
  }
  void S(int64_t v) {
    uint8_t buf[kMaxVarintBytes];
    bytes_.insert(bytes_.end(), buf, PutSvarint(buf, v));
  }
  void Str(std::string_view s) {
    U(s.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  void Double(double v) { U(std::bit_cast<uint64_t>(v)); }
  void Float(float v) { U(std::bit_cast<uint32_t>(v)); }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

class IndexReader {
 public:
  IndexReader(const uint8_t* begin, const uint8_t* end) : p_(begin), end_(end) {}

  bool U(uint64_t* v) { return ok_ = ok_ && GetUvarint(&p_, end_, v); }
  bool S(int64_t* v) { return ok_ = ok_ && GetSvarint(&p_, end_, v); }
  template <typename T>
  bool U(T* v) {
    uint64_t x = 0;
    if (!U(&x) || x > static_cast<uint64_t>(static_cast<T>(~T{0}))) return ok_ = false;
    *v = static_cast<T>(x);
    return true;
  }
  bool Str(std::string* s) {
    uint64_t n = 0;
    if (!U(&n) || n > static_cast<uint64_t>(end_ - p_)) return ok_ = false;
    s->assign(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return true;
  }
  /// A count of items that take at least `min_bytes` each.
  bool Count(size_t* n, size_t min_bytes = 1) {
    uint64_t x = 0;
    if (!U(&x) || x > static_cast<uint64_t>(end_ - p_) / (min_bytes ? min_bytes : 1))
      return ok_ = false;
    *n = static_cast<size_t>(x);
    return true;
  }
  bool ok() const { return ok_; }
  bool Bool(bool* v) {
    uint64_t x = 0;
    if (!U(&x) || x > 1) return ok_ = false;
    *v = x != 0;
    return true;
  }
  bool Double(double* v) {
    uint64_t bits = 0;
    if (!U(&bits)) return false;
    *v = std::bit_cast<double>(bits);
    return true;
  }
  bool Float(float* v) {
    uint32_t bits = 0;
    if (!U(&bits)) return false;
    *v = std::bit_cast<float>(bits);
    return true;
  }
  bool at_end() const { return p_ == end_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

}  // namespace plx::store
