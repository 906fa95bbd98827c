// Generic record decoding: varints, zigzag, f64, strings by FieldType.
#include "cli/record_fields.h"

#include "base/varint.h"

namespace plx::cli {

bool NextRecord(const uint8_t* begin, const uint8_t* end, size_t* pos, uint64_t tick,
                RawRecord* out) {
  const uint8_t* p = begin + *pos;
  if (p >= end) return false;
  out->offset = *pos;
  out->kind = *p++;
  uint64_t dt, len;
  if (!GetUvarint(&p, end, &dt)) return false;
  if (!GetUvarint(&p, end, &len) || len > static_cast<uint64_t>(end - p)) return false;
  out->tick = tick + dt;
  out->body = p;
  out->size = static_cast<size_t>(len);
  *pos = static_cast<size_t>(p + len - begin);
  return true;
}

const char* DecodeFields(const format::KindInfo& kind, const uint8_t* body, size_t size,
                         std::vector<FieldValue>* out) {
  out->clear();
  const uint8_t* p = body;
  const uint8_t* end = body + size;
  for (uint8_t i = 0; i < kind.field_count && p < end; ++i) {
    FieldValue v;
    v.info = &kind.fields[i];
    switch (v.info->type) {
      case format::FieldType::kU:
        if (!GetUvarint(&p, end, &v.u)) return v.info->name;
        break;
      case format::FieldType::kS:
        if (!GetSvarint(&p, end, &v.s)) return v.info->name;
        break;
      case format::FieldType::kF64:
        if (end - p < 8) return v.info->name;
        v.f = LoadLE<double>(p);
        p += 8;
        break;
      case format::FieldType::kStr: {
        uint64_t n;
        if (!GetUvarint(&p, end, &n) || n > static_cast<uint64_t>(end - p)) return v.info->name;
        v.text = std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
        p += n;
        break;
      }
    }
    out->push_back(v);
  }
  return nullptr;
}

}  // namespace plx::cli
