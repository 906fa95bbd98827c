// Unit tests of the PLX_* parsing: patterns, levels, sizes and their defaults.
#include "capture/config.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace plx::capture {
namespace {

TEST(Config, ExpandOutput) {
  EXPECT_EQ(ExpandOutput("%e.plx", "app", 42, "node1", 0), "app.plx");
  EXPECT_EQ(ExpandOutput("out/%h-%p.plx", "app", 42, "node1", 0), "out/node1-42.plx");
  EXPECT_EQ(ExpandOutput("100%%-%x", "app", 1, "h", 0), "100%-%x");
  EXPECT_EQ(ExpandOutput("trailing%", "app", 1, "h", 0), "trailing%");
  EXPECT_EQ(ExpandOutput("%t", "a", 1, "h", 0).size(), 15u);  // YYYYmmdd-HHMMSS
}

TEST(Config, LevelSelects) {
  EXPECT_TRUE(LevelSelects("all", "user"));
  EXPECT_TRUE(LevelSelects("comm", "comm"));
  EXPECT_FALSE(LevelSelects("comm", "user"));
  EXPECT_TRUE(LevelSelects("user,comm", "user"));
  EXPECT_FALSE(LevelSelects("all,-comm", "comm"));
  EXPECT_TRUE(LevelSelects("all,-comm", "io"));
  EXPECT_FALSE(LevelSelects("none", "user"));
  EXPECT_FALSE(LevelSelects("", "user"));
}

class EnvTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const char* v :
         {"PLX_TRACE", "PLX_BUFFER", "PLX_FLUSH_MS", "PLX_COMPRESS", "PLX_FULL", "PLX_CLOCK"})
      ::unsetenv(v);
  }
};

TEST_F(EnvTest, Defaults) {
  Config c = ReadConfig();
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ(c.output, "%e.plx");
  EXPECT_EQ(c.buffer_bytes, 4u << 20);
  EXPECT_EQ(c.flush_ms, 100);
  EXPECT_EQ(c.zstd_level, 1);
  EXPECT_FALSE(c.drop_when_full);
  EXPECT_TRUE(c.warnings.empty());
}

TEST_F(EnvTest, Values) {
  ::setenv("PLX_TRACE", "off", 1);
  ::setenv("PLX_BUFFER", "256K", 1);
  ::setenv("PLX_FLUSH_MS", "20", 1);
  ::setenv("PLX_COMPRESS", "none", 1);
  ::setenv("PLX_FULL", "drop", 1);
  ::setenv("PLX_CLOCK", "monotonic", 1);
  Config c = ReadConfig();
  EXPECT_FALSE(c.enabled);
  EXPECT_EQ(c.buffer_bytes, 256u << 10);
  EXPECT_EQ(c.flush_ms, 20);
  EXPECT_EQ(c.zstd_level, 0);
  EXPECT_TRUE(c.drop_when_full);
  EXPECT_EQ(c.clock, ClockKind::kMonotonic);
  EXPECT_TRUE(c.warnings.empty());
}

TEST_F(EnvTest, BadValuesKeepDefaults) {
  ::setenv("PLX_BUFFER", "1K", 1);  // below the minimum
  ::setenv("PLX_FLUSH_MS", "fast", 1);
  ::setenv("PLX_COMPRESS", "99", 1);
  Config c = ReadConfig();
  EXPECT_EQ(c.buffer_bytes, 4u << 20);
  EXPECT_EQ(c.flush_ms, 100);
  EXPECT_EQ(c.zstd_level, 1);
  ASSERT_EQ(c.warnings.size(), 3u);
  EXPECT_EQ(c.warnings[0],
            "PLX_BUFFER=1K: expected a size from 64K to 4G, like 4M; using the default");
}

}  // namespace
}  // namespace plx::capture
