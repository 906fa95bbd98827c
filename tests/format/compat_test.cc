// Forward compatibility: what a newer writer may put in a file (unknown record
// kinds, longer bodies of known kinds, unknown definition kinds and chunk
// types, a newer minor version) must not stop this reader.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/varint.h"
#include "format/format_test_util.h"
#include "format/trace_file.h"
#include "format/trace_writer.h"
#include "support/test_support.h"

namespace plx::format {
namespace {

using testing::DecodeStream;
using testing::ReadBytes;
using testing::WalkChunks;
using testing::WriteBytes;

std::unique_ptr<TraceFile> OpenOk(const std::string& path) {
  auto f = TraceFile::Open(path);
  EXPECT_TRUE(f.ok()) << f.status().message();
  return f.ok() ? std::move(f).value() : nullptr;
}

std::unique_ptr<TraceFile> OpenBytes(const std::vector<uint8_t>& bytes) {
  auto f = TraceFile::FromBytes("mem.plx", bytes);
  EXPECT_TRUE(f.ok()) << f.status().message();
  return f.ok() ? std::move(f).value() : nullptr;
}

// A field appended to a kind (`since` in spec/records.toml) is absent from
// files written before it: the record is whole, and the field reads as 0.
TEST(BackwardCompat, RecordsWithoutAppendedFieldsReadAsZero) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("older.plx");
  {
    auto w = TraceWriter::Create(path);
    ASSERT_TRUE(w.ok());
    const uint8_t send_1_0[] = {2, 1, 3, 4, 0};  // comm 2, peer -1, tag -2, 4 bytes, clock 0
    (*w)->RawEvent(1, 0, 100, static_cast<uint8_t>(EventKind::kSend), send_1_0);
    (*w)->Event(1, 0, 200, SendRecord{2, -1, -2, 4, 0, 9});
    ASSERT_TRUE((*w)->Finish().ok());
  }
  auto f = OpenOk(path);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(DecodeStream(*f, f->streams()[0]),
            (std::vector<std::string>{"t=100 send comm=2 peer=-1 tag=-2 bytes=4 clock=0 match=0",
                                      "t=200 send comm=2 peer=-1 tag=-2 bytes=4 clock=0 match=9"}));
}

TEST(ForwardCompat, UnknownEventKindsAreSkippedKeepingTicks) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("unknown.plx");
  {
    auto w = TraceWriter::Create(path);
    ASSERT_TRUE(w.ok());
    const uint8_t body[] = {1, 2, 3, 4, 5};
    (*w)->Event(1, 0, 100, EnterRecord{1, 0});
    (*w)->RawEvent(1, 0, 150, 200, body);
    (*w)->Event(1, 0, 170, LeaveRecord{1});
    (*w)->RawEvent(1, 0, 170, 255, {});
    (*w)->RawEvent(1, 0, 100000, kEventKindLimit, body);  // the next id the spec will hand out
    (*w)->Event(1, 0, 100001, EventIntRecord{2, 0, -7});
    ASSERT_TRUE((*w)->Finish().ok());
  }
  auto f = OpenOk(path);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->total_records(), 6u);
  EXPECT_EQ(DecodeStream(*f, f->streams()[0]),
            (std::vector<std::string>{
                "t=100 enter state=1 callsite=0", "t=150 unknown kind 200 (5 body bytes)",
                "t=170 leave state=1", "t=170 unknown kind 255 (0 body bytes)",
                "t=100000 unknown kind " + std::to_string(kEventKindLimit) + " (5 body bytes)",
                "t=100001 event_int type=2 callsite=0 value=-7"}));

  // A visitor that knows only some kinds and relies on the base for the rest,
  // OnUnknown included; the unknown body is handed over intact.
  struct Partial : EventVisitorBase {
    using EventVisitorBase::On;
    std::vector<uint64_t> leave_ticks;
    std::vector<uint8_t> unknown_body;
    void On(uint64_t tick, const LeaveRecord&) { leave_ticks.push_back(tick); }
    void On(uint64_t tick, const EventIntRecord&) { leave_ticks.push_back(tick); }
    void OnUnknown(uint8_t kind, uint64_t, const uint8_t* body, size_t size) {
      if (kind == 200) unknown_body.assign(body, body + size);
    }
  } partial;
  std::vector<uint8_t> scratch;
  ASSERT_TRUE(f->DecodeChunk(f->event_chunks()[0], partial, &scratch).ok());
  EXPECT_EQ(partial.leave_ticks, (std::vector<uint64_t>{170, 100001}));
  EXPECT_EQ(partial.unknown_body, (std::vector<uint8_t>{1, 2, 3, 4, 5}));
}

