// Host and Origin checks without sockets: which names are this server's and
// which origins are its own pages'.
#include "server/api/request_checks.h"

#include <gtest/gtest.h>

namespace plx::server {
namespace {

TEST(RequestChecksTest, HostOfTakesThePortOffAndLowersTheCase) {
  EXPECT_EQ(HostOf("127.0.0.1"), "127.0.0.1");
  EXPECT_EQ(HostOf("127.0.0.1:8080"), "127.0.0.1");
  EXPECT_EQ(HostOf("LocalHost:1"), "localhost");
  EXPECT_EQ(HostOf("[::1]"), "[::1]");
  EXPECT_EQ(HostOf("[::1]:65535"), "[::1]");
  EXPECT_EQ(HostOf("[FE80::1]:80"), "[fe80::1]");
  for (const char* bad :
       {"", ":80", "host:", "host:x", "host:123456", "a b", "[::1", "[]:80", "[::1]x",
        "[::1]:", "::1", "user@127.0.0.1", "127.0.0.1:80:80", "evil.example/127.0.0.1"})
    EXPECT_EQ(HostOf(bad), "") << bad;
}

TEST(RequestChecksTest, LoopbackNamesAreAlwaysAllowed) {
  for (const char* host : {"127.0.0.1", "127.0.0.1:8080", "localhost", "localhost:8080",
                           "LOCALHOST:9000", "[::1]", "[::1]:8080"})
    EXPECT_TRUE(HostAllowed(host, {"127.0.0.1"})) << host;
}

TEST(RequestChecksTest, OtherNamesAreRefused) {
  for (const char* host :
       {"evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example",
        "localhost.", "127.0.0.2", "10.1.2.3:8080", "[::2]:80", "", "0.0.0.0"})
    EXPECT_FALSE(HostAllowed(host, {"127.0.0.1", "127.0.0.1"})) << host;
}

TEST(RequestChecksTest, TheBoundAndTheConnectionsAddressesAreAllowed) {
  // --bind 10.1.2.3; --bind 0.0.0.0 reached on 192.168.1.5; --bind :: (IPv6).
  EXPECT_TRUE(HostAllowed("10.1.2.3:8080", {"10.1.2.3", "10.1.2.3"}));
  EXPECT_TRUE(HostAllowed("192.168.1.5:8080", {"0.0.0.0", "192.168.1.5"}));
  EXPECT_FALSE(HostAllowed("192.168.1.6:8080", {"0.0.0.0", "192.168.1.5"}));
  EXPECT_TRUE(HostAllowed("[FE80::1]:8080", {"::", "fe80::1"}));
  EXPECT_TRUE(HostAllowed("[::]:8080", {"::", "::1"}));  // the URL printed for --bind ::
  EXPECT_FALSE(HostAllowed("myhost:8080", {"0.0.0.0", "192.168.1.5"}));
}

TEST(RequestChecksTest, OnlyThePagesOwnOriginIsTheSameOrigin) {
  EXPECT_TRUE(SameOrigin("http://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_TRUE(SameOrigin("http://LOCALHOST:9000", "localhost:9000"));
  EXPECT_TRUE(SameOrigin("https://[::1]:8080", "[::1]:8080"));
  EXPECT_FALSE(SameOrigin("http://evil.example", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("http://127.0.0.1:9999", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("http://localhost:8080", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("null", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("http://127.0.0.1:8080/", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("ws://127.0.0.1:8080", "127.0.0.1:8080"));
  EXPECT_FALSE(SameOrigin("http://", ""));
}

}  // namespace
}  // namespace plx::server
