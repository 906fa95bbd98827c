// ByteBuffer: reserve/commit, append, growth keeping contents, moves, clear.
#include "base/byte_buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <utility>

namespace plx {
namespace {

TEST(ByteBuffer, StartsEmpty) {
  ByteBuffer b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.size(), 0u);
}

TEST(ByteBuffer, ReserveThenCommitPartially) {
  ByteBuffer b;
  uint8_t* p = b.Reserve(100);
  ASSERT_NE(p, nullptr);
  p[0] = 1;
  p[1] = 2;
  p[2] = 3;
  b.Commit(p + 3);  // used only 3 of the 100
  EXPECT_EQ(b.size(), 3u);
  uint8_t* q = b.Reserve(10);
  EXPECT_EQ(q, b.data() + 3);
  q[0] = 4;
  b.Commit(q + 1);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(std::memcmp(b.data(), "\x01\x02\x03\x04", 4), 0);
}

TEST(ByteBuffer, GrowthKeepsContents) {
  ByteBuffer b;
  for (int i = 0; i < 5000; ++i) {
    const uint8_t v[3] = {static_cast<uint8_t>(i), static_cast<uint8_t>(i >> 8), 0xab};
    b.Append(v, sizeof v);
  }
  ASSERT_EQ(b.size(), 15000u);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(b.data()[3 * i], static_cast<uint8_t>(i));
    ASSERT_EQ(b.data()[3 * i + 1], static_cast<uint8_t>(i >> 8));
    ASSERT_EQ(b.data()[3 * i + 2], 0xab);
  }
  // One reservation much larger than the current capacity.
  uint8_t* p = b.Reserve(1 << 20);
  std::memset(p, 0x5a, 1 << 20);
  b.Commit(p + (1 << 20));
  EXPECT_EQ(b.size(), 15000u + (1 << 20));
  EXPECT_EQ(b.data()[15000 + (1 << 20) - 1], 0x5a);
  EXPECT_EQ(b.data()[2], 0xab);
}

TEST(ByteBuffer, ClearKeepsStorage) {
  ByteBuffer b;
  b.Append("abcdef", 6);
  const uint8_t* before = b.data();
  b.Clear();
  EXPECT_TRUE(b.empty());
  b.Append("xy", 2);
  EXPECT_EQ(b.data(), before);
  EXPECT_EQ(std::memcmp(b.data(), "xy", 2), 0);
}

TEST(ByteBuffer, MovesTransferOwnership) {
  ByteBuffer a;
  a.Append("hello", 5);
  ByteBuffer b(std::move(a));
  EXPECT_EQ(b.size(), 5u);
  EXPECT_EQ(std::memcmp(b.data(), "hello", 5), 0);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(a.data(), nullptr);

  ByteBuffer c;
  c.Append("zz", 2);
  c = std::move(b);
  EXPECT_EQ(c.size(), 5u);
  EXPECT_EQ(std::memcmp(c.data(), "hello", 5), 0);
  a.Append("again", 5);  // a moved-from buffer is usable
  EXPECT_EQ(a.size(), 5u);
}

}  // namespace
}  // namespace plx
