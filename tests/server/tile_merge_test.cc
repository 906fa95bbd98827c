// The tiles of a spread server (`parallax-mpi serve`): the parts drawn by
// processes owning some of the rows (TileRequest::here), merged with
// MergeTileParts, are byte for byte the tile drawn whole, on every test
// trace, in memory (with arrows, the long ones included) and from the file,
// at every zoom, with rows asked in any order (and twice) and every counter
// track; the rows of a process need not be contiguous.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "served_both_ways.h"
#include "server/api/served_trace.h"
#include "server/timeline/tile_builder.h"
#include "support/test_support.h"
#include "support/test_traces.h"

namespace plx::server {
namespace {

class TileMergeTest : public testing::TestTracesSuite {
 protected:
  // The tile of `r` merged from `processes` parts (row k drawn by process
  // k % processes when `interleaved`, else by contiguous runs).
  static std::string Merged(const ServedTrace& served, const TileRequest& r, int processes,
                            bool interleaved) {
    const auto rows = static_cast<uint32_t>(served.trace().threads.size());
    std::vector<std::string> parts(static_cast<size_t>(processes));
    for (int p = 0; p < processes; ++p) {
      TileRequest part = r;
      part.here.assign(rows, 0);
      for (uint32_t k = 0; k < rows; ++k) {
        const int owner = interleaved ? static_cast<int>(k % static_cast<uint32_t>(processes))
                                      : static_cast<int>(uint64_t{k} * processes / rows);
        part.here[k] = owner == p;
      }
      part.long_arrows = false;
      EXPECT_TRUE(served.DrawTile(part, &parts[static_cast<size_t>(p)]).ok());
    }
    std::string long_part;
    if (r.arrows && !served.from_store()) {
      TileRequest only_long = r;
      only_long.here.assign(rows, 0);
      EXPECT_TRUE(served.DrawTile(only_long, &long_part).ok());
    }
    std::string out;
    EXPECT_TRUE(MergeTileParts(r, served.TileOrderOf(r), parts, long_part, &out).ok());
    return out;
  }

  // Compares whole and merged tiles over windows from the whole trace down
  // to a millionth of it; how many tiles held records.
  static int CompareTiles(const ServedTrace& served) {
    const model::Trace& t = served.trace();
    const auto rows = static_cast<uint32_t>(t.threads.size());
    const size_t tracks = served.from_store() ? served.store_timeline().counter_tracks().size()
                                              : served.index().counter_tracks().size();
    const double duration = static_cast<double>(t.end_ns - t.begin_ns) + 2;
    int drawn = 0;
    for (double zoom = 1; zoom <= 1e6; zoom *= 10) {
      for (int k = 0; k < 3; ++k) {
        TileRequest r;
        // Rows backwards, the first one asked again at the end.
        for (uint32_t row = rows; row-- > 0;)
          r.rows.push_back(row);
        if (rows > 0) r.rows.push_back(rows - 1);
        for (uint32_t c = 0; c < tracks; ++c)
          r.counters.push_back(c);
        const double span = duration / zoom;
        r.from = -1 + (duration - span) * k / 2.0;
        r.to = r.from + span;
        // Wide pixels are drawn from the summary of a trace served from its
        // file, narrow ones from its chunks.
        for (uint32_t width : {300u, 3u}) {
          r.width = width;
          std::string whole;
          EXPECT_TRUE(served.DrawTile(r, &whole).ok());
          drawn += whole.size() > sizeof(wire::TileHeader);
          for (int processes : {1, 2, 3, 5})
            for (bool interleaved : {false, true})
              EXPECT_EQ(Merged(served, r, processes, interleaved), whole)
                  << processes << " processes, interleaved " << interleaved << ", window " << r.from
                  << " .. " << r.to << ", width " << width;
        }
      }
    }
    return drawn;
  }
};

TEST_F(TileMergeTest, MergedPartsAreTheWholeTile) {
  testing::TempDir index;
  int memory_tiles = 0, file_tiles = 0, arrows = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    memory_tiles += CompareTiles(*both.memory);
    file_tiles += CompareTiles(*both.file);
    arrows += !both.memory->pairs().pairs.empty();
  }
  EXPECT_GT(memory_tiles, 50);
  EXPECT_GT(file_tiles, 50);
  EXPECT_GT(arrows, 3);  // traces with messages, so tiles with arrows
}

TEST_F(TileMergeTest, APartThatIsNotATileIsAnError) {
  TileRequest r;
  r.rows = {0};
  r.from = 0;
  r.to = 10;
  r.width = 10;
  std::string out;
  const Status s = MergeTileParts(r, RequestOrder(r), {std::string("short")}, {}, &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("tile part 0"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace plx::server
