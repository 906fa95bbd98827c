// Index paths and atomic writes.
#include "store/index_location.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include "base/checksum.h"
#include "base/strings.h"

namespace plx::store {

namespace {

std::string CacheDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return std::string(xdg) + "/parallax";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::string(home) + "/.cache/parallax";
  return "";
}

// A file name in a shared directory: the trace's name and a hash of its
// absolute path, so two traces of the same name do not collide.
std::string SharedName(const std::string& trace_path, const std::string& suffix = ".plxi") {
  std::error_code ec;
  std::string absolute = std::filesystem::absolute(trace_path, ec).lexically_normal().string();
  if (ec) absolute = trace_path;
  const uint64_t hash = Checksum64(absolute.data(), absolute.size());
  return StrFormat("%016llx-", static_cast<unsigned long long>(hash)) +
         std::filesystem::path(trace_path).filename().string() + suffix;
}

Status WriteAll(int fd, std::span<const uint8_t> bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return IoError(path + ": " + std::strerror(n < 0 ? errno : ENOSPC));
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status WriteOne(const std::string& path, std::span<const uint8_t> bytes) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  std::random_device random;
  const std::string temp =
      StrFormat("%s.tmp.%d.%u", path.c_str(), static_cast<int>(::getpid()), random());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return IoError(temp + ": " + std::strerror(errno));
  Status s = WriteAll(fd, bytes, temp);
  if (::close(fd) != 0 && s.ok()) s = IoError(temp + ": " + std::strerror(errno));
  if (s.ok() && ::rename(temp.c_str(), path.c_str()) != 0)
    s = IoError(path + ": " + std::strerror(errno));
  if (!s.ok()) ::unlink(temp.c_str());
  return s;
}

// --index-dir's directory, else PLX_INDEX_DIR's ("" for neither).
std::string ChosenDir(const IndexSettings& settings) {
  if (!settings.dir.empty()) return settings.dir;
  const char* env = std::getenv("PLX_INDEX_DIR");
  return env != nullptr ? env : "";
}

}  // namespace

std::vector<std::string> IndexPaths(const std::string& trace_path, const IndexSettings& settings) {
  if (!settings.enabled || trace_path.empty()) return {};
  const std::string dir = ChosenDir(settings);
  if (!dir.empty()) return {dir + "/" + SharedName(trace_path)};
  const bool plx = trace_path.size() > 4 && trace_path.ends_with(".plx");
  std::vector<std::string> paths = {plx ? trace_path + "i" : trace_path + ".plxi"};
  const std::string cache = CacheDir();
  if (!cache.empty()) paths.push_back(cache + "/" + SharedName(trace_path));
  return paths;
}

std::vector<std::string> DerivedPaths(const std::string& path, const IndexSettings& settings,
                                      const std::string& suffix) {
  const std::string dir = ChosenDir(settings);
  if (!dir.empty()) return {dir + "/" + SharedName(path, suffix)};
  const std::string cache = CacheDir();
  if (cache.empty()) return {};
  return {cache + "/" + SharedName(path, suffix)};
}

StatusOr<std::string> WriteIndexFile(const std::vector<std::string>& paths,
                                     std::span<const uint8_t> bytes) {
  std::string why;
  for (const std::string& path : paths) {
    const Status s = WriteOne(path, bytes);
    if (s.ok()) return path;
    why += (why.empty() ? "" : "; ") + s.message();
  }
  return IoError(why.empty() ? "no place to keep the index" : why);
}

StatusOr<std::unique_ptr<MappedFile>> ReadIndexFile(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
    return NotFound(path + ": no index");
  return MappedFile::Open(path);
}

}  // namespace plx::store
