// Generic record decoding: framing, then varints, zigzag, f64, strings by FieldType.
#include "format/generic_record.h"

#include "base/varint.h"

namespace plx::format {

bool NextRecord(Framing framing, const uint8_t* begin, const uint8_t* end, size_t* pos,
                uint64_t tick, FramedRecord* out) {
  const uint8_t* p = begin + *pos;
  if (p >= end) return false;
  out->offset = *pos;
  out->kind = *p++;
  uint64_t dt = 0, len;
  if (framing == Framing::kEvents && !GetUvarint(&p, end, &dt)) return false;
  if (!GetUvarint(&p, end, &len) || len > static_cast<uint64_t>(end - p)) return false;
  out->tick = tick + dt;
  out->body = p;
  out->size = static_cast<size_t>(len);
  *pos = static_cast<size_t>(p + len - begin);
  return true;
}

const char* DecodeFields(const KindInfo& kind, const uint8_t* body, size_t size,
                         std::vector<FieldValue>* out, size_t* used) {
  out->clear();
  const uint8_t* p = body;
  const uint8_t* end = body + size;
  const char* damaged = nullptr;
  for (uint8_t i = 0; i < kind.field_count && p < end && damaged == nullptr; ++i) {
    FieldValue v;
    v.info = &kind.fields[i];
    switch (v.info->type) {
      case FieldType::kU:
        if (!GetUvarint(&p, end, &v.u)) damaged = v.info->name;
        break;
      case FieldType::kS:
        if (!GetSvarint(&p, end, &v.s)) damaged = v.info->name;
        break;
      case FieldType::kF64:
        if (end - p < 8) {
          damaged = v.info->name;
        } else {
          v.f = LoadLE<double>(p);
          p += 8;
        }
        break;
      case FieldType::kStr: {
        uint64_t n;
        if (!GetUvarint(&p, end, &n) || n > static_cast<uint64_t>(end - p)) {
          damaged = v.info->name;
        } else {
          v.text = std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
          p += n;
        }
        break;
      }
    }
    if (damaged == nullptr) out->push_back(v);
  }
  if (used != nullptr) *used = static_cast<size_t>(p - body);
  return damaged;
}

}  // namespace plx::format
