// Generic decoding of .plx payloads driven by the generated KindInfo tables:
// the framing (kind, [dt,] length, body) and each field by its spec type, so a
// new record kind in spec/records.toml needs no code in tools that print or
// compare records (`parallax dump`, tests). Typed, fast decoding is
// DecodeEvents/DecodeDefs in records.gen.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "format/records.gen.h"

namespace plx::format {

struct FieldValue {
  const FieldInfo* info = nullptr;
  uint64_t u = 0;         // kU
  int64_t s = 0;          // kS
  double f = 0;           // kF64
  std::string_view text;  // kStr
};

/// EVENTS payloads carry a dt before the length; DEFS and INDEX payloads do not.
enum class Framing : uint8_t { kEvents, kDefs };

/// One record of a payload, as framed.
struct FramedRecord {
  uint8_t kind = 0;
  uint64_t tick = 0;  // kEvents: the previous tick plus dt
  const uint8_t* body = nullptr;
  size_t size = 0;
  size_t offset = 0;  // of the record in the payload
};

/// Reads the record at *pos (advancing it); `tick` is the previous record's.
/// False when the framing is damaged (or *pos is at the end).
bool NextRecord(Framing framing, const uint8_t* begin, const uint8_t* end, size_t* pos,
                uint64_t tick, FramedRecord* out);

/// Decodes a body by the kind's field table. Fields past the end of a short
/// body (an older writer) are left out; bytes after the known fields (a newer
/// writer) are ignored and counted out of *used. Returns the field that is
/// damaged (its value is not in *out), or nullptr.
const char* DecodeFields(const KindInfo& kind, const uint8_t* body, size_t size,
                         std::vector<FieldValue>* out, size_t* used = nullptr);

}  // namespace plx::format
