// Table-driven decoding of any record kind (format/generic_record.h) agrees
// with the typed encoders, and copes with short, long and damaged bodies.
#include "format/generic_record.h"

#include <gtest/gtest.h>

#include <vector>

namespace plx::format {
namespace {

// Encodes one record with the typed encoder and returns its framed bytes.
template <typename R>
std::vector<uint8_t> Encode(uint64_t dt, const R& r) {
  std::vector<uint8_t> buf(MaxEncodedSize(r));
  buf.resize(static_cast<size_t>(EncodeEvent(buf.data(), dt, r) - buf.data()));
  return buf;
}

std::vector<FieldValue> DecodeOne(const std::vector<uint8_t>& bytes, FramedRecord* rec) {
  size_t pos = 0;
  EXPECT_TRUE(
      NextRecord(Framing::kEvents, bytes.data(), bytes.data() + bytes.size(), &pos, 100, rec));
  EXPECT_EQ(pos, bytes.size());
  std::vector<FieldValue> fields;
  const KindInfo* kind = EventKindInfo(rec->kind);
  EXPECT_NE(kind, nullptr);
  if (kind != nullptr) {
    EXPECT_EQ(DecodeFields(*kind, rec->body, rec->size, &fields), nullptr);
  }
  return fields;
}

TEST(GenericRecord, GenericDecodingMatchesTheTypedEncoders) {
  FramedRecord rec;
  auto send = DecodeOne(Encode(7, SendRecord{3, -1, 42, 1 << 20, 9, 11}), &rec);
  EXPECT_EQ(rec.tick, 107u);
  ASSERT_EQ(send.size(), 6u);
  EXPECT_STREQ(send[0].info->name, "comm");
  EXPECT_STREQ(send[0].info->ref, "communicator");
  EXPECT_EQ(send[0].u, 3u);
  EXPECT_EQ(send[1].s, -1);
  EXPECT_EQ(send[2].s, 42);
  EXPECT_EQ(send[3].u, 1u << 20);
  EXPECT_EQ(send[4].u, 9u);
  EXPECT_EQ(send[5].u, 11u);

  auto d = DecodeOne(Encode(0, EventDoubleRecord{1, 2, -0.25}), &rec);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[2].f, -0.25);

  const std::vector<uint8_t> text_bytes = Encode(0, EventStringRecord{1, 0, "hi there"});
  auto s = DecodeOne(text_bytes, &rec);  // its text points into text_bytes
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2].text, "hi there");

  auto none = DecodeOne(Encode(0, ThreadEndRecord{}), &rec);
  EXPECT_TRUE(none.empty());
}

TEST(GenericRecord, ShortBodiesLongBodiesAndDamage) {
  const KindInfo& send = *EventKindInfo(6);
  std::vector<FieldValue> fields;
  const uint8_t older[] = {3, 2};  // comm, peer: a writer that knew fewer fields
  EXPECT_EQ(DecodeFields(send, older, sizeof older, &fields), nullptr);
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[1].s, 1);
  const uint8_t newer[] = {1, 2, 3, 4, 5, 6, 0xff, 0xff};  // trailing bytes of newer fields
  size_t used = 0;
  EXPECT_EQ(DecodeFields(send, newer, sizeof newer, &fields, &used), nullptr);
  EXPECT_EQ(fields.size(), 6u);
  EXPECT_EQ(used, 6u);
  const uint8_t damaged[] = {1, 0x80};  // peer's varint runs past the body
  EXPECT_STREQ(DecodeFields(send, damaged, sizeof damaged, &fields), "peer");
  const KindInfo& dbl = *EventKindInfo(4);
  const uint8_t short_f64[] = {1, 0, 1, 2, 3};
  EXPECT_STREQ(DecodeFields(dbl, short_f64, sizeof short_f64, &fields), "value");

  const uint8_t framing[] = {1, 5, 9, 0};  // body length 9, only 1 byte left
  size_t pos = 0;
  FramedRecord rec;
  EXPECT_FALSE(NextRecord(Framing::kEvents, framing, framing + sizeof framing, &pos, 0, &rec));
}

TEST(GenericRecord, DefinitionFramingHasNoDt) {
  uint8_t buf[64] = {};
  const uint8_t* end = EncodeDef(buf, StringDef{7, "name"});
  size_t pos = 0;
  FramedRecord rec;
  ASSERT_TRUE(NextRecord(Framing::kDefs, buf, end, &pos, 0, &rec));
  EXPECT_EQ(pos, static_cast<size_t>(end - buf));
  std::vector<FieldValue> fields;
  ASSERT_EQ(DecodeFields(*DefKindInfo(rec.kind), rec.body, rec.size, &fields), nullptr);
  ASSERT_EQ(fields.size(), 2u);
  EXPECT_EQ(fields[0].u, 7u);
  EXPECT_EQ(fields[1].text, "name");
}

}  // namespace
}  // namespace plx::format
