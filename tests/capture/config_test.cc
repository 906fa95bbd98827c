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
         {"PLX_TRACE", "PLX_BUFFER", "PLX_FLUSH_MS", "PLX_COMPRESS", "PLX_FULL", "PLX_CLOCK",
          "PLX_LIVE", "PLX_LIVE_TOKEN", "PLX_LIVE_BUFFER", "PLX_OUTPUT"})
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

TEST(Config, ParseLiveEndpoint) {
  std::string host;
  uint16_t port = 0;
  EXPECT_TRUE(ParseLiveEndpoint("127.0.0.1:7000", &host, &port));
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 7000);
  EXPECT_TRUE(ParseLiveEndpoint("viewer.example.org:65535", &host, &port));
  EXPECT_EQ(host, "viewer.example.org");
  EXPECT_EQ(port, 65535);
  EXPECT_TRUE(ParseLiveEndpoint("[::1]:1", &host, &port));
  EXPECT_EQ(host, "::1");
  EXPECT_EQ(port, 1);
  for (const char* bad :
       {"", "7000", ":7000", "host", "host:", "host:0", "host:65536", "host:70000000", "host:7x",
        "host:+7", "::1:7000", "[]:7000", "[::1:7000", "a b:7000"})
    EXPECT_FALSE(ParseLiveEndpoint(bad, &host, &port)) << bad;
}

TEST_F(EnvTest, LiveDefaults) {
  Config c = ReadConfig();
  EXPECT_FALSE(c.live());
  EXPECT_TRUE(c.writes_file());
  EXPECT_EQ(c.live_buffer_bytes, 64u << 20);
}

TEST_F(EnvTest, LiveValues) {
  ::setenv("PLX_LIVE", "localhost:7000", 1);
  ::setenv("PLX_LIVE_TOKEN", "abc", 1);
  ::setenv("PLX_LIVE_BUFFER", "1M", 1);
  ::setenv("PLX_OUTPUT", "-", 1);
  Config c = ReadConfig();
  EXPECT_TRUE(c.live());
  EXPECT_EQ(c.live_host, "localhost");
  EXPECT_EQ(c.live_port, 7000);
  EXPECT_EQ(c.live_token, "abc");
  EXPECT_EQ(c.live_buffer_bytes, 1u << 20);
  EXPECT_FALSE(c.writes_file());
  EXPECT_EQ(c.flush_ms, 20);  // the live default
  EXPECT_TRUE(c.warnings.empty());
  ::setenv("PLX_FLUSH_MS", "50", 1);
  EXPECT_EQ(ReadConfig().flush_ms, 50);  // still overridable
}

TEST_F(EnvTest, LiveBadValues) {
  ::setenv("PLX_LIVE", "localhost", 1);
  ::setenv("PLX_LIVE_BUFFER", "lots", 1);
  ::setenv("PLX_OUTPUT", "-", 1);
  Config c = ReadConfig();
  EXPECT_FALSE(c.live());
  EXPECT_EQ(c.flush_ms, 100);
  EXPECT_EQ(c.live_buffer_bytes, 64u << 20);
  ASSERT_EQ(c.warnings.size(), 3u);
  EXPECT_EQ(c.warnings[0],
            "PLX_LIVE=localhost: expected host:port with a port 1-65535, like 127.0.0.1:7000; no "
            "live stream");
  EXPECT_EQ(c.warnings[1],
            "PLX_LIVE_BUFFER=lots: expected a size from 64K to 4G, like 64M; using the default");
  EXPECT_EQ(c.warnings[2], "PLX_OUTPUT=- without PLX_LIVE: the trace is not kept anywhere");
}

}  // namespace
}  // namespace plx::capture
