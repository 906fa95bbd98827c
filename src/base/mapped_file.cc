// mmap-backed MappedFile.
#include "base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace plx {

namespace {
constexpr size_t kReadAheadLimit = size_t{64} << 20;
}  // namespace

StatusOr<std::unique_ptr<MappedFile>> MappedFile::Open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    if (e == ENOENT) return NotFound(path + ": no such file");
    return ErrnoError(path, e);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return ErrnoError(path, e);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return InvalidArgument(path + ": not a regular file");
  }
  std::unique_ptr<MappedFile> f(new MappedFile());
  f->name_ = path;
  f->on_disk_ = true;
  f->size_ = static_cast<size_t>(st.st_size);
  if (f->size_ > 0) {
    void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      return ErrnoError(path + ": mmap", e);
    }
    // Read ahead small files whole; large ones are read as they are used
    // (WILLNEED maps every page, so a 3 GB trace would be 3 GB resident).
    // Large ones: no fault-around either, which maps the pages next to each
    // one touched (opening touches every chunk header).
    ::madvise(p, f->size_, f->size_ <= kReadAheadLimit ? MADV_WILLNEED : MADV_RANDOM);
    f->data_ = static_cast<const uint8_t*>(p);
    f->mapped_ = true;
  }
  ::close(fd);
  return f;
}

std::unique_ptr<MappedFile> MappedFile::FromBytes(std::string name, std::vector<uint8_t> bytes) {
  std::unique_ptr<MappedFile> f(new MappedFile());
  f->name_ = std::move(name);
  f->owned_ = std::move(bytes);
  f->data_ = f->owned_.data();
  f->size_ = f->owned_.size();
  return f;
}

void MappedFile::Release(uint64_t offset, uint64_t size) const {
  if (!mapped_ || size_ <= kReadAheadLimit || offset >= size_) return;
  static const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGE_SIZE));
  const uint64_t begin = offset & ~(page - 1);
  const uint64_t end = std::min<uint64_t>(size_, offset + size);
  ::madvise(const_cast<uint8_t*>(data_) + begin, end - begin, MADV_DONTNEED);
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace plx
