#include "base/wire.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plx {
namespace {

struct Pair {
  uint32_t a = 0;
  int64_t b = 0;
};

TEST(WireTest, FieldsAndVectorsComeBackInOrder) {
  std::string bytes;
  WirePut(&bytes, uint32_t{7});
  WirePutAll(&bytes, std::vector<Pair>{{1, -2}, {3, 4}});
  WirePutAll(&bytes, std::vector<int64_t>{});
  WirePut(&bytes, int64_t{-9});
  WireReader in(bytes);
  uint32_t first = 0;
  std::vector<Pair> pairs = {{9, 9}};  // appended to
  std::vector<int64_t> none;
  int64_t last = 0;
  ASSERT_TRUE(in.Get(&first));
  ASSERT_TRUE(in.GetAll(&pairs));
  ASSERT_TRUE(in.GetAll(&none));
  ASSERT_TRUE(in.Get(&last));
  EXPECT_TRUE(in.done());
  EXPECT_EQ(first, 7u);
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[1].a, 1u);
  EXPECT_EQ(pairs[2].b, 4);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(last, -9);
}

TEST(WireTest, ACountPastTheEndReadsNothing) {
  std::string bytes;
  WirePutAll(&bytes, std::vector<uint64_t>{1, 2, 3});
  bytes.resize(bytes.size() - 1);
  WireReader in(bytes);
  std::vector<uint64_t> v;
  EXPECT_FALSE(in.GetAll(&v));
  EXPECT_TRUE(v.empty());
  std::string huge;
  WirePut(&huge, ~uint64_t{0});  // a count no bytes could hold
  WireReader in2(huge);
  EXPECT_FALSE(in2.GetAll(&v));
}

TEST(WireTest, BytesComeBackWhole) {
  std::string bytes;
  WirePutBytes(&bytes, "inner");
  WirePutBytes(&bytes, "");
  WirePut(&bytes, uint8_t{5});
  WireReader in(bytes);
  std::string_view a = "x", b = "x";
  uint8_t last = 0;
  ASSERT_TRUE(in.GetBytes(&a));
  ASSERT_TRUE(in.GetBytes(&b));
  ASSERT_TRUE(in.Get(&last));
  EXPECT_TRUE(in.done());
  EXPECT_EQ(a, "inner");
  EXPECT_EQ(b, "");
  EXPECT_EQ(last, 5);
  bytes.resize(10);  // the length, and two of the five bytes
  WireReader cut(bytes);
  EXPECT_FALSE(cut.GetBytes(&a));
}

}  // namespace
}  // namespace plx
