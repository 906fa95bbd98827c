// Bytes one process of an MPI-parallel analysis sends another: fields at
// their own width in the machine's byte order (the processes of one job run
// the same program on the same kind of machine), read back with a bounds
// check on every field.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace plx {

/// Appends `v`'s bytes to `out`.
template <typename T>
void WirePut(std::string* out, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

/// Appends the count of `v`, then its elements' bytes in one go.
template <typename T>
void WirePutAll(std::string* out, const std::vector<T>& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  WirePut(out, static_cast<uint64_t>(v.size()));
  if (!v.empty()) out->append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

/// Appends the length of `bytes`, then them (another encoding's output).
inline void WirePutBytes(std::string* out, std::string_view bytes) {
  WirePut(out, static_cast<uint64_t>(bytes.size()));
  out->append(bytes);
}

/// Reads what WirePut wrote, in order; Get is false when the bytes end first.
class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  bool Get(T* v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (bytes_.size() - at_ < sizeof(T)) return false;
    std::memcpy(v, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  /// What WirePutAll wrote, appended to `*v`.
  template <typename T>
  bool GetAll(std::vector<T>* v) {
    static_assert(std::is_trivially_copyable_v<T>);
    uint64_t n = 0;
    if (!Get(&n) || n > (bytes_.size() - at_) / sizeof(T)) return false;
    if (n == 0) return true;  // (an empty vector's data may be null)
    const size_t old = v->size();
    v->resize(old + n);
    std::memcpy(v->data() + old, bytes_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return true;
  }
  /// What WirePutBytes wrote, as a view into the bytes read.
  bool GetBytes(std::string_view* v) {
    uint64_t n = 0;
    if (!Get(&n) || n > bytes_.size() - at_) return false;
    *v = bytes_.substr(at_, n);
    at_ += n;
    return true;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

}  // namespace plx
