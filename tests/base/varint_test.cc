// LEB128 varints and little-endian loads/stores: round trips at the size
// boundaries, zigzag, and refusal of truncated or overlong input.
#include "base/varint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace plx {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

std::vector<uint8_t> Encode(uint64_t v) {
  uint8_t buf[kMaxVarintBytes];
  uint8_t* end = PutUvarint(buf, v);
  return {buf, end};
}

TEST(Varint, KnownEncodings) {
  EXPECT_EQ(Encode(0), (std::vector<uint8_t>{0x00}));
  EXPECT_EQ(Encode(1), (std::vector<uint8_t>{0x01}));
  EXPECT_EQ(Encode(127), (std::vector<uint8_t>{0x7f}));
  EXPECT_EQ(Encode(128), (std::vector<uint8_t>{0x80, 0x01}));
  EXPECT_EQ(Encode(300), (std::vector<uint8_t>{0xac, 0x02}));
  EXPECT_EQ(Encode(16384), (std::vector<uint8_t>{0x80, 0x80, 0x01}));
  EXPECT_EQ(Encode(uint64_t{1} << 63),
            (std::vector<uint8_t>{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}));
  EXPECT_EQ(Encode(kMax),
            (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
}

TEST(Varint, RoundTripsAndSizes) {
  const uint64_t values[] = {0,
                             1,
                             127,
                             128,
                             255,
                             16383,
                             16384,
                             (uint64_t{1} << 32) - 1,
                             uint64_t{1} << 32,
                             (uint64_t{1} << 63) - 1,
                             uint64_t{1} << 63,
                             kMax - 1,
                             kMax};
  for (uint64_t v : values) {
    std::vector<uint8_t> bytes = Encode(v);
    EXPECT_EQ(static_cast<size_t>(UvarintSize(v)), bytes.size()) << v;
    const uint8_t* p = bytes.data();
    uint64_t out = v + 1;  // anything but v
    ASSERT_TRUE(GetUvarint(&p, bytes.data() + bytes.size(), &out)) << v;
    EXPECT_EQ(out, v);
    EXPECT_EQ(p, bytes.data() + bytes.size()) << v;
  }
  EXPECT_EQ(UvarintSize(0), 1);
  EXPECT_EQ(UvarintSize(127), 1);
  EXPECT_EQ(UvarintSize(128), 2);
  EXPECT_EQ(UvarintSize(uint64_t{1} << 63), 10);
  EXPECT_EQ(UvarintSize(kMax), kMaxVarintBytes);
}

TEST(Varint, ZigZag) {
  EXPECT_EQ(ZigZag(0), 0u);
  EXPECT_EQ(ZigZag(-1), 1u);
  EXPECT_EQ(ZigZag(1), 2u);
  EXPECT_EQ(ZigZag(-2), 3u);
  EXPECT_EQ(ZigZag(std::numeric_limits<int64_t>::max()), kMax - 1);
  EXPECT_EQ(ZigZag(std::numeric_limits<int64_t>::min()), kMax);
  const int64_t values[] = {0,
                            -1,
                            1,
                            -64,
                            63,
                            -65,
                            64,
                            -1000000,
                            1000000,
                            std::numeric_limits<int64_t>::min(),
                            std::numeric_limits<int64_t>::min() + 1,
                            std::numeric_limits<int64_t>::max()};
  for (int64_t v : values) {
    EXPECT_EQ(UnZigZag(ZigZag(v)), v);
    uint8_t buf[kMaxVarintBytes];
    uint8_t* end = PutSvarint(buf, v);
    // Small magnitudes stay small: -64..63 fit in one byte.
    if (v >= -64 && v <= 63) {
      EXPECT_EQ(end - buf, 1) << v;
    }
    const uint8_t* p = buf;
    int64_t out = 0;
    ASSERT_TRUE(GetSvarint(&p, end, &out)) << v;
    EXPECT_EQ(out, v);
    EXPECT_EQ(p, end);
  }
}

// Every proper prefix of an encoding fails without moving the cursor. The byte
// right after `end` is a terminator that would make the decode succeed if the
// decoder looked past `end`.
TEST(Varint, TruncatedInputFailsWithoutReadingPastEnd) {
  const uint64_t values[] = {128, 300, 16384, uint64_t{1} << 35, uint64_t{1} << 63, kMax};
  for (uint64_t v : values) {
    std::vector<uint8_t> bytes = Encode(v);
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      std::vector<uint8_t> buf(bytes.begin(), bytes.begin() + static_cast<long>(cut));
      buf.push_back(0x00);  // beyond `end`
      const uint8_t* p = buf.data();
      uint64_t out = 12345;
      EXPECT_FALSE(GetUvarint(&p, buf.data() + cut, &out)) << v << " cut at " << cut;
      EXPECT_EQ(p, buf.data()) << v << " cut at " << cut;
      EXPECT_EQ(out, 12345u);
      int64_t sout = 0;
      p = buf.data();
      EXPECT_FALSE(GetSvarint(&p, buf.data() + cut, &sout));
    }
  }
}

TEST(Varint, EmptyInputFails) {
  const uint8_t byte = 0x05;  // would decode as 5 if read
  const uint8_t* p = &byte;
  uint64_t out = 0;
  EXPECT_FALSE(GetUvarint(&p, &byte, &out));
  EXPECT_EQ(p, &byte);
}

TEST(Varint, OverlongInputFails) {
  // Eleven bytes: ten continuation bytes then a terminator.
  std::vector<uint8_t> eleven(10, 0x80);
  eleven.push_back(0x00);
  const uint8_t* p = eleven.data();
  uint64_t out = 0;
  EXPECT_FALSE(GetUvarint(&p, eleven.data() + eleven.size(), &out));
  EXPECT_EQ(p, eleven.data());

  // Ten bytes whose last one still has the continuation bit set.
  std::vector<uint8_t> ten(10, 0xff);
  p = ten.data();
  EXPECT_FALSE(GetUvarint(&p, ten.data() + ten.size(), &out));

  // Ten bytes whose last one holds more than the one bit left of 64: the value
  // would not fit in a uint64_t.
  std::vector<uint8_t> overflow(9, 0xff);
  overflow.push_back(0x02);
  p = overflow.data();
  EXPECT_FALSE(GetUvarint(&p, overflow.data() + overflow.size(), &out));
  EXPECT_EQ(p, overflow.data());
}

// With ten or more bytes left the decoder reads without checking each byte
// against `end`: every length decodes there as it does at the very end, and
// stops where its encoding stops.
TEST(Varint, EncodingsFollowedByMoreBytesDecodeTheSame) {
  for (int bits = 0; bits <= 64; ++bits) {
    const uint64_t v = bits == 0 ? 0 : (bits == 64 ? kMax : (uint64_t{1} << bits) - 1);
    std::vector<uint8_t> buf = Encode(v);
    const size_t size = buf.size();
    buf.insert(buf.end(), 12, 0xff);  // more bytes, none a terminator
    const uint8_t* p = buf.data();
    uint64_t out = v + 1;
    ASSERT_TRUE(GetUvarint(&p, buf.data() + buf.size(), &out)) << v;
    EXPECT_EQ(out, v);
    EXPECT_EQ(p, buf.data() + size) << v;
  }
  // Ten bytes, the last with more than the one bit left of 64, then more.
  std::vector<uint8_t> overflow(9, 0xff);
  overflow.push_back(0x02);
  overflow.insert(overflow.end(), 5, 0x00);
  const uint8_t* p = overflow.data();
  uint64_t out = 7;
  EXPECT_FALSE(GetUvarint(&p, overflow.data() + overflow.size(), &out));
  EXPECT_EQ(p, overflow.data());
  EXPECT_EQ(out, 7u);
  // Eleven bytes: the tenth still continues.
  std::vector<uint8_t> eleven(10, 0x80);
  eleven.insert(eleven.end(), 5, 0x00);
  p = eleven.data();
  EXPECT_FALSE(GetUvarint(&p, eleven.data() + eleven.size(), &out));
  EXPECT_EQ(p, eleven.data());
}

TEST(Varint, NonMinimalEncodingsDecode) {
  // 0 written in two bytes is redundant but valid LEB128.
  const uint8_t bytes[] = {0x80, 0x00};
  const uint8_t* p = bytes;
  uint64_t out = 1;
  ASSERT_TRUE(GetUvarint(&p, bytes + 2, &out));
  EXPECT_EQ(out, 0u);
  EXPECT_EQ(p, bytes + 2);
}

TEST(Varint, SequenceDecodesInOrder) {
  uint8_t buf[64];
  uint8_t* p = buf;
  p = PutUvarint(p, 5);
  p = PutSvarint(p, -300);
  p = PutUvarint(p, kMax);
  const uint8_t* q = buf;
  uint64_t a = 0, c = 0;
  int64_t b = 0;
  ASSERT_TRUE(GetUvarint(&q, p, &a));
  ASSERT_TRUE(GetSvarint(&q, p, &b));
  ASSERT_TRUE(GetUvarint(&q, p, &c));
  EXPECT_EQ(a, 5u);
  EXPECT_EQ(b, -300);
  EXPECT_EQ(c, kMax);
  EXPECT_EQ(q, p);
  EXPECT_FALSE(GetUvarint(&q, p, &a));
}

TEST(LittleEndian, StoreLoad) {
  uint8_t buf[8];
  StoreLE<uint32_t>(buf, 0x11223344u);
  EXPECT_EQ(buf[0], 0x44);
  EXPECT_EQ(buf[3], 0x11);
  EXPECT_EQ(LoadLE<uint32_t>(buf), 0x11223344u);
  StoreLE<uint16_t>(buf, 0xbeef);
  EXPECT_EQ(buf[0], 0xef);
  EXPECT_EQ(buf[1], 0xbe);
  StoreLE<uint64_t>(buf, 0x0102030405060708ull);
  EXPECT_EQ(buf[0], 0x08);
  EXPECT_EQ(buf[7], 0x01);
  EXPECT_EQ(LoadLE<uint64_t>(buf), 0x0102030405060708ull);
  StoreLE<double>(buf, 1.0);  // IEEE-754 1.0 = 0x3FF0000000000000
  EXPECT_EQ(buf[7], 0x3f);
  EXPECT_EQ(buf[6], 0xf0);
  EXPECT_EQ(LoadLE<double>(buf), 1.0);
}

}  // namespace
}  // namespace plx
