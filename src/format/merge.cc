// MergeTraceFiles: walks each input's chunks the way a reader recovers a file
// (docs/format.md, "Reading a file without a usable index"), copies the good
// ones with a new process number, and finishes the file with IndexBuilder.
#include "format/merge.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <new>

#include "base/checksum.h"
#include "base/mapped_file.h"
#include "base/strings.h"
#include "base/varint.h"
#include "format/index_builder.h"
#include "format/layout.h"

namespace plx::format {

namespace {

constexpr size_t kMaxProblemsPerInput = 20;  // a garbage file must not flood the report
constexpr size_t kWriteBuffer = 1 << 20;
constexpr uint64_t kProgressStep = 1 << 20;

using ull = unsigned long long;

// The merged file while it is written: a temporary file beside the output,
// removed unless Commit() renamed it into place.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
  }

  Status Create(const std::string& output) {
    // O_EXCL with a name of our own: two merges into one directory never
    // share a temporary file.
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string name =
          StrFormat("%s.tmp-%ld-%d", output.c_str(), static_cast<long>(::getpid()), attempt);
      fd_ = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd_ >= 0) {
        tmp_ = std::move(name);
        buffer_.reserve(kWriteBuffer);
        return Status::Ok();
      }
      if (errno != EEXIST) return ErrnoError(name, errno);
    }
    return IoError(output + ": cannot create a temporary file beside it");
  }

  Status Write(const uint8_t* p, size_t n) {
    if (buffer_.size() + n > kWriteBuffer) PLX_RETURN_IF_ERROR(Flush());
    if (n >= kWriteBuffer) {
      PLX_RETURN_IF_ERROR(WriteAll(p, n));
    } else {
      buffer_.insert(buffer_.end(), p, p + n);
    }
    offset_ += n;
    return Status::Ok();
  }

  /// Writes what is buffered, syncs, and renames the file to `output`.
  Status Commit(const std::string& output) {
    PLX_RETURN_IF_ERROR(Flush());
    if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) return ErrnoError(tmp_, errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return ErrnoError(tmp_, errno);
    if (::rename(tmp_.c_str(), output.c_str()) != 0) return ErrnoError(output, errno);
    tmp_.clear();
    return Status::Ok();
  }

  uint64_t offset() const { return offset_; }

 private:
  Status Flush() {
    Status s = WriteAll(buffer_.data(), buffer_.size());
    buffer_.clear();
    return s;
  }

  Status WriteAll(const uint8_t* p, size_t n) {
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        return ErrnoError(tmp_, errno);
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
    return Status::Ok();
  }

  int fd_ = -1;
  std::string tmp_;
  std::vector<uint8_t> buffer_;
  uint64_t offset_ = 0;
};

struct Chunk {
  uint64_t offset;
  ChunkHeader header;
};

// The chunks of one input worth copying, in file order, and what was wrong.
struct InputChunks {
  std::vector<Chunk> chunks;
  std::map<uint32_t, uint64_t> processes;  // process number -> DEFS/EVENTS chunks
  std::vector<std::string> problems;
};

void Note(InputChunks* in, const std::string& path, std::string line) {
  if (in->problems.size() < kMaxProblemsPerInput) {
    in->problems.push_back(path + ": " + line);
  } else if (in->problems.size() == kMaxProblemsPerInput) {
    in->problems.push_back(path + ": (further problems not listed)");
  }
}

// Recovery scan from offset 16: valid chunks that lie wholly in the file are
// taken (INDEX chunks and chunks whose payload fails its check are left out);
// a damaged header is skipped to the next valid chunk; a chunk cut by the end
// of the file ends the scan.
InputChunks ScanInput(const MappedFile& file) {
  const std::string& path = file.name();
  const uint8_t* d = file.data();
  const uint64_t size = file.size();
  InputChunks in;
  uint64_t off = kFileHeaderSize;
  while (off < size) {
    const uint64_t left = size - off;
    if (left == kTrailerSize && std::memcmp(d + off + 8, kTrailerMagic, 8) == 0) break;
    if (left < kChunkHeaderSize) {
      Note(&in, path,
           StrFormat("offset %llu: file ends %llu bytes into a chunk header (cut short)",
                     static_cast<ull>(off), static_cast<ull>(left)));
      break;
    }
    ChunkHeader h;
    const char* why = ParseChunkHeader(d + off, &h);
    if (why == nullptr) {
      const uint64_t end = off + kChunkHeaderSize + h.stored_size;
      if (end > size) {
        Note(&in, path,
             StrFormat("offset %llu: %s chunk needs %llu bytes, the file ends after %llu "
                       "(cut short)",
                       static_cast<ull>(off), ChunkTypeName(h.type),
                       static_cast<ull>(kChunkHeaderSize + h.stored_size), static_cast<ull>(left)));
        break;
      }
      if (h.type == ChunkType::kDefs || h.type == ChunkType::kEvents) ++in.processes[h.process];
      if (h.type != ChunkType::kIndex) {
        if (Checksum64(d + off + kChunkHeaderSize, h.stored_size) == h.payload_check) {
          in.chunks.push_back({off, h});
        } else {
          Note(&in, path,
               StrFormat("offset %llu: %s chunk (stream %u): payload checksum mismatch; left out",
                         static_cast<ull>(off), ChunkTypeName(h.type), h.stream));
        }
      }
      off = end;
      continue;
    }
    uint64_t next = 0;
    for (uint64_t p = off + 1; p + kChunkHeaderSize <= size; ++p) {
      const void* hit = std::memchr(d + p, kChunkMagic[0], size - kChunkHeaderSize - p + 1);
      if (hit == nullptr) break;
      p = static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - d);
      ChunkHeader candidate;
      if (ParseChunkHeader(d + p, &candidate) == nullptr &&
          p + kChunkHeaderSize + candidate.stored_size <= size) {
        next = p;
        break;
      }
    }
    if (next == 0) {
      Note(&in, path,
           StrFormat("offset %llu: %s; no valid chunk after it (%llu bytes left out)",
                     static_cast<ull>(off), why, static_cast<ull>(left)));
      break;
    }
    Note(&in, path,
         StrFormat("offset %llu: %s; skipped %llu bytes to the next chunk", static_cast<ull>(off),
                   why, static_cast<ull>(next - off)));
    off = next;
  }
  return in;
}

