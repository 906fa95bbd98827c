// BuildRowmap (rowmap.h): the rows' tiles, squeezed into one pixel row each,
// then counted per band; with stats, each row's share of the column in the
// band's state, then their min, median, max and mean per band.
#include "server/timeline/rowmap.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "base/strings.h"
#include "server/api.gen.h"

namespace plx::server {
namespace {

using wire::TileSlice;

// Rows asked of the tile source at once: enough to amortise a tile's set-up,
// few enough that its records stay small.
constexpr size_t kRowsPerTile = 256;

// What one row shows at one pixel: the pick among the slices over it.
struct Pick {
  float cover = 0;  // share of the pixel the slice covers, 0..1
  int32_t depth = -1;
  uint32_t state = kRowmapEmpty;
};

// Whether a slice (cover, depth) wins the pixel over `old`: one covering at
// least half the pixel beats one that does not; among those, the deeper (then
// the wider) wins; among the others, the wider (then the deeper).
bool Better(float cover, int32_t depth, const Pick& old) {
  if (old.depth < 0) return true;
  const bool half = cover >= 0.5f, old_half = old.cover >= 0.5f;
  if (half != old_half) return half;
  if (half) return depth != old.depth ? depth > old.depth : cover > old.cover;
  return cover != old.cover ? cover > old.cover : depth > old.depth;
}

// Per pixel of the band being counted: how many rows are in each state.
class BandVotes {
 public:
  explicit BandVotes(uint32_t width) : votes_(width), busy_(width, 0) {}

  void Add(const std::vector<Pick>& row) {
    for (size_t x = 0; x < row.size(); ++x) {
      if (row[x].state == kRowmapEmpty) continue;
      ++busy_[x];
      auto& v = votes_[x];
      auto it =
          std::find_if(v.begin(), v.end(), [&](const auto& p) { return p.first == row[x].state; });
      if (it == v.end())
        v.emplace_back(row[x].state, 1);
      else
        ++it->second;
    }
  }

  // Writes the band's cells (width of them) to `out`, their states to
  // *states, and starts the next band. Ties go to the lower state id: the
  // answer does not depend on the order of the band's rows.
  void Flush(char* out, std::vector<uint32_t>* states) {
    for (size_t x = 0; x < votes_.size(); ++x) {
      wire::RowmapCell cell;
      cell.state = kRowmapEmpty;
      uint32_t most = 0;
      for (const auto& [state, count] : votes_[x])
        if (count > most || (count == most && state < cell.state)) {
          most = count;
          cell.state = state;
        }
      cell.rows = static_cast<uint16_t>(most);
      cell.busy = static_cast<uint16_t>(busy_[x]);
      (*states)[x] = cell.state;
      std::memcpy(out + x * sizeof(cell), &cell, sizeof(cell));
      votes_[x].clear();
      busy_[x] = 0;
    }
  }

 private:
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> votes_;
  std::vector<uint32_t> busy_;
};

// Per pixel of the band being measured: each row's share of the column's
// time in the pixel's target state, then their RowmapStat.
class BandShares {
 public:
  explicit BandShares(const RowmapRequest& request)
      : from_(request.from),
        per_ns_(request.width / (request.to - request.from)),
        width_(request.width),
        acc_(request.width) {}

  // Adds the shares of `row` (its tile records `slices`) in target[x] at
  // each pixel x: the part of the pixel its slices of that state cover,
  // overlapping ones (nested in one another) counted once.
  void Add(uint32_t row, const TileSlice* slices, size_t n, const std::vector<uint32_t>& target) {
    spans_.clear();
    for (size_t i = 0; i < n; ++i) {
      const TileSlice& s = slices[i];
      const double b = std::max(0.0, (s.begin - from_) * per_ns_);
      const double e = std::min<double>(width_, (s.end - from_) * per_ns_);
      if (e > b) spans_.push_back({s.state, b, e});
    }
    std::sort(spans_.begin(), spans_.end(), [](const Span& a, const Span& b) {
      return a.state != b.state ? a.state < b.state : a.b < b.b;
    });
    std::fill(acc_.begin(), acc_.end(), 0.0);
    // Each state's spans merged into disjoint runs, each run over its pixels.
    for (size_t i = 0; i < spans_.size();) {
      Span run = spans_[i++];
      while (i < spans_.size() && spans_[i].state == run.state && spans_[i].b <= run.e)
        run.e = std::max(run.e, spans_[i++].e);
      const auto x0 = static_cast<uint32_t>(run.b);
      const auto x1 = std::min(width_, static_cast<uint32_t>(std::ceil(run.e)));
      for (uint32_t x = x0; x < x1; ++x)
        if (target[x] == run.state)
          acc_[x] += std::min(run.e, x + 1.0) - std::max(run.b, static_cast<double>(x));
    }
    rows_.push_back(row);
    for (uint32_t x = 0; x < width_; ++x)
      values_.push_back(
          static_cast<uint16_t>(std::lround(std::clamp(acc_[x], 0.0, 1.0) * kRowmapShareScale)));
  }

