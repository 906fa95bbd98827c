// Damaged files: a bad chunk header is skipped (resynchronising on the next
// valid header) and reported with its offset; a bad payload fails only that
// chunk, with a DataLoss error naming file, offset and checksum; duplicated
// chunks are dropped and counted.
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/checksum.h"
#include "format/format_test_util.h"
#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "support/test_support.h"

namespace plx::format {
namespace {

using testing::DecodeStream;
using testing::RawChunk;
using testing::ReadBytes;
using testing::WalkChunks;

class Damage : public ::testing::Test {
 protected:
  void SetUp() override {
    WriterOptions options;
    options.chunk_raw_size = 700;
    path_ = dir_.File("t.plx");
    ASSERT_TRUE(testing::WriteBusyTrace(path_, options, 1, 2, 300, 21).ok());
    bytes_ = ReadBytes(path_);
    layout_ = WalkChunks(bytes_);
    ASSERT_GT(layout_.chunks.size(), 12u);
    auto f = TraceFile::FromBytes("mem.plx", bytes_);
    ASSERT_TRUE(f.ok());
    good_ = std::move(f).value();
  }

  // The first chunk of `type` at or after the middle of the file.
  const RawChunk& Middle(ChunkType type) const {
    for (size_t i = layout_.chunks.size() / 2; i < layout_.chunks.size(); ++i)
      if (layout_.chunks[i].header.type == type) return layout_.chunks[i];
    ADD_FAILURE() << "no such chunk";
    return layout_.chunks.back();
  }

  std::unique_ptr<TraceFile> Open(const std::vector<uint8_t>& bytes) {
    testing::WriteBytes(dir_.File("damaged.plx"), bytes);
    auto f = TraceFile::Open(dir_.File("damaged.plx"));
    EXPECT_TRUE(f.ok()) << f.status().message();
    return f.ok() ? std::move(f).value() : nullptr;
  }

  static bool HasLine(const OpenReport& r, const std::string& line) {
    return std::find(r.problems.begin(), r.problems.end(), line) != r.problems.end();
  }