// Opens an input; a file too short for the file header gives no chunks and a
// problem (a rank killed right after creating its part), anything that is not
// a .plx file of this major version is an error.
StatusOr<std::unique_ptr<MappedFile>> OpenInput(const std::string& path,
                                                std::vector<std::string>* problems) {
  PLX_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> file, MappedFile::Open(path));
  const size_t size = file->size();
  const uint8_t* d = file->data();
  // A prefix of the magic is a file cut short, not a foreign one (an empty file has no data()).
  if (size > 0 && std::memcmp(d, kFileMagic, std::min(size, sizeof kFileMagic)) != 0)
    return InvalidArgument(path + ": offset 0: not a .plx trace (bad file magic)");
  if (size < kFileHeaderSize) {
    problems->push_back(StrFormat("%s: %zu bytes: cut short inside the file header; nothing merged",
                                  path.c_str(), size));
    return file;
  }
  const uint16_t major = LoadLE<uint16_t>(d + 8);
  if (major != kVersionMajor)
    return Unimplemented(StrFormat("%s: offset 8: format version %u.x; this build reads %u.x",
                                   path.c_str(), major, kVersionMajor));
  return file;
}

StatusOr<MergeResult> Merge(std::span<const MergeInput> inputs, const std::string& output,
                            const std::function<void(uint64_t, uint64_t)>& progress) {
  if (inputs.empty()) return InvalidArgument("merge: no input files");
  std::map<uint32_t, const MergeInput*> by_process;
  for (const MergeInput& in : inputs) {
    auto [it, fresh] = by_process.emplace(in.process, &in);
    if (!fresh)
      return InvalidArgument(StrFormat("%s and %s: both would be process %u",
                                       it->second->path.c_str(), in.path.c_str(), in.process));
  }

  MergeResult result;
  std::vector<std::unique_ptr<MappedFile>> files;
  uint64_t total = 0;
  for (const MergeInput& in : inputs) {
    PLX_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> file, OpenInput(in.path, &result.problems));
    total += file->size();
    files.push_back(std::move(file));
  }

  OutputFile out;
  PLX_RETURN_IF_ERROR(out.Create(output));
  uint8_t header[kChunkHeaderSize];
  EncodeFileHeader(header);
  PLX_RETURN_IF_ERROR(out.Write(header, kFileHeaderSize));

  IndexBuilder index;
  uint64_t done = 0, reported = 0;
  if (progress) progress(0, total);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const MappedFile& file = *files[i];
    if (file.size() < kFileHeaderSize) {
      done += file.size();
      continue;
    }
    InputChunks in = ScanInput(file);
    if (in.processes.size() > 1) {
      auto first = in.processes.begin();
      return InvalidArgument(StrFormat(
          "%s: holds chunks of processes %u and %u; each merge input must hold one process",
          file.name().c_str(), first->first, std::next(first)->first));
    }
    for (std::string& line : in.problems)
      result.problems.push_back(std::move(line));
    for (const Chunk& c : in.chunks) {
      ChunkHeader h = c.header;
      h.process = inputs[i].process;
      EncodeChunkHeader(h, header);
      index.Add(out.offset(), h);
      PLX_RETURN_IF_ERROR(out.Write(header, kChunkHeaderSize));
      PLX_RETURN_IF_ERROR(out.Write(file.data() + c.offset + kChunkHeaderSize, h.stored_size));
      ++result.chunks;
      if (progress && done + c.offset - reported >= kProgressStep) {
        reported = done + c.offset;
        progress(reported, total);
      }
    }
    done += file.size();
  }

  const std::vector<uint8_t> tail = index.Finish(out.offset());
  PLX_RETURN_IF_ERROR(out.Write(tail.data(), tail.size()));
  result.bytes = out.offset();
  PLX_RETURN_IF_ERROR(out.Commit(output));
  if (progress) progress(total, total);
  return result;
}

}  // namespace

StatusOr<MergeResult> MergeTraceFiles(std::span<const MergeInput> inputs, const std::string& output,
                                      const std::function<void(uint64_t, uint64_t)>& progress) {
  // Callers may be libraries inside a traced program: nothing may escape.
  try {
    return Merge(inputs, output, progress);
  } catch (const std::bad_alloc&) {
    return Internal(output + ": merge: out of memory");
  } catch (...) {
    return Internal(output + ": merge: unexpected exception");
  }
}

}  // namespace plx::format