  // Writes the band's stats (width of them) to `out` and starts the next
  // band: min and max with the first row of the band that has them, the
  // lower median, the rounded mean.
  void Flush(char* out) {
    const size_t n = rows_.size();
    column_.resize(n);
    for (uint32_t x = 0; x < width_; ++x) {
      wire::RowmapStat stat;
      size_t lo = 0, hi = 0;
      uint64_t sum = 0;
      for (size_t k = 0; k < n; ++k) {
        const uint16_t v = values_[k * width_ + x];
        column_[k] = v;
        sum += v;
        if (v < column_[lo]) lo = k;
        if (v > column_[hi]) hi = k;
      }
      stat.min_row = rows_[lo];
      stat.max_row = rows_[hi];
      stat.min = column_[lo];
      stat.max = column_[hi];
      stat.mean = static_cast<uint16_t>((sum + n / 2) / n);
      const auto mid = column_.begin() + static_cast<ptrdiff_t>((n - 1) / 2);
      std::nth_element(column_.begin(), mid, column_.end());
      stat.median = *mid;
      std::memcpy(out + x * sizeof(stat), &stat, sizeof(stat));
    }
    rows_.clear();
    values_.clear();
  }

 private:
  struct Span {
    uint32_t state;
    double b, e;  // pixels from the left edge
  };
  double from_, per_ns_;
  uint32_t width_;
  std::vector<double> acc_;
  std::vector<Span> spans_;
  std::vector<uint32_t> rows_;    // the band's rows so far
  std::vector<uint16_t> values_;  // their shares, row by row, width each
  std::vector<uint16_t> column_;
};

// Squeezes `slices` (one row's tile records) into `picks`, one per pixel.
void PickRow(const RowmapRequest& request, const TileSlice* slices, size_t n,
             std::vector<Pick>* picks) {
  std::fill(picks->begin(), picks->end(), Pick{});
  const double per_ns = request.width / (request.to - request.from);
  const int64_t last = static_cast<int64_t>(request.width) - 1;
  const auto offer = [&](int64_t x, float cover, const TileSlice& s) {
    Pick& p = (*picks)[static_cast<size_t>(x)];
    if (Better(cover, s.depth, p)) p = Pick{cover, s.depth, s.state};
  };
  for (size_t i = 0; i < n; ++i) {
    const TileSlice& s = slices[i];
    if (s.end < request.from || s.begin > request.to) continue;
    const double b = (s.begin - request.from) * per_ns, e = (s.end - request.from) * per_ns;
    const int64_t x0 = std::clamp<int64_t>(static_cast<int64_t>(std::floor(b)), 0, last);
    const int64_t x1 = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(e)) - 1, x0, last);
    const auto cover = [&](int64_t x) {
      const double lo = std::max(b, static_cast<double>(x));
      const double hi = std::min(e, static_cast<double>(x + 1));
      return static_cast<float>(std::max(0.0, hi - lo));
    };
    offer(x0, cover(x0), s);
    if (x1 == x0) continue;
    // The pixels between the ends are covered whole.
    for (int64_t x = x0 + 1; x < x1; ++x) {
      Pick& p = (*picks)[static_cast<size_t>(x)];
      if (p.cover < 0.5f || s.depth > p.depth || (s.depth == p.depth && p.cover < 1.0f))
        p = Pick{1.0f, s.depth, s.state};
    }
    offer(x1, cover(x1), s);
  }
}

}  // namespace

Status CheckRowmapRequest(const RowmapRequest& request, uint32_t rows, uint32_t states) {
  if (request.rows.empty()) return InvalidArgument("rows: at least one row is needed");
  for (uint32_t row : request.rows)
    if (row >= rows)
      return InvalidArgument(StrFormat("rows: unknown row %u (the trace has %u)", row, rows));
  if (!std::isfinite(request.from)) return InvalidArgument("from: must be a finite number");
  if (!std::isfinite(request.to)) return InvalidArgument("to: must be a finite number");
  if (!(request.from < request.to))
    return InvalidArgument(StrFormat("to: must be greater than from (from %.17g, to %.17g)",
                                     request.from, request.to));
  if (request.width < 1 || request.width > kMaxRowmapWidth)
    return InvalidArgument(
        StrFormat("width: must be 1..%u, got %u", kMaxRowmapWidth, request.width));
  if (request.group < 1 || request.group > kMaxRowmapGroup)
    return InvalidArgument(
        StrFormat("group: must be 1..%u, got %u", kMaxRowmapGroup, request.group));
  const uint64_t bands = (request.rows.size() + request.group - 1) / request.group;
  if (bands * request.width > kMaxRowmapCells)
    return InvalidArgument(StrFormat(
        "width: %llu bands of %u pixels are more than %llu cells; ask for fewer rows or a "
        "larger group",
        static_cast<unsigned long long>(bands), request.width,
        static_cast<unsigned long long>(kMaxRowmapCells)));
  if (!request.stats && request.state != -1) return InvalidArgument("state: only with stats=1");
  if (request.state < -1 || request.state >= int64_t{states})
    return InvalidArgument(
        StrFormat("state: must be -1 (each cell's dominant state) or a state "
                  "of the trace (it has %u), got %lld",
                  states, static_cast<long long>(request.state)));
  const uint64_t band_rows = std::min<uint64_t>(request.group, request.rows.size());
  if (request.stats && band_rows * request.width > kMaxRowmapStatValues)
    return InvalidArgument(StrFormat(
        "group: with stats, the rows of a band × width must be at most %llu, got %llu × %u",
        static_cast<unsigned long long>(kMaxRowmapStatValues),
        static_cast<unsigned long long>(band_rows), request.width));
  return Status::Ok();
}

