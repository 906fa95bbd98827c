// Helpers for the .plx format tests (see format_test_util.h).
#include "format/format_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>

#include "base/checksum.h"
#include "base/strings.h"
#include "base/varint.h"
#include "format/chunk_encoder.h"
#include "format/generic_record.h"

namespace plx::format::testing {

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

RawLayout WalkChunks(const std::vector<uint8_t>& bytes) {
  RawLayout out;
  if (bytes.size() < kFileHeaderSize) {
    ADD_FAILURE() << "file of " << bytes.size() << " bytes has no header";
    return out;
  }
  uint64_t off = kFileHeaderSize;
  while (off < bytes.size()) {
    const uint64_t left = bytes.size() - off;
    if (left == kTrailerSize && std::memcmp(bytes.data() + off + 8, kTrailerMagic, 8) == 0) {
      out.trailer = true;
      break;
    }
    if (left < kChunkHeaderSize) {
      ADD_FAILURE() << "offset " << off << ": only " << left << " bytes left";
      break;
    }
    RawChunk c;
    c.offset = off;
    if (const char* why = ParseChunkHeader(bytes.data() + off, &c.header)) {
      ADD_FAILURE() << "offset " << off << ": " << why;
      break;
    }
    if (c.end() > bytes.size()) {
      ADD_FAILURE() << "offset " << off << ": chunk runs past the end";
      break;
    }
    if (c.header.type == ChunkType::kIndex) {
      out.index = c;
    } else {
      out.chunks.push_back(c);
    }
    off = c.end();
  }
  out.stopped_at = out.trailer ? bytes.size() : off;
  return out;
}

namespace {

const KindInfo* InfoFor(Section section, uint8_t kind) {
  switch (section) {
    case Section::kEvent:
      return EventKindInfo(kind);
    case Section::kDef:
      return DefKindInfo(kind);
    case Section::kIndex:
      return IndexKindInfo(kind);
  }
  return nullptr;
}

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20 || ch >= 0x7f) {
      out += StrFormat("\\x%02x", ch);
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

}  // namespace

std::string DescribeEncoded(Section section, const uint8_t* record, const uint8_t* end) {
  if (record >= end) return "<empty>";
  const Framing framing = section == Section::kEvent ? Framing::kEvents : Framing::kDefs;
  size_t pos = 0;
  FramedRecord r;
  if (!NextRecord(framing, record, end, &pos, 0, &r)) {
    // Tell a damaged dt from a damaged length, as readers report them.
    const uint8_t* p = record + 1;
    uint64_t dt;
    return framing == Framing::kEvents && !GetUvarint(&p, end, &dt) ? "<bad dt>" : "<bad length>";
  }
  const KindInfo* info = InfoFor(section, r.kind);
  if (info == nullptr) return StrFormat("unknown kind %u (%zu body bytes)", r.kind, r.size);
  std::vector<FieldValue> fields;
  size_t used = 0;
  const bool damaged = DecodeFields(*info, r.body, r.size, &fields, &used) != nullptr;
  std::string out = info->name;
  for (const FieldValue& f : fields) {
    out += StrFormat(" %s=", f.info->name);
    switch (f.info->type) {
      case FieldType::kU:
        out += std::to_string(f.u);
        break;
      case FieldType::kS:
        out += std::to_string(f.s);
        break;
      case FieldType::kF64:
        out += std::isnan(f.f) ? std::string(std::signbit(f.f) ? "-nan" : "nan")
                               : StrFormat("%.17g", f.f);
        break;
      case FieldType::kStr:
        out += Quote(f.text);
        break;
    }
  }
  // The first field a short or damaged body lacks.
  if (damaged || fields.size() < info->field_count)
    out += StrFormat(" %s=<missing>", info->fields[fields.size()].name);
  if (used < r.size) out += StrFormat(" +%zu bytes", r.size - used);
  return out;
}

void EventLog::OnUnknown(uint8_t kind, uint64_t tick, const uint8_t*, size_t size) {
  lines.push_back(StrFormat("t=%llu unknown kind %u (%zu body bytes)",
                            static_cast<unsigned long long>(tick), kind, size));
  ticks.push_back(tick);
}

void DefLog::OnUnknown(uint8_t kind, const uint8_t*, size_t size) {
  lines.push_back(StrFormat("unknown kind %u (%zu body bytes)", kind, size));
}

std::vector<std::string> DecodeStream(const TraceFile& file, const StreamInfo& stream) {
  EventLog log;
  std::vector<uint8_t> scratch;
  for (uint32_t i : stream.chunks) {
    Status s = file.DecodeChunk(file.event_chunks()[i], log, &scratch);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  return log.lines;
}

std::map<uint32_t, std::vector<std::string>> ReadDefRecords(const TraceFile& file,
                                                            const std::vector<uint8_t>& bytes) {
  std::map<uint32_t, std::vector<std::string>> out;
  std::vector<uint8_t> scratch;
  for (const RawChunk& c : WalkChunks(bytes).chunks) {
    if (c.header.type != ChunkType::kDefs) continue;
    ChunkInfo info;
    info.offset = c.offset;
    info.header = c.header;
    std::span<const uint8_t> payload;
    Status s = file.ReadPayload(info, &scratch, &payload);
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) continue;
    DefLog log;
    DecodeError error;
    EXPECT_TRUE(DecodeDefs(payload.data(), payload.data() + payload.size(), log, &error))
        << "offset " << c.offset << " payload byte " << error.offset;
    std::vector<std::string>& lines = out[c.header.process];
    lines.insert(lines.end(), log.lines.begin(), log.lines.end());
  }
  return out;
}

std::vector<std::string> DescribeDefs(const ProcessDefs& d) {
  std::vector<std::string> out;
  if (d.process) out.push_back(DescribeDef(*d.process));
  if (d.clock) out.push_back(DescribeDef(*d.clock));
  for (const ClockSyncDef& s : d.syncs)
    out.push_back(DescribeDef(s));
  for (const auto& [id, text] : d.strings)
    out.push_back(DescribeDef(StringDef{id, text}));
  for (const auto& [id, v] : d.streams)
    out.push_back(DescribeDef(v));
  for (const auto& [id, v] : d.categories)
    out.push_back(DescribeDef(v));
  for (const auto& [id, v] : d.states)
    out.push_back(DescribeDef(v));
  for (const auto& [id, v] : d.event_types)
    out.push_back(DescribeDef(v));
  for (const auto& [id, v] : d.callsites)
    out.push_back(DescribeDef(v));
  for (const auto& [id, v] : d.counters)
    out.push_back(DescribeDef(v));
  for (const auto& [id, v] : d.communicators)
    out.push_back(DescribeDef(v));
  for (const AttributeDef& a : d.attributes)
    out.push_back(DescribeDef(a));
  if (d.unknown_records || d.bad_ids)
    out.push_back(StrFormat("unknown_records=%llu bad_ids=%llu",
                            static_cast<unsigned long long>(d.unknown_records),
                            static_cast<unsigned long long>(d.bad_ids)));
  return out;
}

void ExpectSameContent(const TraceFile& a, const TraceFile& b) {
  ASSERT_EQ(a.event_chunks().size(), b.event_chunks().size());
  for (size_t i = 0; i < a.event_chunks().size(); ++i) {
    const ChunkInfo& x = a.event_chunks()[i];
    const ChunkInfo& y = b.event_chunks()[i];
    EXPECT_EQ(x.offset, y.offset) << "chunk " << i;
    uint8_t hx[kChunkHeaderSize], hy[kChunkHeaderSize];
    EncodeChunkHeader(x.header, hx);
    EncodeChunkHeader(y.header, hy);
    EXPECT_EQ(std::memcmp(hx, hy, kChunkHeaderSize), 0) << "chunk " << i << " header";
    EXPECT_EQ(x.begin_ns, y.begin_ns) << "chunk " << i;
    EXPECT_EQ(x.end_ns, y.end_ns) << "chunk " << i;
  }
  ASSERT_EQ(a.streams().size(), b.streams().size());
  for (size_t i = 0; i < a.streams().size(); ++i) {
    const StreamInfo& x = a.streams()[i];
    const StreamInfo& y = b.streams()[i];
    EXPECT_EQ(x.process, y.process);
    EXPECT_EQ(x.stream, y.stream);
    EXPECT_EQ(x.records, y.records);
    EXPECT_EQ(x.begin_ns, y.begin_ns);
    EXPECT_EQ(x.end_ns, y.end_ns);
    EXPECT_EQ(x.chunks, y.chunks);
    EXPECT_EQ(x.missing_records, y.missing_records);
    EXPECT_EQ(DecodeStream(a, x), DecodeStream(b, y)) << "stream " << x.process << "/" << x.stream;
  }
  ASSERT_EQ(a.processes().size(), b.processes().size());
  for (const auto& [id, defs] : a.processes()) {
    auto it = b.processes().find(id);
    ASSERT_NE(it, b.processes().end()) << "process " << id;
    EXPECT_EQ(DescribeDefs(defs), DescribeDefs(it->second)) << "process " << id;
    EXPECT_EQ(a.clock(id).ToNs(123456789), b.clock(id).ToNs(123456789));
  }
  EXPECT_EQ(a.total_records(), b.total_records());
  EXPECT_EQ(a.begin_ns(), b.begin_ns());
  EXPECT_EQ(a.end_ns(), b.end_ns());
}

std::vector<uint8_t> SealChunk(const ChunkHeader& header, const std::vector<uint8_t>& payload,
                               int zstd_level) {
  ChunkEncoder encoder(std::max<size_t>(payload.size(), 1), zstd_level);
  std::span<const uint8_t> bytes = encoder.Seal(header, payload.data(), payload.size());
  return {bytes.begin(), bytes.end()};
}

void ResealHeader(std::vector<uint8_t>* bytes, uint64_t offset) {
  // docs/format.md: low 32 bits of XXH3-64 over the 64 header bytes, 28..31 zeroed.
  uint8_t* h = bytes->data() + offset;
  std::memset(h + 28, 0, 4);
  StoreLE<uint32_t>(h + 28, static_cast<uint32_t>(Checksum64(h, kChunkHeaderSize)));
}

std::vector<uint8_t> StripIndex(const std::vector<uint8_t>& bytes) {
  RawLayout layout = WalkChunks(bytes);
  if (!layout.index) return bytes;
  return {bytes.begin(), bytes.begin() + static_cast<long>(layout.index->offset)};
}

std::vector<uint8_t> AppendIndex(const std::vector<uint8_t>& bytes,
                                 const std::vector<RawChunk>& chunks) {
  std::vector<uint8_t> payload;
  for (const RawChunk& c : chunks) {
    ChunkEntry e;
    e.offset = c.offset;
    e.type = static_cast<uint64_t>(c.header.type);
    e.process = c.header.process;
    e.stream = c.header.stream;
    e.stored_size = c.header.stored_size;
    e.record_count = c.header.record_count;
    e.first_index = c.header.first_index;
    e.tick_begin = c.header.tick_begin;
    e.tick_end = c.header.tick_end;
    const size_t at = payload.size();
    payload.resize(at + MaxEncodedSize(e));
    payload.resize(static_cast<size_t>(EncodeIndex(payload.data() + at, e) - payload.data()));
  }
  ChunkHeader h;
  h.type = ChunkType::kIndex;
  h.record_count = static_cast<uint32_t>(chunks.size());
  std::vector<uint8_t> out = bytes;
  const uint64_t index_offset = out.size();
  std::vector<uint8_t> chunk = SealChunk(h, payload);
  out.insert(out.end(), chunk.begin(), chunk.end());
  uint8_t trailer[kTrailerSize];
  EncodeTrailer(index_offset, trailer);
  out.insert(out.end(), trailer, trailer + kTrailerSize);
  return out;
}

std::vector<uint8_t> RebuildIndex(const std::vector<uint8_t>& bytes) {
  std::vector<uint8_t> stripped = StripIndex(bytes);
  return AppendIndex(stripped, WalkChunks(stripped).chunks);
}

std::vector<uint8_t> Splice(const std::vector<uint8_t>& bytes, uint64_t offset,
                            const std::vector<uint8_t>& insert) {
  std::vector<uint8_t> out(bytes.begin(), bytes.begin() + static_cast<long>(offset));
  out.insert(out.end(), insert.begin(), insert.end());
  out.insert(out.end(), bytes.begin() + static_cast<long>(offset), bytes.end());
  return out;
}

void WriteEveryKind(ExpectingWriter& w) {
  constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
  constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
  constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
  const std::string long_text = std::string(200, 'x') + std::string("\0nul\xc3\xa9", 6) +
                                std::string(100, 'y');  // > 127 bytes: 2-byte lengths

  // Process 1: ticks are ns (domain 0).
  w.Def(1, StringDef{1, "host-a"});
  w.Def(1, StringDef{2, "/usr/bin/app"});
  w.Def(1, StringDef{3, "app --n 4"});
  w.Def(1, StringDef{4, "main"});
  w.Def(1, StringDef{5, "compute"});
  w.Def(1, StringDef{6, "MPI_Send"});
  w.Def(1, StringDef{7, ""});
  w.Def(1, StringDef{8, long_text});
  w.Def(1, ProcessDef{4242, -1, 1, 2, 3, 0});
  w.Def(1, ClockDef{0, 1e9, 1700000000123456789ull, 123456789});
  w.Def(1, StreamDef{0, 4242, 4});
  w.Def(1, StreamDef{1, 4243, 0});
  w.Def(1, StreamDef{2, 4244, 8});
  w.Def(1, CategoryDef{1, 5});
  w.Def(1, StateDef{1, 5, 1, (1u << 24) | 0xff8800});
  w.Def(1, StateDef{2, 6, 1, 0});
  w.Def(1, EventTypeDef{1, 4, 1, 1});
  w.Def(1, EventTypeDef{2, 5, 1, 2});
  w.Def(1, EventTypeDef{3, 6, 1, 3});
  w.Def(1, CallsiteDef{1, 2, 42, 4});
  w.Def(1, CallsiteDef{2, 2, 0, 0});
  w.Def(1, CounterDef{1, 5, 7, 1, 1});
  w.Def(1, CounterDef{2, 6, 0, 2, 1});
  w.Def(1, CommunicatorDef{1, 6, 0});
  w.Def(1, CommunicatorDef{2, 4, 1});
  w.Def(1, AttributeDef{4, 5});
  w.Def(1, AttributeDef{4, 6});  // the same key twice: attributes are a list

  // Process 7: TSC ticks, converted through clock_sync pairs.
  w.Def(7, StringDef{1, "host-b"});
  w.Def(7, ProcessDef{99, 3, 1, 1, 0, 1});
  w.Def(7, ClockDef{1, 2e9, 1700000000000000000ull, 5000});
  w.Def(7, ClockSyncDef{1000, 5000});
  w.Def(7, ClockSyncDef{3000, 6000});
  w.Def(7, StreamDef{0, 99, 0});
  w.Def(7, StreamDef{5, 100, 1});
  w.Def(7, StateDef{1, 1, 0, 0});
  w.Def(7, CounterDef{1, 1, 0, 1, 0});

  uint64_t t = 1'000'000'000'000ull;
  w.Event(1, 0, t, ThreadBeginRecord{});
  w.Event(1, 0, t, EnterRecord{1, 1});  // dt = 0
  w.Event(1, 0, t + 1, EventIntRecord{1, 1, kI64Min});
  w.Event(1, 0, t + 2, EventIntRecord{1, 0, kI64Max});
  w.Event(1, 0, t + 3, EventDoubleRecord{2, 2, -0.0});
  w.Event(1, 0, t + 4, EventDoubleRecord{2, 2, 3.141592653589793});
  w.Event(1, 0, t + 5, EventStringRecord{3, 1, ""});
  w.Event(1, 0, t + 6, EventStringRecord{3, 1, long_text});
  w.Event(7, 0, 1000, ThreadBeginRecord{});
  w.Event(1, 0, t + 200, SendRecord{1, -1, 7, 4096, 0});
  w.Event(1, 0, t + 300, RecvRecord{1, 3, -5, 0, 12});
  w.Event(1, 0, t + 301, SendRecord{2, 2, kI64Max, kU64Max, kU64Max});
  w.Event(1, 0, t + 400, CounterIntRecord{1, -123456789});
  w.Event(1, 0, t + 401, CounterDoubleRecord{2, std::numeric_limits<double>::infinity()});
  w.Event(1, 0, t + 402, CounterDoubleRecord{2, -1e-300});
  w.Event(1, 0, t + 500, RmaRecord{0, 1, 0, 3, 65536});
  w.Event(1, 0, t + 501, RmaRecord{3, 1, kI64Min, kI64Max, 0});
  w.Event(1, 0, t + 600, ControlRecord{0});
  w.Event(1, 0, t + (uint64_t{1} << 40), ControlRecord{1});  // a dt of 5+ varint bytes
  w.Event(1, 0, t + (uint64_t{1} << 40) + 1, LostRecord{17});
  w.Event(1, 0, t + (uint64_t{1} << 40) + 2, LeaveRecord{1});

  // Stream (1, 1): many nested enter/leave pairs, spanning chunks; a state
  // defined half-way (its DEFS chunk lands between EVENTS chunks) and a
  // replacement of state 2 (the later definition wins).
  uint64_t u = t + 10;
  for (int i = 0; i < 1500; ++i) {
    if (i == 700) {
      w.Def(1, StringDef{9, "late_state"});
      w.Def(1, StateDef{3, 9, 1, 0});
      w.Def(1, StateDef{2, 6, 1, (1u << 24) | 0x00ff00});
    }
    const uint64_t state = i < 700 ? 1 + (i % 2) : 3;
    w.Event(1, 1, u, EnterRecord{state, static_cast<uint64_t>(i % 3)});
    u += static_cast<uint64_t>(i % 5);
    w.Event(1, 1, u, LeaveRecord{state});
    u += 100 + static_cast<uint64_t>(i % 7);
  }

  w.Event(1, 2, 5, EventIntRecord{kU64Max, kU64Max, -1});
  w.Event(1, 2, kU64Max - 1, EventIntRecord{0, 0, 0});
  w.Event(1, 2, kU64Max, ThreadEndRecord{});

  w.Event(7, 0, 1000, EnterRecord{1, 0});
  w.Event(7, 0, 2000, LeaveRecord{1});
  w.Event(7, 0, 4000, ThreadEndRecord{});
  w.Event(7, 5, 500, CounterIntRecord{1, 1});
  w.Event(7, 5, 3000, CounterIntRecord{1, 2});
  w.Def(7, ClockSyncDef{5000, 8000});  // defined last, still used for every tick
}

Status WriteBusyTrace(const std::string& path, WriterOptions options, int processes, int streams,
                      int records, uint32_t seed) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<TraceWriter> w, TraceWriter::Create(path, options));
  std::mt19937 rng(seed);
  std::vector<uint64_t> next_state(static_cast<size_t>(processes) + 1, 1);
  for (int p = 1; p <= processes; ++p) {
    const uint32_t pid = static_cast<uint32_t>(p);
    w->Def(pid, StringDef{1, "host"});
    w->Def(pid, ProcessDef{1000u + pid, p - 1, 1, 1, 1, 0});
    w->Def(pid, ClockDef{p % 2 == 0 ? 1u : 0u, 3e9, 0, 0});
    w->Def(pid, ClockSyncDef{0, 0});
    for (int s = 0; s < streams; ++s)
      w->Def(pid, StreamDef{static_cast<uint64_t>(s), 2000u + static_cast<uint64_t>(s), 0});
  }
  std::vector<uint64_t> ticks(static_cast<size_t>(processes * streams), 0);
  for (int i = 0; i < records; ++i) {
    for (int p = 1; p <= processes; ++p) {
      const uint32_t pid = static_cast<uint32_t>(p);
      if (i % 97 == 0) {  // a new state now and then: DEFS chunks between EVENTS chunks
        const uint64_t id = next_state[static_cast<size_t>(p)]++;
        w->Def(pid, StringDef{100 + id, "state_" + std::to_string(id)});
        w->Def(pid, StateDef{id, 100 + id, 0, 0});
        if (p % 2 == 0) {
          const uint64_t at = static_cast<uint64_t>(i);
          w->Def(pid, ClockSyncDef{at * 1000, at * 333 + 1});
        }
      }
      for (int s = 0; s < streams; ++s) {
        uint64_t& tick = ticks[static_cast<size_t>((p - 1) * streams + s)];
        tick += rng() % 2000;
        const uint64_t state = 1 + rng() % (next_state[static_cast<size_t>(p)] - 1);
        const uint32_t sid = static_cast<uint32_t>(s);
        switch (rng() % 6) {
          case 0:
            w->Event(pid, sid, tick, EnterRecord{state, rng() % 4});
            break;
          case 1:
            w->Event(pid, sid, tick, LeaveRecord{state});
            break;
          case 2:
            w->Event(pid, sid, tick, EventIntRecord{1, 0, static_cast<int64_t>(rng()) - (1 << 30)});
            break;
          case 3:
            w->Event(pid, sid, tick, SendRecord{1, p % 3, i, rng() % 100000, 0});
            break;
          case 4:
            w->Event(pid, sid, tick, CounterDoubleRecord{1, rng() / 7.0});
            break;
          default:
            w->Event(pid, sid, tick,
                     EventStringRecord{1, 0, std::string(rng() % 40, 'a' + i % 26)});
        }
      }
    }
  }
  return w->Finish();
}

}  // namespace plx::format::testing