TEST(ForwardCompat, KnownKindWithLongerBodyStillDecodes) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("longer.plx");
  {
    auto w = TraceWriter::Create(path);
    ASSERT_TRUE(w.ok());
    // An enter record as a newer writer might write it: the two known fields,
    // then a field this build does not know (here: bytes that are not even a
    // whole varint, which a reader must not try to parse).
    std::vector<uint8_t> body(32);
    uint8_t* p = PutUvarint(body.data(), 7);
    p = PutUvarint(p, 300);
    for (uint8_t b : {0xde, 0xad, 0xbe, 0xef, 0x80})
      *p++ = b;
    body.resize(static_cast<size_t>(p - body.data()));
    (*w)->RawEvent(1, 0, 1000, static_cast<uint8_t>(EventKind::kEnter), body);
    (*w)->Event(1, 0, 1005, LeaveRecord{7});
    ASSERT_TRUE((*w)->Finish().ok());
  }
  auto f = OpenOk(path);
  ASSERT_NE(f, nullptr);
  struct Check : EventVisitorBase {
    using EventVisitorBase::On;
    std::vector<std::string> seen;
    void On(uint64_t t, const EnterRecord& r) {
      seen.push_back("enter " + std::to_string(t) + " " + std::to_string(r.state) + " " +
                     std::to_string(r.callsite));
    }
    void On(uint64_t t, const LeaveRecord& r) {
      seen.push_back("leave " + std::to_string(t) + " " + std::to_string(r.state));
    }
  } check;
  std::vector<uint8_t> scratch;
  Status s = f->DecodeChunk(f->event_chunks()[0], check, &scratch);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(check.seen, (std::vector<std::string>{"enter 1000 7 300", "leave 1005 7"}));
}

TEST(ForwardCompat, ShorterBodyOfKnownKindIsDataLoss) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("short.plx");
  {
    auto w = TraceWriter::Create(path);
    ASSERT_TRUE(w.ok());
    (*w)->Event(1, 4, 10, LeaveRecord{1});
    const uint8_t body[] = {7};  // state only: the callsite field is missing
    (*w)->RawEvent(1, 4, 20, static_cast<uint8_t>(EventKind::kEnter), body);
    ASSERT_TRUE((*w)->Finish().ok());
  }
  auto f = OpenOk(path);
  ASSERT_NE(f, nullptr);
  testing::EventLog log;
  std::vector<uint8_t> scratch;
  const ChunkInfo& c = f->event_chunks()[0];
  Status s = f->DecodeChunk(c, log, &scratch);
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_EQ(s.message(), path + ": offset " + std::to_string(c.offset) +
                             ": EVENTS chunk (process 1, stream 4), payload byte 4: enter "
                             "record: bad callsite");
  EXPECT_EQ(log.lines, (std::vector<std::string>{"t=10 leave state=1"}));  // delivered before
}

// A DEFS chunk from a newer writer: unknown kinds around a known one.
std::vector<uint8_t> NewerDefsChunk(uint32_t process) {
  // Built in one buffer: gcc 12 warns wrongly about vector::insert after an
  // initializer list (-Warray-bounds).
  uint8_t buf[64] = {99, 3, 'a', 'b', 'c'};
  uint8_t* p = EncodeDef(buf + 5, StringDef{50, "after"});
  *p++ = 200;
  *p++ = 0;
  const std::vector<uint8_t> payload(buf, p);
  ChunkHeader h;
  h.type = ChunkType::kDefs;
  h.process = process;
  return testing::SealChunk(h, payload);
}

// A chunk of a type this build does not know.
std::vector<uint8_t> UnknownTypeChunk() {
  ChunkHeader h;
  h.type = static_cast<ChunkType>(9);
  h.process = 1;
  h.record_count = 3;
  std::vector<uint8_t> payload(500, 0x42);
  return testing::SealChunk(h, payload, 1);
}

std::vector<uint8_t> BusyTraceWithoutIndex(const std::string& path) {
  WriterOptions options;
  options.chunk_raw_size = 800;
  options.write_index = false;
  EXPECT_TRUE(testing::WriteBusyTrace(path, options, 2, 2, 100, 5).ok());
  return ReadBytes(path);
}

