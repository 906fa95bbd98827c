#include "interop/text_file.h"

#include <gtest/gtest.h>

#include <limits>

#include "support/test_support.h"

namespace plx::interop {
namespace {

TEST(TextWriterTest, WritesNumbersExactly) {
  testing::TempDir dir;
  const std::string path = dir.File("out.txt");
  auto w = TextWriter::Create(path);
  ASSERT_TRUE(w.ok()) << w.status().message();
  (*w)->PutFixed(1234567, 3).Put(' ').PutFixed(5, 3).Put(' ').PutFixed(-5, 9).Put(' ');
  (*w)->PutFixed(0, 2).Put(' ').PutFixed(std::numeric_limits<int64_t>::min(), 9).Put(' ');
  (*w)->PutInt(-42).Put(' ').PutUint(18446744073709551615u).Put(' ').PutDouble(0.1).Put(' ');
  (*w)->PutReal(3).Put(' ').PutReal(2.5).Put(' ').PutReal(1e300).Put(' ');
  (*w)->PutQuoted("say \"hi\"\nthere").Put('\n');
  // More than the buffer holds, in pieces and in one piece.
  const std::string big(3 << 20, 'x');
  (*w)->Put(big);
  for (int i = 0; i < 100000; ++i)
    (*w)->Put("0123456789");
  ASSERT_TRUE((*w)->Finish().ok());
  const std::string text = testing::ReadFile(path);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "1234.567 0.005 -0.000000005 0.00 -9223372036.854775808 -42 18446744073709551615 0.1 "
            "3.0 2.5 1e+300 \"say 'hi' there\"");
  EXPECT_EQ(text.size(), text.find('\n') + 1 + big.size() + 1000000);
}

TEST(TextWriterTest, NamesTheFileWhenItCannotWrite) {
  auto w = TextWriter::Create("/nonexistent-dir/out.csv");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("/nonexistent-dir/out.csv"), std::string::npos);
}

TEST(ParseFixedTest, ParsesDecimalsExactly) {
  EXPECT_EQ(ParseFixed("1234.567", 3), 1234567);
  EXPECT_EQ(ParseFixed("1234.567891", 3), 1234568);  // rounded
  EXPECT_EQ(ParseFixed("1700000000.123456789", 9), 1700000000123456789);
  EXPECT_EQ(ParseFixed("12", 3), 12000);
  EXPECT_EQ(ParseFixed("-0.5", 1), -5);
  EXPECT_EQ(ParseFixed(".25", 2), 25);
  EXPECT_EQ(ParseFixed("+7.", 0), 7);
  EXPECT_EQ(ParseFixed("9223372036.854775807", 9), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseFixed("9223372036.854775808", 9), std::nullopt);
  EXPECT_EQ(ParseFixed("-9223372036.854775808", 9), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(ParseFixed("99999999999999999999", 0), std::nullopt);
  EXPECT_EQ(ParseFixed("1e3", 3), 1000000);
  EXPECT_EQ(ParseFixed("1.5E-3", 9), 1500000);
  EXPECT_EQ(ParseFixed("0.0015", 3), 2);                                   // half up
  EXPECT_EQ(ParseFixed("123456789012345678901234", -10), 12345678901235);  // rounded
  EXPECT_EQ(ParseFixed("0.000000000000000000001", 9), 0);
  EXPECT_EQ(ParseFixed("1e400", 0), std::nullopt);
  for (const char* bad : {"", "-", ".", "1e", "e3", "1.2.3", "abc", " 1", "1 ", "1e+"}) {
    EXPECT_EQ(ParseFixed(bad, 3), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace plx::interop
