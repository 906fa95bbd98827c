// The trailing index and the chunk-by-chunk scan must find the same file; a
// damaged or inconsistent index is reported and the reader scans instead.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/checksum.h"
#include "format/format_test_util.h"
#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "support/test_support.h"

namespace plx::format {
namespace {

using testing::RawChunk;
using testing::ReadBytes;
using testing::WalkChunks;

std::unique_ptr<TraceFile> OpenBytes(const std::vector<uint8_t>& bytes) {
  auto f = TraceFile::FromBytes("mem.plx", bytes);
  EXPECT_TRUE(f.ok()) << f.status().message();
  return f.ok() ? std::move(f).value() : nullptr;
}

void ExpectIndexAndScanAgree(const std::string& with_path, const std::string& without_path) {
  auto with = TraceFile::Open(with_path);
  auto without = TraceFile::Open(without_path);
  ASSERT_TRUE(with.ok() && without.ok());
  EXPECT_TRUE((*with)->report().used_index);
  EXPECT_FALSE((*without)->report().used_index);
  for (const auto* f : {with->get(), without->get()}) {
    EXPECT_TRUE(f->report().problems.empty()) << f->report().problems.front();
    EXPECT_FALSE(f->report().truncated);
    EXPECT_EQ(f->report().readable_bytes, f->size());
  }
  EXPECT_EQ((*with)->report().chunks, (*without)->report().chunks);
  testing::ExpectSameContent(**with, **without);
  // The writer's bytes are the same up to where the index starts.
  const std::vector<uint8_t> a = ReadBytes(with_path);
  const std::vector<uint8_t> b = ReadBytes(without_path);
  const testing::RawLayout layout = WalkChunks(a);
  ASSERT_TRUE(layout.index && layout.trailer);
  EXPECT_EQ(layout.index->offset, b.size());
  EXPECT_TRUE(std::equal(b.begin(), b.end(), a.begin()));
}

TEST(IndexVsScan, EveryKindTrace) {
  plx::testing::TempDir dir;
  for (bool index : {true, false}) {
    WriterOptions options;
    options.chunk_raw_size = 700;
    options.write_index = index;
    auto w = TraceWriter::Create(dir.File(index ? "with.plx" : "without.plx"), options);
    ASSERT_TRUE(w.ok());
    testing::Expected expected;
    testing::ExpectingWriter ew(**w, expected);
    testing::WriteEveryKind(ew);
    ASSERT_TRUE((*w)->Finish().ok());
  }
  ExpectIndexAndScanAgree(dir.File("with.plx"), dir.File("without.plx"));
}

TEST(IndexVsScan, BusyTrace) {
  plx::testing::TempDir dir;
  for (bool index : {true, false}) {
    WriterOptions options;
    options.chunk_raw_size = 1000;
    options.write_index = index;
    ASSERT_TRUE(testing::WriteBusyTrace(dir.File(index ? "with.plx" : "without.plx"), options, 3, 3,
                                        200, 11)
                    .ok());
  }
  ExpectIndexAndScanAgree(dir.File("with.plx"), dir.File("without.plx"));
}

// Index damage of each kind: the reader says why it did not use the index,
// scans, and finds the same content.
class IndexDamage : public ::testing::Test {
 protected:
  void SetUp() override {
    WriterOptions options;
    options.chunk_raw_size = 900;
    ASSERT_TRUE(testing::WriteBusyTrace(dir_.File("t.plx"), options, 2, 2, 150, 3).ok());
    bytes_ = ReadBytes(dir_.File("t.plx"));
    layout_ = WalkChunks(bytes_);
    ASSERT_TRUE(layout_.index.has_value());
    good_ = OpenBytes(bytes_);
    ASSERT_NE(good_, nullptr);
    ASSERT_TRUE(good_->report().used_index);
  }

  // Opens `bytes`; expects a scan that found everything and a problem line
  // "offset <index offset>: index unusable (<why>); scanning the file instead".
  void ExpectScanned(const std::vector<uint8_t>& bytes, const std::string& why,
                     uint64_t index_offset) {
    auto f = OpenBytes(bytes);
    ASSERT_NE(f, nullptr);
    EXPECT_FALSE(f->report().used_index);
    ASSERT_FALSE(f->report().problems.empty());
    EXPECT_EQ(f->report().problems[0], "offset " + std::to_string(index_offset) +
                                           ": index unusable (" + why +
                                           "); scanning the file instead");
    EXPECT_EQ(f->report().chunks, layout_.chunks.size());
    testing::ExpectSameContent(*f, *good_);
  }

