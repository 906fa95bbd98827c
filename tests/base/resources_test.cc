// Byte sizes as people write them, and the defaults of Resources.
#include "base/resources.h"

#include <gtest/gtest.h>

namespace plx {
namespace {

TEST(ParseByteSize, Units) {
  EXPECT_EQ(*ParseByteSize("100000"), 100000u);
  EXPECT_EQ(*ParseByteSize("64k"), 64u * 1024);
  EXPECT_EQ(*ParseByteSize("512M"), 512ull << 20);
  EXPECT_EQ(*ParseByteSize("4G"), 4ull << 30);
  EXPECT_EQ(*ParseByteSize("4gb"), 4ull << 30);
  EXPECT_EQ(*ParseByteSize("1.5GiB"), 3ull << 29);
  EXPECT_EQ(*ParseByteSize("2 T"), 2ull << 40);
  EXPECT_EQ(*ParseByteSize("10B"), 10u);
}

TEST(ParseByteSize, RejectsWhatIsNoSize) {
  for (const char* text : {"", "G", ".", "1.2.3M", "12X", "-4G", "0", "0.1", "1e30", "99999999T"}) {
    StatusOr<uint64_t> r = ParseByteSize(text);
    EXPECT_FALSE(r.ok()) << text;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("is not a size"), std::string::npos);
    }
  }
}

TEST(Resources, Defaults) {
  Resources r;
  EXPECT_GE(r.Threads(), 1u);
  EXPECT_GT(r.Memory(), 0u);
  r.threads = 3;
  r.memory_bytes = 12345;
  EXPECT_EQ(r.Threads(), 3u);
  EXPECT_EQ(r.Memory(), 12345u);
  if (PhysicalMemoryBytes() > 0) {
    EXPECT_EQ(DefaultMemoryBudget(), PhysicalMemoryBytes() / 4);
  }
}

}  // namespace
}  // namespace plx
