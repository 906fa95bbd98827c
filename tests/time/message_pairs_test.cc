// MatchMessages on traces built directly in the model: channels, matching
// order (match sequence over completion time), unmatched records, thread
// messages.
#include "time/message_pairs.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace plx::time {
namespace {

using model::Trace;

class MessagePairsTest : public ::testing::Test {
 protected:
  uint32_t Process(int64_t rank) {
    trace_.processes.emplace_back();
    trace_.processes.back().rank = rank;
    return static_cast<uint32_t>(trace_.processes.size() - 1);
  }
  uint32_t Thread(uint32_t process, uint32_t stream = 0) {
    model::Thread t;
    t.process = process;
    t.file_stream = stream;
    trace_.threads.push_back(t);
    return static_cast<uint32_t>(trace_.threads.size() - 1);
  }
  uint32_t Comm(uint32_t process, uint64_t global_id, uint8_t kind = 0, std::string name = "") {
    model::Communicator c;
    c.name = std::move(name);
    c.process = process;
    c.kind = kind;
    c.global_id = global_id;
    trace_.communicators.push_back(c);
    return static_cast<uint32_t>(trace_.communicators.size() - 1);
  }
  // Returns the row.
  uint32_t Message(bool send, uint32_t thread, int64_t time, uint32_t comm, int64_t peer,
                   int64_t tag, uint64_t match = 0) {
    model::MessageTable& m = trace_.messages;
    m.thread.push_back(thread);
    m.time.push_back(time);
    m.is_send.push_back(send ? 1 : 0);
    m.comm.push_back(comm);
    m.peer.push_back(peer);
    m.tag.push_back(tag);
    m.bytes.push_back(8);
    m.clock.push_back(0);
    m.match.push_back(match);
    return static_cast<uint32_t>(m.size() - 1);
  }
  uint32_t Send(uint32_t thread, int64_t time, uint32_t comm, int64_t peer, int64_t tag,
                uint64_t match = 0) {
    return Message(true, thread, time, comm, peer, tag, match);
  }
  uint32_t Recv(uint32_t thread, int64_t time, uint32_t comm, int64_t peer, int64_t tag,
                uint64_t match = 0) {
    return Message(false, thread, time, comm, peer, tag, match);
  }
  static std::vector<std::pair<uint32_t, uint32_t>> Pairs(const MessagePairs& p) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const MessagePair& m : p.pairs)
      out.emplace_back(m.send, m.recv);
    return out;
  }
  using PairList = std::vector<std::pair<uint32_t, uint32_t>>;
  using Rows = std::vector<uint32_t>;

  Trace trace_;
};

TEST_F(MessagePairsTest, EmptyTrace) {
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_TRUE(p.pairs.empty());
  EXPECT_TRUE(p.unmatched_sends.empty());
  EXPECT_TRUE(p.unmatched_recvs.empty());
}

TEST_F(MessagePairsTest, SendsAndReceivesPairInTimeOrderWithoutMatch) {
  const uint32_t p0 = Process(0), p1 = Process(1);
  const uint32_t t0 = Thread(p0), t1 = Thread(p1);
  const uint32_t w0 = Comm(p0, 1), w1 = Comm(p1, 1);  // MPI_COMM_WORLD in each
  // Rows of a receiver may come before its sender's; time decides.
  const uint32_t r1 = Recv(t1, 50, w1, 0, 7);
  const uint32_t r2 = Recv(t1, 90, w1, 0, 7);
  const uint32_t s2 = Send(t0, 30, w0, 1, 7);
  const uint32_t s1 = Send(t0, 10, w0, 1, 7);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p), (PairList{{s2, r2}, {s1, r1}}));  // sorted by send row
  EXPECT_TRUE(p.unmatched_sends.empty());
  EXPECT_TRUE(p.unmatched_recvs.empty());
}

