#include "interop/text_file.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "base/strings.h"

namespace plx::interop {

struct TextWriter::Deflater {
  z_stream z{};
  bool ready = false;
  std::unique_ptr<char[]> out{new char[kBuffer]};
  ~Deflater() {
    if (ready) deflateEnd(&z);
  }
};

StatusOr<std::unique_ptr<TextWriter>> TextWriter::Create(const std::string& path,
                                                         Compression compression) {
  const std::string tmp = StrFormat("%s.tmp-%ld", path.c_str(), static_cast<long>(::getpid()));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(path, errno);
  std::unique_ptr<TextWriter> writer(new TextWriter(fd, path, tmp));
  if (compression == Compression::kGzip) {
    writer->gzip_ = std::make_unique<Deflater>();
    // 15 + 16: the largest window, with a gzip header and trailer.
    if (deflateInit2(&writer->gzip_->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
      return IoError(path + ": cannot start gzip compression");
    writer->gzip_->ready = true;
  }
  return writer;
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
  if (gzip_)
    Deflate(buffer_.get(), used_, false);
  else
    WriteOut(buffer_.get(), used_);
  written_ += used_;
  used_ = 0;
}

void TextWriter::Deflate(const char* data, size_t size, bool finish) {
  z_stream& z = gzip_->z;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  z.avail_in = static_cast<uInt>(size);  // at most kBuffer
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(gzip_->out.get());
    z.avail_out = static_cast<uInt>(kBuffer);
    const int r = deflate(&z, finish ? Z_FINISH : Z_NO_FLUSH);
    if (r == Z_STREAM_ERROR) {
      if (error_.ok()) error_ = IoError(path_ + ": gzip compression failed");
      return;
    }
    WriteOut(gzip_->out.get(), kBuffer - z.avail_out);
    if (finish ? r == Z_STREAM_END : z.avail_out != 0) return;
  }
}

void TextWriter::WriteOut(const char* data, size_t size) {
  const char* p = data;
  size_t n = size;
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
  if (gzip_) Deflate(nullptr, 0, true);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && error_.ok()) error_ = ErrnoError(path_, errno);
  if (error_.ok() && ::rename(tmp_.c_str(), path_.c_str()) != 0) error_ = ErrnoError(path_, errno);
  if (!error_.ok()) ::unlink(tmp_.c_str());
  return error_;
}

StatusOr<FILE*> OpenInput(const std::string& path, uint64_t* size) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return ErrnoError(path, errno);
  std::fseek(f, 0, SEEK_END);
  const long end = std::ftell(f);
  *size = end > 0 ? static_cast<uint64_t>(end) : 0;
  std::rewind(f);
  return f;
}

bool LineReader::Next(std::string_view* line) {
  for (;;) {
    const char* b = buffer_.data() + begin_;
    const void* nl = std::memchr(b, '\n', end_ - begin_);
    if (nl != nullptr) {
      const size_t n = static_cast<size_t>(static_cast<const char*>(nl) - b);
      *line = std::string_view(b, n);
      begin_ += n + 1;
      consumed_ += n + 1;
      return true;
    }
    if (eof_) {
      if (begin_ == end_) return false;
      *line = std::string_view(b, end_ - begin_);
      consumed_ += end_ - begin_;
      begin_ = end_;
      return true;
    }
    if (begin_ > 0) {
      std::memmove(buffer_.data(), b, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == buffer_.size()) {
      if (buffer_.size() >= kMaxLine) {
        too_long_ = true;
        return false;
      }
      buffer_.resize(buffer_.size() * 2);
    }
    const size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
    if (got == 0) eof_ = true;
    end_ += got;
  }
}

std::optional<int64_t> ParseFixed(std::string_view text, int decimals) {
  size_t i = 0;
  const bool minus = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) ++i;
  // The value is mant * 10^scale; up to 19 significant digits are kept, the
  // first one dropped decides the rounding.
  uint64_t mant = 0;
  int significant = 0, scale = 0;
  bool any = false, point = false, dropped = false, round_up = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (point) return std::nullopt;
      point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    any = true;
    if (significant < 19) {
      mant = mant * 10 + static_cast<uint64_t>(c - '0');
      if (mant != 0) ++significant;
      if (point) --scale;
    } else {
      if (!point) ++scale;
      if (!dropped) round_up = c >= '5';
      dropped = true;
    }
  }
  if (!any) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    const bool negative_exponent = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    const size_t start = i;
    int exponent = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      exponent = std::min(exponent * 10 + (text[i] - '0'), 100000);
    }
    if (i == start) return std::nullopt;
    scale += negative_exponent ? -exponent : exponent;
  }
  if (i != text.size()) return std::nullopt;
  if (dropped && round_up) ++mant;
  scale += decimals;
  constexpr uint64_t kLimit = uint64_t{1} << 63;  // the magnitude of INT64_MIN
  if (scale >= 0) {
    for (int k = 0; k < scale && mant != 0; ++k) {
      if (mant > kLimit / 10) return std::nullopt;
      mant *= 10;
    }
  } else {
    bool up = false;  // ends as the most significant digit removed
    for (int k = 0; k < -scale && mant != 0; ++k) {
      up = mant % 10 >= 5;
      mant /= 10;
    }
    if (up) ++mant;
  }
  if (mant > kLimit - (minus ? 0 : 1)) return std::nullopt;
  return minus ? static_cast<int64_t>(~mant + 1) : static_cast<int64_t>(mant);
}

bool ParseSeconds(std::string_view text, int64_t* ns) {
  const std::optional<int64_t> v = ParseFixed(text, 9);
  if (v) *ns = *v;
  return v.has_value();
}

namespace {

// std::from_chars over all of `text`, after a '+' where that is accepted.
template <typename T>
bool FromChars(std::string_view text, T* value, Plus plus) {
  if (plus == Plus::kAccepted && !text.empty() && text[0] == '+') text.remove_prefix(1);
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  return ec == std::errc() && ptr == end;
}

}  // namespace

bool ParseInt(std::string_view text, int64_t* value, Plus plus) {
  return FromChars(text, value, plus);
}

bool ParseUint(std::string_view text, uint64_t* value) {
  return FromChars(text, value, Plus::kRefused);
}

bool ParseDouble(std::string_view text, double* value, Plus plus) {
  return FromChars(text, value, plus);
}

LineFields::Result LineFields::Split(std::string_view line) {
  size_ = 0;
  size_t i = 0;
  for (;;) {
    while (i < line.size() && IsSpace(line[i]))
      ++i;
    if (i == line.size()) return Result::kOk;
    if (size_ == kMax) return Result::kTooMany;
    if (syntax_.quotes.find(line[i]) != std::string_view::npos) {
      size_t end = line.find(line[i], i + 1);
      if (end == std::string_view::npos) {
        if (!syntax_.open_quote_to_end) return Result::kUnterminated;
        end = line.size();
      }
      fields_[size_++] = line.substr(i + 1, end - i - 1);
      i = std::min(end + 1, line.size());
    } else {
      const size_t start = i;
      while (i < line.size() && !IsSpace(line[i]))
        ++i;
      fields_[size_++] = line.substr(start, i - start);
    }
  }
}

void LineFields::DropFirst() {
  if (size_ == 0) return;
  std::copy(fields_ + 1, fields_ + size_, fields_);
  --size_;
}

}  // namespace plx::interop
