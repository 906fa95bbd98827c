// Locating and naming the viewer's files (see static_files.h).
#include "server/api/static_files.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

// The viewer's folder from the program's folder, as installed (set by the
// build from the install layout; see cmake/install.cmake).
#ifndef PLX_WEB_FROM_BIN
#define PLX_WEB_FROM_BIN "../share/parallax/web"
#endif

namespace plx::server {
namespace {

bool HasIndex(const std::string& dir) {
  std::error_code ec;
  return !dir.empty() && std::filesystem::is_regular_file(dir + "/index.html", ec);
}

std::string ProgramDir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "" : exe.parent_path().string();
}

}  // namespace

std::string FindWebRoot(const std::string& configured) {
  if (!configured.empty()) return HasIndex(configured) ? configured : "";
  if (const char* env = std::getenv("PLX_WEB_DIR"); env != nullptr && HasIndex(env)) return env;
  const std::string bin = ProgramDir();
  if (bin.empty()) return "";
  const std::string installed = bin + "/" PLX_WEB_FROM_BIN;
  if (HasIndex(installed)) return installed;
  // A build tree (<build>/src/cli/parallax, or a test two folders down):
  // the build links share/parallax/web at its top to the source's web/dist.
  std::error_code ec;
  const std::string top = bin + "/../..";
  const std::string built = top + "/share/parallax/web";
  if (std::filesystem::is_regular_file(top + "/CMakeCache.txt", ec) && HasIndex(built))
    return built;
  return "";
}

std::optional<std::string> ResolveWebPath(const std::string& root, std::string_view path) {
  if (path.empty() || path.front() != '/') return std::nullopt;
  std::string relative;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view part = path.substr(start, end - start);
    if (part == "..") return std::nullopt;
    if (!part.empty() && part != ".") {
      for (char c : part)
        if (static_cast<unsigned char>(c) < 0x20 || c == '\\') return std::nullopt;
      if (!relative.empty()) relative += '/';
      relative += part;
    }
    start = end + 1;
  }
  if (relative.empty()) relative = "index.html";
  return root + "/" + relative;
}

std::optional<std::string> ServableFile(const std::string& root, const std::string& file) {
  std::error_code ec;
  const std::filesystem::path real_root = std::filesystem::canonical(root, ec);
  if (ec) return std::nullopt;
  const std::filesystem::path real = std::filesystem::canonical(file, ec);
  if (ec || !std::filesystem::is_regular_file(real, ec)) return std::nullopt;
  // Component by component, so that /web-other is not taken for under /web.
  auto r = real_root.begin();
  auto f = real.begin();
  for (; r != real_root.end(); ++r, ++f)
    if (f == real.end() || *f != *r) return std::nullopt;
  if (f == real.end()) return std::nullopt;  // the folder itself
  return real.string();
}

std::string ContentTypeFor(std::string_view file) {
  const size_t dot = file.find_last_of('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : file.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "json" || ext == "map") return "application/json";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "ico") return "image/x-icon";
  if (ext == "woff2") return "font/woff2";
  if (ext == "txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace plx::server
