// Every event and definition kind through TraceWriter -> TraceFile, field by
// field, under every writer option; plus the writer's own error reports.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "format/format_test_util.h"
#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "support/test_support.h"

namespace plx::format {
namespace {

using testing::DecodeStream;
using testing::DescribeDef;
using testing::Expected;
using testing::ExpectingWriter;
using testing::RawChunk;
using testing::ReadBytes;
using testing::WalkChunks;

// Checks, walking the file in order, that every id an EVENTS chunk uses for a
// state, counter or communicator was defined by an earlier DEFS chunk.
struct RefChecker {
  const std::set<uint64_t>* states;
  const std::set<uint64_t>* counters;
  const std::set<uint64_t>* comms;
  std::vector<std::string> missing;
  void Need(const std::set<uint64_t>& ids, uint64_t id, const char* what) {
    if (id != 0 && !ids.count(id)) missing.push_back(std::string(what) + " " + std::to_string(id));
  }
  void On(uint64_t, const EnterRecord& r) { Need(*states, r.state, "state"); }
  void On(uint64_t, const LeaveRecord& r) { Need(*states, r.state, "state"); }
  void On(uint64_t, const CounterIntRecord& r) { Need(*counters, r.counter, "counter"); }
  void On(uint64_t, const CounterDoubleRecord& r) { Need(*counters, r.counter, "counter"); }
  void On(uint64_t, const SendRecord& r) { Need(*comms, r.comm, "communicator"); }
  void On(uint64_t, const RecvRecord& r) { Need(*comms, r.comm, "communicator"); }
  void On(uint64_t, const RmaRecord& r) { Need(*comms, r.comm, "communicator"); }
  template <typename R>
  void On(uint64_t, const R&) {}
  void OnUnknown(uint8_t, uint64_t, const uint8_t*, size_t) {}
};

struct IdCollector : DefVisitorBase {
  using DefVisitorBase::On;
  std::set<uint64_t> states, counters, comms;
  void On(const StateDef& d) { states.insert(d.id); }
  void On(const CounterDef& d) { counters.insert(d.id); }
  void On(const CommunicatorDef& d) { comms.insert(d.id); }
};

void ExpectDefinitionsPrecedeUse(const TraceFile& f, const std::vector<uint8_t>& bytes) {
  std::map<uint32_t, IdCollector> defined;
  std::vector<uint8_t> scratch;
  for (const RawChunk& c : WalkChunks(bytes).chunks) {
    ChunkInfo info;
    info.offset = c.offset;
    info.header = c.header;
    IdCollector& ids = defined[c.header.process];
    if (c.header.type == ChunkType::kDefs) {
      std::span<const uint8_t> payload;
      ASSERT_TRUE(f.ReadPayload(info, &scratch, &payload).ok());
      ASSERT_TRUE(DecodeDefs(payload.data(), payload.data() + payload.size(), ids, nullptr));
    } else if (c.header.type == ChunkType::kEvents) {
      RefChecker check{&ids.states, &ids.counters, &ids.comms, {}};
      ASSERT_TRUE(f.DecodeChunk(info, check, &scratch).ok());
      EXPECT_TRUE(check.missing.empty())
          << "EVENTS chunk at " << c.offset << " uses undefined " << check.missing.front();
    }
  }
}

// zstd level, chunk_raw_size, write_index.
class RoundTrip : public ::testing::TestWithParam<std::tuple<int, size_t, bool>> {};

TEST_P(RoundTrip, EveryKindFieldByField) {
  const auto [level, chunk_size, index] = GetParam();
  plx::testing::TempDir dir;
  const std::string path = dir.File("every.plx");
  WriterOptions options;
  options.zstd_level = level;
  options.chunk_raw_size = chunk_size;
  options.write_index = index;
  auto w = TraceWriter::Create(path, options);
  ASSERT_TRUE(w.ok()) << w.status().message();
  Expected expected;
  ExpectingWriter ew(**w, expected);
  testing::WriteEveryKind(ew);
  ASSERT_TRUE((*w)->Finish().ok());

  auto opened = TraceFile::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  const TraceFile& f = **opened;
  const std::vector<uint8_t> bytes = ReadBytes(path);
  const OpenReport& r = f.report();
  EXPECT_EQ(r.used_index, index);
  EXPECT_TRUE(r.problems.empty()) << r.problems.front();
  EXPECT_EQ(r.damaged_chunks + r.duplicate_chunks + r.unknown_chunks, 0u);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.readable_bytes, bytes.size());
  EXPECT_EQ(r.chunks, WalkChunks(bytes).chunks.size());

