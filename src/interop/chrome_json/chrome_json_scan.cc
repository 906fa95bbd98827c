// JSON for the Chrome importer: the streamed value cutter, the one-level
// object parser and exact number conversion. Hand-written rather than a JSON
// library so that numbers keep their text (time stamps are converted from
// their decimal digits) and errors carry byte offsets.
#include "interop/chrome_json/chrome_json_scan.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>

#include "interop/text_file.h"

namespace plx::interop::chrome {

namespace {

constexpr size_t kBlock = 4 << 20;  // read size; a value longer than this grows the buffer
constexpr int kMaxDepth = 256;      // nesting the object parser follows

void SkipSpace(const char*& p, const char* end) {
  while (p < end && IsSpace(*p))
    ++p;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

}  // namespace

// ---- ObjectParser ---------------------------------------------------------

bool ObjectParser::Fail(const char* p, const char* what) {
  error_ = what;
  error_offset_ = offset_ + static_cast<uint64_t>(p - begin_);
  return false;
}

bool ObjectParser::Parse(std::string_view text, uint64_t offset, std::vector<JsonMember>* members) {
  begin_ = text.data();
  end_ = begin_ + text.size();
  offset_ = offset;
  members->clear();
  arena_.clear();
  // Decoded strings are never longer than their JSON text: views stay valid.
  if (arena_.capacity() < text.size()) arena_.reserve(text.size());
  const char* p = begin_;
  SkipSpace(p, end_);
  if (p == end_ || *p != '{') return Fail(p, "expected an object");
  ++p;
  SkipSpace(p, end_);
  if (p < end_ && *p == '}') {
    ++p;
  } else {
    for (;;) {
      SkipSpace(p, end_);
      if (p == end_ || *p != '"') return Fail(p, "expected a member name");
      JsonMember m;
      if (!String(p, &m.key, true)) return false;
      SkipSpace(p, end_);
      if (p == end_ || *p != ':') return Fail(p, "expected ':'");
      ++p;
      SkipSpace(p, end_);
      if (!Value(p, &m.value, 1)) return false;
      members->push_back(m);
      SkipSpace(p, end_);
      if (p == end_) return Fail(p, "unexpected end of object");
      if (*p == ',') {
        ++p;
        continue;
      }
      if (*p == '}') {
        ++p;
        break;
      }
      return Fail(p, "expected ',' or '}'");
    }
  }
  SkipSpace(p, end_);
  if (p != end_) return Fail(p, "unexpected data after the object");
  return true;
}

bool ObjectParser::String(const char*& p, std::string_view* out, bool keep) {
  ++p;  // the opening quote
  const char* start = p;
  while (p < end_ && *p != '"' && *p != '\\')
    ++p;
  if (p < end_ && *p == '"') {
    *out = std::string_view(start, static_cast<size_t>(p - start));
    ++p;
    return true;
  }
  const size_t first = arena_.size();
  if (keep) arena_.append(start, static_cast<size_t>(p - start));
  while (p < end_) {
    const char c = *p++;
    if (c == '"') {
      *out = keep ? std::string_view(arena_.data() + first, arena_.size() - first)
                  : std::string_view();
      return true;
    }
    if (c != '\\') {
      if (keep) arena_ += c;
      continue;
    }
    if (p == end_) break;
    const char e = *p++;
    char plain = 0;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        plain = e;
        break;
      case 'b':
        plain = '\b';
        break;
      case 'f':
        plain = '\f';
        break;
      case 'n':
        plain = '\n';
        break;
      case 'r':
        plain = '\r';
        break;
      case 't':
        plain = '\t';
        break;
      case 'u': {
        auto hex4 = [&](uint32_t* cp) {
          if (end_ - p < 4) return false;
          uint32_t v = 0;
          for (int i = 0; i < 4; ++i) {
            const int d = HexDigit(p[i]);
            if (d < 0) return false;
            v = v * 16 + static_cast<uint32_t>(d);
          }
          p += 4;
          *cp = v;
          return true;
        };
        uint32_t cp = 0;
        if (!hex4(&cp)) return Fail(p, "bad \\u escape");
        if (cp >= 0xd800 && cp < 0xdc00 && end_ - p >= 6 && p[0] == '\\' && p[1] == 'u') {
          const char* save = p;
          p += 2;
          uint32_t low = 0;
          if (hex4(&low) && low >= 0xdc00 && low < 0xe000) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          } else {
            p = save;
            cp = 0xfffd;
          }
        } else if (cp >= 0xd800 && cp < 0xe000) {
          cp = 0xfffd;  // a lone surrogate
        }
        if (keep) AppendUtf8(arena_, cp);
        continue;
      }
      default:
        return Fail(p - 1, "bad escape in a string");
    }
    if (keep) arena_ += plain;
  }
  return Fail(p, "unterminated string");
}