TEST(ForwardCompat, UnknownDefinitionKindsAreSkippedAndCounted) {
  plx::testing::TempDir dir;
  const std::vector<uint8_t> base = BusyTraceWithoutIndex(dir.File("base.plx"));
  const std::vector<uint8_t> scan = testing::Splice(base, kFileHeaderSize, NewerDefsChunk(1));
  for (const std::vector<uint8_t>& bytes : {scan, testing::RebuildIndex(scan)}) {
    auto f = OpenBytes(bytes);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->report().used_index, bytes.size() != scan.size());
    EXPECT_TRUE(f->report().problems.empty());
    const ProcessDefs& d = f->processes().at(1);
    EXPECT_EQ(d.unknown_records, 2u);
    EXPECT_EQ(d.Str(50), "after");
    EXPECT_EQ(d.Str(1), "host");  // the definitions after it still apply
    EXPECT_EQ(f->processes().at(2).unknown_records, 0u);
  }
}

TEST(ForwardCompat, UnknownChunkTypesAreSkippedAndCounted) {
  plx::testing::TempDir dir;
  const std::vector<uint8_t> base = BusyTraceWithoutIndex(dir.File("base.plx"));
  auto original = OpenBytes(base);
  ASSERT_NE(original, nullptr);
  const testing::RawLayout layout = WalkChunks(base);
  ASSERT_GT(layout.chunks.size(), 6u);
  // One at the very start, one in the middle, one at the end.
  const std::vector<uint8_t> unknown = UnknownTypeChunk();
  std::vector<uint8_t> bytes = base;
  bytes.insert(bytes.end(), unknown.begin(), unknown.end());
  bytes = testing::Splice(bytes, layout.chunks[layout.chunks.size() / 2].offset, unknown);
  bytes = testing::Splice(bytes, kFileHeaderSize, unknown);
  for (const std::vector<uint8_t>& b : {bytes, testing::RebuildIndex(bytes)}) {
    auto f = OpenBytes(b);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->report().used_index, b.size() != bytes.size());
    EXPECT_EQ(f->report().unknown_chunks, 3u);
    EXPECT_EQ(f->report().chunks, layout.chunks.size() + 3);
    EXPECT_EQ(f->report().damaged_chunks, 0u);
    EXPECT_TRUE(f->report().problems.empty());
    EXPECT_EQ(f->total_records(), original->total_records());
    ASSERT_EQ(f->streams().size(), original->streams().size());
    for (size_t i = 0; i < f->streams().size(); ++i)
      EXPECT_EQ(DecodeStream(*f, f->streams()[i]), DecodeStream(*original, original->streams()[i]));
    for (const auto& [id, d] : original->processes())
      EXPECT_EQ(testing::DescribeDefs(f->processes().at(id)), testing::DescribeDefs(d));
  }
}

TEST(ForwardCompat, NewerMinorVersionAndFlagsOpen) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("v.plx");
  std::vector<uint8_t> base = BusyTraceWithoutIndex(path);
  auto original = OpenBytes(base);
  ASSERT_NE(original, nullptr);
  std::vector<uint8_t> bytes = base;
  StoreLE<uint16_t>(bytes.data() + 10, 7);
  StoreLE<uint32_t>(bytes.data() + 12, 0xffffffffu);
  auto f = OpenBytes(bytes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->version_minor(), 7);
  testing::ExpectSameContent(*f, *original);
}

TEST(ForwardCompat, OtherMajorVersionIsRefused) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("v2.plx");
  std::vector<uint8_t> bytes = BusyTraceWithoutIndex(path);
  StoreLE<uint16_t>(bytes.data() + 8, 2);
  WriteBytes(path, bytes);
  auto f = TraceFile::Open(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(f.status().message(), path + ": offset 8: format version 2.0; this build reads 1.x");
}

TEST(FileErrors, NotAPlxFile) {
  plx::testing::TempDir dir;
  const std::string path = dir.File("text.plx");
  WriteBytes(path, std::vector<uint8_t>(100, 'a'));
  auto f = TraceFile::Open(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(f.status().message(), path + ": offset 0: not a .plx trace (bad file magic)");

  auto missing = TraceFile::Open(dir.File("missing.plx"));
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);

  WriteBytes(path, {});
  auto empty = TraceFile::Open(path);
  EXPECT_EQ(empty.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(empty.status().message(),
            path + ": 0 bytes: too short for the 16-byte .plx file header");
}

TEST(FileErrors, HeaderOnlyFileIsAnEmptyTrace) {
  uint8_t header[kFileHeaderSize];
  EncodeFileHeader(header);
  auto f = OpenBytes({header, header + kFileHeaderSize});
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->report().used_index);
  EXPECT_FALSE(f->report().truncated);
  EXPECT_EQ(f->report().chunks, 0u);
  EXPECT_TRUE(f->report().problems.empty());
  EXPECT_TRUE(f->streams().empty());
}

}  // namespace
}  // namespace plx::format
