// Files cut short at every chunk boundary and at random offsets open with
// exactly their whole chunks (the checks live in truncation_check.cc so that
// traces written by the capture runtime can be checked the same way).
#include <gtest/gtest.h>

#include "format/format_test_util.h"
#include "format/truncation_check.h"
#include "support/test_support.h"

namespace plx::format {
namespace {

// Writes a busy trace and checks it has what a good truncation test needs:
// dozens of chunks, several streams, DEFS chunks between EVENTS chunks.
void WriteAndCheckShape(const std::string& path, WriterOptions options) {
  ASSERT_TRUE(testing::WriteBusyTrace(path, options, 2, 3, 250, 77).ok());
  const testing::RawLayout layout = testing::WalkChunks(testing::ReadBytes(path));
  size_t events = 0, defs_after_events = 0;
  for (const testing::RawChunk& c : layout.chunks) {
    if (c.header.type == ChunkType::kEvents) ++events;
    if (c.header.type == ChunkType::kDefs && events > 0) ++defs_after_events;
  }
  EXPECT_GE(events, 36u);
  EXPECT_GE(defs_after_events, 4u);
  EXPECT_EQ(layout.index.has_value(), options.write_index);
}

TEST(Truncation, EveryCutOfAnIndexedCompressedTrace) {
  plx::testing::TempDir dir;
  WriterOptions options;
  options.chunk_raw_size = 512;
  WriteAndCheckShape(dir.File("t.plx"), options);
  testing::CheckEveryCut(dir.File("t.plx"), 250, 20240601);
}

TEST(Truncation, EveryCutOfAnUncompressedTraceWithoutIndex) {
  plx::testing::TempDir dir;
  WriterOptions options;
  options.chunk_raw_size = 480;
  options.zstd_level = 0;
  options.write_index = false;
  WriteAndCheckShape(dir.File("t.plx"), options);
  testing::CheckEveryCut(dir.File("t.plx"), 250, 7);
}

}  // namespace
}  // namespace plx::format
