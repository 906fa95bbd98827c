// The byte layout docs/format.md specifies: file header, chunk header fields
// and their checks, trailer, ChunkEncoder output, record framing and the
// generated kind tables. Known bytes here pin the format for other readers.
#include <gtest/gtest.h>
#include <zstd.h>

#include <cctype>
#include <cstring>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/checksum.h"
#include "base/varint.h"
#include "format/chunk_encoder.h"
#include "format/format_test_util.h"
#include "format/layout.h"
#include "format/records.gen.h"
#include "format/trace_writer.h"
#include "support/test_support.h"

namespace plx::format {
namespace {

using testing::ReadBytes;
using testing::ResealHeader;

TEST(FileLayout, FileHeaderBytes) {
  uint8_t h[kFileHeaderSize];
  EncodeFileHeader(h);
  const uint8_t expected[kFileHeaderSize] = {0x89, 0x50, 0x4C, 0x58, 0x0D, 0x0A, 0x1A, 0x0A,
                                             0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(std::memcmp(h, expected, kFileHeaderSize), 0);

  plx::testing::TempDir dir;
  auto w = TraceWriter::Create(dir.File("a.plx"));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Finish().ok());
  std::vector<uint8_t> bytes = ReadBytes(dir.File("a.plx"));
  ASSERT_GE(bytes.size(), kFileHeaderSize);
  EXPECT_EQ(std::memcmp(bytes.data(), expected, kFileHeaderSize), 0);
  // Empty trace: header, an INDEX chunk with no entries, trailer pointing at it.
  ASSERT_EQ(bytes.size(), kFileHeaderSize + kChunkHeaderSize + kTrailerSize);
  EXPECT_EQ(LoadLE<uint64_t>(bytes.data() + bytes.size() - 16), kFileHeaderSize);
  EXPECT_EQ(std::memcmp(bytes.data() + bytes.size() - 8, "PLXINDEX", 8), 0);
}

TEST(FileLayout, TrailerBytes) {
  uint8_t t[kTrailerSize];
  EncodeTrailer(0x0102030405060708ull, t);
  const uint8_t expected[kTrailerSize] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
                                          'P',  'L',  'X',  'I',  'N',  'D',  'E',  'X'};
  EXPECT_EQ(std::memcmp(t, expected, kTrailerSize), 0);
}

ChunkHeader DistinctHeader() {
  ChunkHeader h;
  h.type = ChunkType::kEvents;
  h.codec = Codec::kZstd;
  h.flags = 0x0304;
  h.process = 0x05060708;
  h.stream = 0x090a0b0c;
  h.stored_size = 0x11121314;
  h.raw_size = 0x00212223;
  h.record_count = 0x31323334;
  h.payload_check = 0x4142434445464748ull;
  h.first_index = 0x5152535455565758ull;
  h.tick_begin = 0x6162636465666768ull;
  h.tick_end = 0x7172737475767778ull;
  return h;
}

TEST(ChunkLayout, FieldOffsets) {
  const ChunkHeader h = DistinctHeader();
  uint8_t b[kChunkHeaderSize];
  EncodeChunkHeader(h, b);
  EXPECT_EQ(std::memcmp(b, "PXCK", 4), 0);
  EXPECT_EQ(b[4], 2);  // type
  EXPECT_EQ(b[5], 1);  // codec
  EXPECT_EQ(LoadLE<uint16_t>(b + 6), 0x0304);
  EXPECT_EQ(LoadLE<uint32_t>(b + 8), 0x05060708u);
  EXPECT_EQ(LoadLE<uint32_t>(b + 12), 0x090a0b0cu);
  EXPECT_EQ(LoadLE<uint32_t>(b + 16), 0x11121314u);
  EXPECT_EQ(LoadLE<uint32_t>(b + 20), 0x00212223u);
  EXPECT_EQ(LoadLE<uint32_t>(b + 24), 0x31323334u);
  EXPECT_EQ(LoadLE<uint64_t>(b + 32), 0x4142434445464748ull);
  EXPECT_EQ(LoadLE<uint64_t>(b + 40), 0x5152535455565758ull);
  EXPECT_EQ(LoadLE<uint64_t>(b + 48), 0x6162636465666768ull);
  EXPECT_EQ(LoadLE<uint64_t>(b + 56), 0x7172737475767778ull);
  // Header check: low 32 bits of XXH3-64 over the 64 bytes with 28..31 zeroed.
  uint8_t zeroed[kChunkHeaderSize];
  std::memcpy(zeroed, b, kChunkHeaderSize);
  std::memset(zeroed + 28, 0, 4);
  EXPECT_EQ(LoadLE<uint32_t>(b + 28), static_cast<uint32_t>(Checksum64(zeroed, kChunkHeaderSize)));

  ChunkHeader back;
  ASSERT_EQ(ParseChunkHeader(b, &back), nullptr);
  uint8_t again[kChunkHeaderSize];
  EncodeChunkHeader(back, again);
  EXPECT_EQ(std::memcmp(b, again, kChunkHeaderSize), 0);
  EXPECT_EQ(back.payload_check, h.payload_check);
  EXPECT_EQ(back.tick_end, h.tick_end);
  EXPECT_EQ(back.flags, h.flags);
}

TEST(ChunkLayout, EveryBitFlipIsCaught) {
  uint8_t b[kChunkHeaderSize];
  EncodeChunkHeader(DistinctHeader(), b);
  for (size_t bit = 0; bit < kChunkHeaderSize * 8; ++bit) {
    uint8_t copy[kChunkHeaderSize];
    std::memcpy(copy, b, sizeof copy);
    copy[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    ChunkHeader h;
    EXPECT_NE(ParseChunkHeader(copy, &h), nullptr) << "bit " << bit;
  }
}

// Edits one header field and re-seals the header check, so only the field's
// own rule can reject it.
std::string ParseEdited(size_t offset, const std::vector<uint8_t>& value, ChunkHeader base) {
  std::vector<uint8_t> b(kChunkHeaderSize);
  EncodeChunkHeader(base, b.data());
  std::memcpy(b.data() + offset, value.data(), value.size());
  ResealHeader(&b, 0);
  ChunkHeader h;
  const char* why = ParseChunkHeader(b.data(), &h);
  return why ? why : "";
}

std::vector<uint8_t> U32(uint32_t v) {
  std::vector<uint8_t> b(4);
  StoreLE<uint32_t>(b.data(), v);
  return b;
}

TEST(ChunkLayout, FieldRules) {
  const ChunkHeader h = DistinctHeader();
  EXPECT_EQ(ParseEdited(0, {'P', 'X', 'C', 'X'}, h), "bad chunk magic");
  EXPECT_EQ(ParseEdited(5, {2}, h), "unknown codec");
  EXPECT_EQ(ParseEdited(20, U32((64u << 20) + 1), h), "raw size above the 64 MiB limit");
  EXPECT_EQ(ParseEdited(20, U32(64u << 20), h), "");  // the limit itself is allowed
  // Uncompressed: raw size must equal stored size.
  ChunkHeader none = h;
  none.codec = Codec::kNone;
  none.raw_size = none.stored_size = 1000;
  EXPECT_EQ(ParseEdited(20, U32(1000), none), "");
  EXPECT_EQ(ParseEdited(20, U32(999), none), "uncompressed chunk with raw size != stored size");
  // tick_end before tick_begin.
  std::vector<uint8_t> small(8);
  StoreLE<uint64_t>(small.data(), h.tick_begin - 1);
  EXPECT_EQ(ParseEdited(56, small, h), "tick_end before tick_begin");
  // Unknown chunk types parse: readers skip them by their size.
  EXPECT_EQ(ParseEdited(4, {77}, h), "");
  EXPECT_EQ(ParseEdited(4, {0}, h), "");
}

TEST(ChunkEncoder, StoresUncompressedAtLevelZero) {
  std::vector<uint8_t> raw(300);
  for (size_t i = 0; i < raw.size(); ++i)
    raw[i] = static_cast<uint8_t>(i % 7);
  ChunkEncoder enc(1024, 0);
  ChunkHeader in;
  in.type = ChunkType::kEvents;
  in.process = 3;
  in.stream = 4;
  in.record_count = 5;
  in.first_index = 6;
  in.tick_begin = 7;
  in.tick_end = 8;
  std::span<const uint8_t> out = enc.Seal(in, raw.data(), raw.size());
  ASSERT_EQ(out.size(), kChunkHeaderSize + raw.size());
  ChunkHeader h;
  ASSERT_EQ(ParseChunkHeader(out.data(), &h), nullptr);
  EXPECT_EQ(h.codec, Codec::kNone);
  EXPECT_EQ(h.stored_size, 300u);
  EXPECT_EQ(h.raw_size, 300u);
  EXPECT_EQ(h.payload_check, Checksum64(raw.data(), raw.size()));
  EXPECT_EQ(std::memcmp(out.data() + kChunkHeaderSize, raw.data(), raw.size()), 0);
  EXPECT_EQ(h.process, 3u);
  EXPECT_EQ(h.stream, 4u);
  EXPECT_EQ(h.record_count, 5u);
  EXPECT_EQ(h.first_index, 6u);
  EXPECT_EQ(h.tick_begin, 7u);
  EXPECT_EQ(h.tick_end, 8u);
}

TEST(ChunkEncoder, CompressesWithZstdWhenSmaller) {
  std::string text;
  for (int i = 0; i < 200; ++i)
    text += "enter leave enter leave ";
  std::vector<uint8_t> raw(text.begin(), text.end());
  ChunkEncoder enc(raw.size(), 1);
  std::span<const uint8_t> out = enc.Seal(ChunkHeader{}, raw.data(), raw.size());
  ChunkHeader h;
  ASSERT_EQ(ParseChunkHeader(out.data(), &h), nullptr);
  EXPECT_EQ(h.codec, Codec::kZstd);
  EXPECT_LT(h.stored_size, raw.size());
  EXPECT_EQ(h.raw_size, raw.size());
  ASSERT_EQ(out.size(), kChunkHeaderSize + h.stored_size);
  const uint8_t* stored = out.data() + kChunkHeaderSize;
  EXPECT_EQ(h.payload_check, Checksum64(stored, h.stored_size));  // of the stored bytes
  // One plain zstd frame: any zstd decoder restores the payload.
  EXPECT_EQ(ZSTD_getFrameContentSize(stored, h.stored_size), raw.size());
  EXPECT_EQ(ZSTD_findFrameCompressedSize(stored, h.stored_size), h.stored_size);
  std::vector<uint8_t> back(raw.size());
  EXPECT_EQ(ZSTD_decompress(back.data(), back.size(), stored, h.stored_size), raw.size());
  EXPECT_EQ(back, raw);
}

TEST(ChunkEncoder, KeepsIncompressiblePayloadsRaw) {
  std::mt19937 rng(7);
  std::vector<uint8_t> raw(2000);
  for (uint8_t& b : raw)
    b = static_cast<uint8_t>(rng());
  ChunkEncoder enc(raw.size(), 1);
  std::span<const uint8_t> out = enc.Seal(ChunkHeader{}, raw.data(), raw.size());
  ChunkHeader h;
  ASSERT_EQ(ParseChunkHeader(out.data(), &h), nullptr);
  EXPECT_EQ(h.codec, Codec::kNone);
  EXPECT_EQ(h.stored_size, raw.size());
}

TEST(ChunkEncoder, EmptyPayload) {
  ChunkEncoder enc(64, 1);
  std::span<const uint8_t> out = enc.Seal(ChunkHeader{}, nullptr, 0);
  ASSERT_EQ(out.size(), kChunkHeaderSize);
  ChunkHeader h;
  ASSERT_EQ(ParseChunkHeader(out.data(), &h), nullptr);
  EXPECT_EQ(h.codec, Codec::kNone);
  EXPECT_EQ(h.stored_size, 0u);
  EXPECT_EQ(h.payload_check, 0x2D06800538D394C2ull);
}

std::vector<uint8_t> Bytes(const uint8_t* begin, const uint8_t* end) {
  return {begin, end};
}

TEST(RecordFraming, KnownEventBytes) {
  uint8_t buf[64];
  // kind, dt, body length, body (state, callsite).
  EXPECT_EQ(Bytes(buf, EncodeEvent(buf, 3, EnterRecord{5, 300})),
            (std::vector<uint8_t>{1, 3, 3, 5, 0xac, 0x02}));
  EXPECT_EQ(Bytes(buf, EncodeEvent(buf, 128, ThreadBeginRecord{})),
            (std::vector<uint8_t>{11, 0x80, 0x01, 0}));
  EXPECT_EQ(Bytes(buf, EncodeEvent(buf, 0, EventDoubleRecord{1, 0, 1.0})),
            (std::vector<uint8_t>{4, 0, 10, 1, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
  // svarints: peer -1 -> 1, tag -2 -> 3.
  EXPECT_EQ(Bytes(buf, EncodeEvent(buf, 1, SendRecord{2, -1, -2, 4, 0, 7})),
            (std::vector<uint8_t>{6, 1, 6, 2, 1, 3, 4, 0, 7}));
}

TEST(RecordFraming, KnownDefinitionBytes) {
  uint8_t buf[64];
  // kind, body length, body (no dt).
  EXPECT_EQ(Bytes(buf, EncodeDef(buf, StringDef{1, "ab"})),
            (std::vector<uint8_t>{1, 4, 1, 2, 'a', 'b'}));
  EXPECT_EQ(Bytes(buf, EncodeDef(buf, ClockSyncDef{1, 2})), (std::vector<uint8_t>{4, 2, 1, 2}));
}

TEST(RecordFraming, LongBodiesGetMultiByteLengths) {
  const std::string text(200, 'z');
  EventStringRecord r{1, 2, text};
  std::vector<uint8_t> buf(MaxEncodedSize(r));
  uint8_t* end = EncodeEvent(buf.data(), 0, r);
  // body = type(1) + callsite(1) + length(2) + 200 = 204 = 0xcc 0x01.
  ASSERT_EQ(end - buf.data(), 1 + 1 + 2 + 204);
  EXPECT_EQ(buf[0], 5);
  EXPECT_EQ(buf[1], 0);
  EXPECT_EQ(buf[2], 0xcc);
  EXPECT_EQ(buf[3], 0x01);
  EXPECT_EQ(buf[4], 1);
  EXPECT_EQ(buf[5], 2);
  EXPECT_EQ(buf[6], 0xc8);  // 200
  EXPECT_EQ(buf[7], 0x01);
  EXPECT_EQ(buf[8], 'z');
  EXPECT_EQ(buf[207], 'z');
}

TEST(KindTables, CoverEveryIdBelowTheLimit) {
  std::set<std::string> names;
  for (unsigned k = 1; k < kEventKindLimit; ++k) {
    const KindInfo* info = EventKindInfo(static_cast<uint8_t>(k));
    ASSERT_NE(info, nullptr) << "event kind " << k;
    EXPECT_EQ(info->id, k);
    EXPECT_TRUE(names.insert(info->name).second) << info->name;
  }
  EXPECT_EQ(EventKindInfo(0), nullptr);
  EXPECT_EQ(EventKindInfo(kEventKindLimit), nullptr);
  for (unsigned k = 1; k < kDefKindLimit; ++k)
    EXPECT_NE(DefKindInfo(static_cast<uint8_t>(k)), nullptr);
  EXPECT_EQ(DefKindInfo(kDefKindLimit), nullptr);
  EXPECT_STREQ(EventKindInfo(static_cast<uint8_t>(EventKind::kSend))->name, "send");
  EXPECT_EQ(EventKindInfo(static_cast<uint8_t>(EventKind::kSend))->field_count, 6);
  EXPECT_STREQ(DefKindInfo(static_cast<uint8_t>(DefKind::kState))->fields[2].ref, "category");
  EXPECT_EQ(IndexKindInfo(static_cast<uint8_t>(IndexKind::kChunk))->field_count, 9);
}

// docs/format.md shows a whole small file byte by byte; it must be exactly
// what the writer produces for the trace it describes.
TEST(FormatDoc, ExampleBytesAreWhatTheWriterWrites) {
  const std::string doc = plx::testing::ReadFile(plx::testing::SourcePath("docs/format.md"));
  const size_t begin = doc.find("<!-- example-bytes: begin -->");
  const size_t end = doc.find("<!-- example-bytes: end -->");
  ASSERT_NE(begin, std::string::npos) << "docs/format.md has no example";
  ASSERT_NE(end, std::string::npos);
  std::vector<uint8_t> documented;
  size_t pos = begin;
  while ((pos = doc.find("\n| ", pos)) != std::string::npos && pos < end) {
    pos += 3;
    const size_t bar1 = doc.find('|', pos);
    const size_t bar2 = doc.find('|', bar1 + 1);
    const std::string offset = doc.substr(pos, bar1 - pos);
    if (offset.empty() || !std::isdigit(static_cast<unsigned char>(offset[0]))) continue;
    EXPECT_EQ(std::stoul(offset), documented.size()) << "row at offset " << offset;
    std::istringstream hex(doc.substr(bar1 + 1, bar2 - bar1 - 1));
    std::string byte;
    while (hex >> byte)
      documented.push_back(static_cast<uint8_t>(std::stoul(byte, nullptr, 16)));
  }
  ASSERT_EQ(documented.size(), 272u);

  plx::testing::TempDir dir;
  WriterOptions options;
  options.zstd_level = 0;
  auto w = TraceWriter::Create(dir.File("example.plx"), options);
  ASSERT_TRUE(w.ok());
  (*w)->Def(1, StringDef{1, "main"});
  (*w)->Def(1, StateDef{1, 1, 0, 0});
  (*w)->Event(1, 0, 1000, EnterRecord{1, 0});
  (*w)->Event(1, 0, 1250, LeaveRecord{1});
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ(ReadBytes(dir.File("example.plx")), documented);
}

}  // namespace
}  // namespace plx::format