  // Streams: the same set, in (process, stream) order, with every record back.
  ASSERT_EQ(f.streams().size(), expected.events.size());
  auto want = expected.events.begin();
  uint64_t total = 0;
  for (const StreamInfo& s : f.streams()) {
    SCOPED_TRACE("stream " + std::to_string(s.process) + "/" + std::to_string(s.stream));
    EXPECT_EQ(std::make_pair(s.process, s.stream), want->first);
    EXPECT_EQ(DecodeStream(f, s), want->second);
    EXPECT_EQ(s.records, want->second.size());
    EXPECT_EQ(s.missing_records, 0u);
    EXPECT_EQ(f.FindStream(s.process, s.stream), &s);
    total += s.records;
    // Chunk headers agree with their records: indices continue, ticks bound them.
    uint64_t next_index = 0;
    std::vector<uint8_t> scratch;
    for (uint32_t i : s.chunks) {
      const ChunkInfo& c = f.event_chunks()[i];
      EXPECT_EQ(c.header.first_index, next_index);
      next_index += c.header.record_count;
      testing::EventLog log;
      ASSERT_TRUE(f.DecodeChunk(c, log, &scratch).ok());
      ASSERT_EQ(log.ticks.size(), c.header.record_count);
      EXPECT_EQ(log.ticks.front(), c.header.tick_begin);
      EXPECT_EQ(log.ticks.back(), c.header.tick_end);
      EXPECT_EQ(c.begin_ns, f.clock(s.process).ToNs(c.header.tick_begin));
      EXPECT_EQ(c.end_ns, f.clock(s.process).ToNs(c.header.tick_end));
      if (level == 0) {
        EXPECT_EQ(c.header.codec, Codec::kNone);
      }
    }
    ++want;
  }
  EXPECT_EQ(f.total_records(), total);
  if (chunk_size < 1024) {
    EXPECT_GT(f.FindStream(1, 1)->chunks.size(), 10u);
  }

  // Definitions: every record in file order, then as gathered per process.
  EXPECT_EQ(testing::ReadDefRecords(f, bytes), expected.defs);
  ExpectDefinitionsPrecedeUse(f, bytes);
  ASSERT_EQ(f.processes().size(), 2u);
  const ProcessDefs& p1 = f.processes().at(1);
  EXPECT_EQ(p1.id, 1u);
  EXPECT_EQ(p1.Str(4), "main");
  EXPECT_EQ(p1.Str(7), "");
  EXPECT_EQ(p1.Str(8).size(), 306u);
  EXPECT_EQ(p1.Str(0), "");
  EXPECT_EQ(p1.Str(12345), "");
  ASSERT_TRUE(p1.process.has_value());
  EXPECT_EQ(DescribeDef(*p1.process), DescribeDef(ProcessDef{4242, -1, 1, 2, 3, 0}));
  ASSERT_TRUE(p1.clock.has_value());
  EXPECT_EQ(DescribeDef(*p1.clock),
            DescribeDef(ClockDef{0, 1e9, 1700000000123456789ull, 123456789}));
  EXPECT_EQ(p1.strings.size(), 9u);
  EXPECT_EQ(p1.streams.size(), 3u);
  EXPECT_EQ(DescribeDef(p1.streams.at(2)), DescribeDef(StreamDef{2, 4244, 8}));
  EXPECT_EQ(DescribeDef(p1.categories.at(1)), DescribeDef(CategoryDef{1, 5}));
  ASSERT_EQ(p1.states.size(), 3u);
  EXPECT_EQ(DescribeDef(p1.states.at(1)), DescribeDef(StateDef{1, 5, 1, (1u << 24) | 0xff8800}));
  // State 2 was defined twice: the later definition replaced the earlier.
  EXPECT_EQ(DescribeDef(p1.states.at(2)), DescribeDef(StateDef{2, 6, 1, (1u << 24) | 0x00ff00}));
  EXPECT_EQ(DescribeDef(p1.states.at(3)), DescribeDef(StateDef{3, 9, 1, 0}));
  EXPECT_EQ(DescribeDef(p1.event_types.at(3)), DescribeDef(EventTypeDef{3, 6, 1, 3}));
  EXPECT_EQ(DescribeDef(p1.callsites.at(1)), DescribeDef(CallsiteDef{1, 2, 42, 4}));
  EXPECT_EQ(DescribeDef(p1.counters.at(2)), DescribeDef(CounterDef{2, 6, 0, 2, 1}));
  EXPECT_EQ(DescribeDef(p1.communicators.at(2)), DescribeDef(CommunicatorDef{2, 4, 1}));
  ASSERT_EQ(p1.attributes.size(), 2u);
  EXPECT_EQ(DescribeDef(p1.attributes[1]), DescribeDef(AttributeDef{4, 6}));
  EXPECT_EQ(p1.unknown_records + p1.bad_ids, 0u);