bool ObjectParser::Number(const char*& p) {
  const char* start = p;
  if (p < end_ && *p == '-') ++p;
  if (p == end_ || *p < '0' || *p > '9') return Fail(start, "bad value");
  if (*p == '0') {
    ++p;
  } else {
    while (p < end_ && *p >= '0' && *p <= '9')
      ++p;
  }
  if (p < end_ && *p == '.') {
    ++p;
    if (p == end_ || *p < '0' || *p > '9') return Fail(p, "bad number");
    while (p < end_ && *p >= '0' && *p <= '9')
      ++p;
  }
  if (p < end_ && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end_ && (*p == '+' || *p == '-')) ++p;
    if (p == end_ || *p < '0' || *p > '9') return Fail(p, "bad number");
    while (p < end_ && *p >= '0' && *p <= '9')
      ++p;
  }
  return true;
}

bool ObjectParser::Value(const char*& p, JsonValue* v, int depth) {
  if (p == end_) return Fail(p, "expected a value");
  const char* start = p;
  v->offset = offset_ + static_cast<uint64_t>(p - begin_);
  auto literal = [&](std::string_view word, JsonType type) {
    if (static_cast<size_t>(end_ - p) < word.size() || std::memcmp(p, word.data(), word.size()))
      return Fail(p, "bad value");
    p += word.size();
    v->type = type;
    v->text = std::string_view(start, word.size());
    return true;
  };
  switch (*p) {
    case '"':
      v->type = JsonType::kString;
      return String(p, &v->text, true);
    case 't':
      return literal("true", JsonType::kTrue);
    case 'f':
      return literal("false", JsonType::kFalse);
    case 'n':
      return literal("null", JsonType::kNull);
    case '{':
    case '[': {
      if (depth >= kMaxDepth) return Fail(p, "nested too deeply");
      const bool object = *p == '{';
      const char close = object ? '}' : ']';
      ++p;
      SkipSpace(p, end_);
      if (p < end_ && *p == close) {
        ++p;
      } else {
        for (;;) {
          SkipSpace(p, end_);
          if (object) {
            if (p == end_ || *p != '"') return Fail(p, "expected a member name");
            std::string_view ignored;
            if (!String(p, &ignored, false)) return false;
            SkipSpace(p, end_);
            if (p == end_ || *p != ':') return Fail(p, "expected ':'");
            ++p;
            SkipSpace(p, end_);
          }
          JsonValue inner;
          if (!Value(p, &inner, depth + 1)) return false;
          SkipSpace(p, end_);
          if (p == end_) return Fail(p, "unexpected end of value");
          if (*p == ',') {
            ++p;
            continue;
          }
          if (*p == close) {
            ++p;
            break;
          }
          return Fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        }
      }
      v->type = object ? JsonType::kObject : JsonType::kArray;
      v->text = std::string_view(start, static_cast<size_t>(p - start));
      return true;
    }
    default:
      if (!Number(p)) return false;
      v->type = JsonType::kNumber;
      v->text = std::string_view(start, static_cast<size_t>(p - start));
      return true;
  }
}

// ---- JsonStream -----------------------------------------------------------

JsonStream::~JsonStream() {
  if (file_ != nullptr) gzclose(file_);
}

bool JsonStream::Open(const std::string& path, uint64_t size) {
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    error_ = std::string("cannot open: ") + std::strerror(errno != 0 ? errno : ENOMEM);
    return false;
  }
  // Large reads for large files; a small file gets small buffers (the
  // value buffer still grows to hold any one value).
  const size_t block = size == 0 ? kBlock : std::clamp<size_t>(size + 1, 16 << 10, kBlock);
  gzbuffer(file_, static_cast<unsigned>(std::min<size_t>(block, 1 << 20)));
  buf_.resize(block);
  return true;
}

uint64_t JsonStream::file_offset() const {
  const z_off_t at = file_ == nullptr ? 0 : gzoffset(file_);
  return at < 0 ? 0 : static_cast<uint64_t>(at);
}

