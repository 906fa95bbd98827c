// MessageJoin against time::MatchMessages: records fed in time order, the
// join advanced every few records, gives the same pairs and leftovers when
// its horizon covers how far receives complete out of their matching order,
// and says its horizon was exceeded when it does not.
#include "store/message_join.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "time/message_pairs.h"
#include "time/model_builder.h"

namespace plx::store {
namespace {

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

// Four ranks sending to each other on three tags. Receives are matched in
// the order they were posted (their match sequence) but complete up to
// `jitter` ns later, so they reach the join out of matching order; some
// sends have no receive.
model::Trace MakeTrace(int messages, int64_t jitter) {
  struct Record {
    int64_t time;
    bool send;
    uint32_t thread;
    int64_t peer, tag;
    uint64_t match;
  };
  std::mt19937 random(7);
  std::vector<Record> records;
  std::vector<uint64_t> posted(4, 0);
  for (int k = 0; k < messages; ++k) {
    const int64_t at = int64_t{10} * k;
    const uint32_t from = random() % 4, to = (from + 1 + random() % 3) % 4;
    const int64_t tag = random() % 3;
    records.push_back({at, true, from, to, tag, 0});
    if (random() % 50 == 0) continue;  // never received
    const auto delay = static_cast<int64_t>(random() % static_cast<uint64_t>(jitter + 1));
    records.push_back({at + 5 + delay, false, to, from, tag, ++posted[to]});
  }
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.time < b.time; });
  time::testing::ModelBuilder model(4);
  for (const Record& r : records) {
    const uint32_t row = model.Message(r.send, r.thread, r.time, r.peer, r.tag);
    model.trace().messages.match[row] = r.match;
  }
  return model.trace();
}

struct Joined {
  Pairs pairs;
  std::vector<uint32_t> unmatched;
  bool exceeded = false;
  size_t most_held = 0;
};

// Feeds the rows in time order, advancing every `step` records.
Joined Join(const model::Trace& trace, int64_t horizon, size_t step) {
  MessageJoin join(trace, horizon);
  Joined out;
  const auto pair = [&](const MessageSide& s, const MessageSide& r, bool, int64_t) {
    out.pairs.emplace_back(s.row, r.row);
  };
  const model::MessageTable& t = trace.messages;
  for (uint32_t row = 0; row < t.size(); ++row) {
    MessageSide m;
    m.time = t.time[row];
    m.row = row;
    m.thread = t.thread[row];
    m.comm = t.comm[row];
    m.send = t.is_send[row] != 0;
    m.peer = t.peer[row];
    m.tag = t.tag[row];
    m.bytes = t.bytes[row];
    m.match = t.match[row];
    join.Add(m);
    out.most_held = std::max(out.most_held, join.held());
    if ((row + 1) % step == 0 && row + 1 < t.size()) join.Advance(t.time[row + 1], pair);
  }
  out.exceeded = join.horizon_exceeded();
  join.Finish(pair, [&](const MessageSide& m) { out.unmatched.push_back(m.row); });
  std::sort(out.pairs.begin(), out.pairs.end());
  return out;
}

TEST(MessageJoinTest, PairsAsMatchMessagesWithinItsHorizon) {
  const model::Trace trace = MakeTrace(20000, 2000);
  const time::MessagePairs want = time::MatchMessages(trace);
  Pairs pairs;
  for (const time::MessagePair& p : want.pairs)
    pairs.emplace_back(p.send, p.recv);
  std::sort(pairs.begin(), pairs.end());
  std::vector<uint32_t> unmatched = want.unmatched_sends;
  unmatched.insert(unmatched.end(), want.unmatched_recvs.begin(), want.unmatched_recvs.end());
  ASSERT_GT(pairs.size(), 19000u);
  ASSERT_GT(want.unmatched_sends.size(), 100u);

  for (const size_t step : {1, 7, 300}) {
    const Joined got = Join(trace, 5000, step);
    EXPECT_FALSE(got.exceeded) << step;
    EXPECT_EQ(got.pairs, pairs) << step;
    EXPECT_EQ(got.unmatched, unmatched) << step;
    // Some channels held hundreds of records at once, and far fewer than
    // the whole trace's.
    EXPECT_GT(got.most_held, 500u) << step;
    EXPECT_LT(got.most_held, 8000u) << step;
  }
}

TEST(MessageJoinTest, SaysWhenReceivesComeFurtherOutOfOrderThanItsHorizon) {
  const model::Trace trace = MakeTrace(2000, 2000);
  EXPECT_TRUE(Join(trace, 100, 1).exceeded);
  // A horizon as long as the trace holds everything to the end: exact.
  EXPECT_FALSE(Join(trace, trace.end_ns - trace.begin_ns + 1, 1).exceeded);
}

}  // namespace
}  // namespace plx::store