  // Process 1 ticks are ns; process 7 ticks convert through its pairs:
  // (1000, 5000) (3000, 6000) (5000, 8000).
  EXPECT_TRUE(f.clock(1).is_identity());
  const ProcessDefs& p7 = f.processes().at(7);
  ASSERT_EQ(p7.syncs.size(), 3u);
  EXPECT_EQ(DescribeDef(p7.syncs[2]), DescribeDef(ClockSyncDef{5000, 8000}));
  EXPECT_EQ(DescribeDef(*p7.process), DescribeDef(ProcessDef{99, 3, 1, 1, 0, 1}));
  const TickClock& c7 = f.clock(7);
  EXPECT_FALSE(c7.is_identity());
  EXPECT_EQ(c7.ToNs(1000), 5000);
  EXPECT_EQ(c7.ToNs(2000), 5500);
  EXPECT_EQ(c7.ToNs(4000), 7000);
  EXPECT_EQ(c7.ToNs(500), 4750);   // before the first pair: the first segment's slope
  EXPECT_EQ(c7.ToNs(6000), 9000);  // after the last pair: the last segment's slope
  const StreamInfo* s70 = f.FindStream(7, 0);
  ASSERT_NE(s70, nullptr);
  EXPECT_EQ(s70->begin_ns, 5000);
  EXPECT_EQ(s70->end_ns, 7000);
  const StreamInfo* s75 = f.FindStream(7, 5);
  ASSERT_NE(s75, nullptr);
  EXPECT_EQ(s75->begin_ns, 4750);
  EXPECT_EQ(s75->end_ns, 6000);
  EXPECT_EQ(f.FindStream(1, 0)->begin_ns, 1'000'000'000'000);
}

INSTANTIATE_TEST_SUITE_P(Options, RoundTrip,
                         ::testing::Combine(::testing::Values(0, 1, 3),
                                            ::testing::Values(size_t{512}, size_t{256} << 10),
                                            ::testing::Bool()));

TEST(TraceWriter, RejectsBadOptionsAndPaths) {
  plx::testing::TempDir dir;
  WriterOptions zero;
  zero.chunk_raw_size = 0;
  auto a = TraceWriter::Create(dir.File("a.plx"), zero);
  EXPECT_EQ(a.status().code(), StatusCode::kInvalidArgument);
  WriterOptions huge;
  huge.chunk_raw_size = size_t{64} << 20;
  EXPECT_EQ(TraceWriter::Create(dir.File("b.plx"), huge).status().code(),
            StatusCode::kInvalidArgument);
  auto c = TraceWriter::Create(dir.File("no/such/dir/c.plx"));
  EXPECT_EQ(c.status().code(), StatusCode::kIoError);
  EXPECT_NE(c.status().message().find("no/such/dir/c.plx"), std::string::npos);
}

TEST(TraceWriter, ReportsWriteErrors) {
  auto w = TraceWriter::Create("/dev/full");  // every write fails with ENOSPC
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kIoError);
  EXPECT_EQ(w.status().message(), "/dev/full: " + std::string(std::strerror(ENOSPC)));
}

TEST(TraceWriter, ReportsTicksGoingBackwards) {
  plx::testing::TempDir dir;
  auto w = TraceWriter::Create(dir.File("back.plx"));
  ASSERT_TRUE(w.ok());
  (*w)->Event(1, 0, 10, EnterRecord{1, 0});
  (*w)->Event(1, 0, 5, LeaveRecord{1});  // earlier than the record before
  Status s = (*w)->Finish();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("process 1 stream 0: tick 5 after 10"), std::string::npos)
      << s.message();
  // The file stays valid: the late record is kept at the previous tick.
  auto f = TraceFile::Open(dir.File("back.plx"));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(DecodeStream(**f, (*f)->streams()[0]),
            (std::vector<std::string>{"t=10 enter state=1 callsite=0", "t=10 leave state=1"}));
}

