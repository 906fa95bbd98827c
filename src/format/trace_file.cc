// TraceFile: open by index or by scanning, resynchronise past damage, and
// verify + decompress chunk payloads.
#include "format/trace_file.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "base/checksum.h"
#include "base/strings.h"
#include "base/varint.h"

namespace plx::format {

namespace {

constexpr size_t kMaxProblems = 50;  // keep the report readable on badly damaged files

// One decompression context per thread, made on first use.
ZSTD_DCtx* ThreadDCtx() {
  struct Holder {
    ZSTD_DCtx* ctx = ZSTD_createDCtx();
    ~Holder() { ZSTD_freeDCtx(ctx); }
  };
  thread_local Holder holder;
  return holder.ctx;
}

// Lets go of the pages a walk over the file's chunk headers has passed, so
// opening a file larger than memory does not leave it all resident (the
// kernel maps up to 64 KiB around each page touched).
class PageTrimmer {
 public:
  explicit PageTrimmer(const MappedFile& file) : file_(file) {}
  ~PageTrimmer() { file_.Release(from_, file_.size() - from_); }
  void Passed(uint64_t offset) {
    if (offset < from_ + kStep) return;
    file_.Release(from_, offset - from_);
    from_ = offset;
  }

 private:
  static constexpr uint64_t kStep = uint64_t{16} << 20;
  const MappedFile& file_;
  uint64_t from_ = 0;
};

const char* KindName(uint8_t kind) {
  const KindInfo* info = EventKindInfo(kind);
  return info ? info->name : "unknown";
}

}  // namespace

StatusOr<std::unique_ptr<TraceFile>> TraceFile::Open(const std::string& path) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> file, MappedFile::Open(path));
  std::unique_ptr<TraceFile> t(new TraceFile(std::move(file)));
  PLX_RETURN_IF_ERROR(t->Load());
  return t;
}

StatusOr<std::unique_ptr<TraceFile>> TraceFile::FromBytes(std::string name,
                                                          std::vector<uint8_t> bytes) {
  std::unique_ptr<TraceFile> t(
      new TraceFile(MappedFile::FromBytes(std::move(name), std::move(bytes))));
  PLX_RETURN_IF_ERROR(t->Load());
  return t;
}

void TraceFile::Release(const ChunkInfo& chunk) const {
  constexpr uint64_t kAll = uint64_t{64} << 20;
  const uint64_t size = kChunkHeaderSize + chunk.header.stored_size;
  file_->Release(chunk.offset, size);
  const uint64_t before = released_.fetch_add(size);
  if (before / kAll != (before + size) / kAll) file_->Release(0, file_->size());
}

void TraceFile::Problem(std::string line) {
  if (report_.problems.size() < kMaxProblems) {
    report_.problems.push_back(std::move(line));
  } else if (report_.problems.size() == kMaxProblems) {
    report_.problems.push_back("(further problems not listed)");
  }
}

Status TraceFile::Load() {
  const uint8_t* d = file_->data();
  const size_t size = file_->size();
  if (size < kFileHeaderSize)
    return DataLoss(StrFormat("%s: %zu bytes: too short for the %zu-byte .plx file header",
                              name().c_str(), size, kFileHeaderSize));
  if (std::memcmp(d, kFileMagic, sizeof kFileMagic) != 0)
    return InvalidArgument(name() + ": offset 0: not a .plx trace (bad file magic)");
  const uint16_t major = LoadLE<uint16_t>(d + 8);
  version_minor_ = LoadLE<uint16_t>(d + 10);
  if (major != kVersionMajor)
    return Unimplemented(StrFormat("%s: offset 8: format version %u.%u; this build reads %u.x",
                                   name().c_str(), major, version_minor_, kVersionMajor));
  std::vector<ChunkInfo> all;
  if (!LoadIndex(&all)) {
    all.clear();
    Scan(&all);
  }
  Finish(std::move(all));
  return Status::Ok();
}

