// CheckEveryCut (see truncation_check.h): an oracle built from an independent
// walk over the whole file, compared against TraceFile on each prefix.
#include "format/truncation_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "base/strings.h"
#include "format/format_test_util.h"
#include "format/trace_file.h"

namespace plx::format::testing {

namespace {

// Counts records and checks each chunk's ticks against its header.
struct ChunkChecker {
  const ChunkHeader* header = nullptr;
  uint64_t records = 0;
  uint64_t last_tick = 0;
  bool tick_ok = true;
  template <typename R>
  void On(uint64_t tick, const R&) {
    Count(tick);
  }
  void OnUnknown(uint8_t, uint64_t tick, const uint8_t*, size_t) { Count(tick); }
  void Count(uint64_t tick) {
    if (tick < header->tick_begin || tick > header->tick_end || (records > 0 && tick < last_tick))
      tick_ok = false;
    last_tick = tick;
    ++records;
  }
};

// The size of every kind of definition: enough to tell which DEFS chunks were applied.
std::string DefCounts(const ProcessDefs& d) {
  return StrFormat(
      "process=%d clock=%d syncs=%zu strings=%zu streams=%zu categories=%zu "
      "states=%zu event_types=%zu callsites=%zu counters=%zu communicators=%zu "
      "attributes=%zu unknown=%llu",
      d.process.has_value(), d.clock.has_value(), d.syncs.size(), d.strings.size(),
      d.streams.size(), d.categories.size(), d.states.size(), d.event_types.size(),
      d.callsites.size(), d.counters.size(), d.communicators.size(), d.attributes.size(),
      static_cast<unsigned long long>(d.unknown_records));
}

using StreamKey = std::pair<uint32_t, uint32_t>;
using ChunkKey = std::tuple<uint32_t, uint32_t, uint64_t>;  // process, stream, first_index

}  // namespace

void CheckEveryCut(const std::string& path, int random_cuts, uint32_t seed) {
  const std::vector<uint8_t> bytes = ReadBytes(path);
  const uint64_t size = bytes.size();
  ASSERT_GE(size, kFileHeaderSize) << path << ": not a .plx file";
  StatusOr<std::unique_ptr<TraceFile>> full = TraceFile::Open(path);
  ASSERT_TRUE(full.ok()) << full.status().message();
  ASSERT_EQ((*full)->report().damaged_chunks, 0u) << path << ": the whole file must be undamaged";
  const bool full_has_problems = !(*full)->report().problems.empty();
  const RawLayout layout = WalkChunks(bytes);
  ASSERT_EQ(layout.stopped_at, size) << path << ": the whole file must walk to its end";

  // Offsets where a prefix ends exactly between chunks.
  std::set<uint64_t> boundaries = {kFileHeaderSize, size};
  for (const RawChunk& c : layout.chunks)
    boundaries.insert(c.end());
  if (layout.index) boundaries.insert(layout.index->end());

  std::set<uint64_t> cuts = {0, 1, 8, 15};
  for (uint64_t b : boundaries) {
    for (uint64_t c : {b - 1, b, b + 1})
      if (c <= size) cuts.insert(c);
  }
  std::mt19937 rng(seed);  // mt19937's output is fixed by the standard; so are the cuts
  for (int i = 0; i < random_cuts; ++i)
    cuts.insert(rng() % (size + 1));

  const bool failed_before = ::testing::Test::HasFailure();
  auto failed = [&] { return !failed_before && ::testing::Test::HasFailure(); };
  std::vector<uint8_t> scratch;
  for (uint64_t n : cuts) {
    SCOPED_TRACE(StrFormat("%s cut to %llu of %llu bytes", path.c_str(),
                           static_cast<unsigned long long>(n),
                           static_cast<unsigned long long>(size)));
    const std::string name = path + ".cut";
    StatusOr<std::unique_ptr<TraceFile>> cut =
        TraceFile::FromBytes(name, std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
    if (n < kFileHeaderSize) {
      ASSERT_FALSE(cut.ok());
      EXPECT_EQ(cut.status().code(), StatusCode::kDataLoss);
      const std::string& m = cut.status().message();
      EXPECT_EQ(m.rfind(name + ": ", 0), 0u) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      EXPECT_NE(m.find("too short"), std::string::npos) << m;
      if (failed()) return;
      continue;
    }
    ASSERT_TRUE(cut.ok()) << cut.status().message();
    const TraceFile& f = **cut;
    const OpenReport& r = f.report();

    // The oracle: the whole chunks before the cut.
    std::vector<const RawChunk*> whole;
    for (const RawChunk& c : layout.chunks)
      if (c.end() <= n) whole.push_back(&c);
    std::set<ChunkKey> seen;
    std::vector<uint64_t> event_offsets;
    std::map<StreamKey, uint64_t> stream_records;
    std::map<uint32_t, ProcessDefs> defs;
    std::set<uint32_t> process_ids;
    uint64_t records = 0, duplicates = 0;
    for (const RawChunk* c : whole) {
      const ChunkHeader& h = c->header;
      if (h.type == ChunkType::kEvents) {
        process_ids.insert(h.process);
        if (!seen.insert({h.process, h.stream, h.first_index}).second) {
          ++duplicates;  // the reader keeps the first of chunks with the same records
          continue;
        }
        event_offsets.push_back(c->offset);
        stream_records[{h.process, h.stream}] += h.record_count;
        records += h.record_count;
      } else if (h.type == ChunkType::kDefs) {
        process_ids.insert(h.process);
        ChunkInfo info;
        info.offset = c->offset;
        info.header = h;
        std::span<const uint8_t> payload;
        ASSERT_TRUE((*full)->ReadPayload(info, &scratch, &payload).ok());
        ASSERT_TRUE(
            defs[h.process].Apply(payload.data(), payload.data() + payload.size(), nullptr));
      }
    }
    const bool boundary = boundaries.count(n) > 0;
    uint64_t readable = kFileHeaderSize;
    for (uint64_t b : boundaries)
      if (b <= n) readable = b;

    EXPECT_EQ(r.chunks, whole.size());
    EXPECT_EQ(r.damaged_chunks, 0u);
    EXPECT_EQ(r.duplicate_chunks, duplicates);
    EXPECT_EQ(r.used_index, n == size && layout.index && layout.trailer);
    EXPECT_EQ(r.truncated, !boundary);
    EXPECT_EQ(r.readable_bytes, readable);
    size_t cut_short = 0;
    for (const std::string& line : r.problems) {
      EXPECT_EQ(line.find('\n'), std::string::npos) << line;
      if (line.find("cut short") != std::string::npos) ++cut_short;
    }
    EXPECT_EQ(cut_short, boundary ? 0u : 1u);
    if (!full_has_problems) {
      EXPECT_EQ(r.problems.size(), cut_short);
    }

    // EVENTS chunks: the same ones, all decodable, with the records the headers promise.
    std::vector<uint64_t> got_offsets;
    for (const ChunkInfo& c : f.event_chunks())
      got_offsets.push_back(c.offset);
    std::sort(got_offsets.begin(), got_offsets.end());
    EXPECT_EQ(got_offsets, event_offsets);
    EXPECT_EQ(f.total_records(), records);
    uint64_t decoded = 0;
    for (const ChunkInfo& c : f.event_chunks()) {
      ChunkChecker checker;
      checker.header = &c.header;
      Status s = f.DecodeChunk(c, checker, &scratch);
      EXPECT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(checker.records, c.header.record_count) << "chunk at " << c.offset;
      EXPECT_TRUE(checker.tick_ok) << "chunk at " << c.offset << ": ticks outside its header";
      if (checker.records > 0) {
        EXPECT_EQ(checker.last_tick, c.header.tick_end);
      }
      decoded += checker.records;
    }
    EXPECT_EQ(decoded, records);
    std::map<StreamKey, uint64_t> got_streams;
    for (const StreamInfo& s : f.streams()) {
      got_streams[{s.process, s.stream}] = s.records;
      EXPECT_EQ(s.missing_records, 0u);
    }
    EXPECT_EQ(got_streams, stream_records);

    // Definitions: exactly those of the whole DEFS chunks before the cut.
    std::set<uint32_t> got_processes;
    for (const auto& [id, d] : f.processes()) {
      got_processes.insert(id);
      EXPECT_EQ(DefCounts(d), DefCounts(defs[id])) << "process " << id;
    }
    EXPECT_EQ(got_processes, process_ids);
    if (failed()) return;
  }
}

}  // namespace plx::format::testing
