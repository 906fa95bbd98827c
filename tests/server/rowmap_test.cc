// BuildRowmap and /rowmap: many rows squeezed into bands of pixel rows.
// Exact answers on a hand-built trace (a row's state at a pixel is its
// deepest slice covering half of it, else the widest; a band's is the state
// most of its rows are in, ties to the lower id); on every test trace, bands
// of any group are the count of the one-row bands, and a trace served from
// its file gives the in-memory answer where its tiles are the in-memory
// ones; the request checks.
#include "server/timeline/rowmap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "served_both_ways.h"
#include "server/api.gen.h"
#include "server/api/api.h"
#include "support/test_traces.h"
#include "timeline_test_trace.h"

namespace plx::server {
namespace {

using testing::TimelineTrace;
constexpr uint32_t E = kRowmapEmpty;

struct Rowmap {
  wire::RowmapHeader header;
  std::vector<wire::RowmapCell> cells;
  const wire::RowmapCell& at(uint32_t band, uint32_t x) const {
    return cells[size_t{band} * header.width + x];
  }
  // The states of one band, pixel by pixel.
  std::vector<uint32_t> States(uint32_t band) const {
    std::vector<uint32_t> v;
    for (uint32_t x = 0; x < header.width; ++x)
      v.push_back(at(band, x).state);
    return v;
  }
};

Rowmap Decode(const std::string& bytes) {
  Rowmap m;
  EXPECT_GE(bytes.size(), sizeof m.header);
  if (bytes.size() < sizeof m.header) return m;
  std::memcpy(&m.header, bytes.data(), sizeof m.header);
  const size_t cells = size_t{m.header.bands} * m.header.width;
  EXPECT_EQ(bytes.size(), sizeof m.header + cells * sizeof(wire::RowmapCell));
  m.cells.resize(std::min(cells, (bytes.size() - sizeof m.header) / sizeof(wire::RowmapCell)));
  std::memcpy(m.cells.data(), bytes.data() + sizeof m.header,
              m.cells.size() * sizeof(wire::RowmapCell));
  return m;
}

Rowmap Build(const TimelineIndex& index, RowmapRequest r) {
  std::string out;
  const TileSource tiles = [&](const TileRequest& t, std::string* o) {
    return BuildTile(index, t, o);
  };
  EXPECT_TRUE(CheckRowmapRequest(r, index.rows()).ok());
  const Status s = BuildRowmap(r, tiles, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return Decode(out);
}

TEST(RowmapTest, RowsAndBandsOfAHandBuiltTrace) {
  TimelineTrace t(4);
  const int64_t B = 1000;  // trace time 0; pixels of 100 ns below
  t.Slice(0, B + 0, B + 1000, 1);
  t.Slice(0, B + 200, B + 400, 2, 1);  // deeper, over whole pixels: wins them
  t.Slice(0, B + 610, B + 630, 3, 1);  // deeper but a fifth of a pixel: loses
  t.Slice(1, B + 0, B + 450, 2);       // half of pixel 4: still wins it
  t.Slice(2, B + 530, B + 560, 3);     // the only slice of its pixel
  t.Slice(3, B + 0, B + 1000, 1);
  t.Finish(B, B + 1000);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  RowmapRequest r;
  r.rows = {0, 1, 2, 3};
  r.from = 0;
  r.to = 1000;
  r.width = 10;

  const Rowmap rows = Build(index, r);
  EXPECT_EQ(rows.header.magic, 0x524c5850u);
  EXPECT_EQ(rows.header.version, wire::kApiVersion);
  EXPECT_EQ(rows.header.width, 10u);
  EXPECT_EQ(rows.header.bands, 4u);
  EXPECT_EQ(rows.header.group, 1u);
  EXPECT_EQ(rows.header.reserved, 0u);
  EXPECT_EQ(rows.States(0), (std::vector<uint32_t>{1, 1, 2, 2, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(rows.States(1), (std::vector<uint32_t>{2, 2, 2, 2, 2, E, E, E, E, E}));
  EXPECT_EQ(rows.States(2), (std::vector<uint32_t>{E, E, E, E, E, 3, E, E, E, E}));
  EXPECT_EQ(rows.at(0, 0).rows, 1u);
  EXPECT_EQ(rows.at(1, 7).busy, 0u);

  // Two rows a band: the state most rows are in, a tie to the lower id.
  r.group = 2;
  const Rowmap pairs = Build(index, r);
  EXPECT_EQ(pairs.header.bands, 2u);
  EXPECT_EQ(pairs.States(0), (std::vector<uint32_t>{1, 1, 2, 2, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(pairs.at(0, 0).rows, 1u);
  EXPECT_EQ(pairs.at(0, 0).busy, 2u);
  EXPECT_EQ(pairs.at(0, 2).rows, 2u);
  EXPECT_EQ(pairs.at(0, 5).busy, 1u);
  EXPECT_EQ(pairs.States(1), (std::vector<uint32_t>(10, 1)));
  EXPECT_EQ(pairs.at(1, 5).rows, 1u);
  EXPECT_EQ(pairs.at(1, 5).busy, 2u);

  // Three rows a band: the last band holds what is left.
  r.group = 3;
  const Rowmap threes = Build(index, r);
  EXPECT_EQ(threes.header.bands, 2u);
  EXPECT_EQ(threes.header.group, 3u);
  EXPECT_EQ(threes.at(0, 2).state, 2u);
  EXPECT_EQ(threes.at(0, 2).rows, 2u);
  EXPECT_EQ(threes.at(0, 5).busy, 2u);
  EXPECT_EQ(threes.States(1), (std::vector<uint32_t>(10, 1)));

  // Rows in any order, one twice: bands follow the list.
  r.rows = {3, 2, 2};
  r.group = 1;
  const Rowmap listed = Build(index, r);
  EXPECT_EQ(listed.States(0), (std::vector<uint32_t>(10, 1)));
  EXPECT_EQ(listed.States(1), rows.States(2));
  EXPECT_EQ(listed.States(2), rows.States(2));
}

TEST(RowmapTest, RequestsOutOfRangeNameTheirField) {
  TimelineTrace t(2);
  t.Slice(0, 0, 10, 1);
  t.Finish(0, 10);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  const auto error = [&](RowmapRequest r) { return CheckRowmapRequest(r, index.rows()).message(); };
  const RowmapRequest good{{0, 1}, 0, 10, 10, 1};
  EXPECT_TRUE(CheckRowmapRequest(good, index.rows()).ok());
  RowmapRequest r = good;
  r.rows = {0, 2};
  EXPECT_EQ(error(r), "rows: unknown row 2 (the trace has 2)");
  r = good;
  r.rows.clear();
  EXPECT_EQ(error(r).rfind("rows:", 0), 0u);
  r = good;
  r.to = 0;
  EXPECT_EQ(error(r).rfind("to: must be greater than from", 0), 0u);
  r = good;
  r.width = kMaxRowmapWidth + 1;
  EXPECT_EQ(error(r).rfind("width: must be 1..4096", 0), 0u);
  r = good;
  r.group = 0;
  EXPECT_EQ(error(r).rfind("group: must be 1..65535", 0), 0u);
  r = good;
  r.rows.assign(300, 0);
  r.width = 4000;
  EXPECT_NE(error(r).find("more than 1048576 cells"), std::string::npos) << error(r);
  r.group = 2;
  EXPECT_TRUE(CheckRowmapRequest(r, index.rows()).ok());
}

class RowmapTracesTest : public testing::TestTracesSuite {};

// The cells of `groups` rows a band, counted from the one-row bands `one`.
std::vector<wire::RowmapCell> Counted(const Rowmap& one, uint32_t group) {
  std::vector<wire::RowmapCell> cells;
  const uint32_t width = one.header.width;
  for (uint32_t first = 0; first < one.header.bands; first += group)
    for (uint32_t x = 0; x < width; ++x) {
      std::map<uint32_t, uint16_t> count;
      wire::RowmapCell c;
      c.state = E;
      for (uint32_t b = first; b < std::min(first + group, one.header.bands); ++b)
        if (one.at(b, x).state != E) {
          ++c.busy;
          ++count[one.at(b, x).state];
        }
      for (const auto& [state, n] : count)  // in state order: ties to the lower id
        if (n > c.rows) {
          c.rows = n;
          c.state = state;
        }
      cells.push_back(c);
    }
  return cells;
}

bool SameCells(const std::vector<wire::RowmapCell>& a, const std::vector<wire::RowmapCell>& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
           return x.state == y.state && x.rows == y.rows && x.busy == y.busy;
         });
}

TEST_F(RowmapTracesTest, BandsCountTheirRowsAndTheFileAgrees) {
  testing::TempDir index;
  int compared = 0, busy = 0, from_file = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    Api api(both.served);
    const model::Trace& t = both.memory->trace();
    const int64_t span = std::max<int64_t>(1, t.end_ns - t.begin_ns);
    const std::string rows = "0-" + std::to_string(t.threads.size() - 1);
    const auto ask = [&](const ServedTrace& s, const std::string& q) {
      const ApiResponse r = api.Handle("/traces/" + s.id() + "/rowmap", q);
      EXPECT_EQ(r.status, 200) << q << ": " << r.body;
      return Decode(r.body);
    };
    for (const auto& [from, to] : {std::pair{int64_t{0}, span}, std::pair{span / 3, span / 2}}) {
      const std::string window =
          "&from=" + std::to_string(from) + "&to=" + std::to_string(std::max(from + 1, to));
      const Rowmap one = ask(*both.memory, "rows=" + rows + window + "&width=97");
      for (const auto& c : one.cells)
        busy += c.busy;
      for (uint32_t group : {2u, 3u, 1000u}) {
        const Rowmap banded =
            ask(*both.memory, "rows=" + rows + window + "&width=97&group=" + std::to_string(group));
        EXPECT_TRUE(SameCells(banded.cells, Counted(one, group))) << "group " << group;
        ++compared;
      }
    }
    // Pixels finer than every bucket of the file's summary: the file's tiles
    // are the in-memory ones, and so are its row maps.
    int64_t finest = INT64_MAX;
    for (const auto& ts : both.file->store_timeline().summary().threads)
      finest = std::min(finest, ts.instants.bucket_ns);
    const int64_t narrow = std::min<int64_t>(span, finest * 60 / 2);
    for (int k = 0; k < 3; ++k) {
      const int64_t from = (span - narrow) * k / 2;
      const std::string q = "rows=" + rows + "&from=" + std::to_string(from) +
                            "&to=" + std::to_string(from + std::max<int64_t>(1, narrow)) +
                            "&width=60&group=2";
      const Rowmap want = ask(*both.memory, q), got = ask(*both.file, q);
      EXPECT_TRUE(SameCells(got.cells, want.cells)) << q;
      ++from_file;
    }
    // Bad parameters are 400s that name them.
    const std::string bad[] = {"rows=" + rows + "&from=0&to=10&width=5000",
                               "rows=" + rows + "&from=0&to=10&width=10&group=0",
                               "rows=" + std::to_string(t.threads.size()) + "&from=0&to=1&width=1",
                               "rows=3-1&from=0&to=1&width=1", "from=0&to=1&width=1"};
    for (const std::string& q : bad) {
      const ApiResponse r = api.Handle("/traces/" + both.memory->id() + "/rowmap", q);
      EXPECT_EQ(r.status, 400) << q;
      EXPECT_NE(r.body.find("error"), std::string::npos) << q;
    }
  }
  EXPECT_GT(compared, 20);
  EXPECT_GT(busy, 1000);
  EXPECT_GT(from_file, 10);
}

}  // namespace
}  // namespace plx::server
