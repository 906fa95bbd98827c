// Generic decoding of EVENTS payloads driven by the generated KindInfo tables:
// the framing (kind, dt, length, body) and each field by its spec type, so a
// new record kind in spec/records.toml needs no code here or in `dump`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "format/records.gen.h"

namespace plx::cli {

struct FieldValue {
  const format::FieldInfo* info = nullptr;
  uint64_t u = 0;         // kU
  int64_t s = 0;          // kS
  double f = 0;           // kF64
  std::string_view text;  // kStr
};

/// One record of an EVENTS payload, as framed.
struct RawRecord {
  uint8_t kind = 0;
  uint64_t tick = 0;
  const uint8_t* body = nullptr;
  size_t size = 0;
  size_t offset = 0;  // of the record in the payload
};

/// Reads the record at *pos (advancing it) after the previous tick `tick`.
/// False when the framing is damaged.
bool NextRecord(const uint8_t* begin, const uint8_t* end, size_t* pos, uint64_t tick,
                RawRecord* out);

/// Decodes a body by the kind's field table. Fields past the end of a short
/// body (an older writer) are left out; bytes after the known fields (a newer
/// writer) are ignored. Returns the field that is damaged, or nullptr.
const char* DecodeFields(const format::KindInfo& kind, const uint8_t* body, size_t size,
                         std::vector<FieldValue>* out);

}  // namespace plx::cli
