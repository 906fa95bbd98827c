#include "interop/text_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>

#include "base/strings.h"

namespace plx::interop {

StatusOr<std::unique_ptr<TextWriter>> TextWriter::Create(const std::string& path) {
  const std::string tmp = StrFormat("%s.tmp-%ld", path.c_str(), static_cast<long>(::getpid()));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(path, errno);
  return std::unique_ptr<TextWriter>(new TextWriter(fd, path, tmp));
}

TextWriter::TextWriter(int fd, std::string path, std::string tmp)
    : fd_(fd), path_(std::move(path)), tmp_(std::move(tmp)), buffer_(new char[kBuffer]) {}

TextWriter::~TextWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

void TextWriter::Flush() {
  const char* p = buffer_.get();
  size_t n = used_;
  while (n > 0 && error_.ok()) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      error_ = ErrnoError(path_, errno);
      break;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  written_ += used_;
  used_ = 0;
}

void TextWriter::Spill(std::string_view text) {
  while (!text.empty()) {
    if (used_ == kBuffer) Flush();
    const size_t n = std::min(text.size(), kBuffer - used_);
    std::copy(text.begin(), text.begin() + static_cast<ptrdiff_t>(n), buffer_.get() + used_);
    used_ += n;
    text.remove_prefix(n);
  }
}

TextWriter& TextWriter::PutInt(int64_t value) {
  char* p = Room(24);
  used_ += static_cast<size_t>(std::to_chars(p, p + 24, value).ptr - p);
  return *this;
}

TextWriter& TextWriter::PutUint(uint64_t value) {
  char* p = Room(24);
  used_ += static_cast<size_t>(std::to_chars(p, p + 24, value).ptr - p);
  return *this;
}

TextWriter& TextWriter::PutFixed(int64_t value, int decimals) {
  if (decimals <= 0) return PutInt(value);
  char digits[24];
  // The magnitude as digits, without overflow for INT64_MIN.
  const uint64_t magnitude =
      value < 0 ? ~static_cast<uint64_t>(value) + 1 : static_cast<uint64_t>(value);
  const size_t n = static_cast<size_t>(std::to_chars(digits, digits + 24, magnitude).ptr - digits);
  const auto d = static_cast<size_t>(decimals);
  char* p = Room(64);
  char* out = p;
  if (value < 0) *out++ = '-';
  if (n <= d) {
    *out++ = '0';
    *out++ = '.';
    out = std::fill_n(out, d - n, '0');
    out = std::copy(digits, digits + n, out);
  } else {
    out = std::copy(digits, digits + (n - d), out);
    *out++ = '.';
    out = std::copy(digits + (n - d), digits + n, out);
  }
  used_ += static_cast<size_t>(out - p);
  return *this;
}

TextWriter& TextWriter::PutDouble(double value) {
  char* p = Room(32);
  used_ += static_cast<size_t>(std::to_chars(p, p + 32, value).ptr - p);
  return *this;
}

TextWriter& TextWriter::PutReal(double value) {
  char* p = Room(36);
  const size_t n = static_cast<size_t>(std::to_chars(p, p + 32, value).ptr - p);
  used_ += n;
  if (std::string_view(p, n).find_first_of(".en") == std::string_view::npos) Put(".0");
  return *this;
}

TextWriter& TextWriter::PutQuoted(std::string_view text) {
  Put('"');
  for (char c : text)
    Put(c == '"' ? '\'' : (c == '\n' || c == '\r') ? ' ' : c);
  return Put('"');
}

Status TextWriter::Finish() {
  Flush();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && error_.ok()) error_ = ErrnoError(path_, errno);
  if (error_.ok() && ::rename(tmp_.c_str(), path_.c_str()) != 0) error_ = ErrnoError(path_, errno);
  if (!error_.ok()) ::unlink(tmp_.c_str());
  return error_;
}

std::optional<int64_t> ParseFixed(std::string_view text, int decimals) {
  size_t i = 0;
  const bool negative = !text.empty() && (text[0] == '-' || text[0] == '+');
  if (negative) ++i;
  const bool minus = negative && text[0] == '-';
  uint64_t value = 0;
  int fraction = -1;  // digits after the point so far; -1 before the point
  bool any = false, round_up = false;
  constexpr uint64_t kLimit = uint64_t{1} << 63;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (fraction >= 0) return std::nullopt;
      fraction = 0;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    any = true;
    if (fraction >= decimals) {
      if (fraction == decimals) round_up = c >= '5';
      ++fraction;
      continue;
    }
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (kLimit - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
    if (fraction >= 0) ++fraction;
  }
  if (!any) return std::nullopt;
  for (int f = std::max(fraction, 0); f < decimals; ++f) {
    if (value > kLimit / 10) return std::nullopt;
    value *= 10;
  }
  if (round_up) ++value;
  if (value > kLimit - (minus ? 0 : 1)) return std::nullopt;
  return minus ? static_cast<int64_t>(~value + 1) : static_cast<int64_t>(value);
}

}  // namespace plx::interop
