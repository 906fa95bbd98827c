// LEB128 variable-length integers (unsigned, and zigzag for signed) plus fixed
// little-endian loads and stores. Decoders never read past `end`.
#pragma once

#include <cstdint>
#include <cstring>

namespace plx {

inline constexpr int kMaxVarintBytes = 10;

inline uint8_t* PutUvarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

inline uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t UnZigZag(uint64_t v) {
  return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
}

inline uint8_t* PutSvarint(uint8_t* p, int64_t v) {
  return PutUvarint(p, ZigZag(v));
}

inline int UvarintSize(uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

/// The general case of GetUvarint, kept out of line so that its common
/// cases inline into the decoders' loops.
[[gnu::noinline]] inline bool GetUvarintSlow(const uint8_t** p, const uint8_t* end, uint64_t* out) {
  const uint8_t* q = *p;
  uint64_t v = 0;
  if (end - q >= kMaxVarintBytes) {
    // Nine bytes hold 63 bits: no bound to check before the tenth.
    for (int i = 0; i < 9; ++i) {
      const uint8_t b = q[i];
      v |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
      if (b < 0x80) {
        *out = v;
        *p = q + i + 1;
        return true;
      }
    }
    const uint8_t b = q[9];
    if (b > 1) return false;  // longer than 10 bytes, or more than 64 bits
    *out = v | static_cast<uint64_t>(b) << 63;
    *p = q + 10;
    return true;
  }
  for (int shift = 0; shift < 64; shift += 7) {
    if (q >= end) return false;
    const uint8_t b = *q++;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) {
      if (shift == 63 && b > 1) return false;  // the value needs more than 64 bits
      *out = v;
      *p = q;
      return true;
    }
  }
  return false;
}

/// Decodes one unsigned varint at *p; advances *p. Returns false (leaving *p)
/// when the bytes end first, the encoding is longer than 10 bytes, or the value
/// does not fit in 64 bits.
[[gnu::always_inline]] inline bool GetUvarint(const uint8_t** p, const uint8_t* end,
                                              uint64_t* out) {
  const uint8_t* q = *p;
  // One byte (ids, lengths) and two (most time deltas): the common cases.
  if (end - q >= 2) [[likely]] {
    if (q[0] < 0x80) {
      *out = q[0];
      *p = q + 1;
      return true;
    }
    if (q[1] < 0x80) {
      *out = (q[0] & 0x7fu) | static_cast<uint64_t>(q[1]) << 7;
      *p = q + 2;
      return true;
    }
  }
  return GetUvarintSlow(p, end, out);
}

inline bool GetSvarint(const uint8_t** p, const uint8_t* end, int64_t* out) {
  uint64_t v;
  if (!GetUvarint(p, end, &v)) return false;
  *out = UnZigZag(v);
  return true;
}

template <typename T>
inline void StoreLE(uint8_t* p, T v) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "little-endian hosts only");
  std::memcpy(p, &v, sizeof v);
}

template <typename T>
inline T LoadLE(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace plx
