// OTF2 import of an archive written with the OTF2 library's own writer: every
// record kind it can hold, on two processes and three locations, comes in
// as the model's rows (or as a named import counter when it has none).
#include <gtest/gtest.h>
#include <otf2/otf2.h>

#include <set>
#include <string>

#include "base/strings.h"
#include "interop/otf2/otf2.h"
#include "otf2_import.h"
#include "support/test_support.h"
#include "time/message_pairs.h"

namespace plx::interop {
namespace {

using testing::TempDir;

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp PostFlush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}

// Two processes on host "n1": rank 0 ("P0", threads 0 and 1 = location 0 and
// 7), rank 1 ("P1", location 3). Timer: 2 GHz, so ns = ticks / 2.
void WriteLibraryArchive(const std::string& dir) {
  OTF2_FlushCallbacks flush = {PreFlush, PostFlush};
  OTF2_Archive* a = OTF2_Archive_Open(dir.c_str(), "lib", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                      OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(OTF2_Archive_SetFlushCallbacks(a, &flush, nullptr), OTF2_SUCCESS);
  ASSERT_EQ(OTF2_Archive_SetSerialCollectiveCallbacks(a), OTF2_SUCCESS);
  ASSERT_EQ(OTF2_Archive_OpenEvtFiles(a), OTF2_SUCCESS);
  enum : uint32_t { kMain = 0, kSend = 1, kRecv = 2, kBcast = 3, kPut = 4 };  // regions
  enum : uint32_t { kWorld = 0, kReversed = 1 };                              // comms
  const uint64_t base = 2000000000000ull;                                     // ticks
  auto T = [&](uint64_t ns) { return base + 2 * ns; };
  {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, 0);
    OTF2_EvtWriter_Enter(w, nullptr, T(0), kMain);
    OTF2_Type types[3] = {OTF2_TYPE_INT64, OTF2_TYPE_UINT64, OTF2_TYPE_DOUBLE};
    OTF2_MetricValue values[3];
    values[0].signed_int = -5;
    values[1].unsigned_int = 1ull << 40;
    values[2].floating_point = 2.5;
    OTF2_EvtWriter_Metric(w, nullptr, T(5), 0, 3, types, values);
    OTF2_EvtWriter_Enter(w, nullptr, T(10), kSend);
    OTF2_EvtWriter_MpiSend(w, nullptr, T(11), 1, kWorld, 42, 100);  // to world rank 1
    OTF2_EvtWriter_Leave(w, nullptr, T(12), kSend);
    OTF2_EvtWriter_Enter(w, nullptr, T(20), kSend);
    OTF2_EvtWriter_MpiIsend(w, nullptr, T(21), 0, kReversed, 43, 200, 77);  // rank 0 = world 1
    OTF2_EvtWriter_Leave(w, nullptr, T(22), kSend);
    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, T(30), 77);
    OTF2_EvtWriter_Enter(w, nullptr, T(40), kRecv);
    OTF2_EvtWriter_MpiRecv(w, nullptr, T(45), 1, kWorld, 44, 300);
    OTF2_EvtWriter_Leave(w, nullptr, T(46), kRecv);
    OTF2_EvtWriter_Enter(w, nullptr, T(50), kBcast);
    OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, T(50));
    // Root 0 of the reversed communicator is world rank 1.
    OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, T(55), OTF2_COLLECTIVE_OP_BCAST, kReversed, 0, 0,
                                    64);
    OTF2_EvtWriter_Leave(w, nullptr, T(55), kBcast);
    OTF2_EvtWriter_Enter(w, nullptr, T(60), kPut);
    OTF2_EvtWriter_RmaPut(w, nullptr, T(61), 0, 1, 512, 1);
    OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, T(61), 0, 1);
    OTF2_EvtWriter_RmaGet(w, nullptr, T(62), 0, 1, 256, 2);
    OTF2_EvtWriter_Leave(w, nullptr, T(63), kPut);
    OTF2_EvtWriter_ParameterInt(w, nullptr, T(64), 0, -9);
    OTF2_EvtWriter_ParameterString(w, nullptr, T(65), 1, 9);
    OTF2_EvtWriter_Leave(w, nullptr, T(70), kMain);
    OTF2_Archive_CloseEvtWriter(a, w);
  }
  {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, 7);  // rank 0's second thread
    OTF2_EvtWriter_Enter(w, nullptr, T(1), kMain);
    OTF2_EvtWriter_Leave(w, nullptr, T(2), kMain);
    OTF2_Archive_CloseEvtWriter(a, w);
  }
  {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a, 3);
    OTF2_EvtWriter_Enter(w, nullptr, T(0), kMain);
    // Two receives posted, completing in the other order: posting order matches.
    OTF2_EvtWriter_Enter(w, nullptr, T(3), kRecv);
    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, T(4), 5);
    OTF2_EvtWriter_Leave(w, nullptr, T(5), kRecv);
    OTF2_EvtWriter_Enter(w, nullptr, T(6), kRecv);
    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, T(7), 6);
    OTF2_EvtWriter_Leave(w, nullptr, T(8), kRecv);
    OTF2_EvtWriter_MpiIrecv(w, nullptr, T(25), 1, kReversed, 43, 200, 6);  // rank 1 = world 0
    OTF2_EvtWriter_MpiIrecv(w, nullptr, T(26), 0, kWorld, 42, 100, 5);
    OTF2_EvtWriter_Enter(w, nullptr, T(40), kSend);
    OTF2_EvtWriter_MpiSend(w, nullptr, T(41), 0, kWorld, 44, 300);
    OTF2_EvtWriter_Leave(w, nullptr, T(42), kSend);
    OTF2_EvtWriter_Enter(w, nullptr, T(50), kBcast);
    OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, T(50));
    OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, T(52), OTF2_COLLECTIVE_OP_BCAST, kReversed, 0, 64,
                                    0);
    OTF2_EvtWriter_Leave(w, nullptr, T(52), kBcast);
    OTF2_Type type = OTF2_TYPE_INT64;
    OTF2_MetricValue value;
    value.signed_int = 7;
    OTF2_EvtWriter_Metric(w, nullptr, T(60), 1, 1, &type, &value);
    OTF2_EvtWriter_Leave(w, nullptr, T(70), kMain);
    OTF2_Archive_CloseEvtWriter(a, w);
  }
  ASSERT_EQ(OTF2_Archive_CloseEvtFiles(a), OTF2_SUCCESS);
  OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(a);
  ASSERT_NE(d, nullptr);
  const char* strings[] = {
      "",      "P0",   "P1",      "main", "worker", "main()",  "MPI_Send", "MPI_Recv", "MPI_Bcast",
      "done",  "n1",   "machine", "node", "WORLD",  "REV",     "win",      "cycles",   "#",
      "bytes", "temp", "C",       "step", "label",  "MPI_Put", "root"};
  for (uint32_t s = 0; s < sizeof strings / sizeof *strings; ++s)
    OTF2_GlobalDefWriter_WriteString(d, s, strings[s]);
  OTF2_GlobalDefWriter_WriteClockProperties(d, 2000000000, base, 140, OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, 24, 11, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 1, 10, 12, 0);
  OTF2_GlobalDefWriter_WriteLocationGroup(d, 0, 1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  OTF2_GlobalDefWriter_WriteLocationGroup(d, 1, 2, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  OTF2_GlobalDefWriter_WriteLocation(d, 0, 3, OTF2_LOCATION_TYPE_CPU_THREAD, 30, 0);
  OTF2_GlobalDefWriter_WriteLocation(d, 7, 4, OTF2_LOCATION_TYPE_CPU_THREAD, 2, 0);
  OTF2_GlobalDefWriter_WriteLocation(d, 3, 3, OTF2_LOCATION_TYPE_CPU_THREAD, 20, 1);
  auto region = [&](uint32_t id, uint32_t name, OTF2_RegionRole role, OTF2_Paradigm paradigm) {
    OTF2_GlobalDefWriter_WriteRegion(d, id, name, name, 0, role, paradigm, OTF2_REGION_FLAG_NONE, 0,
                                     0, 0);
  };
  region(kMain, 5, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER);
  region(kSend, 6, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI);
  region(kRecv, 7, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI);
  region(kBcast, 8, OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_PARADIGM_MPI);
  region(kPut, 23, OTF2_REGION_ROLE_RMA, OTF2_PARADIGM_MPI);
  const uint64_t world_locations[] = {0, 3};  // rank 0, rank 1
  const uint64_t world_ranks[] = {0, 1};
  const uint64_t reversed_ranks[] = {1, 0};
  OTF2_GlobalDefWriter_WriteGroup(d, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, world_locations);
  OTF2_GlobalDefWriter_WriteGroup(d, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, world_ranks);
  OTF2_GlobalDefWriter_WriteGroup(d, 2, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, 2, reversed_ranks);
  OTF2_GlobalDefWriter_WriteComm(d, kWorld, 13, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteComm(d, kReversed, 14, 2, kWorld, OTF2_COMM_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteRmaWin(d, 0, 15, kWorld, OTF2_RMA_WIN_FLAG_NONE);
  OTF2_GlobalDefWriter_WriteMetricMember(d, 0, 16, 0, OTF2_METRIC_TYPE_PAPI,
                                         OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_INT64,
                                         OTF2_BASE_DECIMAL, 0, 17);
  OTF2_GlobalDefWriter_WriteMetricMember(d, 1, 18, 0, OTF2_METRIC_TYPE_OTHER,
                                         OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_UINT64,
                                         OTF2_BASE_DECIMAL, 0, 18);
  OTF2_GlobalDefWriter_WriteMetricMember(d, 2, 19, 0, OTF2_METRIC_TYPE_OTHER,
                                         OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_DOUBLE,
                                         OTF2_BASE_DECIMAL, 0, 20);
  const OTF2_MetricMemberRef three[] = {0, 1, 2};
  OTF2_GlobalDefWriter_WriteMetricClass(d, 0, 3, three, OTF2_METRIC_SYNCHRONOUS_STRICT,
                                        OTF2_RECORDER_KIND_CPU);
  OTF2_GlobalDefWriter_WriteMetricClass(d, 1, 1, three, OTF2_METRIC_SYNCHRONOUS_STRICT,
                                        OTF2_RECORDER_KIND_CPU);
  OTF2_GlobalDefWriter_WriteParameter(d, 0, 21, OTF2_PARAMETER_TYPE_INT64);
  OTF2_GlobalDefWriter_WriteParameter(d, 1, 22, OTF2_PARAMETER_TYPE_STRING);
  ASSERT_EQ(OTF2_Archive_Close(a), OTF2_SUCCESS);
}

TEST(Otf2Test, ImportsEveryRecordOfALibraryWrittenArchive) {
  TempDir dir;
  WriteLibraryArchive(dir.path());
  model::Trace t;
  const Status imported = Import(dir.File("lib.otf2"), dir, &t);
  ASSERT_TRUE(imported.ok()) << imported.message();

  ASSERT_EQ(t.processes.size(), 2u);
  EXPECT_EQ(t.processes[0].name, "P0");
  EXPECT_EQ(t.processes[0].rank, 0);
  EXPECT_EQ(t.processes[1].name, "P1");
  EXPECT_EQ(t.processes[1].rank, 1);
  EXPECT_EQ(t.processes[0].host, "n1");
  ASSERT_EQ(t.threads.size(), 3u);
  EXPECT_EQ(t.threads[0].name, "main");
  EXPECT_EQ(t.threads[1].name, "worker");
  EXPECT_EQ(t.threads[1].process, 0u);
  EXPECT_EQ(t.threads[2].process, 1u);
  const int64_t base = 1000000000000;  // ns of tick 2e12 at 2 GHz
  EXPECT_EQ(t.begin_ns, base);

  // States: every slice with its exact times.
  std::multiset<std::string> slices;
  for (uint32_t r = 0; r < t.slices.size(); ++r) {
    const model::State& s = t.states[t.slices.state[r]];
    slices.insert(StrFormat("%u %s %s %lld-%lld", t.slices.thread[r], s.name.c_str(),
                            t.categories[s.category].name.c_str(),
                            static_cast<long long>(t.slices.begin[r] - base),
                            static_cast<long long>(t.slices.end[r] - base)));
  }
  const std::multiset<std::string> want_slices = {
      "0 main() user 0-70",    "0 MPI_Send comm 10-12",  "0 MPI_Send comm 20-22",
      "0 MPI_Recv comm 40-46", "0 MPI_Bcast comm 50-55", "0 MPI_Put comm 60-63",
      "1 main() user 1-2",     "2 main() user 0-70",     "2 MPI_Recv comm 3-5",
      "2 MPI_Recv comm 6-8",   "2 MPI_Send comm 40-42",  "2 MPI_Bcast comm 50-52"};
  EXPECT_EQ(slices, want_slices);

  // Messages: peers as world ranks, tags, sizes, communicators.
  std::multiset<std::string> messages;
  for (uint32_t r = 0; r < t.messages.size(); ++r) {
    const model::MessageTable& m = t.messages;
    messages.insert(StrFormat(
        "%u %s %lld peer %lld tag %lld bytes %llu %s", m.thread[r], m.is_send[r] ? "send" : "recv",
        static_cast<long long>(m.time[r] - base), static_cast<long long>(m.peer[r]),
        static_cast<long long>(m.tag[r]), static_cast<unsigned long long>(m.bytes[r]),
        t.communicators[m.comm[r]].name.c_str()));
  }
  const std::multiset<std::string> want_messages = {
      "0 send 11 peer 1 tag 42 bytes 100 WORLD", "0 send 21 peer 1 tag 43 bytes 200 REV",
      "0 recv 45 peer 1 tag 44 bytes 300 WORLD", "2 recv 25 peer 0 tag 43 bytes 200 REV",
      "2 recv 26 peer 0 tag 42 bytes 100 WORLD", "2 send 41 peer 0 tag 44 bytes 300 WORLD"};
  EXPECT_EQ(messages, want_messages);
  const time::MessagePairs pairs = time::MatchMessages(t);
  EXPECT_EQ(pairs.pairs.size(), 3u);
  EXPECT_TRUE(pairs.unmatched_sends.empty());
  EXPECT_TRUE(pairs.unmatched_recvs.empty());
  for (const time::MessagePair& p : pairs.pairs)
    EXPECT_EQ(t.messages.tag[p.send], t.messages.tag[p.recv]);

  // Receive posts carry the peer and tag of the receive that completed them.
  std::multiset<std::string> posts;
  for (uint32_t r = 0; r < t.recv_posts.size(); ++r) {
    const model::RecvPostTable& p = t.recv_posts;
    posts.insert(StrFormat("%u %lld peer %lld tag %lld %s", p.thread[r],
                           static_cast<long long>(p.time[r] - base),
                           static_cast<long long>(p.peer[r]), static_cast<long long>(p.tag[r]),
                           t.communicators[p.comm[r]].name.c_str()));
  }
  const std::multiset<std::string> want_posts = {"2 4 peer 0 tag 42 WORLD",
                                                 "2 7 peer 0 tag 43 REV"};
  EXPECT_EQ(posts, want_posts);

  // Collectives: the root as a world rank.
  std::multiset<std::string> collectives;
  for (uint32_t r = 0; r < t.collectives.size(); ++r) {
    const model::CollectiveTable& c = t.collectives;
    collectives.insert(StrFormat(
        "%u %lld op %u root %lld sent %llu received %llu %s", c.thread[r],
        static_cast<long long>(c.time[r] - base), c.op[r], static_cast<long long>(c.root[r]),
        static_cast<unsigned long long>(c.sent[r]), static_cast<unsigned long long>(c.received[r]),
        t.communicators[c.comm[r]].name.c_str()));
  }
  const std::multiset<std::string> want_collectives = {"0 55 op 2 root 1 sent 0 received 64 REV",
                                                       "2 52 op 2 root 1 sent 64 received 0 REV"};
  EXPECT_EQ(collectives, want_collectives);

  // RMA.
  std::multiset<std::string> rma;
  for (uint32_t r = 0; r < t.rma.size(); ++r) {
    rma.insert(StrFormat("%u %lld op %u %lld->%lld %llu", t.rma.thread[r],
                         static_cast<long long>(t.rma.time[r] - base), t.rma.op[r],
                         static_cast<long long>(t.rma.origin[r]),
                         static_cast<long long>(t.rma.target[r]),
                         static_cast<unsigned long long>(t.rma.bytes[r])));
  }
  const std::multiset<std::string> want_rma = {"0 61 op 0 0->1 512", "0 62 op 1 0->1 256"};
  EXPECT_EQ(rma, want_rma);

  // Metrics: int64, uint64 and double members; the class of one member.
  std::multiset<std::string> counters;
  for (uint32_t r = 0; r < t.counter_samples.size(); ++r) {
    const model::CounterTable& c = t.counter_samples;
    const model::Counter& def = t.counters[c.counter[r]];
    counters.insert(
        StrFormat("%u %lld %s [%s] %s %.17g", c.thread[r], static_cast<long long>(c.time[r] - base),
                  def.name.c_str(), def.unit.c_str(),
                  def.value_kind == model::ValueKind::kDouble ? "double" : "int", c.value[r]));
  }
  const std::multiset<std::string> want_counters = {
      "0 5 cycles [#] int -5", "0 5 bytes [bytes] int 1099511627776", "0 5 temp [C] double 2.5",
      "2 60 cycles [#] int 7"};
  EXPECT_EQ(counters, want_counters);

  // Parameters: instants.
  ASSERT_EQ(t.instants.size(), 2u);
  EXPECT_EQ(t.event_types[t.instants.type[0]].name, "step");
  EXPECT_EQ(t.instants.int_value[0], -9);
  EXPECT_EQ(t.instants.time[0] - base, 64);
  EXPECT_EQ(t.event_types[t.instants.type[1]].name, "label");
  EXPECT_EQ(t.texts[t.instants.text[1]], "done");
}

}  // namespace
}  // namespace plx::interop