bool TraceFile::LoadIndex(std::vector<ChunkInfo>* all) {
  const uint8_t* d = file_->data();
  const size_t size = file_->size();
  if (size < kFileHeaderSize + kChunkHeaderSize + kTrailerSize) return false;
  const uint8_t* trailer = d + size - kTrailerSize;
  if (std::memcmp(trailer + 8, kTrailerMagic, sizeof kTrailerMagic) != 0) return false;
  const uint64_t index_offset = LoadLE<uint64_t>(trailer);
  auto unusable = [&](const char* why) {
    Problem(StrFormat("offset %llu: index unusable (%s); scanning the file instead",
                      static_cast<unsigned long long>(index_offset), why));
    return false;
  };
  if (index_offset < kFileHeaderSize || index_offset > size - kTrailerSize - kChunkHeaderSize)
    return unusable("offset outside the file");
  ChunkHeader h;
  if (const char* why = ParseChunkHeader(d + index_offset, &h)) return unusable(why);
  if (h.type != ChunkType::kIndex) return unusable("not an INDEX chunk");
  if (index_offset + kChunkHeaderSize + h.stored_size != size - kTrailerSize)
    return unusable("size does not reach the trailer");
  ChunkInfo index_chunk{index_offset, h, 0, 0};
  std::vector<uint8_t> scratch;
  std::span<const uint8_t> payload;
  if (!ReadPayload(index_chunk, &scratch, &payload).ok()) return unusable("payload damaged");

  struct Collector : IndexVisitorBase {
    using IndexVisitorBase::On;
    std::vector<uint64_t> offsets;
    void On(const ChunkEntry& e) { offsets.push_back(e.offset); }
  } collector;
  DecodeError error;
  if (!DecodeIndex(payload.data(), payload.data() + payload.size(), collector, &error))
    return unusable("entries damaged");
  uint64_t expected = kFileHeaderSize;
  PageTrimmer trim(*file_);
  for (uint64_t off : collector.offsets) {
    trim.Passed(off);
    // Entries must tile the file from the header to the index chunk.
    if (off != expected) return unusable("entries do not tile the file");
    ChunkInfo c{off, {}, 0, 0};
    if (ParseChunkHeader(d + off, &c.header) != nullptr) return unusable("entry header damaged");
    expected = off + kChunkHeaderSize + c.header.stored_size;
    if (expected > index_offset) return unusable("entry overlaps the index");
    all->push_back(c);
  }
  if (expected != index_offset) return unusable("entries do not reach the index");
  report_.used_index = true;
  report_.readable_bytes = size;
  return true;
}

void TraceFile::Scan(std::vector<ChunkInfo>* all) {
  const uint8_t* d = file_->data();
  const size_t size = file_->size();
  uint64_t off = kFileHeaderSize;
  report_.readable_bytes = off;
  PageTrimmer trim(*file_);
  while (off < size) {
    trim.Passed(off);
    const uint64_t left = size - off;
    if (left == kTrailerSize && std::memcmp(d + off + 8, kTrailerMagic, 8) == 0) break;
    if (left < kChunkHeaderSize) {
      report_.truncated = true;
      Problem(StrFormat("offset %llu: file ends %llu bytes into a chunk header (cut short)",
                        static_cast<unsigned long long>(off),
                        static_cast<unsigned long long>(left)));
      break;
    }
    ChunkInfo c{off, {}, 0, 0};
    const char* why = ParseChunkHeader(d + off, &c.header);
    if (why == nullptr) {
      const uint64_t end = off + kChunkHeaderSize + c.header.stored_size;
      if (end > size) {
        report_.truncated = true;
        Problem(
            StrFormat("offset %llu: %s chunk needs %llu bytes, the file ends after %llu "
                      "(cut short)",
                      static_cast<unsigned long long>(off), ChunkTypeName(c.header.type),
                      static_cast<unsigned long long>(kChunkHeaderSize) + c.header.stored_size,
                      static_cast<unsigned long long>(left)));
        break;
      }
      // The index describes the other chunks; like LoadIndex, do not list it.
      if (c.header.type != ChunkType::kIndex) all->push_back(c);
      off = end;
      report_.readable_bytes = off;
      continue;
    }
    // Damaged header: look for the next chunk whose header checks out and fits.
    ++report_.damaged_chunks;
    uint64_t next = 0;
    for (uint64_t p = off + 1; p + kChunkHeaderSize <= size; ++p) {
      const void* hit = std::memchr(d + p, kChunkMagic[0], size - kChunkHeaderSize - p + 1);
      if (hit == nullptr) break;
      p = static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - d);
      ChunkHeader h;
      if (ParseChunkHeader(d + p, &h) == nullptr && p + kChunkHeaderSize + h.stored_size <= size) {
        next = p;
        break;
      }
    }
    if (next == 0) {
      Problem(StrFormat("offset %llu: %s; no valid chunk after it (%llu bytes unreadable)",
                        static_cast<unsigned long long>(off), why,
                        static_cast<unsigned long long>(left)));
      break;
    }
    Problem(StrFormat("offset %llu: %s; skipped %llu bytes to the next chunk",
                      static_cast<unsigned long long>(off), why,
                      static_cast<unsigned long long>(next - off)));
    off = next;
  }
}