Status BuildRowmap(const RowmapRequest& request, const TileSource& tiles, std::string* out) {
  const size_t n = request.rows.size();
  const uint32_t bands = static_cast<uint32_t>((n + request.group - 1) / request.group);
  const size_t cell_bytes = size_t{bands} * request.width * sizeof(wire::RowmapCell);
  const size_t stat_bytes =
      request.stats ? size_t{bands} * request.width * sizeof(wire::RowmapStat) : 0;
  wire::RowmapHeader h;
  h.magic = kRowmapMagic;
  h.version = wire::kApiVersion;
  h.from = request.from;
  h.to = request.to;
  h.width = request.width;
  h.bands = bands;
  h.group = request.group;
  const size_t at = out->size();
  out->resize(at + sizeof h + cell_bytes + stat_bytes);
  std::memcpy(out->data() + at, &h, sizeof h);
  char* cells = out->data() + at + sizeof h;
  char* stats = cells + cell_bytes;

  BandVotes votes(request.width);
  std::vector<Pick> picks(request.width);
  // The states the band's stats measure, per pixel.
  std::vector<uint32_t> target(request.width);
  BandShares shares(request);
  TileRequest tile;
  tile.from = request.from;
  tile.to = request.to;
  tile.width = request.width;
  tile.arrows = false;
  // With stats, a tile holds whole bands: their rows' slices are measured
  // again once the band's cells are known.
  const size_t chunk = !request.stats ? kRowsPerTile
                       : request.group >= kRowsPerTile
                           ? request.group
                           : kRowsPerTile / request.group * request.group;
  std::string bytes;
  std::vector<TileSlice> slices;
  const auto slices_of = [&](uint32_t row) {
    const auto lo = std::partition_point(slices.begin(), slices.end(),
                                         [row](const TileSlice& s) { return s.row < row; });
    const auto hi =
        std::partition_point(lo, slices.end(), [row](const TileSlice& s) { return s.row == row; });
    return std::pair{slices.data() + (lo - slices.begin()), static_cast<size_t>(hi - lo)};
  };
  for (size_t first = 0; first < n; first += chunk) {
    const size_t end = std::min(n, first + chunk);
    // Each row once, in index order.
    tile.rows.assign(request.rows.begin() + first, request.rows.begin() + end);
    std::sort(tile.rows.begin(), tile.rows.end());
    tile.rows.erase(std::unique(tile.rows.begin(), tile.rows.end()), tile.rows.end());
    bytes.clear();
    if (Status s = tiles(tile, &bytes); !s.ok()) {
      out->resize(at);
      return s;
    }
    // Only the slices are read (they follow the header), grouped by row.
    wire::TileHeader th;
    std::memcpy(&th, bytes.data(), sizeof th);
    slices.resize(th.slices);
    std::memcpy(slices.data(), bytes.data() + sizeof th, slices.size() * sizeof(TileSlice));
    const auto by_row = [](const TileSlice& a, const TileSlice& b) { return a.row < b.row; };
    if (!std::is_sorted(slices.begin(), slices.end(), by_row))
      std::stable_sort(slices.begin(), slices.end(), by_row);
    for (size_t i = first; i < end; ++i) {
      const auto [row_slices, count] = slices_of(request.rows[i]);
      PickRow(request, row_slices, count, &picks);
      votes.Add(picks);
      if ((i + 1) % request.group != 0 && i + 1 != n) continue;
      votes.Flush(cells, &target);
      cells += request.width * sizeof(wire::RowmapCell);
      if (!request.stats) continue;
      if (request.state >= 0)
        std::fill(target.begin(), target.end(), static_cast<uint32_t>(request.state));
      for (size_t k = i / request.group * request.group; k <= i; ++k) {
        const auto [measured, measured_count] = slices_of(request.rows[k]);
        shares.Add(request.rows[k], measured, measured_count, target);
      }
      shares.Flush(stats);
      stats += request.width * sizeof(wire::RowmapStat);
    }
  }
  return Status::Ok();
}

}  // namespace plx::server
