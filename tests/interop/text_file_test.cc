#include "interop/text_file.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

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

TEST(ParseIntTest, TakesWholeIntegersThatFit) {
  int64_t v = 0;
  EXPECT_TRUE(ParseInt("-42", &v));
  EXPECT_EQ(v, -42);
  EXPECT_TRUE(ParseInt("9223372036854775807", &v));
  EXPECT_EQ(v, std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(ParseInt("-9223372036854775808", &v));
  EXPECT_EQ(v, std::numeric_limits<int64_t>::min());
  for (const char* bad : {"", "-", "9223372036854775808", "-9223372036854775809", "1.0", "1e3",
                          " 1", "1 ", "0x10", "+1"}) {
    EXPECT_FALSE(ParseInt(bad, &v)) << bad;
  }
  // '+' only where the format takes it, and once.
  EXPECT_TRUE(ParseInt("+7", &v, Plus::kAccepted));
  EXPECT_EQ(v, 7);
  EXPECT_FALSE(ParseInt("++7", &v, Plus::kAccepted));
  EXPECT_FALSE(ParseInt("+", &v, Plus::kAccepted));

  uint64_t u = 0;
  EXPECT_TRUE(ParseUint("18446744073709551615", &u));
  EXPECT_EQ(u, std::numeric_limits<uint64_t>::max());
  EXPECT_FALSE(ParseUint("18446744073709551616", &u));
  EXPECT_FALSE(ParseUint("-1", &u));
}

TEST(ParseDoubleTest, TakesWholeNumbers) {
  double d = 0;
  EXPECT_TRUE(ParseDouble("-2.5e-3", &d));
  EXPECT_EQ(d, -0.0025);
  EXPECT_TRUE(ParseDouble("3", &d));
  EXPECT_EQ(d, 3.0);
  EXPECT_FALSE(ParseDouble("1e400", &d));  // out of range
  EXPECT_FALSE(ParseDouble("1.5x", &d));
  EXPECT_FALSE(ParseDouble("", &d));
  EXPECT_FALSE(ParseDouble("+0.5", &d));
  EXPECT_TRUE(ParseDouble("+0.5", &d, Plus::kAccepted));
  EXPECT_EQ(d, 0.5);
}

TEST(ParseSecondsTest, GivesNanoseconds) {
  int64_t ns = 0;
  EXPECT_TRUE(ParseSeconds("12.3456789014", &ns));
  EXPECT_EQ(ns, 12345678901);
  EXPECT_TRUE(ParseSeconds("1e-3", &ns));
  EXPECT_EQ(ns, 1000000);
  EXPECT_FALSE(ParseSeconds("1e10", &ns));  // 10^19 ns does not fit
  EXPECT_FALSE(ParseSeconds("soon", &ns));
}

// The fields of `line`, as strings, split with `syntax`; "!" + the result when
// it is not kOk.
std::vector<std::string> Fields(std::string_view line, LineFields::Syntax syntax = {}) {
  LineFields fields(syntax);
  const LineFields::Result r = fields.Split(line);
  std::vector<std::string> out;
  for (size_t i = 0; i < fields.size(); ++i)
    out.emplace_back(fields[i]);
  if (r == LineFields::Result::kTooMany) out.push_back("!too many");
  if (r == LineFields::Result::kUnterminated) out.push_back("!unterminated");
  return out;
}

using Strings = std::vector<std::string>;

TEST(LineFieldsTest, SplitsAtBlanksOfEveryKind) {
  EXPECT_EQ(Fields("a b\tc  \t d\r"), (Strings{"a", "b", "c", "d"}));
  EXPECT_EQ(Fields("  lead and trail  "), (Strings{"lead", "and", "trail"}));
  EXPECT_EQ(Fields(""), Strings{});
  EXPECT_EQ(Fields(" \t\r"), Strings{});
}

TEST(LineFieldsTest, KeepsQuotedFieldsWholeAndEmpty) {
  EXPECT_EQ(Fields("1 \"a b\" \"\" c"), (Strings{"1", "a b", "", "c"}));
  EXPECT_EQ(Fields("x\"y z\""), (Strings{"x\"y", "z\""}));  // a quote inside a word is a letter
  // Only the syntax's quotes open a field; the other kind is a letter inside it.
  EXPECT_EQ(Fields("'a b' \"it's\""), (Strings{"'a", "b'", "it's"}));
  EXPECT_EQ(Fields("'a b' \"c d\"", {.quotes = "\"'"}), (Strings{"a b", "c d"}));
}

TEST(LineFieldsTest, AnOpenQuoteFailsOrRunsToTheEnd) {
  EXPECT_EQ(Fields("a \"b c"), (Strings{"a", "!unterminated"}));
  EXPECT_EQ(Fields("a \"b c", {.open_quote_to_end = true}), (Strings{"a", "b c"}));
  EXPECT_EQ(Fields("a \"", {.open_quote_to_end = true}), (Strings{"a", ""}));
}

TEST(LineFieldsTest, StopsAfterTheMostFields) {
  std::string line;
  for (size_t i = 0; i < LineFields::kMax; ++i)
    line += std::to_string(i) + " ";
  EXPECT_EQ(Fields(line).size(), LineFields::kMax);
  const Strings more = Fields(line + "\"one more\"");
  ASSERT_EQ(more.size(), LineFields::kMax + 1);
  EXPECT_EQ(more.back(), "!too many");
}

TEST(LineFieldsTest, DropFirstShiftsTheFields) {
  LineFields fields({});
  ASSERT_EQ(fields.Split("7 a \"b c\""), LineFields::Result::kOk);
  fields.DropFirst();
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[0], "a");
  EXPECT_EQ(fields[1], "b c");
}

}  // namespace
}  // namespace plx::interop