void TraceFile::Finish(const std::vector<ChunkInfo>& all) {
  report_.chunks = all.size();
  {
    std::vector<uint8_t> headers(8 + all.size() * kChunkHeaderSize);
    StoreLE<uint64_t>(headers.data(), file_->size());
    PageTrimmer trim(*file_);
    for (size_t i = 0; i < all.size(); ++i) {
      trim.Passed(all[i].offset);
      std::memcpy(headers.data() + 8 + i * kChunkHeaderSize, file_->data() + all[i].offset,
                  kChunkHeaderSize);
    }
    content_id_ = Checksum64(headers.data(), headers.size());
  }
  std::vector<uint8_t> scratch;
  // Definitions first, in file order: a later definition replaces an earlier one.
  for (const ChunkInfo& c : all) {
    if (c.header.type != ChunkType::kDefs) continue;
    const PageTrimmer trim_defs(*file_);  // DEFS chunks are few; let each go
    ProcessDefs& defs = processes_[c.header.process];
    defs.id = c.header.process;
    std::span<const uint8_t> payload;
    Status s = ReadPayload(c, &scratch, &payload);
    if (!s.ok()) {
      ++report_.damaged_chunks;
      std::string line = s.message();
      if (line.rfind(name() + ": ", 0) == 0) line.erase(0, name().size() + 2);
      Problem(std::move(line));
      continue;
    }
    DecodeError error;
    if (!defs.Apply(payload.data(), payload.data() + payload.size(), &error)) {
      ++report_.damaged_chunks;
      const KindInfo* info = DefKindInfo(error.kind);
      Problem(StrFormat("offset %llu: DEFS chunk, payload byte %zu: %s definition: bad %s",
                        static_cast<unsigned long long>(c.offset), error.offset,
                        info ? info->name : "unknown", error.field));
    }
  }
  for (auto& [id, defs] : processes_)
    clocks_.emplace(id, TickClock(defs.clock, defs.syncs));

  for (const ChunkInfo& c : all) {
    if (c.header.type == ChunkType::kEvents) {
      chunks_.push_back(c);
      if (processes_.find(c.header.process) == processes_.end())
        processes_[c.header.process].id = c.header.process;
    } else if (c.header.type != ChunkType::kDefs && c.header.type != ChunkType::kIndex) {
      ++report_.unknown_chunks;
    }
  }
  std::stable_sort(chunks_.begin(), chunks_.end(), [](const ChunkInfo& a, const ChunkInfo& b) {
    if (a.header.process != b.header.process) return a.header.process < b.header.process;
    if (a.header.stream != b.header.stream) return a.header.stream < b.header.stream;
    return a.header.first_index < b.header.first_index;
  });
  // The same records twice (a chunk rewritten after a crash mid-write): keep the first.
  std::vector<ChunkInfo> unique;
  unique.reserve(chunks_.size());
  for (ChunkInfo& c : chunks_) {
    if (!unique.empty() && unique.back().header.process == c.header.process &&
        unique.back().header.stream == c.header.stream &&
        unique.back().header.first_index == c.header.first_index) {
      ++report_.duplicate_chunks;
      continue;
    }
    unique.push_back(c);
  }
  chunks_ = std::move(unique);

  begin_ns_ = std::numeric_limits<int64_t>::max();
  end_ns_ = std::numeric_limits<int64_t>::min();
  for (uint32_t i = 0; i < chunks_.size(); ++i) {
    ChunkInfo& c = chunks_[i];
    const TickClock& clk = clock(c.header.process);
    c.begin_ns = clk.ToNs(c.header.tick_begin);
    c.end_ns = clk.ToNs(c.header.tick_end);
    if (streams_.empty() || streams_.back().process != c.header.process ||
        streams_.back().stream != c.header.stream) {
      StreamInfo s;
      s.process = c.header.process;
      s.stream = c.header.stream;
      s.begin_ns = c.begin_ns;
      s.end_ns = c.end_ns;
      s.missing_records = c.header.first_index;
      streams_.push_back(std::move(s));
    } else {
      StreamInfo& s = streams_.back();
      const ChunkInfo& prev = chunks_[s.chunks.back()];
      const uint64_t expected = prev.header.first_index + prev.header.record_count;
      if (c.header.first_index > expected) s.missing_records += c.header.first_index - expected;
    }
    StreamInfo& s = streams_.back();
    s.chunks.push_back(i);
    s.records += c.header.record_count;
    s.begin_ns = std::min(s.begin_ns, c.begin_ns);
    s.end_ns = std::max(s.end_ns, c.end_ns);
    total_records_ += c.header.record_count;
    begin_ns_ = std::min(begin_ns_, c.begin_ns);
    end_ns_ = std::max(end_ns_, c.end_ns);
  }
  if (chunks_.empty()) begin_ns_ = end_ns_ = 0;
  for (const StreamInfo& s : streams_) {
    if (s.missing_records > 0)
      Problem(StrFormat("process %u stream %u: %llu records missing between chunks", s.process,
                        s.stream, static_cast<unsigned long long>(s.missing_records)));
  }
}

