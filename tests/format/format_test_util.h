// Helpers for the .plx format tests: raw file bytes, an independent walk over a
// file's chunks, field-by-field descriptions of records (driven by the
// generated KindInfo tables, so a new field is compared without test changes),
// and writers that remember what they wrote.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "format/definitions.h"
#include "format/layout.h"
#include "format/records.gen.h"
#include "format/trace_file.h"
#include "format/trace_writer.h"

namespace plx::format::testing {

std::vector<uint8_t> ReadBytes(const std::string& path);
void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes);

struct RawChunk {
  uint64_t offset = 0;
  ChunkHeader header;
  uint64_t end() const { return offset + kChunkHeaderSize + header.stored_size; }
};

/// The chunks of an undamaged file, walked header by header without TraceFile.
struct RawLayout {
  std::vector<RawChunk> chunks;   // in file order, the INDEX chunk not included
  std::optional<RawChunk> index;  // the INDEX chunk, when there is one
  bool trailer = false;           // the file ends with a 16-byte trailer
  uint64_t stopped_at = 0;        // where the walk ended: the file size when all is whole
};
/// Walks `bytes`; records a gtest failure (and stops) at anything that is not
/// a whole, valid chunk.
RawLayout WalkChunks(const std::vector<uint8_t>& bytes);

/// "name f1=v1 f2=v2 ..." for one encoded record, fields read by the KindInfo
/// table of its section; "unknown kind N (M body bytes)" for kinds not in it.
enum class Section { kEvent, kDef, kIndex };
std::string DescribeEncoded(Section section, const uint8_t* record, const uint8_t* end);

template <typename R>
std::string DescribeEvent(uint64_t tick, const R& r) {
  std::vector<uint8_t> buf(MaxEncodedSize(r));
  uint8_t* end = EncodeEvent(buf.data(), 0, r);
  return "t=" + std::to_string(tick) + " " + DescribeEncoded(Section::kEvent, buf.data(), end);
}
template <typename D>
std::string DescribeDef(const D& d) {
  std::vector<uint8_t> buf(MaxEncodedSize(d));
  uint8_t* end = EncodeDef(buf.data(), d);
  return DescribeEncoded(Section::kDef, buf.data(), end);
}

/// Collects every decoded event as a DescribeEvent line.
struct EventLog {
  std::vector<std::string> lines;
  std::vector<uint64_t> ticks;
  template <typename R>
  void On(uint64_t tick, const R& r) {
    lines.push_back(DescribeEvent(tick, r));
    ticks.push_back(tick);
  }
  void OnUnknown(uint8_t kind, uint64_t tick, const uint8_t*, size_t size);
};

/// Collects every decoded definition as a DescribeDef line.
struct DefLog {
  std::vector<std::string> lines;
  template <typename D>
  void On(const D& d) {
    lines.push_back(DescribeDef(d));
  }
  void OnUnknown(uint8_t kind, const uint8_t*, size_t size);
};

/// All records of a stream, chunk by chunk; a gtest failure on decode errors.
std::vector<std::string> DecodeStream(const TraceFile& file, const StreamInfo& stream);
/// Every definition record of each process in file order, read from the DEFS
/// chunks that WalkChunks finds (not through ProcessDefs).
std::map<uint32_t, std::vector<std::string>> ReadDefRecords(const TraceFile& file,
                                                            const std::vector<uint8_t>& bytes);
/// The definitions TraceFile gathered, one line each, in a fixed order.
std::vector<std::string> DescribeDefs(const ProcessDefs& defs);

/// Checks that two opened files hold the same chunks (offsets and headers),
/// streams, definitions and records; the open reports are not compared.
void ExpectSameContent(const TraceFile& a, const TraceFile& b);

/// A chunk's bytes (header + payload) from a payload, via ChunkEncoder.
std::vector<uint8_t> SealChunk(const ChunkHeader& header, const std::vector<uint8_t>& payload,
                               int zstd_level = 0);
/// Re-seals the header of the chunk at `offset` in place (fixing its check)
/// after a test edited header fields.
void ResealHeader(std::vector<uint8_t>* bytes, uint64_t offset);
/// The file without its INDEX chunk and trailer.
std::vector<uint8_t> StripIndex(const std::vector<uint8_t>& bytes);
/// The file (without index) plus an INDEX chunk listing `chunks` and a trailer.
std::vector<uint8_t> AppendIndex(const std::vector<uint8_t>& bytes,
                                 const std::vector<RawChunk>& chunks);
/// The file with an index rebuilt from its own chunks.
std::vector<uint8_t> RebuildIndex(const std::vector<uint8_t>& bytes);
/// `bytes` with `insert` put in at `offset`.
std::vector<uint8_t> Splice(const std::vector<uint8_t>& bytes, uint64_t offset,
                            const std::vector<uint8_t>& insert);

/// What a test wrote: per stream the DescribeEvent lines, per process the
/// DescribeDef lines, both in write order.
struct Expected {
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::string>> events;
  std::map<uint32_t, std::vector<std::string>> defs;
};

/// A TraceWriter that also fills an Expected.
class ExpectingWriter {
 public:
  ExpectingWriter(TraceWriter& w, Expected& e) : w_(w), e_(e) {}
  template <typename D>
  void Def(uint32_t process, const D& d) {
    w_.Def(process, d);
    e_.defs[process].push_back(DescribeDef(d));
  }
  template <typename R>
  void Event(uint32_t process, uint32_t stream, uint64_t tick, const R& r) {
    w_.Event(process, stream, tick, r);
    e_.events[{process, stream}].push_back(DescribeEvent(tick, r));
  }
  TraceWriter& writer() { return w_; }

 private:
  TraceWriter& w_;
  Expected& e_;
};

/// Writes a trace holding every event and definition kind, edge values
/// included, over two processes (1: ns ticks; 7: TSC ticks with clock_sync
/// pairs) and five streams; stream (1, 1) spans many chunks when
/// chunk_raw_size is small, and definitions arrive between events.
void WriteEveryKind(ExpectingWriter& w);

/// Writes a trace of `streams` streams in each of `processes` processes with
/// `records` records each, definitions added along the way so DEFS chunks sit
/// between EVENTS chunks. Deterministic for a given seed.
Status WriteBusyTrace(const std::string& path, WriterOptions options, int processes, int streams,
                      int records, uint32_t seed);

}  // namespace plx::format::testing
