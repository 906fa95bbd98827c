// BuildRowmap and /rowmap: many rows squeezed into bands of pixel rows.
// Exact answers on a hand-built trace (a row's state at a pixel is its
// deepest slice covering half of it, else the widest; a band's is the state
// most of its rows are in, ties to the lower id); on every test trace, bands
// of any group are the count of the one-row bands, and a trace served from
// its file gives the in-memory answer where its tiles are the in-memory
// ones; the request checks. With stats: exact shares, medians and outlier
// rows on the hand-built trace, and on every test trace the answer of a
// brute force over the per-row tile records.
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

std::string BuildBytes(const TimelineIndex& index, const RowmapRequest& r) {
  std::string out;
  const TileSource tiles = [&](const TileRequest& t, std::string* o) {
    return BuildTile(index, t, o);
  };
  const Status check = CheckRowmapRequest(r, index.rows(), 4);
  EXPECT_TRUE(check.ok()) << check.message();
  const Status s = BuildRowmap(r, tiles, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

Rowmap Build(const TimelineIndex& index, RowmapRequest r) {
  return Decode(BuildBytes(index, r));
}

// The RowmapStat records of a stats=1 answer (after its cells).
std::vector<wire::RowmapStat> DecodeStats(const std::string& bytes) {
  wire::RowmapHeader h;
  EXPECT_GE(bytes.size(), sizeof h);
  if (bytes.size() < sizeof h) return {};
  std::memcpy(&h, bytes.data(), sizeof h);
  const size_t cells = size_t{h.bands} * h.width;
  const size_t at = sizeof h + cells * sizeof(wire::RowmapCell);
  EXPECT_EQ(bytes.size(), at + cells * sizeof(wire::RowmapStat));
  std::vector<wire::RowmapStat> stats(
      std::min(cells, (bytes.size() - std::min(at, bytes.size())) / sizeof(wire::RowmapStat)));
  std::memcpy(stats.data(), bytes.data() + at, stats.size() * sizeof(wire::RowmapStat));
  return stats;
}

// min_row, max_row, min, median, max, mean of a stat.
std::vector<uint32_t> Fields(const wire::RowmapStat& s) {
  return {s.min_row, s.max_row, s.min, s.median, s.max, s.mean};
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

TEST(RowmapTest, StatsOfAHandBuiltTrace) {
  TimelineTrace t(4);
  const int64_t B = 1000;              // trace time 0; pixels of 128 ns below
  t.Slice(0, B + 0, B + 960, 1);       // half of pixel 7
  t.Slice(0, B + 160, B + 224, 1, 1);  // nested in the same state: counted once
  t.Slice(0, B + 900, B + 932, 1, 1);
  t.Slice(1, B + 0, B + 160, 1);  // a quarter of pixel 1
  t.Slice(1, B + 160, B + 1024, 2);
  t.Slice(2, B + 0, B + 1024, 2);
  t.Slice(3, B + 0, B + 224, 1);  // three quarters of pixel 1
  t.Slice(3, B + 224, B + 1024, 3);
  t.Finish(B, B + 1024);
  const TimelineIndex index = TimelineIndex::Build(t.trace, t.pairs);
  RowmapRequest r;
  r.rows = {0, 1, 2, 3};
  r.from = 0;
  r.to = 1280;  // pixels 8 and 9 after the end
  r.width = 10;
  r.group = 4;
  const std::string plain = BuildBytes(index, r);
  r.stats = true;
  const std::string bytes = BuildBytes(index, r);
  // The cells are the same, the stats follow them.
  EXPECT_EQ(bytes.substr(0, plain.size()), plain);
  const Rowmap m = Decode(bytes.substr(0, plain.size()));
  const std::vector<wire::RowmapStat> stats = DecodeStats(bytes);
  ASSERT_EQ(stats.size(), 10u);
  const uint32_t F = kRowmapShareScale, Q1 = 16384, Q3 = 49151;  // 1, 1/4, 3/4
  // Pixel 0: three rows in state 1 all of it, row 2 never.
  EXPECT_EQ(m.at(0, 0).state, 1u);
  EXPECT_EQ(Fields(stats[0]), (std::vector<uint32_t>{2, 0, 0, F, F, 49151}));
  // Pixel 1: state 1 (a tie with 2, to the lower id), the rows' shares 1, 1/4, 0, 3/4.
  EXPECT_EQ(m.at(0, 1).state, 1u);
  EXPECT_EQ(Fields(stats[1]), (std::vector<uint32_t>{2, 0, 0, Q1, F, 32768}));
  // Pixel 5: state 2, rows 1 and 2 in it.
  EXPECT_EQ(m.at(0, 5).state, 2u);
  EXPECT_EQ(Fields(stats[5]), (std::vector<uint32_t>{0, 1, 0, 0, F, 32768}));
  // After the end: no state, nothing measured.
  EXPECT_EQ(m.at(0, 9).state, E);
  EXPECT_EQ(Fields(stats[9]), (std::vector<uint32_t>{0, 0, 0, 0, 0, 0}));

  // A chosen state: state 3 in every cell.
  r.state = 3;
  const std::vector<wire::RowmapStat> three = DecodeStats(BuildBytes(index, r));
  ASSERT_EQ(three.size(), 10u);
  EXPECT_EQ(Fields(three[1]), (std::vector<uint32_t>{0, 3, 0, 0, Q1, 4096}));
  EXPECT_EQ(Fields(three[5]), (std::vector<uint32_t>{0, 3, 0, 0, F, 16384}));
  r.state = 1;  // pixel 7: row 0's half, not its two slices' three quarters
  EXPECT_EQ(Fields(DecodeStats(BuildBytes(index, r)).at(7)),
            (std::vector<uint32_t>{1, 0, 0, 0, 32768, 8192}));

  // Two rows a band: the lower median is the smaller share.
  r.state = -1;
  r.group = 2;
  const std::vector<wire::RowmapStat> pairs = DecodeStats(BuildBytes(index, r));
  ASSERT_EQ(pairs.size(), 20u);
  EXPECT_EQ(Fields(pairs[1]), (std::vector<uint32_t>{1, 0, Q1, Q1, F, 40960}));
  // Rows 2 and 3 tie on states 2 and 1 there: state 1, row 3's three quarters.
  EXPECT_EQ(Fields(pairs[10 + 1]), (std::vector<uint32_t>{2, 3, 0, 0, Q3, 24576}));
  // Rows listed twice count twice; the rows named are thread rows.
  r.rows = {3, 1, 3};
  r.group = 3;
  const std::vector<wire::RowmapStat> listed = DecodeStats(BuildBytes(index, r));
  ASSERT_EQ(listed.size(), 10u);
  EXPECT_EQ(Fields(listed[1]), (std::vector<uint32_t>{1, 3, Q1, Q3, Q3, 38229}));
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
  // Stats: a state only with them, one of the trace's; a band's shares bounded.
  r = good;
  r.state = 1;
  EXPECT_EQ(error(r), "state: only with stats=1");
  r.stats = true;
  EXPECT_TRUE(CheckRowmapRequest(r, index.rows(), 2).ok());
  EXPECT_EQ(CheckRowmapRequest(r, index.rows(), 1).message().rfind("state: must be -1", 0), 0u);
  r.state = -2;
  EXPECT_EQ(CheckRowmapRequest(r, index.rows(), 2).message().rfind("state: must be -1", 0), 0u);
  r.state = -1;
  r.rows.assign(1025, 0);
  r.group = 1025;
  r.width = 4096;
  EXPECT_EQ(error(r).rfind("group: with stats", 0), 0u) << error(r);
  r.group = 1024;
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

// Brute force: the share of `row` at each pixel x of the map `h` in state
// targets[x], from `tile` (of every row, h's window and width): the length
// of the union of the pieces of its slices in that state over the pixel.
std::vector<uint16_t> Shares(const TileRecords& tile, const wire::RowmapHeader& h, uint32_t row,
                             const std::vector<uint32_t>& targets) {
  std::vector<uint16_t> out;
  const double per_ns = h.width / (h.to - h.from);
  for (uint32_t x = 0; x < h.width; ++x) {
    std::vector<std::pair<double, double>> pieces;
    for (const wire::TileSlice& s : tile.slices) {
      if (s.row != row || s.state != targets[x]) continue;
      const double lo = std::max((s.begin - h.from) * per_ns, static_cast<double>(x));
      const double hi = std::min((s.end - h.from) * per_ns, x + 1.0);
      if (hi > lo) pieces.emplace_back(lo, hi);
    }
    std::sort(pieces.begin(), pieces.end());
    double covered = 0, reach = -1;
    for (const auto& [lo, hi] : pieces) {
      covered += std::max(0.0, hi - std::max(lo, reach));
      reach = std::max(reach, hi);
    }
    out.push_back(
        static_cast<uint16_t>(std::lround(std::clamp(covered, 0.0, 1.0) * kRowmapShareScale)));
  }
  return out;
}

TEST_F(RowmapTracesTest, StatsAreTheBruteForceOverTheRowsTiles) {
  testing::TempDir index;
  int compared = 0, spread = 0, from_file = 0;
  for (const testing::TestTrace& tt : *traces_) {
    SCOPED_TRACE(tt.name);
    ServedBothWays both;
    if (!both.Load(tt.path, index.path())) continue;
    Api api(both.served);
    const model::Trace& t = both.memory->trace();
    const int64_t span = std::max<int64_t>(1, t.end_ns - t.begin_ns);
    const uint32_t n = static_cast<uint32_t>(t.threads.size());
    // Bottom to top: bands are the listed order, not the rows'.
    std::vector<uint32_t> rows;
    std::string list;
    for (uint32_t r = n; r-- > 0;) {
      rows.push_back(r);
      list += (list.empty() ? "" : ",") + std::to_string(r);
    }
    const auto ask = [&](const ServedTrace& s, const std::string& endpoint, const std::string& q) {
      const ApiResponse r = api.Handle("/traces/" + s.id() + "/" + endpoint, q);
      EXPECT_EQ(r.status, 200) << q << ": " << r.body;
      return r.body;
    };
    for (const auto& [from, to] : {std::pair{int64_t{0}, span}, std::pair{span / 3, span / 2}}) {
      const std::string window = "&from=" + std::to_string(from) +
                                 "&to=" + std::to_string(std::max(from + 1, to)) + "&width=61";
      const TileRecords tile = ReadTile(
          ask(*both.memory, "tile", "rows=0-" + std::to_string(n - 1) + window + "&arrows=0"));
      for (const int64_t state : {int64_t{-1}, int64_t{0}})
        for (const uint32_t group : {2u, 3u, 7u}) {
          const std::string q = "rows=" + list + window + "&group=" + std::to_string(group) +
                                "&stats=1&state=" + std::to_string(state);
          const std::string bytes = ask(*both.memory, "rowmap", q);
          const std::vector<wire::RowmapStat> stats = DecodeStats(bytes);
          const Rowmap m = Decode(bytes.substr(0, bytes.size() - stats.size() * sizeof(stats[0])));
          ASSERT_EQ(stats.size(), m.cells.size()) << q;
          for (uint32_t band = 0; band < m.header.bands; ++band) {
            std::vector<uint32_t> targets(m.header.width, static_cast<uint32_t>(state));
            if (state < 0)
              for (uint32_t x = 0; x < m.header.width; ++x)
                targets[x] = m.at(band, x).state;
            // shares[x][k]: the k-th row of the band at pixel x.
            std::vector<std::vector<uint16_t>> shares(m.header.width);
            std::map<uint32_t, std::vector<uint16_t>> by_row;
            for (uint32_t k = band * group; k < std::min<uint32_t>(n, (band + 1) * group); ++k) {
              by_row[rows[k]] = Shares(tile, m.header, rows[k], targets);
              for (uint32_t x = 0; x < m.header.width; ++x)
                shares[x].push_back(by_row[rows[k]][x]);
            }
            for (uint32_t x = 0; x < m.header.width; ++x) {
              SCOPED_TRACE(q + " band " + std::to_string(band) + " x " + std::to_string(x));
              std::vector<uint16_t> v = shares[x];
              const wire::RowmapStat& got = stats[size_t{band} * m.header.width + x];
              uint64_t sum = 0;
              for (uint16_t s : v)
                sum += s;
              std::sort(v.begin(), v.end());
              // Within one 65535th: sums of pieces may round the other way.
              EXPECT_NEAR(got.min, v.front(), 1);
              EXPECT_NEAR(got.max, v.back(), 1);
              EXPECT_NEAR(got.median, v[(v.size() - 1) / 2], 1);
              EXPECT_NEAR(got.mean, static_cast<double>(sum) / v.size(), 1);
              // The rows named are of the band and have those shares.
              ASSERT_TRUE(by_row.count(got.min_row) && by_row.count(got.max_row));
              EXPECT_NEAR(by_row[got.min_row][x], v.front(), 1);
              EXPECT_NEAR(by_row[got.max_row][x], v.back(), 1);
              if (v.back() > v.front() + 1) ++spread;
              ++compared;
            }
          }
        }
    }
    // Where the file's tiles are the in-memory ones, so are its stats.
    int64_t finest = INT64_MAX;
    for (const auto& ts : both.file->store_timeline().summary().threads)
      finest = std::min(finest, ts.instants.bucket_ns);
    const int64_t narrow = std::min<int64_t>(span, finest * 60 / 2);
    const std::string q = "rows=" + list +
                          "&from=0&to=" + std::to_string(std::max<int64_t>(1, narrow)) +
                          "&width=60&group=3&stats=1";
    EXPECT_EQ(ask(*both.file, "rowmap", q), ask(*both.memory, "rowmap", q));
    ++from_file;
    // The stats' parameters are checked.
    const std::string base = "/traces/" + both.memory->id() + "/rowmap";
    EXPECT_EQ(api.Handle(base, "rows=0&from=0&to=10&width=5&state=0").status, 400);
    EXPECT_EQ(api.Handle(base, "rows=0&from=0&to=10&width=5&stats=1&state=" +
                                   std::to_string(t.states.size()))
                  .status,
              400);
    EXPECT_EQ(api.Handle(base, "rows=0&from=0&to=10&width=5&stats=2").status, 400);
  }
  EXPECT_GT(compared, 2000);
  EXPECT_GT(spread, 100);
  EXPECT_GT(from_file, 3);
}

}  // namespace
}  // namespace plx::server