TEST_F(MessagePairsTest, MatchSequenceBeatsCompletionOrder) {
  // Rank 1 posts Irecv A (match 1) then Irecv B (match 2) from rank 0 with the
  // same tag; B completes first, so its record comes first in time and rows.
  // MPI matched the first send to A all the same.
  const uint32_t p0 = Process(0), p1 = Process(1);
  const uint32_t t0 = Thread(p0), t1 = Thread(p1);
  const uint32_t w0 = Comm(p0, 1), w1 = Comm(p1, 1);
  const uint32_t first = Send(t0, 10, w0, 1, 3, 1);
  const uint32_t second = Send(t0, 20, w0, 1, 3, 2);
  const uint32_t b = Recv(t1, 40, w1, 0, 3, 2);
  const uint32_t a = Recv(t1, 60, w1, 0, 3, 1);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p), (PairList{{first, a}, {second, b}}));
}

TEST_F(MessagePairsTest, SendMatchOrderDiffersFromSendTime) {
  // Isend 1 started before Isend 2, but its record (at completion) is later.
  const uint32_t p0 = Process(0), p1 = Process(1);
  const uint32_t t0 = Thread(p0), t1 = Thread(p1);
  const uint32_t w0 = Comm(p0, 1), w1 = Comm(p1, 1);
  const uint32_t late = Send(t0, 80, w0, 1, 0, 5);
  const uint32_t early = Send(t0, 20, w0, 1, 0, 6);
  const uint32_t r1 = Recv(t1, 30, w1, 0, 0, 11);
  const uint32_t r2 = Recv(t1, 90, w1, 0, 0, 12);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p), (PairList{{late, r1}, {early, r2}}));
}

TEST_F(MessagePairsTest, AnySourceReceivesPairWithEachSender) {
  // Rank 2 receives with MPI_ANY_SOURCE: the records name the actual source,
  // arriving interleaved from ranks 0 and 1 with one tag.
  const uint32_t p0 = Process(0), p1 = Process(1), p2 = Process(2);
  const uint32_t t0 = Thread(p0), t1 = Thread(p1), t2 = Thread(p2);
  const uint32_t w0 = Comm(p0, 1), w1 = Comm(p1, 1), w2 = Comm(p2, 1);
  const uint32_t a1 = Send(t0, 10, w0, 2, 5);
  const uint32_t a2 = Send(t0, 20, w0, 2, 5);
  const uint32_t b1 = Send(t1, 5, w1, 2, 5);
  const uint32_t b2 = Send(t1, 25, w1, 2, 5);
  const uint32_t c = Send(t1, 26, w1, 2, 6);  // another tag: its own channel
  const uint32_t r_b1 = Recv(t2, 30, w2, 1, 5, 1);
  const uint32_t r_a1 = Recv(t2, 31, w2, 0, 5, 2);
  const uint32_t r_c = Recv(t2, 32, w2, 1, 6, 3);
  const uint32_t r_b2 = Recv(t2, 33, w2, 1, 5, 4);
  const uint32_t r_a2 = Recv(t2, 34, w2, 0, 5, 5);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p), (PairList{{a1, r_a1}, {a2, r_a2}, {b1, r_b1}, {b2, r_b2}, {c, r_c}}));
  EXPECT_TRUE(p.unmatched_sends.empty());
  EXPECT_TRUE(p.unmatched_recvs.empty());
}

TEST_F(MessagePairsTest, CommunicatorsSeparateChannels) {
  const uint32_t p0 = Process(0), p1 = Process(1);
  const uint32_t t0 = Thread(p0), t1 = Thread(p1);
  const uint32_t w0 = Comm(p0, 1), dup0 = Comm(p0, 2);
  const uint32_t dup1 = Comm(p1, 2), w1 = Comm(p1, 1);  // other local order, same global ids
  const uint32_t s_w = Send(t0, 10, w0, 1, 0);
  const uint32_t s_dup = Send(t0, 20, dup0, 1, 0);
  const uint32_t r_dup = Recv(t1, 30, dup1, 0, 0);
  const uint32_t r_w = Recv(t1, 40, w1, 0, 0);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p), (PairList{{s_w, r_w}, {s_dup, r_dup}}));
}