  plx::testing::TempDir dir_;
  std::string path_;
  std::vector<uint8_t> bytes_;
  testing::RawLayout layout_;
  std::unique_ptr<TraceFile> good_;
};

// Flips one byte of a middle EVENTS chunk's header; the parameter is its
// position in the header and whether the file keeps its index.
class HeaderDamage : public Damage, public ::testing::WithParamInterface<std::tuple<int, bool>> {};

TEST_P(HeaderDamage, ChunkIsSkippedAndReported) {
  const auto [pos, keep_index] = GetParam();
  std::vector<uint8_t> bytes = keep_index ? bytes_ : testing::StripIndex(bytes_);
  const RawChunk victim = Middle(ChunkType::kEvents);
  bytes[victim.offset + static_cast<uint64_t>(pos)] ^= 0x5a;
  auto f = Open(bytes);
  ASSERT_NE(f, nullptr);
  const OpenReport& r = f->report();
  EXPECT_FALSE(r.used_index);
  EXPECT_EQ(r.damaged_chunks, 1u);
  EXPECT_EQ(r.chunks, layout_.chunks.size() - 1);
  const std::string why = pos < 4 ? "bad chunk magic" : "chunk header checksum mismatch";
  const uint64_t skipped = victim.end() - victim.offset;
  EXPECT_TRUE(HasLine(r, "offset " + std::to_string(victim.offset) + ": " + why + "; skipped " +
                             std::to_string(skipped) + " bytes to the next chunk"))
      << ::testing::PrintToString(r.problems);
  if (keep_index) {
    EXPECT_EQ(r.problems[0], "offset " + std::to_string(layout_.index->offset) +
                                 ": index unusable (entry header damaged); scanning the file "
                                 "instead");
  }
  // The chunk's records are gone and counted as missing; the rest decodes.
  const StreamInfo* s = f->FindStream(victim.header.process, victim.header.stream);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->missing_records, victim.header.record_count);
  EXPECT_TRUE(HasLine(
      r, "process " + std::to_string(s->process) + " stream " + std::to_string(s->stream) + ": " +
             std::to_string(victim.header.record_count) + " records missing between chunks"));
  EXPECT_EQ(f->total_records(), good_->total_records() - victim.header.record_count);
  for (const ChunkInfo& c : f->event_chunks())
    EXPECT_NE(c.offset, victim.offset);
  for (const StreamInfo& st : f->streams())
    DecodeStream(*f, st);  // fails the test on errors
  for (const auto& [id, d] : good_->processes())
    EXPECT_EQ(testing::DescribeDefs(f->processes().at(id)), testing::DescribeDefs(d));
}

INSTANTIATE_TEST_SUITE_P(Positions, HeaderDamage,
                         ::testing::Combine(::testing::Values(0, 3, 4, 9, 17, 22, 29, 40, 63),
                                            ::testing::Bool()));

TEST_F(Damage, DamagedDefsHeaderLosesOnlyThoseDefinitions) {
  std::vector<uint8_t> bytes = bytes_;
  const RawChunk victim = Middle(ChunkType::kDefs);
  bytes[victim.offset + 12] ^= 0xff;
  auto f = Open(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->report().damaged_chunks, 1u);
  EXPECT_EQ(f->total_records(), good_->total_records());
  EXPECT_LT(f->processes().at(1).states.size(), good_->processes().at(1).states.size());
}

TEST_F(Damage, TwoDamagedHeadersInARow) {
  std::vector<uint8_t> bytes = bytes_;
  const size_t i = layout_.chunks.size() / 2;
  bytes[layout_.chunks[i].offset + 30] ^= 1;
  bytes[layout_.chunks[i + 1].offset + 30] ^= 1;
  auto f = Open(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->report().damaged_chunks, 1u);  // one damaged stretch, skipped at once
  EXPECT_EQ(f->report().chunks, layout_.chunks.size() - 2);
  EXPECT_TRUE(HasLine(f->report(),
                      "offset " + std::to_string(layout_.chunks[i].offset) +
                          ": chunk header checksum mismatch; skipped " +
                          std::to_string(layout_.chunks[i + 1].end() - layout_.chunks[i].offset) +
                          " bytes to the next chunk"));
}

TEST_F(Damage, DamagedLastChunkHeader) {
  std::vector<uint8_t> bytes = testing::StripIndex(bytes_);
  const RawChunk& last = layout_.chunks.back();
  bytes[last.offset + 50] ^= 1;
  auto f = Open(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->report().chunks, layout_.chunks.size() - 1);
  EXPECT_TRUE(HasLine(f->report(), "offset " + std::to_string(last.offset) +
                                       ": chunk header checksum mismatch; no valid chunk after "
                                       "it (" +
                                       std::to_string(last.end() - last.offset) +
                                       " bytes unreadable)"));
}

TEST_F(Damage, EventsPayloadFailsOnlyThatChunk) {
  std::vector<uint8_t> bytes = bytes_;
  const RawChunk victim = Middle(ChunkType::kEvents);
  bytes[victim.offset + kChunkHeaderSize + victim.header.stored_size / 2] ^= 0x01;
  auto f = Open(bytes);
  ASSERT_NE(f, nullptr);
  // Payloads of EVENTS chunks are checked when read, not when the file opens.
  EXPECT_TRUE(f->report().used_index);
  EXPECT_TRUE(f->report().problems.empty());
  const std::string expected =
      dir_.File("damaged.plx") + ": offset " + std::to_string(victim.offset) +
      ": EVENTS chunk (process " + std::to_string(victim.header.process) + ", stream " +
      std::to_string(victim.header.stream) + "): payload checksum mismatch";
  std::vector<uint8_t> scratch;
  int failed = 0;
  for (const ChunkInfo& c : f->event_chunks()) {
    std::span<const uint8_t> payload;
    Status read = f->ReadPayload(c, &scratch, &payload);
    testing::EventLog log;
    Status decode = f->DecodeChunk(c, log, &scratch);
    if (c.offset == victim.offset) {
      ++failed;
      EXPECT_EQ(read.code(), StatusCode::kDataLoss);
      EXPECT_EQ(read.message(), expected);
      EXPECT_EQ(decode.code(), StatusCode::kDataLoss);
      EXPECT_EQ(decode.message(), expected);
      EXPECT_TRUE(log.lines.empty());
    } else {
      EXPECT_TRUE(read.ok()) << read.message();
      EXPECT_TRUE(decode.ok()) << decode.message();
    }
  }
  EXPECT_EQ(failed, 1);
}

TEST_F(Damage, DefsPayloadIsReportedAtOpen) {
  std::vector<uint8_t> bytes = bytes_;
  const RawChunk victim = Middle(ChunkType::kDefs);
  bytes[victim.end() - 1] ^= 0x80;
  auto f = Open(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->report().damaged_chunks, 1u);
  EXPECT_TRUE(HasLine(f->report(), "offset " + std::to_string(victim.offset) +
                                       ": DEFS chunk (process 1, stream 0): payload checksum "
                                       "mismatch"))
      << ::testing::PrintToString(f->report().problems);
}

TEST_F(Damage, MalformedDefsRecordIsReportedAtOpen) {
  // A well-sealed DEFS chunk whose second record is cut short.
  std::vector<uint8_t> payload;
  uint8_t buf[64];
  payload.insert(payload.end(), buf, EncodeDef(buf, StringDef{900, "kept"}));
  payload.insert(payload.end(), {static_cast<uint8_t>(DefKind::kState), 2, 5, 0x80});
  ChunkHeader h;
  h.type = ChunkType::kDefs;
  h.process = 1;
  std::vector<uint8_t> chunk = testing::SealChunk(h, payload);
  std::vector<uint8_t> bytes = testing::StripIndex(bytes_);
  const uint64_t at = bytes.size();
  bytes.insert(bytes.end(), chunk.begin(), chunk.end());
  auto f = Open(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->report().damaged_chunks, 1u);
  EXPECT_TRUE(HasLine(f->report(), "offset " + std::to_string(at) + ": DEFS chunk, payload byte " +
                                       std::to_string(payload.size() - 4) +
                                       ": state definition: bad name"))
      << ::testing::PrintToString(f->report().problems);
  EXPECT_EQ(f->processes().at(1).Str(900), "kept");  // records before the damage stay
}

// Chunks whose checksums are right but whose zstd payload is not.
TEST_F(Damage, BadCompressedPayloads) {
  std::vector<uint8_t> raw;
  uint8_t buf[64];
  for (uint64_t i = 0; i < 100; ++i)
    raw.insert(raw.end(), buf, EncodeEvent(buf, 1, EnterRecord{1, 0}));
  ChunkHeader h;
  h.type = ChunkType::kEvents;
  h.process = 5;
  h.record_count = 100;
  h.tick_end = 99;
  std::vector<uint8_t> good = testing::SealChunk(h, raw, 1);
  ChunkHeader sealed;
  ASSERT_EQ(ParseChunkHeader(good.data(), &sealed), nullptr);
  ASSERT_EQ(sealed.codec, Codec::kZstd);

  struct Case {
    const char* name;
    uint32_t raw_size;
    bool garbage;
    std::string message_part;
  };
  const Case cases[] = {
      {"raw size too big", static_cast<uint32_t>(raw.size() + 50), false,
       "payload is " + std::to_string(raw.size()) + " bytes, header says " +
           std::to_string(raw.size() + 50)},
      {"raw size too small", static_cast<uint32_t>(raw.size() - 50), false,
       "payload is " + std::to_string(raw.size()) + " bytes, header says " +
           std::to_string(raw.size() - 50)},
      {"not zstd", static_cast<uint32_t>(raw.size()), true, ": zstd: bad frame header"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> chunk = good;
    if (c.garbage) {
      for (size_t i = kChunkHeaderSize; i < chunk.size(); ++i)
        chunk[i] = static_cast<uint8_t>(i);
      StoreLE<uint64_t>(chunk.data() + 32, Checksum64(chunk.data() + kChunkHeaderSize,
                                                      chunk.size() - kChunkHeaderSize));
    }
    StoreLE<uint32_t>(chunk.data() + 20, c.raw_size);
    testing::ResealHeader(&chunk, 0);
    std::vector<uint8_t> bytes = testing::StripIndex(bytes_);
    const uint64_t at = bytes.size();
    bytes.insert(bytes.end(), chunk.begin(), chunk.end());
    auto f = Open(bytes);
    ASSERT_NE(f, nullptr);
    const StreamInfo* s = f->FindStream(5, 0);
    ASSERT_NE(s, nullptr);
    testing::EventLog log;
    std::vector<uint8_t> scratch;
    Status st = f->DecodeChunk(f->event_chunks()[s->chunks[0]], log, &scratch);
    EXPECT_EQ(st.code(), StatusCode::kDataLoss);
    EXPECT_EQ(st.message().rfind(dir_.File("damaged.plx") + ": offset " + std::to_string(at) +
                                     ": EVENTS chunk (process 5, stream 0)",
                                 0),
              0u)
        << st.message();
    EXPECT_NE(st.message().find(c.message_part), std::string::npos) << st.message();
  }
}

// A zstd frame need not declare its size (streaming writers omit it); the
// reader then checks the size after decompressing.
TEST_F(Damage, FrameWithoutDeclaredSize) {
  std::vector<uint8_t> raw;
  uint8_t buf[64];
  for (uint64_t i = 0; i < 100; ++i)
    raw.insert(raw.end(), buf, EncodeEvent(buf, 1, EnterRecord{1, 0}));
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  std::vector<uint8_t> frame(ZSTD_compressBound(raw.size()));
  const size_t n = ZSTD_compress2(cctx, frame.data(), frame.size(), raw.data(), raw.size());
  ZSTD_freeCCtx(cctx);
  ASSERT_FALSE(ZSTD_isError(n));
  frame.resize(n);
  ASSERT_EQ(ZSTD_getFrameContentSize(frame.data(), frame.size()), ZSTD_CONTENTSIZE_UNKNOWN);

  for (uint32_t raw_size :
       {static_cast<uint32_t>(raw.size()), static_cast<uint32_t>(raw.size() + 9)}) {
    ChunkHeader h;
    h.type = ChunkType::kEvents;
    h.codec = Codec::kZstd;
    h.process = 6;
    h.stored_size = static_cast<uint32_t>(frame.size());
    h.raw_size = raw_size;
    h.record_count = 100;
    h.tick_end = 100;
    h.payload_check = Checksum64(frame.data(), frame.size());
    std::vector<uint8_t> bytes = testing::StripIndex(bytes_);
    const size_t at = bytes.size();
    bytes.resize(at + kChunkHeaderSize);
    EncodeChunkHeader(h, bytes.data() + at);
    bytes.insert(bytes.end(), frame.begin(), frame.end());
    auto f = Open(bytes);
    ASSERT_NE(f, nullptr);
    const StreamInfo* s = f->FindStream(6, 0);
    ASSERT_NE(s, nullptr);
    testing::EventLog log;
    std::vector<uint8_t> scratch;
    Status st = f->DecodeChunk(f->event_chunks()[s->chunks[0]], log, &scratch);
    if (raw_size == raw.size()) {
      EXPECT_TRUE(st.ok()) << st.message();
      EXPECT_EQ(log.ticks.size(), 100u);
      EXPECT_EQ(log.ticks.back(), 100u);
    } else {
      EXPECT_EQ(st.code(), StatusCode::kDataLoss);
      EXPECT_NE(st.message().find("payload is " + std::to_string(raw.size()) +
                                  " bytes, header says " + std::to_string(raw_size)),
                std::string::npos)
          << st.message();
    }
  }
}

TEST_F(Damage, DuplicateChunksAreDroppedAndCounted) {
  const std::vector<uint8_t> base = testing::StripIndex(bytes_);
  const RawChunk victim = Middle(ChunkType::kEvents);
  const std::vector<uint8_t> copy(base.begin() + static_cast<long>(victim.offset),
                                  base.begin() + static_cast<long>(victim.end()));
  // Right after the original, and again at the end (a rewrite after a crash).
  std::vector<uint8_t> bytes = testing::Splice(base, victim.end(), copy);
  bytes.insert(bytes.end(), copy.begin(), copy.end());
  for (const std::vector<uint8_t>& b : {bytes, testing::RebuildIndex(bytes)}) {
    auto f = Open(b);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->report().used_index, b.size() != bytes.size());
    EXPECT_EQ(f->report().duplicate_chunks, 2u);
    EXPECT_EQ(f->report().chunks, layout_.chunks.size() + 2);
    EXPECT_TRUE(f->report().problems.empty()) << f->report().problems.front();
    EXPECT_EQ(f->event_chunks().size(), good_->event_chunks().size());
    EXPECT_EQ(f->total_records(), good_->total_records());
    ASSERT_EQ(f->streams().size(), good_->streams().size());
    for (size_t i = 0; i < f->streams().size(); ++i) {
      EXPECT_EQ(f->streams()[i].records, good_->streams()[i].records);
      EXPECT_EQ(f->streams()[i].missing_records, 0u);
      EXPECT_EQ(DecodeStream(*f, f->streams()[i]), DecodeStream(*good_, good_->streams()[i]));
    }
    // The first copy in file order is the one kept.
    bool kept_original = false;
    for (const ChunkInfo& c : f->event_chunks())
      kept_original |= c.offset == victim.offset;
    EXPECT_TRUE(kept_original);
  }
}

}  // namespace
}  // namespace plx::format
