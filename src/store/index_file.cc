// The trace index file: a 16-byte header, typed sections, and a trailer with
// a checksum of everything before it (docs/format.md, "The trace index").
#include "store/index_file.h"

#include <zstd.h>

#include <cstring>

#include "base/checksum.h"
#include "base/strings.h"
#include "model/def_merger.h"
#include "store/index_codec.h"
#include "store/index_repair.h"
#include "store/index_results.h"
#include "store/index_summary.h"

namespace plx::store {

namespace {

constexpr uint8_t kMagic[8] = {0x89, 'P', 'L', 'X', 'I', 'D', 'X', '\n'};
constexpr uint8_t kTrailerMagic[8] = {'P', 'L', 'X', 'I', 'E', 'N', 'D', '\n'};
constexpr size_t kHeaderSize = 16, kSectionHeaderSize = 24, kTrailerSize = 16;
constexpr uint16_t kMajor = 1, kMinor = 1;
constexpr uint32_t kIdentitySection = 1, kSkeletonSection = 2, kRepairSection = 3,
                   kSummarySection = 4, kStatisticsSection = 5, kAnalysesSection = 6;
constexpr uint64_t kMaxRaw = uint64_t{1} << 31;  // a section's decompressed bytes

void PutSection(std::vector<uint8_t>* out, uint32_t type, const std::vector<uint8_t>& raw,
                bool compress) {
  std::vector<uint8_t> stored;
  uint32_t codec = 0;
  if (compress && !raw.empty()) {
    stored.resize(ZSTD_compressBound(raw.size()));
    const size_t n = ZSTD_compress(stored.data(), stored.size(), raw.data(), raw.size(), 3);
    if (!ZSTD_isError(n) && n < raw.size()) {
      stored.resize(n);
      codec = 1;
    }
  }
  const std::vector<uint8_t>& payload = codec == 1 ? stored : raw;
  uint8_t h[kSectionHeaderSize];
  StoreLE<uint32_t>(h, type);
  StoreLE<uint32_t>(h + 4, codec);
  StoreLE<uint64_t>(h + 8, raw.size());
  StoreLE<uint64_t>(h + 16, payload.size());
  out->insert(out->end(), h, h + kSectionHeaderSize);
  out->insert(out->end(), payload.begin(), payload.end());
}

// The statistics and analyses sections `contents` holds.
void PutResults(std::vector<uint8_t>* out, const IndexContents& contents, bool compress) {
  if (contents.statistics) {
    IndexWriter r;
    PutStatistics(&r, *contents.statistics);
    PutSection(out, kStatisticsSection, r.bytes(), compress);
  }
  if (contents.analyses) {
    IndexWriter r;
    PutAnalyses(&r, *contents.analyses);
    PutSection(out, kAnalysesSection, r.bytes(), compress);
  }
}

// The checksum of everything before it, and the end magic.
void PutTrailer(std::vector<uint8_t>* out) {
  uint8_t trailer[kTrailerSize];
  StoreLE<uint64_t>(trailer, Checksum64(out->data(), out->size()));
  std::memcpy(trailer + 8, kTrailerMagic, sizeof kTrailerMagic);
  out->insert(out->end(), trailer, trailer + kTrailerSize);
}

void PutStats(IndexWriter* w, const model::LoadStats& s) {
  for (uint64_t v : {s.records, s.unknown_record_kinds, s.leave_without_enter, s.leave_mismatch,
                     s.unclosed_slices, s.undefined_refs, s.lost_records, s.damaged_chunks})
    w->U(v);
}

bool GetStats(IndexReader* r, model::LoadStats* s) {
  for (uint64_t* v :
       {&s->records, &s->unknown_record_kinds, &s->leave_without_enter, &s->leave_mismatch,
        &s->unclosed_slices, &s->undefined_refs, &s->lost_records, &s->damaged_chunks})
    if (!r->U(v)) return false;
  return true;
}

void PutRows(IndexWriter* w, const RowCounts& rows, const RowCounts& base) {
  for (size_t i = 0; i < model::kTableCount; ++i)
    w->U(rows.table[i] - base.table[i]);
  w->U(rows.texts - base.texts);
}

bool GetRows(IndexReader* r, const RowCounts& base, RowCounts* rows) {
  for (size_t i = 0; i < model::kTableCount; ++i) {
    uint64_t d = 0;
    if (!r->U(&d)) return false;
    rows->table[i] = base.table[i] + d;
  }
  uint64_t d = 0;
  if (!r->U(&d)) return false;
  rows->texts = base.texts + d;
  return true;
}

void PutSkeleton(IndexWriter* w, const ThreadSkeleton& k) {
  w->U(k.records);
  w->S(k.first_ns);
  w->S(k.last_ns);
  w->U(k.ended ? 1 : 0);
  PutStats(w, k.stats);
  PutRows(w, k.rows, RowCounts());
  w->U(k.problems.size());
  for (const std::string& p : k.problems)
    w->Str(p);
  w->U(k.undefined.size());
  for (const UndefinedRef& u : k.undefined) {
    w->U(u.kind);
    w->U(u.process);
    w->U(u.id);
  }
  w->U(k.chunks.size());
  const ChunkEntry* prev = nullptr;
  for (const ChunkEntry& e : k.chunks) {
    const ChunkEntry zero;
    const ChunkEntry& p = prev ? *prev : zero;
    w->U(e.file_chunk);
    PutRows(w, e.rows, p.rows);
    w->U(e.records - p.records);
    w->S(e.last_ns - p.last_ns);
    w->U(e.frames_first - p.frames_first);
    prev = &e;
  }
  w->U(k.frames.size());
  for (const OpenFrame& f : k.frames) {
    w->U(f.long_slice);
    w->S(f.children_ns);
  }
  w->U(k.long_slices.size());
  uint64_t row = 0;
  for (const LongSlice& l : k.long_slices) {
    w->U(l.row - row);
    row = l.row;
    w->S(l.begin_ns);
    w->S(l.end_ns - l.begin_ns);
    w->S(l.self_ns);
    w->U(l.state);
    w->U(l.callsite == model::kNone ? 0 : uint64_t{l.callsite} + 1);
    w->U(l.local_state);
    w->U(l.depth);
    w->U(l.flags);
  }
}

bool GetSkeleton(IndexReader* r, ThreadSkeleton* k) {
  uint64_t ended = 0;
  size_t n = 0;
  if (!r->U(&k->records) || !r->S(&k->first_ns) || !r->S(&k->last_ns) || !r->U(&ended) ||
      !GetStats(r, &k->stats) || !GetRows(r, RowCounts(), &k->rows) || !r->Count(&n))
    return false;
  k->ended = ended != 0;
  k->problems.resize(n);
  for (std::string& p : k->problems)
    if (!r->Str(&p)) return false;
  if (!r->Count(&n, 3)) return false;
  k->undefined.resize(n);
  for (UndefinedRef& u : k->undefined)
    if (!r->U(&u.kind) || !r->U(&u.process) || !r->U(&u.id)) return false;
  if (!r->Count(&n, 13)) return false;
  k->chunks.resize(n);
  ChunkEntry zero;
  for (size_t i = 0; i < n; ++i) {
    const ChunkEntry& p = i > 0 ? k->chunks[i - 1] : zero;
    ChunkEntry& e = k->chunks[i];
    uint64_t records = 0;
    int64_t last = 0;
    uint32_t frames = 0;
    if (!r->U(&e.file_chunk) || !GetRows(r, p.rows, &e.rows) || !r->U(&records) || !r->S(&last) ||
        !r->U(&frames))
      return false;
    e.records = p.records + records;
    e.last_ns =
        static_cast<int64_t>(static_cast<uint64_t>(p.last_ns) + static_cast<uint64_t>(last));
    e.frames_first = p.frames_first + frames;
  }
  if (!r->Count(&n, 2)) return false;
  k->frames.resize(n);
  for (OpenFrame& f : k->frames)
    if (!r->U(&f.long_slice) || !r->S(&f.children_ns)) return false;
  if (!r->Count(&n, 9)) return false;
  k->long_slices.resize(n);
  uint64_t row = 0;
  for (LongSlice& l : k->long_slices) {
    uint64_t d = 0, callsite = 0;
    int64_t duration = 0;
    if (!r->U(&d) || !r->S(&l.begin_ns) || !r->S(&duration) || !r->S(&l.self_ns) ||
        !r->U(&l.state) || !r->U(&callsite) || !r->U(&l.local_state) || !r->U(&l.depth) ||
        !r->U(&l.flags) || callsite > model::kNone)
      return false;
    row += d;
    l.row = row;
    l.end_ns =
        static_cast<int64_t>(static_cast<uint64_t>(l.begin_ns) + static_cast<uint64_t>(duration));
    l.callsite = callsite == 0 ? model::kNone : static_cast<uint32_t>(callsite - 1);
  }
  return true;
}

}  // namespace

IndexIdentity IdentityOf(const format::TraceFile& file, uint32_t threads) {
  IndexIdentity id;
  id.content_id = file.content_id();
  id.file_size = file.size();
  id.records = file.total_records();
  id.threads = threads;
  id.contents_version = kIndexContentsVersion;
  return id;
}

std::vector<uint8_t> EncodeIndex(const IndexContents& contents, bool compress) {
  std::vector<uint8_t> out(kMagic, kMagic + sizeof kMagic);
  out.resize(kHeaderSize, 0);
  StoreLE<uint16_t>(out.data() + 8, kMajor);
  StoreLE<uint16_t>(out.data() + 10, kMinor);

  std::vector<uint8_t> identity(32);
  const IndexIdentity& id = contents.identity;
  StoreLE<uint64_t>(identity.data(), id.content_id);
  StoreLE<uint64_t>(identity.data() + 8, id.file_size);
  StoreLE<uint64_t>(identity.data() + 16, id.records);
  StoreLE<uint32_t>(identity.data() + 24, id.threads);
  StoreLE<uint32_t>(identity.data() + 28, id.contents_version);
  PutSection(&out, kIdentitySection, identity, false);

  IndexWriter w;
  w.U(contents.skeletons.size());
  for (const ThreadSkeleton& k : contents.skeletons)
    PutSkeleton(&w, k);
  PutSection(&out, kSkeletonSection, w.bytes(), compress);
  if (contents.repair) {
    IndexWriter r;
    PutRepair(&r, *contents.repair);
    PutSection(&out, kRepairSection, r.bytes(), compress);
  }
  if (contents.summary) {
    IndexWriter r;
    PutSummary(&r, *contents.summary);
    PutSection(&out, kSummarySection, r.bytes(), compress);
  }
  PutResults(&out, contents, compress);
  PutTrailer(&out);
  return out;
}

StatusOr<IndexContents> DecodeIndex(std::span<const uint8_t> bytes, const std::string& name,
                                    bool with_repair, bool with_summary, bool with_results) {
  const uint8_t* d = bytes.data();
  const size_t size = bytes.size();
  auto damage = [&](uint64_t offset, const char* what) {
    return DataLoss(StrFormat("%s: offset %llu: %s", name.c_str(),
                              static_cast<unsigned long long>(offset), what));
  };
  if (size < kHeaderSize + kTrailerSize) return damage(0, "too short for a trace index");
  if (std::memcmp(d, kMagic, sizeof kMagic) != 0) return damage(0, "not a trace index (magic)");
  if (LoadLE<uint16_t>(d + 8) != kMajor) return damage(8, "index format version not known");
  const uint8_t* trailer = d + size - kTrailerSize;
  if (std::memcmp(trailer + 8, kTrailerMagic, sizeof kTrailerMagic) != 0)
    return damage(size - 8, "no trailer (the index was cut short)");
  if (LoadLE<uint64_t>(trailer) != Checksum64(d, size - kTrailerSize))
    return damage(size - kTrailerSize, "checksum mismatch");

  IndexContents out;
  bool identity = false, skeletons = false;
  std::vector<uint8_t> raw;
  for (uint64_t off = kHeaderSize; off < size - kTrailerSize;) {
    if (size - kTrailerSize - off < kSectionHeaderSize) return damage(off, "section header cut");
    const uint32_t type = LoadLE<uint32_t>(d + off);
    const uint32_t codec = LoadLE<uint32_t>(d + off + 4);
    const uint64_t raw_size = LoadLE<uint64_t>(d + off + 8);
    const uint64_t stored = LoadLE<uint64_t>(d + off + 16);
    const uint64_t start = off + kSectionHeaderSize;
    if (stored > size - kTrailerSize - start) return damage(off, "section runs past the end");
    if (codec > 1 || raw_size > kMaxRaw || (codec == 0 && raw_size != stored))
      return damage(off, "bad section header");
    const uint8_t* payload = d + start;
    const bool wanted = type == kIdentitySection || type == kSkeletonSection ||
                        (type == kRepairSection && with_repair) ||
                        (type == kSummarySection && with_summary) ||
                        ((type == kStatisticsSection || type == kAnalysesSection) && with_results);
    if (codec == 1 && wanted) {
      const unsigned long long declared = ZSTD_getFrameContentSize(payload, stored);
      if (declared != raw_size) return damage(start, "compressed section of another size");
      raw.resize(raw_size);
      const size_t n = ZSTD_decompress(raw.data(), raw.size(), payload, stored);
      if (ZSTD_isError(n) || n != raw_size) return damage(start, "section does not decompress");
      payload = raw.data();
    }
    if (type == kIdentitySection) {
      if (raw_size < 32) return damage(start, "identity section too short");
      IndexIdentity& id = out.identity;
      id.content_id = LoadLE<uint64_t>(payload);
      id.file_size = LoadLE<uint64_t>(payload + 8);
      id.records = LoadLE<uint64_t>(payload + 16);
      id.threads = LoadLE<uint32_t>(payload + 24);
      id.contents_version = LoadLE<uint32_t>(payload + 28);
      identity = true;
    } else if (type == kSkeletonSection) {
      IndexReader r(payload, payload + raw_size);
      size_t n = 0;
      if (!r.Count(&n, 16)) return damage(start, "skeleton section: bad thread count");
      out.skeletons.resize(n);
      for (ThreadSkeleton& k : out.skeletons)
        if (!GetSkeleton(&r, &k)) return damage(start, "skeleton section: damaged thread");
      if (!r.at_end()) return damage(start, "skeleton section: bytes after the last thread");
      skeletons = true;
    } else if (type == kRepairSection && with_repair) {
      IndexReader r(payload, payload + raw_size);
      out.repair.emplace();
      if (!GetRepair(&r, &*out.repair) || !r.at_end())
        return damage(start, "repair section: damaged");
    } else if (type == kSummarySection && with_summary) {
      IndexReader r(payload, payload + raw_size);
      out.summary.emplace();
      if (!GetSummary(&r, &*out.summary) || !r.at_end())
        return damage(start, "timeline summary section: damaged");
    } else if (type == kStatisticsSection && with_results) {
      IndexReader r(payload, payload + raw_size);
      out.statistics.emplace();
      // At most what a budget of 8 GiB gives the mountain range (a sixteenth).
      if (!GetStatistics(&r, &*out.statistics, uint64_t{1} << 26) || !r.at_end())
        return damage(start, "statistics section: damaged");
    } else if (type == kAnalysesSection && with_results) {
      IndexReader r(payload, payload + raw_size);
      out.analyses.emplace();
      // Processes: at most one per thread (and a margin for processes that
      // recorded none), so a damaged count allocates no huge matrix.
      if (!GetAnalyses(&r, &*out.analyses, size_t{out.identity.threads} + 1024) || !r.at_end())
        return damage(start, "analyses section: damaged");
    }  // other types: sections of later minor versions, skipped
    off = start + stored;
  }
  if (!identity || !skeletons) return damage(kHeaderSize, "a section is missing");
  return out;
}

StatusOr<std::vector<uint8_t>> ReplaceResults(std::span<const uint8_t> old, const std::string& name,
                                              const IndexContents& results) {
  // The whole file's checks (magic, trailer, checksum, sections' bounds).
  PLX_RETURN_IF_ERROR(DecodeIndex(old, name).status());
  const uint8_t* d = old.data();
  std::vector<uint8_t> out(d, d + kHeaderSize);
  for (uint64_t off = kHeaderSize; off < old.size() - kTrailerSize;) {
    const uint32_t type = LoadLE<uint32_t>(d + off);
    const uint64_t end = off + kSectionHeaderSize + LoadLE<uint64_t>(d + off + 16);
    const bool replaced = (type == kStatisticsSection && results.statistics) ||
                          (type == kAnalysesSection && results.analyses);
    if (!replaced) out.insert(out.end(), d + off, d + end);
    off = end;
  }
  PutResults(&out, results, /*compress=*/true);
  PutTrailer(&out);
  return out;
}

Status CheckIndexFits(const IndexContents& contents, const format::TraceFile& file,
                      const std::vector<const format::StreamInfo*>& streams,
                      const model::Trace& trace) {
  auto stale = [&](const std::string& why) {
    return DataLoss("the index does not fit " + file.name() + " (" + why + ")");
  };
  if (!(contents.identity == IdentityOf(file, static_cast<uint32_t>(streams.size()))))
    return stale("built from other contents or by another version");
  if (contents.skeletons.size() != streams.size()) return stale("thread count");
  for (size_t t = 0; t < streams.size(); ++t) {
    const ThreadSkeleton& k = contents.skeletons[t];
    const std::vector<uint32_t> none;
    const std::vector<uint32_t>& chunks = streams[t] ? streams[t]->chunks : none;
    if (k.chunks.size() != chunks.size()) return stale("a thread's chunks");
    // At most the records the chunk headers count (fewer where a chunk is
    // damaged); every row (and text) comes from a record of its own, and rows
    // only grow from chunk to chunk.
    uint64_t records = 0;
    for (size_t c = 0; c < chunks.size(); ++c) {
      const ChunkEntry& e = k.chunks[c];
      if (e.file_chunk != chunks[c] || e.records > records ||
          (c > 0 && e.records < k.chunks[c - 1].records))
        return stale("a thread's chunks");
      records += file.event_chunks()[chunks[c]].header.record_count;
      if (e.frames_first > k.frames.size() ||
          (c > 0 && e.frames_first < k.chunks[c - 1].frames_first))
        return stale("open frames");
      for (size_t i = 0; i < model::kTableCount; ++i)
        if (e.rows.table[i] > k.rows.table[i] ||
            (c > 0 && e.rows.table[i] < k.chunks[c - 1].rows.table[i]))
          return stale("row counts");
      if (e.rows.texts > k.rows.texts || (c > 0 && e.rows.texts < k.chunks[c - 1].rows.texts))
        return stale("row counts");
    }
    if (k.records > records) return stale("a thread's records");
    for (size_t i = 0; i < model::kTableCount; ++i)
      if (k.rows.table[i] > k.records) return stale("row counts");
    if (k.rows.texts > k.records) return stale("row counts");
    for (const OpenFrame& f : k.frames)
      if (f.long_slice >= k.long_slices.size()) return stale("open frames");
    for (size_t i = 0; i < k.long_slices.size(); ++i) {
      const LongSlice& l = k.long_slices[i];
      if ((i > 0 && l.row <= k.long_slices[i - 1].row) || l.row >= k.rows.slices())
        return stale("long slices");
      if (l.state >= trace.states.size() ||
          (l.callsite != model::kNone && l.callsite >= trace.callsites.size()))
        return stale("long slices");
    }
  }
  return CheckUndefinedRefs(contents, trace);
}

Status CheckUndefinedRefs(const IndexContents& contents, const model::Trace& trace) {
  for (const ThreadSkeleton& k : contents.skeletons)
    for (const UndefinedRef& u : k.undefined)
      if (u.kind > static_cast<uint8_t>(model::RefKind::kCommunicator) ||
          u.process >= trace.processes.size())
        return DataLoss("the index does not fit " + trace.source + " (undefined ids)");
  return Status::Ok();
}

}  // namespace plx::store