  plx::testing::TempDir dir_;
  std::vector<uint8_t> bytes_;
  testing::RawLayout layout_;
  std::unique_ptr<TraceFile> good_;
};

TEST_F(IndexDamage, PayloadByteFlipped) {
  std::vector<uint8_t> b = bytes_;
  b[layout_.index->offset + kChunkHeaderSize + 5] ^= 0x10;
  ExpectScanned(b, "payload damaged", layout_.index->offset);
}

TEST_F(IndexDamage, HeaderByteFlipped) {
  std::vector<uint8_t> b = bytes_;
  b[layout_.index->offset + 20] ^= 0x01;
  ExpectScanned(b, "chunk header checksum mismatch", layout_.index->offset);
}

TEST_F(IndexDamage, TrailerPointsAtAnotherChunk) {
  std::vector<uint8_t> b = bytes_;
  StoreLE<uint64_t>(b.data() + b.size() - kTrailerSize, layout_.chunks[1].offset);
  ExpectScanned(b, "not an INDEX chunk", layout_.chunks[1].offset);
}

TEST_F(IndexDamage, TrailerPointsOutsideTheFile) {
  std::vector<uint8_t> b = bytes_;
  StoreLE<uint64_t>(b.data() + b.size() - kTrailerSize, b.size());
  ExpectScanned(b, "offset outside the file", b.size());
  StoreLE<uint64_t>(b.data() + b.size() - kTrailerSize, 3);
  ExpectScanned(b, "offset outside the file", 3);
}

TEST_F(IndexDamage, IndexDoesNotReachTheTrailer) {
  std::vector<uint8_t> b = testing::StripIndex(bytes_);
  b = testing::AppendIndex(b, layout_.chunks);
  b.insert(b.end() - kTrailerSize, 0);  // a stray byte between index and trailer
  ExpectScanned(b, "size does not reach the trailer", layout_.index->offset);
}

// Indexes with valid checksums but wrong entries.
TEST_F(IndexDamage, EntriesWithAGap) {
  std::vector<RawChunk> entries = layout_.chunks;
  entries.erase(entries.begin() + 2);
  ExpectScanned(testing::AppendIndex(testing::StripIndex(bytes_), entries),
                "entries do not tile the file", layout_.index->offset);
}

TEST_F(IndexDamage, EntriesStopShort) {
  std::vector<RawChunk> entries = layout_.chunks;
  entries.pop_back();
  ExpectScanned(testing::AppendIndex(testing::StripIndex(bytes_), entries),
                "entries do not reach the index", layout_.index->offset);
}

TEST_F(IndexDamage, EntryOverlapsTheIndex) {
  std::vector<RawChunk> entries = layout_.chunks;
  entries.push_back(*layout_.index);  // the index listing itself
  ExpectScanned(testing::AppendIndex(testing::StripIndex(bytes_), entries),
                "entry overlaps the index", layout_.index->offset);
}

TEST_F(IndexDamage, EntryNamesADamagedHeader) {
  std::vector<uint8_t> b = bytes_;
  const RawChunk& victim = layout_.chunks[3];
  b[victim.offset + 9] ^= 0x04;
  auto f = OpenBytes(b);
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->report().used_index);
  EXPECT_EQ(f->report().problems[0], "offset " + std::to_string(layout_.index->offset) +
                                         ": index unusable (entry header damaged); scanning "
                                         "the file instead");
  EXPECT_EQ(f->report().chunks, layout_.chunks.size() - 1);
}

TEST_F(IndexDamage, MalformedEntries) {
  // A well-sealed INDEX chunk whose payload is not a list of chunk entries.
  std::vector<uint8_t> b = testing::StripIndex(bytes_);
  const uint64_t index_offset = b.size();
  ChunkHeader h;
  h.type = ChunkType::kIndex;
  std::vector<uint8_t> chunk = testing::SealChunk(h, {1, 5, 0x80, 0x80});
  b.insert(b.end(), chunk.begin(), chunk.end());
  uint8_t trailer[kTrailerSize];
  EncodeTrailer(index_offset, trailer);
  b.insert(b.end(), trailer, trailer + kTrailerSize);
  ExpectScanned(b, "entries damaged", index_offset);
}

}  // namespace
}  // namespace plx::format
