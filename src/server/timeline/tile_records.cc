// The tile's wire form: its header and records (spec/api.toml), written,
// read back, and the checks of a request every tile builder makes.
#include <cmath>
#include <cstring>

#include "base/strings.h"
#include "server/timeline/tile_builder.h"

namespace plx::server {

namespace {

using wire::TileArrow;
using wire::TileCounterPoint;
using wire::TileInstant;
using wire::TileSlice;

template <typename T>
void AppendRecords(const std::vector<T>& records, std::string* out) {
  if (records.empty()) return;
  const size_t at = out->size();
  out->resize(at + records.size() * sizeof(T));
  std::memcpy(out->data() + at, records.data(), records.size() * sizeof(T));
}

template <typename T>
const uint8_t* ReadRecords(const uint8_t* p, uint32_t n, std::vector<T>* records) {
  records->resize(n);
  if (n > 0) std::memcpy(records->data(), p, n * sizeof(T));
  return p + n * sizeof(T);
}

}  // namespace

void AppendTile(const TileRequest& request, const TileRecords& r, std::string* out) {
  wire::TileHeader h;
  h.magic = 0x544c5850;
  h.version = wire::kApiVersion;
  h.from = request.from;
  h.to = request.to;
  h.width = request.width;
  h.slices = static_cast<uint32_t>(r.slices.size());
  h.instants = static_cast<uint32_t>(r.instants.size());
  h.arrows = static_cast<uint32_t>(r.arrows.size());
  h.points = static_cast<uint32_t>(r.points.size());
  out->reserve(out->size() + sizeof(h) + r.slices.size() * sizeof(TileSlice) +
               r.instants.size() * sizeof(TileInstant) + r.arrows.size() * sizeof(TileArrow) +
               r.points.size() * sizeof(TileCounterPoint));
  const size_t at = out->size();
  out->resize(at + sizeof(h));
  std::memcpy(out->data() + at, &h, sizeof(h));
  AppendRecords(r.slices, out);
  AppendRecords(r.instants, out);
  AppendRecords(r.arrows, out);
  AppendRecords(r.points, out);
}

TileRecords ReadTile(std::string_view tile) {
  TileRecords r;
  wire::TileHeader h;
  std::memcpy(&h, tile.data(), sizeof h);
  const uint8_t* p = reinterpret_cast<const uint8_t*>(tile.data()) + sizeof h;
  p = ReadRecords(p, h.slices, &r.slices);
  p = ReadRecords(p, h.instants, &r.instants);
  p = ReadRecords(p, h.arrows, &r.arrows);
  ReadRecords(p, h.points, &r.points);
  return r;
}

Status CheckTileRequest(const TileRequest& request, uint32_t rows, size_t tracks) {
  if (request.width == 0 || request.width > kMaxTileWidth)
    return InvalidArgument(StrFormat("width: must be 1..%u, got %u", kMaxTileWidth, request.width));
  if (!std::isfinite(request.from)) return InvalidArgument("from: must be a finite number");
  if (!std::isfinite(request.to)) return InvalidArgument("to: must be a finite number");
  if (!(request.from < request.to))
    return InvalidArgument(StrFormat("to: must be greater than from (from %.17g, to %.17g)",
                                     request.from, request.to));
  for (uint32_t row : request.rows)
    if (row >= rows)
      return InvalidArgument(StrFormat("rows: unknown row %u (the trace has %u)", row, rows));
  for (uint32_t track : request.counters)
    if (track >= tracks)
      return InvalidArgument(
          StrFormat("counters: unknown counter track %u (the trace has %zu)", track, tracks));
  return Status::Ok();
}

}  // namespace plx::server
