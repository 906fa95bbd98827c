// Live frames: headers, and the JSON of HELLO and END.
#include "capture/live_protocol.h"

#include <cstring>

#include "format/layout.h"

namespace plx::capture {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const size_t n = c >= 0xf0 && c <= 0xf4  ? 4
                   : c >= 0xe0 && c < 0xf0 ? 3
                   : c >= 0xc2 && c < 0xe0 ? 2
                                           : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  // No overlong forms, surrogates or code points above U+10FFFF.
  const auto c1 = static_cast<unsigned char>(s[i + 1]);
  if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) ||
      (c == 0xf4 && c1 >= 0x90))
    return 0;
  return n;
}

// A JSON string; bytes that are not UTF-8 (a host or path can hold any) become '?'.
void AppendJsonString(std::string* out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  *out += '"';
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += static_cast<char>(c);
    } else if (c < 0x20) {
      *out += "\\u00";
      *out += kHex[c >> 4];
      *out += kHex[c & 15];
    } else if (c >= 0x80) {
      const size_t n = Utf8Length(s, i);
      if (n == 0) {
        *out += '?';
        ++i;
      } else {
        out->append(s.substr(i, n));
        i += n;
      }
      continue;
    } else {
      *out += static_cast<char>(c);
    }
    ++i;
  }
  *out += '"';
}

// Signal-safe appending of text and decimals to a fixed buffer.
struct FixedText {
  uint8_t* p;
  uint8_t* end;
  bool ok = true;
  void Put(const char* s) {
    const size_t n = std::strlen(s);
    if (static_cast<size_t>(end - p) < n) {
      ok = false;
      return;
    }
    std::memcpy(p, s, n);
    p += n;
  }
  void Put(uint64_t v) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    char text[24];
    for (int k = 0; k < n; ++k)
      text[k] = digits[n - 1 - k];
    text[n] = 0;
    Put(text);
  }
};

}  // namespace

void EncodeFrameHeader(uint8_t kind, size_t payload_bytes, uint8_t* out) {
  const auto length = static_cast<uint32_t>(payload_bytes + 1);
  for (int k = 0; k < 4; ++k)
    out[k] = static_cast<uint8_t>(length >> (8 * k));
  out[4] = kind;
}

std::string HelloJson(std::string_view token, int pid, std::string_view host,
                      std::string_view executable) {
  std::string out = "{\"protocol\":" + std::to_string(kLiveProtocol) + ",\"token\":";
  AppendJsonString(&out, token);
  out += ",\"format\":\"" + std::to_string(format::kVersionMajor) + "." +
         std::to_string(format::kVersionMinor) + "\",\"pid\":" + std::to_string(pid) + ",\"host\":";
  AppendJsonString(&out, host);
  out += ",\"executable\":";
  AppendJsonString(&out, executable);
  out += '}';
  return out;
}

std::string EndFinishedJson(uint64_t records, uint64_t dropped_chunks) {
  return "{\"status\":\"finished\",\"records\":" + std::to_string(records) +
         ",\"dropped_chunks\":" + std::to_string(dropped_chunks) + "}";
}

size_t EncodeCrashEndFrame(int signal, uint64_t records, uint64_t dropped_chunks, uint8_t* out,
                           size_t capacity) {
  if (capacity < kFrameHeaderSize) return 0;
  FixedText t{out + kFrameHeaderSize, out + capacity};
  t.Put("{\"status\":\"crashed\",\"signal\":");
  t.Put(static_cast<uint64_t>(signal < 0 ? 0 : signal));
  t.Put(",\"records\":");
  t.Put(records);
  t.Put(",\"dropped_chunks\":");
  t.Put(dropped_chunks);
  t.Put("}");
  if (!t.ok) return 0;
  const auto payload = static_cast<size_t>(t.p - out) - kFrameHeaderSize;
  EncodeFrameHeader(kFrameEnd, payload, out);
  return kFrameHeaderSize + payload;
}

}  // namespace plx::capture