bool JsonStream::Fail(uint64_t at, std::string what) {
  if (error_.empty()) {  // a read error found first stays the reason
    error_ = std::move(what);
    error_offset_ = at;
  }
  return false;
}

size_t JsonStream::Refill(size_t keep) {
  if (eof_) return 0;
  if (keep > 0) {
    std::memmove(buf_.data(), buf_.data() + keep, end_ - keep);
    end_ -= keep;
    pos_ = pos_ >= keep ? pos_ - keep : 0;
    base_ += keep;
  }
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
  const size_t room = std::min<size_t>(buf_.size() - end_, INT_MAX / 2);
  const int n = gzread(file_, buf_.data() + end_, static_cast<unsigned>(room));
  if (n <= 0) {
    eof_ = true;
    if (n < 0) {
      int code = 0;
      const char* message = gzerror(file_, &code);
      Fail(base_ + end_, std::string("read error: ") + (message ? message : "unknown"));
    }
  } else {
    end_ += static_cast<size_t>(n);
  }
  return keep;
}

int JsonStream::Peek() {
  for (;;) {
    while (pos_ < end_) {
      const char c = buf_[pos_];
      if (!IsSpace(c)) return static_cast<unsigned char>(c);
      ++pos_;
    }
    if (eof_) return -1;
    Refill(pos_);
  }
}

bool JsonStream::Scan(bool keep, size_t* start_out) {
  size_t start = pos_;
  size_t i = pos_;
  // Needs bytes past i: drops what is behind (all of it unless keeping).
  auto more = [&]() {
    const size_t moved = Refill(keep ? start : i);
    start -= keep ? moved : 0;
    i -= moved;
    if (!keep) start = i;
    return i < end_;
  };
  if (i == end_ && !more()) return Fail(base_ + i, "unexpected end of input");
  const char first = buf_[i];
  if (first == '"') {
    ++i;
    bool escaped = false;
    for (;;) {
      if (i == end_ && !more()) return Fail(base_ + i, "unexpected end of input in a string");
      const char c = buf_[i++];
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        break;
      }
    }
  } else if (first == '{' || first == '[') {
    brackets_.clear();
    bool in_string = false, escaped = false;
    for (;;) {
      if (i == end_ && !more()) return Fail(base_ + i, "unexpected end of input");
      if (in_string) {
        // The common case: a run of plain bytes.
        const char* p = buf_.data() + i;
        const char* e = buf_.data() + end_;
        if (!escaped) {
          while (p < e && *p != '"' && *p != '\\')
            ++p;
          i = static_cast<size_t>(p - buf_.data());
          if (i == end_) continue;
        }
        const char c = buf_[i++];
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else {
          in_string = false;
        }
        continue;
      }
      const char c = buf_[i++];
      switch (c) {
        case '"':
          in_string = true;
          break;
        case '{':
          brackets_.push_back('}');
          break;
        case '[':
          brackets_.push_back(']');
          break;
        case '}':
        case ']':
          if (brackets_.empty() || brackets_.back() != c)
            return Fail(base_ + i - 1, std::string("unexpected '") + c + "'");
          brackets_.pop_back();
          break;
        default:
          break;
      }
      if (brackets_.empty()) break;
    }
  } else {
    for (;;) {
      if (i == end_ && !more()) break;
      const char c = buf_[i];
      if (c == ',' || c == ']' || c == '}' || c == ':' || IsSpace(c)) break;
      ++i;
    }
    if (i == start) return Fail(base_ + i, std::string("unexpected '") + first + "'");
  }
  pos_ = i;
  *start_out = start;
  return true;
}

bool JsonStream::Cut(std::string_view* text, uint64_t* offset) {
  size_t start = 0;
  if (!Scan(true, &start)) return false;
  *text = std::string_view(buf_.data() + start, pos_ - start);
  *offset = base_ + start;
  return true;
}

bool JsonStream::Skip() {
  size_t start = 0;
  return Scan(false, &start);
}

// ---- Numbers --------------------------------------------------------------

bool MicrosToNanos(std::string_view s, int64_t* ns) {
  constexpr int64_t kLimit = int64_t{1} << 61;
  const std::optional<int64_t> v = ParseFixed(s, 3);
  if (!v || *v >= kLimit || *v <= -kLimit) return false;
  *ns = *v;
  return true;
}

}  // namespace plx::interop::chrome
