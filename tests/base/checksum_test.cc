// Checksum64 is XXH3-64 with seed 0: known answers pin the algorithm, since
// files written by one build must verify in another.
#include "base/checksum.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace plx {
namespace {

TEST(Checksum64, KnownAnswers) {
  EXPECT_EQ(Checksum64(nullptr, 0), 0x2D06800538D394C2ull);
  EXPECT_EQ(Checksum64("", 0), 0x2D06800538D394C2ull);
  const char* hello = "hello world";
  EXPECT_EQ(Checksum64(hello, std::strlen(hello)), 0xD447B1EA40E6988Bull);
}

TEST(Checksum64, SeesEveryBit) {
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<uint8_t>(i * 31 + 7);
  const uint64_t base = Checksum64(data.data(), data.size());
  EXPECT_EQ(Checksum64(data.data(), data.size()), base);  // deterministic
  for (size_t i : {size_t{0}, size_t{499}, size_t{999}}) {
    data[i] ^= 0x01;
    EXPECT_NE(Checksum64(data.data(), data.size()), base) << "flip at " << i;
    data[i] ^= 0x01;
  }
  EXPECT_NE(Checksum64(data.data(), data.size() - 1), base);
}

}  // namespace
}  // namespace plx