TEST_F(MessagePairsTest, CommunicatorsWithoutGlobalIdPairByName) {
  // plx_comm_define and the built-in "world" have no global id: the same name
  // in two processes is one communicator; other names are other channels.
  const uint32_t p0 = Process(0), p1 = Process(1);
  const uint32_t t0 = Thread(p0), t1 = Thread(p1);
  const uint32_t world0 = Comm(p0, 0, 0, "world"), world1 = Comm(p1, 0, 0, "world");
  const uint32_t a0 = Comm(p0, 0, 0, "a"), b1 = Comm(p1, 0, 0, "b");
  const uint32_t s_self = Send(t0, 10, world0, 0, 1);
  const uint32_t r_self = Recv(t0, 20, world0, 0, 1);
  const uint32_t s_across = Send(t0, 30, world0, 1, 1);
  const uint32_t r_across = Recv(t1, 40, world1, 0, 1);
  const uint32_t s_a = Send(t0, 50, a0, 1, 1);
  const uint32_t r_b = Recv(t1, 60, b1, 0, 1);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p), (PairList{{s_self, r_self}, {s_across, r_across}}));
  EXPECT_EQ(p.unmatched_sends, (Rows{s_a}));
  EXPECT_EQ(p.unmatched_recvs, (Rows{r_b}));
}

TEST_F(MessagePairsTest, UnmatchedOnBothSides) {
  const uint32_t p0 = Process(0), p1 = Process(1);
  const uint32_t t0 = Thread(p0), t1 = Thread(p1);
  const uint32_t w0 = Comm(p0, 1), w1 = Comm(p1, 1);
  const uint32_t s1 = Send(t0, 10, w0, 1, 0);
  const uint32_t s2 = Send(t0, 20, w0, 1, 0);          // never received (trace cut short)
  const uint32_t to_nowhere = Send(t0, 25, w0, 9, 0);  // no process has rank 9
  const uint32_t unknown_peer = Send(t0, 26, w0, -1, 0);
  const uint32_t no_comm = Send(t0, 27, model::kNone, 1, 0);
  const uint32_t r1 = Recv(t1, 30, w1, 0, 0);
  const uint32_t other_tag = Recv(t1, 40, w1, 0, 4);
  const uint32_t from_nowhere = Recv(t1, 50, w1, 7, 0);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p), (PairList{{s1, r1}}));
  EXPECT_EQ(p.unmatched_sends, (Rows{s2, to_nowhere, unknown_peer, no_comm}));
  EXPECT_EQ(p.unmatched_recvs, (Rows{other_tag, from_nowhere}));
}

TEST_F(MessagePairsTest, ProcessesWithoutRankAnswerToTheirIndex) {
  const uint32_t a = Process(-1), b = Process(-1);
  const uint32_t ta = Thread(a), tb = Thread(b);
  const uint32_t ca = Comm(a, 4), cb = Comm(b, 4);
  const uint32_t s = Send(ta, 10, ca, 1, 0);
  const uint32_t r = Recv(tb, 20, cb, 0, 0);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p), (PairList{{s, r}}));
}

TEST_F(MessagePairsTest, ThreadMessagesPairByStreams) {
  // Kind 1: peers are stream ids of the same process (examples/thread_farm).
  const uint32_t p0 = Process(-1), p1 = Process(-1);
  const uint32_t boss = Thread(p0, 1), w2 = Thread(p0, 2), w3 = Thread(p0, 3);
  const uint32_t other_boss = Thread(p1, 1), other_w2 = Thread(p1, 2);
  const uint32_t q0 = Comm(p0, 0, 1), q1 = Comm(p1, 0, 1);
  const uint32_t to2 = Send(boss, 10, q0, 2, 0);
  const uint32_t to3 = Send(boss, 11, q0, 3, 0);
  const uint32_t to2b = Send(boss, 12, q0, 2, 0);
  const uint32_t back = Send(w3, 30, q0, 1, 0);
  const uint32_t other = Send(other_boss, 5, q1, 2, 0);
  const uint32_t at3 = Recv(w3, 20, q0, 1, 0);
  const uint32_t at2 = Recv(w2, 21, q0, 1, 0);
  const uint32_t at2b = Recv(w2, 22, q0, 1, 0);
  const uint32_t at1 = Recv(boss, 40, q0, 3, 0);
  const uint32_t lost = Recv(boss, 41, q0, 2, 0);  // stream 2 never sent to stream 1
  const uint32_t other_at2 = Recv(other_w2, 9, q1, 1, 0);
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(Pairs(p),
            (PairList{{to2, at2}, {to3, at3}, {to2b, at2b}, {back, at1}, {other, other_at2}}));
  EXPECT_TRUE(p.unmatched_sends.empty());
  EXPECT_EQ(p.unmatched_recvs, (Rows{lost}));
}

