// TextWriter: the buffered output of the text exporters (CSV, JSON, Paje,
// PICL), with exact fixed-point numbers and gzip where asked. For the
// importers: LineReader, LineFields (a line split into words and quoted
// strings) and the number parsers, ParseFixed among them (seconds or
// microseconds with decimals to integer nanoseconds) - one set, so that the
// formats read numbers and blanks alike.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace plx::interop {

class TextWriter {
 public:
  enum class Compression : uint8_t { kNone, kGzip };
  /// Writes to a temporary file beside `path`, renamed to it by Finish();
  /// kGzip writes the text as one gzip member (what `gzip -d` reads).
  static StatusOr<std::unique_ptr<TextWriter>> Create(const std::string& path,
                                                      Compression compression = Compression::kNone);
  ~TextWriter();
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  TextWriter& Put(std::string_view text) {
    if (text.size() > kBuffer - used_)
      Spill(text);
    else {
      std::copy(text.begin(), text.end(), buffer_.get() + used_);
      used_ += text.size();
    }
    return *this;
  }
  TextWriter& Put(char c) {
    if (used_ == kBuffer) Flush();
    buffer_[used_++] = c;
    return *this;
  }
  TextWriter& PutInt(int64_t value);
  TextWriter& PutUint(uint64_t value);
  /// value / 10^decimals with exactly `decimals` digits after the point
  /// (PutFixed(1234567, 3) writes "1234.567").
  TextWriter& PutFixed(int64_t value, int decimals);
  /// The shortest text that reads back as the same double.
  TextWriter& PutDouble(double value);
  /// PutDouble, with ".0" added where the text would read as an integer.
  TextWriter& PutReal(double value);
  /// "text" for formats without escapes (Paje, PICL comments): quotes become
  /// ' and line breaks spaces.
  TextWriter& PutQuoted(std::string_view text);

  /// Bytes of text put so far (before compression).
  uint64_t bytes() const { return written_ + used_; }
  /// Writes the rest, closes and renames the file; the first write error if any.
  Status Finish();

 private:
  static constexpr size_t kBuffer = 1 << 20;
  struct Deflater;  // zlib's stream, kept out of this header
  TextWriter(int fd, std::string path, std::string tmp);
  void Spill(std::string_view text);
  void Flush();
  void Deflate(const char* data, size_t size, bool finish);
  void WriteOut(const char* data, size_t size);
  // Room for n more bytes (n <= 64).
  char* Room(size_t n) {
    if (kBuffer - used_ < n) Flush();
    return buffer_.get() + used_;
  }

  int fd_;
  std::string path_;
  std::string tmp_;
  std::unique_ptr<char[]> buffer_;
  size_t used_ = 0;
  uint64_t written_ = 0;
  std::unique_ptr<Deflater> gzip_;
  Status error_;
};

/// Opens `path` for reading; *size is its length in bytes (for progress).
StatusOr<FILE*> OpenInput(const std::string& path, uint64_t* size);

/// Reads a text file line by line in large blocks (the line importers).
class LineReader {
 public:
  static constexpr size_t kMaxLine = 64 << 20;

  explicit LineReader(FILE* file) : file_(file), buffer_(kBlock) {}
  /// The next line, without its '\n'; false at the end of the file or when a
  /// line is longer than kMaxLine (too_long() tells).
  bool Next(std::string_view* line);
  bool too_long() const { return too_long_; }
  /// Bytes of the lines returned so far.
  uint64_t consumed() const { return consumed_; }

 private:
  static constexpr size_t kBlock = 1 << 20;
  FILE* file_;
  std::vector<char> buffer_;
  size_t begin_ = 0, end_ = 0;
  uint64_t consumed_ = 0;
  bool eof_ = false;
  bool too_long_ = false;
};

/// The decimal number `text` ("-12.5", "3", ".5", "1.5e-3") times
/// 10^decimals, exactly (no binary floating point on the way); digits beyond
/// `decimals` are rounded half away from zero. nullopt when it is not a
/// decimal number or does not fit int64_t.
std::optional<int64_t> ParseFixed(std::string_view text, int decimals);

/// Decimal seconds ("12.345678901", "1e-3") as nanoseconds, exactly:
/// ParseFixed(text, 9). False when ParseFixed gives nullopt.
bool ParseSeconds(std::string_view text, int64_t* ns);

/// Whether a number may be written "+5": the line formats take it (as C's
/// strtol does), JSON has no such number.
enum class Plus : uint8_t { kRefused, kAccepted };

/// All of `text` as a decimal integer that fits *value; false on anything
/// else (blanks, a fraction, a number out of range).
bool ParseInt(std::string_view text, int64_t* value, Plus plus = Plus::kRefused);
bool ParseUint(std::string_view text, uint64_t* value);
/// All of `text` as the nearest double ("1.5", "-2e-3", also "inf" and "nan").
bool ParseDouble(std::string_view text, double* value, Plus plus = Plus::kRefused);

/// The blanks between fields: space, tab, CR (a line of a file written on
/// Windows keeps it) and LF (JSON's white space is these four).
inline bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// The fields of one line of a text trace (Paje, PICL): words between blanks
/// and quoted strings, each without its quotes (so "" is an empty field).
/// The fields are views into the line.
class LineFields {
 public:
  static constexpr size_t kMax = 64;
  struct Syntax {
    /// The characters that open a quoted field; the same one closes it.
    std::string_view quotes = "\"";
    /// A quote left open runs to the end of the line (else kUnterminated).
    bool open_quote_to_end = false;
  };
  enum class Result : uint8_t { kOk, kTooMany, kUnterminated };

  explicit LineFields(Syntax syntax) : syntax_(syntax) {}
  /// Replaces the fields by those of `line`: kTooMany past kMax fields,
  /// kUnterminated at a quote left open; the fields before it are kept.
  Result Split(std::string_view line);
  size_t size() const { return size_; }
  std::string_view operator[](size_t i) const { return fields_[i]; }
  /// Drops the first field (Paje's event id): [0] is then the one after it.
  void DropFirst();

 private:
  Syntax syntax_;
  std::string_view fields_[kMax];
  size_t size_ = 0;
};

}  // namespace plx::interop
