// String helpers: StrFormat, durations, byte sizes, counts, control
// characters escaped, tokens.
#include "base/strings.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace plx {
namespace {

TEST(StrFormat, Formats) {
  EXPECT_EQ(StrFormat("%d-%s-%.2f", 7, "x", 1.5), "7-x-1.50");
  EXPECT_EQ(StrFormat("%s", ""), "");
  EXPECT_EQ(StrFormat("plain"), "plain");
  // Longer than any small fixed buffer.
  std::string big(10000, 'a');
  EXPECT_EQ(StrFormat("<%s>", big.c_str()), "<" + big + ">");
}

TEST(FormatDuration, PicksUnits) {
  EXPECT_EQ(FormatDuration(0), "0 ns");
  EXPECT_EQ(FormatDuration(56), "56 ns");
  EXPECT_EQ(FormatDuration(999), "999 ns");
  EXPECT_EQ(FormatDuration(1000), "1.000 us");
  EXPECT_EQ(FormatDuration(1234), "1.234 us");
  EXPECT_EQ(FormatDuration(1234567), "1.235 ms");
  EXPECT_EQ(FormatDuration(2000000000), "2.000 s");
  EXPECT_EQ(FormatDuration(-56), "-56 ns");
  EXPECT_EQ(FormatDuration(-1500), "-1.500 us");
}

TEST(FormatBytes, PicksUnits) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(1024), "1.0 KiB");
  EXPECT_EQ(FormatBytes(12897485), "12.3 MiB");
  EXPECT_EQ(FormatBytes(uint64_t{3} << 30), "3.0 GiB");
  EXPECT_EQ(FormatBytes(uint64_t{2048} << 40), "2048.0 TiB");  // TiB is the largest unit
}

TEST(FormatCount, GroupsThousands) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(999), "999");
  EXPECT_EQ(FormatCount(1000), "1,000");
  EXPECT_EQ(FormatCount(123456), "123,456");
  EXPECT_EQ(FormatCount(1234567), "1,234,567");
  EXPECT_EQ(FormatCount(std::numeric_limits<uint64_t>::max()), "18,446,744,073,709,551,615");
}

TEST(EscapeControl, ShowsControlCharactersAndKeepsTheRest) {
  EXPECT_EQ(EscapeControl("node-1.example"), "node-1.example");
  EXPECT_EQ(EscapeControl(""), "");
  EXPECT_EQ(EscapeControl("a\nb\r\tc"), "a\\nb\\r\\tc");
  EXPECT_EQ(EscapeControl("\x1b[2J\x1b]0;owned\x07"), "\\x1b[2J\\x1b]0;owned\\x07");
  EXPECT_EQ(EscapeControl(std::string_view("a\0b\x7f", 4)), "a\\x00b\\x7f");
  // UTF-8 stays, but the controls U+0080..U+009F (U+009B is a one-character CSI) do not.
  EXPECT_EQ(EscapeControl("h\xc3\xa9te"), "h\xc3\xa9te");
  EXPECT_EQ(EscapeControl("\xc2\x9b"
                          "31m\xc2\xa0"),
            "\\u009b31m\xc2\xa0");
  EXPECT_EQ(EscapeControl("\xc2"), "\xc2");  // a cut sequence is left as it is
  const std::string escaped = EscapeControl("\x01\x1f\x7f\n\xc2\x80");
  for (const char c : escaped)
    EXPECT_GE(static_cast<unsigned char>(c), 0x20);
}

TEST(NextToken, SplitsKeepingEmptyPieces) {
  std::string_view rest = "a,,bc";
  EXPECT_EQ(NextToken(&rest, ','), "a");
  EXPECT_EQ(rest, ",bc");
  EXPECT_EQ(NextToken(&rest, ','), "");
  EXPECT_EQ(NextToken(&rest, ','), "bc");
  EXPECT_TRUE(rest.empty());

  std::string_view one = "abc";
  EXPECT_EQ(NextToken(&one, ':'), "abc");
  EXPECT_TRUE(one.empty());

  std::string_view trailing = "x:";
  EXPECT_EQ(NextToken(&trailing, ':'), "x");
  EXPECT_EQ(trailing, "");
}

TEST(AsciiLower, LowersAsciiLettersOnly) {
  EXPECT_EQ(AsciiLower("MPI_Send Host:8080"), "mpi_send host:8080");
  EXPECT_EQ(AsciiLower("\xC3\x89t\xC3\xA9"), "\xC3\x89t\xC3\xA9");  // UTF-8 stays as it is
  EXPECT_EQ(AsciiLower(""), "");
}

TEST(TrimBlanks, DropsSpacesAndTabsAtTheEndsOnly) {
  EXPECT_EQ(TrimBlanks(" \tcycles, instructions \t"), "cycles, instructions");
  EXPECT_EQ(TrimBlanks("a b"), "a b");
  EXPECT_EQ(TrimBlanks(" \t "), "");
  EXPECT_EQ(TrimBlanks(""), "");
  EXPECT_EQ(TrimBlanks("\nx\n"), "\nx\n");  // only spaces and tabs
}

}  // namespace
}  // namespace plx
