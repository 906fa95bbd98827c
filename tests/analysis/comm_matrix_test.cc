// ComputeCommMatrix and ComputeRmaMatrix on hand-built messages and RMA
// records: counts, bytes, latencies, unmatched records, rank mapping; the
// builders' bytes for MPI-parallel analyses.
#include "analysis/comm_matrix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "stats_test_trace.h"

namespace plx::analysis {
namespace {

TEST(CommMatrixTest, PairsCountBytesAndLatency) {
  testing::StatsTestTrace t;
  // Ranks in a different order than the processes: rank 1 is process 0.
  const uint32_t p0 = t.Process(1), p1 = t.Process(0), p2 = t.Process(2);
  const uint32_t t0 = t.Thread(p0), t1 = t.Thread(p1), t2 = t.Thread(p2);
  const uint32_t w0 = t.World(p0), w1 = t.World(p1), w2 = t.World(p2);
  // Rows by thread, then time. p0 (rank 1) sends to rank 0 twice and rank 2 once.
  t.Message(true, t0, 100, w0, 0, 1000);
  t.Message(true, t0, 200, w0, 0, 24);
  t.Message(true, t0, 300, w0, 2, 8);
  t.Message(true, t0, 400, w0, 0, 5, /*tag=*/9);  // never received
  // p1 (rank 0) receives both from rank 1: latencies 50 and 150.
  t.Message(false, t1, 150, w1, 1, 1000);
  t.Message(false, t1, 350, w1, 1, 24);
  t.Message(true, t1, 360, w1, 1, 64);  // to rank 1, received at 340: latency -20
  // p2 (rank 2) receives the one from rank 1 at 310; one receive unmatched.
  t.Message(false, t2, 310, w2, 1, 8);
  t.Message(false, t2, 500, w2, 0, 8, /*tag=*/4);
  // p0 receives p1's message (a row out of thread order: matching does not need it).
  t.Message(false, t0, 340, w0, 0, 64);

  const CommMatrix m = ComputeCommMatrix(t.trace);
  ASSERT_EQ(m.processes, 3u);
  EXPECT_EQ(m.messages, 4u);
  EXPECT_EQ(m.bytes, 1000u + 24 + 8 + 64);
  const CommCell& c01 = m.at(p0, p1);
  EXPECT_EQ(c01.count, 2u);
  EXPECT_EQ(c01.bytes, 1024u);
  EXPECT_DOUBLE_EQ(c01.mean_latency_ns, 100.0);
  EXPECT_EQ(c01.max_latency_ns, 150);
  EXPECT_EQ(m.at(p0, p2).count, 1u);
  EXPECT_EQ(m.at(p0, p2).max_latency_ns, 10);
  EXPECT_EQ(m.at(p1, p0).count, 1u);
  EXPECT_EQ(m.at(p1, p0).max_latency_ns, -20);
  EXPECT_DOUBLE_EQ(m.at(p1, p0).mean_latency_ns, -20.0);
  EXPECT_EQ(m.at(p2, p0).count, 0u);
  EXPECT_EQ(m.at(p0, p0).count, 0u);
  EXPECT_EQ(m.unmatched_sends, (std::vector<uint64_t>{1, 0, 0}));
  EXPECT_EQ(m.unmatched_recvs, (std::vector<uint64_t>{0, 0, 1}));
}

TEST(CommMatrixTest, EmptyTrace) {
  testing::StatsTestTrace t;
  const CommMatrix m = ComputeCommMatrix(t.trace);
  EXPECT_EQ(m.processes, 0u);
  EXPECT_TRUE(m.cells.empty());
  EXPECT_EQ(m.messages, 0u);
}

TEST(RmaMatrixTest, RanksMapToProcesses) {
  testing::StatsTestTrace t;
  const uint32_t p0 = t.Process(1), p1 = t.Process(0);
  const uint32_t t0 = t.Thread(p0), t1 = t.Thread(p1);
  t.Rma(t0, 10, kRmaPut, 1, 0, 100);  // rank 1 -> rank 0: process 0 -> 1
  t.Rma(t0, 20, kRmaPut, 1, 0, 50);
  t.Rma(t0, 30, kRmaGet, 1, 0, 8);
  t.Rma(t0, 40, 7, 1, 1, 4);                // unknown op counts as other
  t.Rma(t1, 50, kRmaAccumulate, 0, 1, 16);  // process 1 -> 0
  t.Rma(t1, 60, kRmaPut, 0, 5, 16);         // rank 5 is no process
  t.Rma(t1, 70, kRmaPut, -1, 0, 16);
  const RmaMatrix m = ComputeRmaMatrix(t.trace);
  ASSERT_EQ(m.processes, 2u);
  EXPECT_EQ(m.operations, 5u);
  EXPECT_EQ(m.bytes, 178u);
  EXPECT_EQ(m.unmapped, 2u);
  const RmaCell& c = m.at(p0, p1);
  EXPECT_EQ(c.count, 3u);
  EXPECT_EQ(c.bytes, 158u);
  EXPECT_EQ(c.op_count[kRmaPut], 2u);
  EXPECT_EQ(c.op_bytes[kRmaPut], 150u);
  EXPECT_EQ(c.op_count[kRmaGet], 1u);
  EXPECT_EQ(c.op_bytes[kRmaGet], 8u);
  EXPECT_EQ(m.at(p0, p0).op_count[kRmaOther], 1u);
  EXPECT_EQ(m.at(p1, p0).op_count[kRmaAccumulate], 1u);
  EXPECT_EQ(m.at(p1, p0).bytes, 16u);
  EXPECT_EQ(m.at(p1, p1).count, 0u);
}

TEST(RmaMatrixTest, WithoutRanksByProcessIndex) {
  testing::StatsTestTrace t;
  const uint32_t p0 = t.Process(), p1 = t.Process();
  const uint32_t t0 = t.Thread(p0);
  t.Thread(p1);
  t.Rma(t0, 10, kRmaGet, 0, 1, 32);
  t.Rma(t0, 20, kRmaGet, 0, 2, 32);  // no process 2
  const RmaMatrix m = ComputeRmaMatrix(t.trace);
  EXPECT_EQ(m.at(0, 1).count, 1u);
  EXPECT_EQ(m.at(0, 1).op_bytes[kRmaGet], 32u);
  EXPECT_EQ(m.unmapped, 1u);
}

// 16,384 processes, each sending to its two neighbours, in two parts merged:
// only the cells with messages are kept (a dense matrix would hold 268 M),
// in key order, and at() finds each of them and nothing else. 300 processes
// (a flat table of slots) give the same cells as the hash map does.
TEST(CommMatrixTest, ManyProcessesKeepOnlyTheirCells) {
  for (const uint32_t n : {300u, 16384u}) {
    SCOPED_TRACE(n);
    CommMatrixBuilder a(n), b(n);
    for (uint32_t p = 0; p < n; ++p) {
      (p % 2 ? a : b).AddPair(p, (p + 1) % n, 8, p % 7);
      (p % 3 ? b : a).AddPair(p, (p + n - 1) % n, 16, -1);
      a.AddPair(p, (p + 1) % n, 8, 10);
    }
    a.AddPair(n, 0, 1, 1);  // no such process: ignored
    a.Merge(b);
    const CommMatrix m = a.Finish();
    ASSERT_EQ(m.cells.size(), 2u * n);
    ASSERT_EQ(m.keys.size(), m.cells.size());
    EXPECT_TRUE(std::is_sorted(m.keys.begin(), m.keys.end()));
    EXPECT_EQ(m.messages, 3u * n);
    for (uint32_t p : {0u, 1u, n / 2, n - 1}) {
      const CommCell& right = m.at(p, (p + 1) % n);
      EXPECT_EQ(right.count, 2u);
      EXPECT_EQ(right.bytes, 16u);
      EXPECT_EQ(right.max_latency_ns, 10);
      EXPECT_DOUBLE_EQ(right.mean_latency_ns, (p % 7 + 10) / 2.0);
      EXPECT_EQ(m.at(p, (p + n - 1) % n).count, 1u);
      EXPECT_EQ(m.at(p, (p + 2) % n).count, 0u);
      EXPECT_EQ(m.at(p, p).count, 0u);
    }
  }
}

// What one process of `parallax-mpi` sends another: merged from its bytes,
// a builder is what Merge makes of the builder itself; bytes that are cut,
// of another process count or with a cell out of range merge nothing.
TEST(CommMatrixTest, SavedBuildersMergeAsTheBuildersDo) {
  const uint32_t n = 5;
  CommMatrixBuilder a(n), b(n), c(n);
  for (uint32_t p = 0; p < n; ++p) {
    a.AddPair(p, (p + 1) % n, 8 * p, static_cast<int64_t>(p) - 2);
    b.AddPair(p, (p + 1) % n, 3, 7);
    b.AddPair(p, (p + 2) % n, 1, -5);
  }
  a.AddUnmatched(1, true);
  b.AddUnmatched(4, false);
  CommMatrixBuilder merged = a, from_bytes = a;
  merged.Merge(b);
  ASSERT_TRUE(from_bytes.MergeSaved(b.Save()).ok());
  const CommMatrix want = merged.Finish(), got = from_bytes.Finish();
  EXPECT_EQ(got.keys, want.keys);
  EXPECT_EQ(got.messages, want.messages);
  EXPECT_EQ(got.bytes, want.bytes);
  EXPECT_EQ(got.unmatched_sends, want.unmatched_sends);
  EXPECT_EQ(got.unmatched_recvs, want.unmatched_recvs);
  for (size_t i = 0; i < want.cells.size(); ++i) {
    EXPECT_EQ(got.cells[i].count, want.cells[i].count);
    EXPECT_EQ(got.cells[i].bytes, want.cells[i].bytes);
    EXPECT_EQ(got.cells[i].max_latency_ns, want.cells[i].max_latency_ns);
    EXPECT_EQ(got.cells[i].mean_latency_ns, want.cells[i].mean_latency_ns);
  }

  const std::string saved = b.Save();
  for (size_t cut : {size_t{0}, size_t{7}, saved.size() / 2, saved.size() - 1}) {
    CommMatrixBuilder d = c;
    EXPECT_FALSE(d.MergeSaved(saved.substr(0, cut)).ok()) << cut;
    EXPECT_EQ(d.Finish().messages, 0u) << cut;
    EXPECT_EQ(d.Finish().unmatched_recvs[4], 0u) << cut;
  }
  EXPECT_FALSE(c.MergeSaved(saved + "x").ok());
  CommMatrixBuilder other(n + 1);
  EXPECT_FALSE(other.MergeSaved(saved).ok());
  std::string far = saved;  // the first cell's key past n * n
  const uint64_t key = uint64_t{n} * n;
  far.replace(sizeof(uint64_t) * (1 + 2 * n + 3), sizeof key, reinterpret_cast<const char*>(&key),
              sizeof key);
  EXPECT_FALSE(c.MergeSaved(far).ok());
  EXPECT_EQ(c.Finish().messages, 0u);
}

TEST(CommMatrixTest, SavedRmaBuildersMergeAsTheBuildersDo) {
  testing::StatsTestTrace t;
  const uint32_t p0 = t.Process(0), p1 = t.Process(1);
  const uint32_t t0 = t.Thread(p0), t1 = t.Thread(p1);
  t.Rma(t0, 10, kRmaPut, 0, 1, 32);
  t.Rma(t1, 20, kRmaGet, 1, 0, 16);
  t.Rma(t1, 30, kRmaPut, 1, 7, 4);  // no rank 7
  RmaMatrixBuilder a(t.trace), b(t.trace);
  a.AddRows(t.trace.rma, 0, 1);
  b.AddRows(t.trace.rma, 1, t.trace.rma.size());
  ASSERT_TRUE(a.MergeSaved(b.Save()).ok());
  const RmaMatrix want = ComputeRmaMatrix(t.trace), got = a.matrix();
  EXPECT_EQ(got.keys, want.keys);
  EXPECT_EQ(got.operations, want.operations);
  EXPECT_EQ(got.bytes, want.bytes);
  EXPECT_EQ(got.unmapped, 1u);
  EXPECT_EQ(got.at(1, 0).op_bytes[kRmaGet], 16u);
  const std::string saved = b.Save();
  RmaMatrixBuilder c(t.trace);
  EXPECT_FALSE(c.MergeSaved(saved.substr(0, saved.size() - 3)).ok());
  EXPECT_EQ(c.matrix().operations, 0u);
}

}  // namespace
}  // namespace plx::analysis
