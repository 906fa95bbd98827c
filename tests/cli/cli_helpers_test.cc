// Unit tests of the CLI helpers: time arguments, tables, generic record
// decoding from the KindInfo tables, id names, and the --progress line.
#include <gtest/gtest.h>

#include "cli/record_fields.h"
#include "cli/ref_names.h"
#include "cli/table.h"
#include "cli/time_arg.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

TEST(ParseDurationTest, UnitsAndRejects) {
  int64_t ns = -1;
  EXPECT_TRUE(ParseDuration("250", &ns));
  EXPECT_EQ(ns, 250);
  EXPECT_TRUE(ParseDuration("250ns", &ns));
  EXPECT_EQ(ns, 250);
  EXPECT_TRUE(ParseDuration("1.5us", &ns));
  EXPECT_EQ(ns, 1500);
  EXPECT_TRUE(ParseDuration("10ms", &ns));
  EXPECT_EQ(ns, 10000000);
  EXPECT_TRUE(ParseDuration("2s", &ns));
  EXPECT_EQ(ns, 2000000000);
  EXPECT_TRUE(ParseDuration("0.0000000015s", &ns));
  EXPECT_EQ(ns, 2);  // rounded
  for (const char* bad : {"", "ms", "-5", "5 ms", "5m", "5sec", "1e", "abc", "1e30s"})
    EXPECT_FALSE(ParseDuration(bad, &ns)) << bad;
}

TEST(TableTest, AlignsColumnsAndTrimsTrailingSpaces) {
  Table t({{"name"}, {"n", Table::Align::kRight}, {"note"}});
  t.AddRow({"a", "1", ""});
  t.AddRow({"größer", "1000"});  // width counts code points, not bytes
  EXPECT_EQ(t.Render(1),
            " name       n  note\n"
            " a          1\n"
            " größer  1000\n");
}

// Encodes one record with the typed encoder and returns its framed bytes.
template <typename R>
std::vector<uint8_t> Encode(uint64_t dt, const R& r) {
  std::vector<uint8_t> buf(format::MaxEncodedSize(r));
  buf.resize(static_cast<size_t>(format::EncodeEvent(buf.data(), dt, r) - buf.data()));
  return buf;
}

std::vector<FieldValue> DecodeOne(const std::vector<uint8_t>& bytes, RawRecord* rec) {
  size_t pos = 0;
  EXPECT_TRUE(NextRecord(bytes.data(), bytes.data() + bytes.size(), &pos, 100, rec));
  EXPECT_EQ(pos, bytes.size());
  std::vector<FieldValue> fields;
  const format::KindInfo* kind = format::EventKindInfo(rec->kind);
  EXPECT_NE(kind, nullptr);
  if (kind != nullptr) {
    EXPECT_EQ(DecodeFields(*kind, rec->body, rec->size, &fields), nullptr);
  }
  return fields;
}

TEST(RecordFieldsTest, GenericDecodingMatchesTheTypedEncoders) {
  RawRecord rec;
  auto send = DecodeOne(Encode(7, format::SendRecord{3, -1, 42, 1 << 20, 9}), &rec);
  EXPECT_EQ(rec.tick, 107u);
  ASSERT_EQ(send.size(), 5u);
  EXPECT_STREQ(send[0].info->name, "comm");
  EXPECT_STREQ(send[0].info->ref, "communicator");
  EXPECT_EQ(send[0].u, 3u);
  EXPECT_EQ(send[1].s, -1);
  EXPECT_EQ(send[2].s, 42);
  EXPECT_EQ(send[3].u, 1u << 20);
  EXPECT_EQ(send[4].u, 9u);

  auto d = DecodeOne(Encode(0, format::EventDoubleRecord{1, 2, -0.25}), &rec);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[2].f, -0.25);

  const std::vector<uint8_t> text_bytes = Encode(0, format::EventStringRecord{1, 0, "hi there"});
  auto s = DecodeOne(text_bytes, &rec);  // its text points into text_bytes
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2].text, "hi there");

  auto none = DecodeOne(Encode(0, format::ThreadEndRecord{}), &rec);
  EXPECT_TRUE(none.empty());
}

TEST(RecordFieldsTest, ShortBodiesLongBodiesAndDamage) {
  const format::KindInfo& send = *format::EventKindInfo(6);
  std::vector<FieldValue> fields;
  const uint8_t older[] = {3, 2};  // comm, peer: a writer that knew fewer fields
  EXPECT_EQ(DecodeFields(send, older, sizeof older, &fields), nullptr);
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[1].s, 1);
  const uint8_t newer[] = {1, 2, 3, 4, 5, 0xff, 0xff};  // trailing bytes of newer fields
  EXPECT_EQ(DecodeFields(send, newer, sizeof newer, &fields), nullptr);
  EXPECT_EQ(fields.size(), 5u);
  const uint8_t damaged[] = {1, 0x80};  // peer's varint runs past the body
  EXPECT_STREQ(DecodeFields(send, damaged, sizeof damaged, &fields), "peer");
  const format::KindInfo& dbl = *format::EventKindInfo(4);
  const uint8_t short_f64[] = {1, 0, 1, 2, 3};
  EXPECT_STREQ(DecodeFields(dbl, short_f64, sizeof short_f64, &fields), "value");

  const uint8_t framing[] = {1, 5, 9, 0};  // body length 9, only 1 byte left
  size_t pos = 0;
  RawRecord rec;
  EXPECT_FALSE(NextRecord(framing, framing + sizeof framing, &pos, 0, &rec));
}

TEST(RefNamesTest, NamesNoneAndUndefined) {
  format::ProcessDefs defs;
  defs.strings[1] = "compute";
  defs.strings[2] = "main.c";
  defs.states[4] = format::StateDef{4, 1, 0, 0};
  defs.callsites[2] = format::CallsiteDef{2, 2, 17, 0};
  RefNames names(defs);
  EXPECT_EQ(names.Name("state", 4), "compute");
  EXPECT_EQ(names.Name("state", 0), std::nullopt);
  EXPECT_EQ(names.Name("state", 5), "<undefined 5>");
  EXPECT_EQ(names.Name("callsite", 2), "main.c:17");
  EXPECT_EQ(names.Name("communicator", 1), "<undefined 1>");
}

TEST(ProgressTest, ProgressFlagDrawsTheFinalLine) {
  testing::TempDir dir;
  const std::string path = dir.File("t.plx");
  ASSERT_TRUE(
      testing::WriteTraceScript("process 0\nstate 0 1 s\nenter 0 1 t=1 s\nleave 0 1 t=2 s\n", path)
          .ok());
  testing::RunResult r = testing::RunProgram(
      {testing::BuildPath("src/cli/parallax"), "stats", path, "--progress", "--top", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\rparallax: loading 100% (2 of 2 records)\n"), std::string::npos)
      << r.output;
  // Without the flag and with stderr not a terminal: nothing.
  r = testing::RunProgram({testing::BuildPath("src/cli/parallax"), "stats", path});
  EXPECT_EQ(r.output.find("loading"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace plx::cli