TEST(TraceWriter, ReportsTicksGoingBackwardsAcrossChunks) {
  plx::testing::TempDir dir;
  WriterOptions options;
  options.chunk_raw_size = 64;
  auto w = TraceWriter::Create(dir.File("back.plx"), options);
  ASSERT_TRUE(w.ok());
  // 5-byte records: a chunk is sealed after every 13th, so after the 39th too.
  for (uint64_t t = 100; t < 139; ++t)
    (*w)->Event(1, 0, t, EnterRecord{1, 0});
  (*w)->Event(1, 0, 50, LeaveRecord{1});  // earlier than the last sealed record
  Status s = (*w)->Finish();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << "accepted a tick going backwards";
  auto f = TraceFile::Open(dir.File("back.plx"));
  ASSERT_TRUE(f.ok());
  EXPECT_GT((*f)->event_chunks().size(), 1u);
  EXPECT_EQ(DecodeStream(**f, (*f)->streams()[0]).back(), "t=138 leave state=1");
}

TEST(TraceWriter, ManyDefinitionsAreSplitIntoChunks) {
  // More definitions than one chunk encoder holds (2 x chunk_raw_size + 1 MiB).
  plx::testing::TempDir dir;
  WriterOptions options;
  options.chunk_raw_size = 4096;
  auto w = TraceWriter::Create(dir.File("defs.plx"), options);
  ASSERT_TRUE(w.ok());
  const std::string pad(40, 's');
  for (uint64_t id = 1; id <= 40000; ++id)
    (*w)->Def(1, StringDef{id, pad + std::to_string(id)});
  (*w)->Event(1, 0, 1, EnterRecord{1, 0});
  ASSERT_TRUE((*w)->Finish().ok());
  auto f = TraceFile::Open(dir.File("defs.plx"));
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->report().problems.empty());
  const ProcessDefs& d = (*f)->processes().at(1);
  EXPECT_EQ(d.strings.size(), 40000u);
  EXPECT_EQ(d.Str(40000), pad + "40000");
  size_t defs_chunks = 0;
  for (const RawChunk& c : WalkChunks(ReadBytes(dir.File("defs.plx"))).chunks)
    defs_chunks += c.header.type == ChunkType::kDefs;
  EXPECT_GT(defs_chunks, 100u);
}

TEST(TraceWriter, EmptyTraceOpens) {
  plx::testing::TempDir dir;
  auto w = TraceWriter::Create(dir.File("empty.plx"));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Finish().ok());
  auto f = TraceFile::Open(dir.File("empty.plx"));
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE((*f)->report().used_index);
  EXPECT_EQ((*f)->report().chunks, 0u);
  EXPECT_TRUE((*f)->streams().empty());
  EXPECT_EQ((*f)->total_records(), 0u);
  EXPECT_EQ((*f)->begin_ns(), 0);
  EXPECT_EQ((*f)->end_ns(), 0);
}

}  // namespace
}  // namespace plx::format

namespace plx::format {
namespace {

TEST(TraceWriterLimits, ARecordTooLargeIsReportedNotFatal) {
  plx::testing::TempDir dir;
  WriterOptions options;
  options.chunk_raw_size = 1024;
  auto w = TraceWriter::Create(dir.File("big.plx"), options);
  ASSERT_TRUE(w.ok());
  const std::string huge((*w)->max_record_bytes() + 1, 'x');
  (*w)->Def(0, StringDef{1, "fine"});
  (*w)->Event(0, 1, 10, EnterRecord{1, 0});
  (*w)->Event(0, 1, 20, EventStringRecord{1, 0, huge});  // dropped
  (*w)->Def(0, StringDef{2, huge});                      // dropped
  (*w)->Event(0, 1, 30, LeaveRecord{1});
  Status s = (*w)->Finish();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("larger than the"), std::string::npos) << s.message();
  auto file = TraceFile::Open(dir.File("big.plx"));
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ((*file)->total_records(), 2u);  // what fitted is written, with its index
  EXPECT_TRUE((*file)->report().used_index);
}

}  // namespace
}  // namespace plx::format
