// The replay and logical-time endpoints (/at, /step, /find, /lamport) through
// Api::Handle on scripted traces loaded as the server loads them: a small one
// whose states, messages (one never received) and counters are known, and a
// generated one with thousands of records (nesting, ties, long and undelivered
// messages); every answer is compared with a brute-force scan of the model.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "server/replay_api_fixture.h"
#include "server/replay_test_traces.h"
#include "server/timeline/replay_index.h"
#include "server/timeline/timeline_index.h"

namespace plx::server {
namespace {

class SmallTraceTest : public ReplayApiTest {
 protected:
  void SetUp() override {
    Load(testing::SmallScript());
    clocks_ = time::ComputeLamportClocks(*trace_);
  }
};

class RandomTraceTest : public ReplayApiTest {
 protected:
  void SetUp() override {
    Load(testing::RandomScript());
    clocks_ = time::ComputeLamportClocks(*trace_);
  }
};

TEST_F(SmallTraceTest, AtShowsStatesCountersAndMessagesInFlight) {
  for (int64_t ns : ProbeTimes())
    ExpectAtMatchesModel(ns);
  // Read from the script: at 4100 rank 0 computes, rank 2 is between calls,
  // rank 0's counter is 100 and its unmatched send of 7 bytes is in flight.
  const json j = Get("at", "t=" + Q(4100));
  EXPECT_EQ(StateName(j["states"][0]), "compute");
  EXPECT_EQ(j["states"][2], -1);
  EXPECT_EQ(j["counters"][0]["value"], 100);
  ASSERT_EQ(j["in_flight"].size(), 1u);
  EXPECT_EQ(j["in_flight"][0]["bytes"], 7);
  EXPECT_EQ(j["in_flight"][0]["recv_row"], -1);
  EXPECT_EQ(j["in_flight"][0]["recv_time"], -1);
  // The zero-length MPI_Send at 3000 is what rank 0 does at that moment.
  EXPECT_EQ(StateName(Get("at", "t=" + Q(3000))["states"][0]), "MPI_Send");
  // The undelivered send stays in flight to the end and after it.
  EXPECT_EQ(Get("at", "t=" + Q(100000))["in_flight_total"], 1);
}

TEST_F(SmallTraceTest, AtLimitsTheListButCountsAll) {
  const json all = Get("at", "t=" + Q(7060));  // 1 MB and 7-byte messages in flight
  ASSERT_EQ(all["in_flight_total"], 2);
  const json one = Get("at", "t=" + Q(7060) + "&limit=1");
  EXPECT_EQ(one["in_flight_total"], 2);
  ASSERT_EQ(one["in_flight"].size(), 1u);
  EXPECT_EQ(one["in_flight"][0], all["in_flight"][0]);  // the oldest
  EXPECT_EQ(one["in_flight"][0]["bytes"], 7);
}

TEST_F(SmallTraceTest, StepVisitsEveryEventTimeForwardAndBack) {
  ExpectStepsVisitEveryEventTime({});
  ExpectStepsVisitEveryEventTime({2});
  ExpectStepsVisitEveryEventTime({1, 0});
}

TEST_F(SmallTraceTest, StepForwardThenBackReturnsToTheSameEvent) {
  int64_t at = events_.front().time - 1;
  json before;
  for (int i = 0; i < 12; ++i) {
    const json next = Get("step", "t=" + Q(at));
    ASSERT_TRUE(next["found"].get<bool>());
    if (i > 0) {
      EXPECT_EQ(Get("step", "t=" + std::to_string(next["time"].get<double>()) + "&dir=back"),
                before);
    }
    before = next;
    at = static_cast<int64_t>(next["time"].get<double>()) + trace_->begin_ns;
  }
  // A fractional cursor: strictly after 1499.5 is 1500's event and strictly
  // before it the one at 1499 or earlier.
  const json a = Get("step", "t=" + std::to_string(T(1500) - 0.5));
  EXPECT_EQ(a["time"], T(1500));
  EXPECT_EQ(Get("step", "t=" + std::to_string(T(1500) + 0.5) + "&dir=back")["time"], T(1500));
}

TEST_F(SmallTraceTest, FindStopsAtTheFirstTrigger) {
  // MPI_Recv longer than 1000 ns: rank 1's [1000, 2600) at 2000,
  // then rank 2's [10000, 11500) at 11000.
  const std::string recv = "&kind=state&ns=1000&state=" + std::to_string(StateIndex("MPI_Recv"));
  const json j = Get("find", "t=0" + recv);
  EXPECT_EQ(j["time"], T(2000));
  EXPECT_EQ(j["row"], 1);
  EXPECT_EQ(j["kind"], "state");
  EXPECT_NE(j["text"].get<std::string>().find("MPI_Recv"), std::string::npos) << j["text"];
  EXPECT_EQ(Get("find", "t=" + Q(2000) + recv)["time"], T(11000));
  EXPECT_EQ(Get("find", "t=" + Q(2000) + "&until=" + Q(11000) + recv)["time"], T(11000));
  EXPECT_FALSE(Get("find", "t=" + Q(2000) + "&until=" + Q(10999) + recv)["found"].get<bool>());
  EXPECT_EQ(Get("find", "t=" + Q(11000) + "&dir=back" + recv)["time"], T(2000));
  EXPECT_FALSE(
      Get("find", "t=" + Q(11000) + "&dir=back&until=" + Q(2001) + recv)["found"].get<bool>());
  // A counter above 200: rank 0's 300 at 5000; a message above 4 kB: 3000's.
  EXPECT_EQ(Get("find", "t=0&kind=counter&value=200")["time"], T(5000));
  EXPECT_EQ(Get("find", "t=0&kind=message&bytes=4096")["time"], T(3000));
  EXPECT_EQ(Get("find", "t=" + Q(3000) + "&kind=message&bytes=4096")["time"], T(7050));
  EXPECT_FALSE(Get("find", "t=0&kind=message&bytes=1000000")["found"].get<bool>());
}

TEST_F(SmallTraceTest, LamportClocksOfTheRange) {
  const int64_t end = trace_->end_ns;
  ExpectLamport(trace_->begin_ns, end, {}, 20000);
  ExpectLamport(2100, 2600, {}, 20000);
  ExpectLamport(2100, 2600, {1}, 20000);
  ExpectLamport(3900, 3900, {2}, 20000);
  ExpectLamport(trace_->begin_ns, end, {}, 1);  // truncated
  EXPECT_TRUE(Get("lamport", "limit=1")["truncated"].get<bool>());
  EXPECT_FALSE(Get("lamport", "")["truncated"].get<bool>());
}

TEST_F(SmallTraceTest, BadParametersAreNamed) {
  const std::pair<std::string, std::string> cases[] = {
      {"at", ""},
      {"at", "t=abc"},
      {"at", "t=5&limit=-1"},
      {"step", "t=1&dir=sideways"},
      {"step", "t=1&rows=7"},
      {"find", "t=1"},
      {"find", "t=1&kind=bogus"},
      {"find", "t=1&kind=state&state=99"},
      {"find", "t=1&kind=state&ns=-5"},
      {"find", "t=1&kind=counter&counter=5"},
      {"find", "t=1&kind=message&bytes=x"},
      {"find", "t=1&kind=message&until=-7"},
      {"find", "kind=message"},
      {"lamport", "limit=0"},
      {"lamport", "from=10&to=5"},
      {"lamport", "rows=3"},
  };
  const char* names[] = {"'t'",    "'t'",     "'limit'", "'dir'",     "'rows'",  "'kind'",
                         "'kind'", "'state'", "'ns'",    "'counter'", "'bytes'", "'until'",
                         "'t'",    "'limit'", "'to'",    "'rows'"};
  for (size_t i = 0; i < std::size(cases); ++i) {
    const auto [status, error] = Fail(cases[i].first, cases[i].second);
    EXPECT_EQ(status, 400) << cases[i].first << "?" << cases[i].second;
    EXPECT_NE(error.find(names[i]), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  EXPECT_EQ(api_->Handle("/traces/nope/at", "t=1").status, 404);
}

TEST_F(RandomTraceTest, AtMatchesTheModelEverywhere) {
  std::mt19937_64 rng(3);
  const std::vector<int64_t> probes = ProbeTimes();
  for (int i = 0; i < 400; ++i)
    ExpectAtMatchesModel(probes[rng() % probes.size()]);
  ExpectAtMatchesModel(events_.back().time + 1);
}

TEST_F(RandomTraceTest, StepVisitsEveryEventTimeForwardAndBack) {
  ExpectStepsVisitEveryEventTime({});
  ExpectStepsVisitEveryEventTime({3});
}

TEST_F(RandomTraceTest, FindMatchesTheModel) {
  std::mt19937_64 rng(5);
  const int64_t first = events_.front().time - 5, last = events_.back().time + 5;
  auto any_time = [&] { return first + static_cast<int64_t>(rng() % (last - first)); };
  const auto& tracks = store_->traces()[0]->index().counter_tracks();
  for (int i = 0; i < 150; ++i) {
    const bool forward = rng() % 2;
    const bool has_until = rng() % 3 == 0;
    const int64_t t = any_time(), until = any_time();
    const int64_t ns = static_cast<int64_t>(rng() % 300);
    const int64_t state = rng() % 3 ? -1 : StateIndex("compute");
    ExpectFind("kind=state&ns=" + std::to_string(ns) + "&state=" + std::to_string(state),
               StateCandidates(ns, state), t, forward, until, has_until);
    const double value = static_cast<double>(rng() % 1100);
    const int64_t track = rng() % 2 ? -1 : static_cast<int64_t>(rng() % tracks.size());
    ExpectFind("kind=counter&value=" + std::to_string(value) + "&counter=" + std::to_string(track),
               CounterCandidates(value, track < 0 ? int64_t{-1} : int64_t{tracks[track].thread},
                                 track < 0 ? int64_t{-1} : int64_t{tracks[track].counter}),
               t, forward, until, has_until);
    const uint64_t bytes = rng() % 110000;
    ExpectFind("kind=message&bytes=" + std::to_string(bytes), MessageCandidates(bytes), t, forward,
               until, has_until);
  }
}

TEST_F(RandomTraceTest, LamportMatchesTheClocks) {
  std::mt19937_64 rng(9);
  const int64_t first = events_.front().time, last = events_.back().time;
  for (int i = 0; i < 40; ++i) {
    int64_t a = first + static_cast<int64_t>(rng() % (last - first));
    int64_t b = a + static_cast<int64_t>(rng() % 3000);
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < 4; ++r)
      if (rng() % 2) rows.push_back(r);
    ExpectLamport(a, b, rows, i % 4 == 0 ? 10 : 20000);
  }
}

// The in-flight count and list straight from a model built by hand: 3000
// messages, mostly short, some far longer than the rest (listed apart), some
// received before they were sent (never in flight) and some never received.
TEST(ReplayIndexTest, InFlightStaysExactWithLongNegativeAndLostMessages) {
  model::Trace t;
  t.threads.resize(2);
  std::mt19937_64 rng(11);
  constexpr uint32_t kMessages = 3000;
  std::vector<int64_t> send(kMessages), recv(kMessages);
  std::vector<bool> lost(kMessages);
  for (uint32_t k = 0; k < kMessages; ++k) {
    send[k] = 10 * k + static_cast<int64_t>(rng() % 5);
    const uint64_t kind = rng() % 100;
    recv[k] = send[k] + (kind < 90   ? 50 + static_cast<int64_t>(rng() % 150)
                         : kind < 95 ? 5000 + static_cast<int64_t>(rng() % 45000)
                                     : -1 - static_cast<int64_t>(rng() % 300));
    lost[k] = kind >= 98;
  }
  // Thread 0 sends in order; thread 1's receives are sorted by time.
  std::vector<uint32_t> order;
  for (uint32_t k = 0; k < kMessages; ++k)
    if (!lost[k]) order.push_back(k);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return recv[a] < recv[b]; });
  model::MessageTable& m = t.messages;
  auto add = [&](uint32_t thread, int64_t time, bool is_send) {
    m.thread.push_back(thread);
    m.time.push_back(time);
    m.is_send.push_back(is_send);
    m.comm.push_back(model::kNone);
    m.peer.push_back(1 - thread);
    m.tag.push_back(0);
    m.bytes.push_back(8);
    m.clock.push_back(0);
    m.match.push_back(0);
  };
  for (uint32_t k = 0; k < kMessages; ++k)
    add(0, send[k], true);
  time::MessagePairs pairs;
  std::vector<uint32_t> recv_row(kMessages, model::kNone);
  for (uint32_t k : order) {
    recv_row[k] = static_cast<uint32_t>(m.size());
    add(1, recv[k], false);
  }
  for (uint32_t k = 0; k < kMessages; ++k)
    if (!lost[k]) pairs.pairs.push_back({k, recv_row[k]});
  t.begin_ns = *std::min_element(m.time.begin(), m.time.end());
  t.end_ns = *std::max_element(m.time.begin(), m.time.end());
  const TimelineIndex timeline = TimelineIndex::Build(t, pairs);
  const ReplayIndex index = ReplayIndex::Build(timeline, pairs);
  std::vector<ReplayIndex::InFlight> out;
  for (int64_t at = t.begin_ns - 1; at <= t.end_ns + 1; at += 7) {
    std::vector<uint32_t> expected;  // sends are rows 0.. in time order
    for (uint32_t k = 0; k < kMessages; ++k)
      if (send[k] <= at && (lost[k] || recv[k] > at)) expected.push_back(k);
    const size_t limit = at % 3 == 0 ? 5 : 100000;
    ASSERT_EQ(index.InFlightAt(at, limit, &out), expected.size()) << at;
    ASSERT_EQ(out.size(), std::min(limit, expected.size())) << at;
    for (size_t i = 0; i < out.size(); ++i) {
      ASSERT_EQ(out[i].send, expected[i]) << at;
      ASSERT_EQ(out[i].recv, recv_row[expected[i]]) << at;
    }
  }
}

}  // namespace
}  // namespace plx::server