const TickClock& TraceFile::clock(uint32_t process) const {
  static const TickClock kIdentity;
  auto it = clocks_.find(process);
  return it == clocks_.end() ? kIdentity : it->second;
}

const StreamInfo* TraceFile::FindStream(uint32_t process, uint32_t stream) const {
  auto it = std::lower_bound(streams_.begin(), streams_.end(), std::make_pair(process, stream),
                             [](const StreamInfo& s, const std::pair<uint32_t, uint32_t>& key) {
                               return std::make_pair(s.process, s.stream) < key;
                             });
  if (it == streams_.end() || it->process != process || it->stream != stream) return nullptr;
  return &*it;
}

std::vector<const ChunkInfo*> TraceFile::ChunksInRange(const StreamInfo& stream, int64_t begin_ns,
                                                       int64_t end_ns) const {
  std::vector<const ChunkInfo*> out;
  for (uint32_t i : stream.chunks) {
    const ChunkInfo& c = chunks_[i];
    if (c.end_ns >= begin_ns && c.begin_ns <= end_ns) out.push_back(&c);
  }
  return out;
}

Status TraceFile::ReadPayload(const ChunkInfo& chunk, std::vector<uint8_t>* scratch,
                              std::span<const uint8_t>* payload) const {
  const ChunkHeader& h = chunk.header;
  const uint64_t start = chunk.offset + kChunkHeaderSize;
  auto where = [&] {
    return StrFormat("%s: offset %llu: %s chunk (process %u, stream %u)", name().c_str(),
                     static_cast<unsigned long long>(chunk.offset), ChunkTypeName(h.type),
                     h.process, h.stream);
  };
  if (start + h.stored_size > size()) return DataLoss(where() + ": payload runs past the end");
  const uint8_t* stored = file_->data() + start;
  if (Checksum64(stored, h.stored_size) != h.payload_check)
    return DataLoss(where() + ": payload checksum mismatch");
  if (h.codec == Codec::kNone) {
    *payload = {stored, h.stored_size};
    return Status::Ok();
  }
  // Check the size the frame declares before allocating raw_size bytes for it.
  const unsigned long long declared = ZSTD_getFrameContentSize(stored, h.stored_size);
  if (declared == ZSTD_CONTENTSIZE_ERROR) return DataLoss(where() + ": zstd: bad frame header");
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != h.raw_size)
    return DataLoss(where() +
                    StrFormat(": payload is %llu bytes, header says %u", declared, h.raw_size));
  if (scratch->size() < h.raw_size) scratch->resize(h.raw_size);
  size_t n = ZSTD_decompressDCtx(ThreadDCtx(), scratch->data(), h.raw_size, stored, h.stored_size);
  if (ZSTD_isError(n)) return DataLoss(where() + ": zstd: " + ZSTD_getErrorName(n));
  if (n != h.raw_size)
    return DataLoss(where() + StrFormat(": payload is %zu bytes, header says %u", n, h.raw_size));
  *payload = {scratch->data(), n};
  return Status::Ok();
}

Status TraceFile::RecordError(const ChunkInfo& chunk, const DecodeError& error) const {
  return DataLoss(
      StrFormat("%s: offset %llu: EVENTS chunk (process %u, stream %u), payload byte "
                "%zu: %s record: bad %s",
                name().c_str(), static_cast<unsigned long long>(chunk.offset), chunk.header.process,
                chunk.header.stream, error.offset, KindName(error.kind), error.field));
}

}  // namespace plx::format
