// The JSON side of the Chrome Trace Event importer: a streamed input (plain or
// gzip) that hands out one complete JSON value at a time without holding the
// file, a parser of one object into its members, and exact decimal
// conversion of microsecond time stamps to nanoseconds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct gzFile_s;  // zlib

namespace plx::interop::chrome {

enum class JsonType : uint8_t { kNull, kFalse, kTrue, kNumber, kString, kObject, kArray };

struct JsonValue {
  JsonType type = JsonType::kNull;
  std::string_view text;  // string: decoded; number: as written; object, array: raw
  uint64_t offset = 0;    // of the value in the input
};

struct JsonMember {
  std::string_view key;
  JsonValue value;
};

/// Parses one JSON object, one level deep: nested objects and arrays are
/// checked and kept as raw text. Views stay valid until the next Parse.
class ObjectParser {
 public:
  /// False on bad JSON, with error() and error_offset() set.
  bool Parse(std::string_view text, uint64_t offset, std::vector<JsonMember>* members);
  const std::string& error() const { return error_; }
  uint64_t error_offset() const { return error_offset_; }

 private:
  bool Fail(const char* p, const char* what);
  bool Value(const char*& p, JsonValue* v, int depth);
  bool String(const char*& p, std::string_view* out, bool keep);
  bool Number(const char*& p);

  const char* begin_ = nullptr;
  const char* end_ = nullptr;
  uint64_t offset_ = 0;
  std::string arena_;  // decoded strings with escapes; never reallocated during a parse
  std::string error_;
  uint64_t error_offset_ = 0;
};

/// The input, read in large blocks; gzip is recognised and streamed.
class JsonStream {
 public:
  JsonStream() = default;
  ~JsonStream();
  JsonStream(const JsonStream&) = delete;
  JsonStream& operator=(const JsonStream&) = delete;

  /// False (with error()) when the file cannot be opened. `size` (the
  /// file's, 0 when unknown) keeps the buffers of small files small.
  bool Open(const std::string& path, uint64_t size);
  /// The next byte after white space, not consumed; -1 at the end of input
  /// (or on a read error: see error()).
  int Peek();
  void Advance() { ++pos_; }
  /// Input offset of the next byte.
  uint64_t offset() const { return base_ + pos_; }
  /// The next complete value, contiguous in memory until the next call.
  /// False (with error() at error_offset()) when it is cut short or unbalanced.
  bool Cut(std::string_view* text, uint64_t* offset);
  /// Skips the next complete value without keeping it.
  bool Skip();
  /// Bytes of the file read so far (compressed bytes for gzip).
  uint64_t file_offset() const;
  const std::string& error() const { return error_; }
  uint64_t error_offset() const { return error_offset_; }

 private:
  // Moves buf_[keep, end_) to the front and reads more; returns how far the
  // kept bytes moved. Grows the buffer when nothing could be dropped.
  size_t Refill(size_t keep);
  bool Scan(bool keep, size_t* start);
  bool Fail(uint64_t at, std::string what);

  gzFile_s* file_ = nullptr;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  uint64_t base_ = 0;  // input offset of buf_[0]
  bool eof_ = false;
  std::string error_;
  uint64_t error_offset_ = 0;
  std::vector<char> brackets_;
};

/// A JSON number of microseconds as nanoseconds, exactly (digits past the
/// nanosecond are rounded half up). False when it is not a number or its
/// magnitude reaches 2^61 ns.
bool MicrosToNanos(std::string_view number, int64_t* ns);

}  // namespace plx::interop::chrome
