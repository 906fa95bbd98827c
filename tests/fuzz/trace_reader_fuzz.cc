// libFuzzer target for the .plx reader: opens the input as a trace, reads and
// decodes every chunk, and also feeds the raw bytes to the record decoders.
// A second pass repairs the input's chunk checksums first, so mutations reach
// the payload decoders instead of stopping at a checksum mismatch.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "base/checksum.h"
#include "base/varint.h"
#include "format/definitions.h"
#include "format/layout.h"
#include "format/records.gen.h"
#include "format/tick_clock.h"
#include "format/trace_file.h"
#include "fuzz/repair_checksums.h"

namespace {

using namespace plx::format;

// Reads every field of every record: re-encoding copies each one (string views
// included, so a view past its buffer shows up under ASan), then hashes them.
struct Toucher {
  uint64_t sum = 0;
  std::vector<uint8_t> buf;

  template <typename R>
  void On(uint64_t tick, const R& r) {
    buf.resize(MaxEncodedSize(r));
    Hash(EncodeEvent(buf.data(), tick, r));
  }
  template <typename D>
  void On(const D& d) {
    buf.resize(MaxEncodedSize(d));
    Hash(EncodeDef(buf.data(), d));
  }
  void On(const ChunkEntry& e) {
    buf.resize(MaxEncodedSize(e));
    Hash(EncodeIndex(buf.data(), e));
  }
  void OnUnknown(uint8_t kind, uint64_t tick, const uint8_t* body, size_t size) {
    sum += kind + tick + plx::Checksum64(body, size);
  }
  void OnUnknown(uint8_t kind, const uint8_t* body, size_t size) {
    sum += kind + plx::Checksum64(body, size);
  }
  void Hash(const uint8_t* end) { sum += plx::Checksum64(buf.data(), end - buf.data()); }
};

void Use(uint64_t v) {
  volatile uint64_t sink = v;
  (void)sink;
}

void ExerciseTrace(std::vector<uint8_t> bytes) {
  auto opened = TraceFile::FromBytes("fuzz.plx", std::move(bytes));
  if (!opened.ok()) return;
  const TraceFile& f = **opened;
  Toucher t;
  std::vector<uint8_t> scratch;
  for (const ChunkInfo& c : f.event_chunks()) {
    std::span<const uint8_t> payload;
    if (f.ReadPayload(c, &scratch, &payload).ok()) t.sum += payload.size();
    (void)f.DecodeChunk(c, t, &scratch);
  }
  for (const auto& [id, d] : f.processes()) {
    const TickClock& clock = f.clock(id);
    for (const auto& [sid, s] : d.states)
      t.sum += d.Str(s.name).size() + s.color;
    for (const auto& [sid, s] : d.strings)
      t.sum += s.size();
    for (const ClockSyncDef& s : d.syncs)
      t.sum += static_cast<uint64_t>(clock.ToNs(s.tick));
    t.sum += d.streams.size() + d.callsites.size() + d.counters.size() + d.attributes.size();
  }
  for (const StreamInfo& s : f.streams()) {
    t.sum += f.ChunksInRange(s, s.begin_ns, s.begin_ns).size();
    t.sum += f.FindStream(s.process, s.stream) != nullptr;
  }
  for (const std::string& line : f.report().problems)
    t.sum += line.size();
  Use(t.sum);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  ExerciseTrace(bytes);
  plx::fuzz::RepairChecksums(&bytes);
  ExerciseTrace(std::move(bytes));

  // The record decoders on the raw bytes, as if they were a payload.
  Toucher t;
  DecodeError error;
  (void)DecodeEvents(data, data + size, 0, t, &error);
  (void)DecodeDefs(data, data + size, t, &error);
  (void)DecodeIndex(data, data + size, t, &error);
  ProcessDefs defs;
  (void)defs.Apply(data, data + size, &error);
  TickClock clock(defs.clock, defs.syncs);
  t.sum += static_cast<uint64_t>(clock.ToNs(0)) + static_cast<uint64_t>(clock.ToNs(UINT64_MAX));
  Use(t.sum);
  return 0;
}
