// The timeline's compact mode on a trace of many ranks: every rank on one
// 1600 x 1000 screen, drawn from /rowmap tiles (server/timeline/rowmap.h) of
// the shape the viewer asks for (web/src/views/timeline/compact.ts). Loads
// the synthetic MPI trace (mpi_trace_gen.h) of PLX_BENCH_EVENTS events
// (default 100 million) on PLX_BENCH_RANKS ranks (default 16,384) as the
// server does (causal repair, message pairs, timeline index), then, at 10
// zoom levels from the whole trace down to a millionth of it and 5 window
// positions each, builds every tile one screen needs: per level the median
// and worst tile, and the whole screen's work. PLX_BENCH_DIR keeps the
// generated trace between runs.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/mpi_trace_gen.h"
#include "format/trace_file.h"
#include "model/load_trace.h"
#include "server/timeline/rowmap.h"
#include "server/timeline/tile_builder.h"
#include "server/timeline/timeline_index.h"
#include "time/causal_repair.h"
#include "time/message_pairs.h"

namespace {

// The screen: 1600 x 1000 CSS px, less the label column and the ruler.
constexpr uint32_t kPlotWidth = 1600 - 200;
constexpr uint32_t kPlotHeight = 1000 - 24;
// A tile as the viewer asks for it: this many pixel columns over the bands
// of about this many rows (at most 256 bands).
constexpr uint32_t kTilePx = 512;
constexpr uint32_t kTileRows = 1024;
constexpr int kZoomLevels = 10;
constexpr int kPositions = 5;

uint64_t Env(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

[[noreturn]] void Fail(const plx::Status& s) {
  fmt::print(stderr, "error: {}\n", s.message());
  std::exit(1);
}

}  // namespace

int main() {
  const uint64_t events = Env("PLX_BENCH_EVENTS", 100'000'000);
  const auto ranks = static_cast<uint32_t>(Env("PLX_BENCH_RANKS", 16384));
  const std::string path = plx::bench::CachedMpiTrace(events, ranks);
  auto t0 = std::chrono::steady_clock::now();
  auto file = plx::format::TraceFile::Open(path);
  if (!file.ok()) Fail(file.status());
  auto trace = plx::model::LoadTrace(**file);
  if (!trace.ok()) Fail(trace.status());
  if (auto r = plx::time::RepairCausality(&*trace); !r.ok()) Fail(r.status());
  const plx::time::MessagePairs pairs = plx::time::MatchMessages(*trace);
  const double load_s = Seconds(t0);
  t0 = std::chrono::steady_clock::now();
  const plx::server::TimelineIndex index = plx::server::TimelineIndex::Build(*trace, pairs);
  const double index_s = Seconds(t0);

  const uint32_t rows = index.rows();
  const uint32_t group = (rows + kPlotHeight - 1) / kPlotHeight;
  const uint32_t bands = (rows + group - 1) / group;
  const uint32_t tile_bands = std::clamp(kTileRows / group, 1u, 256u);
  fmt::print("{}: {} events, {} rows; load and repair {:.1f} s, index {:.1f} s\n", path,
             (*file)->total_records(), rows, load_s, index_s);
  fmt::print("screen {} x {} px: {} bands of {} rows; tiles of {} px x {} bands ({} rows)\n\n",
             kPlotWidth, kPlotHeight, bands, group, kTilePx, tile_bands, tile_bands * group);
  fmt::print("{:>4} {:>14} {:>6} {:>10} {:>10} {:>12}\n", "zoom", "span (ns)", "tiles", "median ms",
             "worst ms", "screen ms");

  const plx::server::TileSource tiles = [&](const plx::server::TileRequest& t, std::string* out) {
    return plx::server::BuildTile(index, t, out);
  };
  const double duration = static_cast<double>(trace->end_ns - trace->begin_ns);
  double worst_all = 0;
  for (int level = 0; level < kZoomLevels; ++level) {
    const double span = duration / std::pow(10.0, level * 6.0 / (kZoomLevels - 1));
    std::vector<double> ms;
    double screen_ms = 0;
    for (int q = 0; q < kPositions; ++q) {
      const double from = std::max(0.0, (duration - span) * (q + 0.37) / kPositions);
      // The screen's tiles: time tiles of kTilePx pixels over the window's
      // width, aligned as the viewer aligns them, times the band blocks.
      const double tile_span = span * kTilePx / kPlotWidth;
      const double first = std::floor(from / tile_span);
      const double last = std::floor((from + span) / tile_span);
      double this_screen = 0;
      for (double t = first; t <= last; ++t)
        for (uint32_t b = 0; b < bands; b += tile_bands) {
          plx::server::RowmapRequest r;
          r.from = t * tile_span;
          r.to = r.from + tile_span;
          r.width = kTilePx;
          r.group = group;
          const uint32_t end = std::min(rows, (b + tile_bands) * group);
          for (uint32_t row = b * group; row < end; ++row)
            r.rows.push_back(row);
          std::string out;
          const auto s0 = std::chrono::steady_clock::now();
          if (plx::Status s = plx::server::BuildRowmap(r, tiles, &out); !s.ok()) Fail(s);
          ms.push_back(Seconds(s0) * 1e3);
          this_screen += ms.back();
        }
      screen_ms = std::max(screen_ms, this_screen);
    }
    std::sort(ms.begin(), ms.end());
    worst_all = std::max(worst_all, ms.back());
    fmt::print("{:>4} {:>14.0f} {:>6} {:>10.2f} {:>10.2f} {:>12.1f}\n", level, span,
               ms.size() / kPositions, ms[ms.size() / 2], ms.back(), screen_ms);
  }
  fmt::print("\nworst tile {:.2f} ms\n", worst_all);
  return 0;
}
