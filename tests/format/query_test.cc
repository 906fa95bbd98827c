// Random access: FindStream and ChunksInRange on a stream whose chunks cover
// known tick ranges with gaps between them.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "support/test_support.h"

namespace plx::format {
namespace {

class Query : public ::testing::Test {
 protected:
  void SetUp() override {
    WriterOptions options;
    options.zstd_level = 0;
    options.chunk_raw_size = 50;  // ten 5-byte enter records per chunk
    auto w = TraceWriter::Create(dir_.File("q.plx"), options);
    ASSERT_TRUE(w.ok());
    // Process 2 stream 3: chunk k holds ticks 1000k, 1000k+10, ..., 1000k+90.
    for (uint64_t k = 0; k < 5; ++k)
      for (uint64_t j = 0; j < 10; ++j)
        (*w)->Event(2, 3, 1000 * k + 10 * j, EnterRecord{1, 1});
    (*w)->Event(2, 1, 7, LeaveRecord{1});
    (*w)->Event(4, 3, 9, LeaveRecord{1});
    ASSERT_TRUE((*w)->Finish().ok());
    auto f = TraceFile::Open(dir_.File("q.plx"));
    ASSERT_TRUE(f.ok());
    file_ = std::move(f).value();
    stream_ = file_->FindStream(2, 3);
    ASSERT_NE(stream_, nullptr);
    ASSERT_EQ(stream_->chunks.size(), 5u);
  }

  // First ticks of the chunks ChunksInRange returns.
  std::vector<uint64_t> Range(int64_t begin, int64_t end) const {
    std::vector<uint64_t> out;
    for (const ChunkInfo* c : file_->ChunksInRange(*stream_, begin, end))
      out.push_back(c->header.tick_begin);
    return out;
  }

  plx::testing::TempDir dir_;
  std::unique_ptr<TraceFile> file_;
  const StreamInfo* stream_ = nullptr;
};

TEST_F(Query, FindStream) {
  ASSERT_EQ(file_->streams().size(), 3u);
  EXPECT_EQ(file_->FindStream(2, 1)->records, 1u);
  EXPECT_EQ(file_->FindStream(2, 3)->records, 50u);
  EXPECT_EQ(file_->FindStream(4, 3)->records, 1u);
  EXPECT_EQ(file_->FindStream(2, 2), nullptr);  // process known, stream not
  EXPECT_EQ(file_->FindStream(3, 3), nullptr);  // stream id known in another process
  EXPECT_EQ(file_->FindStream(0, 0), nullptr);
  EXPECT_EQ(file_->FindStream(9, 0), nullptr);  // past the last
}

TEST_F(Query, ChunkTimeRanges) {
  for (uint32_t k = 0; k < 5; ++k) {
    const ChunkInfo& c = file_->event_chunks()[stream_->chunks[k]];
    EXPECT_EQ(c.header.record_count, 10u);
    EXPECT_EQ(c.begin_ns, 1000 * k);
    EXPECT_EQ(c.end_ns, 1000 * k + 90);
  }
  EXPECT_EQ(stream_->begin_ns, 0);
  EXPECT_EQ(stream_->end_ns, 4090);
  EXPECT_EQ(file_->begin_ns(), 0);
  EXPECT_EQ(file_->end_ns(), 4090);
}

TEST_F(Query, ChunksInRange) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(Range(kMin, kMax), (std::vector<uint64_t>{0, 1000, 2000, 3000, 4000}));
  EXPECT_EQ(Range(1000, 1090), (std::vector<uint64_t>{1000}));
  EXPECT_EQ(Range(1050, 1050), (std::vector<uint64_t>{1000}));        // a point inside
  EXPECT_EQ(Range(1091, 1999), (std::vector<uint64_t>{}));            // the gap between chunks
  EXPECT_EQ(Range(1090, 2000), (std::vector<uint64_t>{1000, 2000}));  // ends are inclusive
  EXPECT_EQ(Range(500, 3500), (std::vector<uint64_t>{1000, 2000, 3000}));
  EXPECT_EQ(Range(-100, -1), (std::vector<uint64_t>{}));
  EXPECT_EQ(Range(-100, 0), (std::vector<uint64_t>{0}));
  EXPECT_EQ(Range(4090, kMax), (std::vector<uint64_t>{4000}));
  EXPECT_EQ(Range(4091, kMax), (std::vector<uint64_t>{}));
  EXPECT_EQ(Range(3000, 1000), (std::vector<uint64_t>{}));  // an empty range
}

}  // namespace
}  // namespace plx::format