TEST_F(MessagePairsTest, SendsToAnyStreamPairWithTheReceivesNamingTheirSender) {
  // A work queue (examples/thread_farm): the master sends each job to
  // whoever takes it (peer -1); the worker's receive names the master.
  const uint32_t p0 = Process(-1), p1 = Process(-1);
  const uint32_t boss = Thread(p0, 1), w2 = Thread(p0, 2), w3 = Thread(p0, 3);
  const uint32_t other_w2 = Thread(p1, 2);
  const uint32_t q0 = Comm(p0, 0, 1), q1 = Comm(p1, 0, 1);
  const uint32_t job7 = Send(boss, 10, q0, -1, 7);
  const uint32_t job8 = Send(boss, 11, q0, -1, 8);
  const uint32_t job9a = Send(boss, 12, q0, -1, 9);
  const uint32_t job9b = Send(boss, 13, q0, -1, 9);
  const uint32_t never = Send(boss, 14, q0, -1, 10);  // nobody took it
  const uint32_t direct = Send(boss, 15, q0, 3, 8);   // to stream 3 itself
  const uint32_t at3_direct = Recv(w3, 16, q0, 1, 8);
  const uint32_t at3_8 = Recv(w3, 20, q0, 1, 8);
  const uint32_t at2_7 = Recv(w2, 21, q0, 1, 7);
  const uint32_t at2_9 = Recv(w2, 30, q0, 1, 9);
  const uint32_t at3_9 = Recv(w3, 25, q0, 1, 9);
  const uint32_t from3 = Recv(w2, 26, q0, 3, 7);            // stream 3 sent nothing
  const uint32_t elsewhere = Recv(other_w2, 22, q1, 1, 7);  // another process
  const MessagePairs p = MatchMessages(trace_);
  EXPECT_EQ(
      Pairs(p),
      (PairList{
          {job7, at2_7}, {job8, at3_8}, {job9a, at3_9}, {job9b, at2_9}, {direct, at3_direct}}));
  EXPECT_EQ(p.unmatched_sends, (Rows{never}));
  EXPECT_EQ(p.unmatched_recvs, (Rows{from3, elsewhere}));
}

TEST_F(MessagePairsTest, ManyChannelsInterleaved) {
  // 4 ranks all-to-all, 20000 messages per channel, rows of all channels mixed.
  constexpr int kRanks = 4, kPerChannel = 20000;
  std::vector<uint32_t> threads, comms;
  for (int r = 0; r < kRanks; ++r) {
    const uint32_t p = Process(r);
    threads.push_back(Thread(p));
    comms.push_back(Comm(p, 1));
  }
  for (int i = 0; i < kPerChannel; ++i)
    for (int from = 0; from < kRanks; ++from)
      for (int to = 0; to < kRanks; ++to)
        if (from != to) {
          Send(threads[from], i, comms[from], to, 0);
          Recv(threads[to], i + 1, comms[to], from, 0);
        }
  const MessagePairs p = MatchMessages(trace_);
  ASSERT_EQ(p.pairs.size(), trace_.messages.size() / 2);
  size_t wrong = 0;
  for (const MessagePair& m : p.pairs)
    wrong += m.recv != m.send + 1;
  EXPECT_EQ(wrong, 0u);
}

}  // namespace
}  // namespace plx::time
