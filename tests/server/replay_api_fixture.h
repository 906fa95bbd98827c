// The fixture of the replay endpoints' tests (replay_api_test.cc): a trace
// loaded as the server loads it, Api::Handle on it, and brute-force answers
// of /at, /step, /find and /lamport computed by scanning the model.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "server/api/api.h"
#include "support/test_support.h"
#include "support/trace_script.h"
#include "time/logical_clocks.h"
#include "time/message_pairs.h"

namespace plx::server {

using nlohmann::json;

// One event of the brute-force list, in the documented order.
struct Event {
  int64_t time;
  uint32_t row;
  int kind;  // 0 end, 1 begin, 2 instant, 3 message record, 4 sample
  uint32_t ref;
  bool operator<(const Event& o) const {
    return std::tie(time, row, kind, ref) < std::tie(o.time, o.row, o.kind, o.ref);
  }
};

class ReplayApiTest : public ::testing::Test {
 protected:
  void Load(const std::string& script) {
    const std::string path = dir_.File("t.plx");
    const Status written = testing::WriteTraceScript(script, path);
    ASSERT_TRUE(written.ok()) << written.message();
    store_ = std::make_unique<TraceStore>();
    store_->Add(path).Load({});
    ASSERT_TRUE(store_->traces()[0]->ready()) << store_->traces()[0]->progress().error;
    api_ = std::make_unique<Api>(*store_);
    trace_ = &store_->traces()[0]->trace();
    pairs_ = time::MatchMessages(*trace_);
    for (const auto& p : pairs_.pairs) {
      recv_of_[p.send] = p.recv;
      send_of_[p.recv] = p.send;
    }
    const model::Trace& t = *trace_;
    for (uint32_t i = 0; i < t.slices.size(); ++i) {
      events_.push_back({t.slices.end[i], t.slices.thread[i], 0, i});
      events_.push_back({t.slices.begin[i], t.slices.thread[i], 1, i});
    }
    for (uint32_t i = 0; i < t.instants.size(); ++i)
      events_.push_back({t.instants.time[i], t.instants.thread[i], 2, i});
    for (uint32_t i = 0; i < t.messages.size(); ++i)
      events_.push_back({t.messages.time[i], t.messages.thread[i], 3, i});
    for (uint32_t i = 0; i < t.counter_samples.size(); ++i)
      events_.push_back({t.counter_samples.time[i], t.counter_samples.thread[i], 4, i});
    std::sort(events_.begin(), events_.end());
  }

  json Get(std::string_view endpoint, const std::string& query) {
    const ApiResponse r = api_->Handle("/traces/t/" + std::string(endpoint), query);
    EXPECT_EQ(r.status, 200) << endpoint << "?" << query << ": " << r.body;
    return json::parse(r.body);
  }

  std::pair<int, std::string> Fail(std::string_view endpoint, const std::string& query) {
    const ApiResponse r = api_->Handle("/traces/t/" + std::string(endpoint), query);
    EXPECT_NE(r.status, 200) << endpoint << "?" << query;
    return {r.status, json::parse(r.body).value("error", "")};
  }

  // Trace time of a model time, and back.
  double T(int64_t ns) const { return static_cast<double>(ns - trace_->begin_ns); }
  std::string Q(int64_t ns) const { return std::to_string(ns - trace_->begin_ns); }

  // Every time at which something happens, and one ns on either side.
  std::vector<int64_t> ProbeTimes() const {
    std::set<int64_t> times;
    for (const Event& e : events_)
      for (int64_t d : {-1, 0, 1})
        times.insert(e.time + d);
    return {times.begin(), times.end()};
  }

  // The innermost slice of `row` covering `ns`: deepest, then last.
  int64_t SliceAt(uint32_t row, int64_t ns) const {
    const model::SliceTable& s = trace_->slices;
    int64_t best = -1;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (s.thread[i] != row || s.begin[i] > ns) continue;
      if (!(ns < s.end[i] || (s.begin[i] == ns && s.end[i] == ns))) continue;
      if (best < 0 || s.depth[i] >= s.depth[best]) best = i;
    }
    return best;
  }

  bool Delivered(uint32_t send) const { return recv_of_.count(send) != 0; }
  int64_t RecvTime(uint32_t send) const { return trace_->messages.time[recv_of_.at(send)]; }

  // Sends in flight at `ns`, oldest first.
  std::vector<uint32_t> InFlight(int64_t ns) const {
    const model::MessageTable& m = trace_->messages;
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < m.size(); ++i)
      if (m.is_send[i] && m.time[i] <= ns && (!Delivered(i) || RecvTime(i) > ns)) out.push_back(i);
    std::sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) {
      return std::tie(m.time[a], a) < std::tie(m.time[b], b);
    });
    return out;
  }

  void ExpectAtMatchesModel(int64_t ns) {
    const json j = Get("at", "t=" + Q(ns));
    SCOPED_TRACE("t=" + Q(ns));
    const model::Trace& t = *trace_;
    ASSERT_EQ(j["states"].size(), t.threads.size());
    for (uint32_t row = 0; row < t.threads.size(); ++row) {
      const int64_t slice = SliceAt(row, ns);
      EXPECT_EQ(j["slices"][row], slice) << "row " << row;
      EXPECT_EQ(j["states"][row], slice < 0 ? -1 : int64_t{t.slices.state[slice]});
    }
    // Counters: the last sample at or before ns per (thread, counter).
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> last;
    const model::CounterTable& c = t.counter_samples;
    for (uint32_t i = 0; i < c.size(); ++i)
      if (c.time[i] <= ns) last[{c.thread[i], c.counter[i]}] = i;  // rows are in time order
    ASSERT_EQ(j["counters"].size(), last.size());
    size_t k = 0;
    for (const auto& [key, sample] : last) {
      EXPECT_EQ(j["counters"][k]["value"], c.value[sample]);
      EXPECT_EQ(j["counters"][k]["time"], T(c.time[sample]));
      ++k;
    }
    const std::vector<uint32_t> flying = InFlight(ns);
    EXPECT_EQ(j["in_flight_total"], flying.size());
    ASSERT_EQ(j["in_flight"].size(), flying.size());
    const model::MessageTable& m = t.messages;
    for (size_t i = 0; i < flying.size(); ++i) {
      const json& f = j["in_flight"][i];
      const uint32_t send = flying[i];
      EXPECT_EQ(f["id"], send);
      EXPECT_EQ(f["send_row"], m.thread[send]);
      EXPECT_EQ(f["send_time"], T(m.time[send]));
      EXPECT_EQ(f["bytes"], m.bytes[send]);
      EXPECT_EQ(f["recv_row"], Delivered(send) ? int64_t{m.thread[recv_of_.at(send)]} : -1);
      EXPECT_EQ(f["recv_time"], Delivered(send) ? T(RecvTime(send)) : -1.0);
    }
  }

  // The first event (in event order) at exactly `ns`.
  const Event& FirstAt(int64_t ns) const {
    return *std::lower_bound(events_.begin(), events_.end(), Event{ns, 0, 0, 0});
  }

  void ExpectEvent(const json& j, const Event& e) {
    ASSERT_TRUE(j["found"].get<bool>());
    EXPECT_EQ(j["time"], T(e.time));
    EXPECT_EQ(j["row"], e.row);
    EXPECT_EQ(j["ref"], e.ref);
    static const char* kinds[] = {"end", "begin", "instant", "", "sample"};
    const std::string kind =
        e.kind == 3 ? (trace_->messages.is_send[e.ref] ? "send" : "receive") : kinds[e.kind];
    EXPECT_EQ(j["kind"], kind);
    EXPECT_FALSE(j["text"].get<std::string>().empty());
  }

  // Walks /step from before the first event to past the last and back, and
  // checks each answer against the distinct event times.
  void ExpectStepsVisitEveryEventTime(const std::vector<uint32_t>& rows) {
    std::string row_list;
    for (uint32_t r : rows)
      row_list += (row_list.empty() ? "" : ",") + std::to_string(r);
    std::vector<Event> expected;
    for (const Event& e : events_)
      if ((rows.empty() || std::count(rows.begin(), rows.end(), e.row)) &&
          (expected.empty() || expected.back().time != e.time))
        expected.push_back(e);
    ASSERT_FALSE(expected.empty());
    const std::string filter = rows.empty() ? "" : "&rows=" + row_list;
    int64_t at = events_.front().time - 10;
    for (const Event& e : expected) {
      const json j = Get("step", "t=" + Q(at) + filter);
      ExpectEvent(j, e);
      at = e.time;
    }
    EXPECT_FALSE(Get("step", "t=" + Q(at) + filter)["found"].get<bool>());
    // Back from the end: the same events in reverse.
    at = events_.back().time + 10;
    for (auto it = expected.rbegin(); it != expected.rend(); ++it) {
      ExpectEvent(Get("step", "t=" + Q(at) + "&dir=back" + filter), *it);
      at = it->time;
    }
    EXPECT_FALSE(Get("step", "t=" + Q(at) + "&dir=back" + filter)["found"].get<bool>());
  }

  // Brute-force /find: candidates (time, row, ref) meeting the condition.
  using Candidates = std::vector<std::tuple<int64_t, uint32_t, uint32_t>>;  // time, row, ref

  void ExpectFind(const std::string& query, const Candidates& candidates, int64_t ns, bool forward,
                  int64_t until, bool has_until) {
    std::tuple<int64_t, uint32_t, uint32_t> best;
    bool found = false;
    for (const auto& c : candidates) {
      const int64_t when = std::get<0>(c);
      if (forward ? when <= ns : when >= ns) continue;
      if (has_until && (forward ? when > until : when < until)) continue;
      if (!found ||
          (forward ? c < best
                   : (when > std::get<0>(best) || (when == std::get<0>(best) && c < best)))) {
        best = c;
        found = true;
      }
    }
    std::string q = query + "&t=" + Q(ns) + (forward ? "" : "&dir=back");
    if (has_until) q += "&until=" + Q(until);
    const json j = Get("find", q);
    SCOPED_TRACE(q);
    ASSERT_EQ(j["found"].get<bool>(), found);
    if (!found) return;
    EXPECT_EQ(j["time"], T(std::get<0>(best)));
    EXPECT_EQ(j["row"], std::get<1>(best));
    EXPECT_EQ(j["ref"], std::get<2>(best));
  }

  Candidates StateCandidates(int64_t ns, int64_t state) const {
    const model::SliceTable& s = trace_->slices;
    Candidates out;
    for (uint32_t i = 0; i < s.size(); ++i)
      if (s.end[i] - s.begin[i] > ns && (state < 0 || s.state[i] == state))
        out.emplace_back(s.begin[i] + ns, s.thread[i], i);
    return out;
  }
  Candidates CounterCandidates(double value, int64_t thread, int64_t counter) const {
    const model::CounterTable& c = trace_->counter_samples;
    Candidates out;
    for (uint32_t i = 0; i < c.size(); ++i)
      if (c.value[i] > value && (thread < 0 || (c.thread[i] == thread && c.counter[i] == counter)))
        out.emplace_back(c.time[i], c.thread[i], i);
    return out;
  }
  Candidates MessageCandidates(uint64_t bytes) const {
    const model::MessageTable& m = trace_->messages;
    Candidates out;
    for (uint32_t i = 0; i < m.size(); ++i)
      if (m.is_send[i] && m.bytes[i] > bytes) out.emplace_back(m.time[i], m.thread[i], i);
    return out;
  }

  void ExpectLamport(int64_t from, int64_t to, const std::vector<uint32_t>& rows, size_t limit) {
    const model::Trace& t = *trace_;
    std::string q = "from=" + Q(from) + "&to=" + Q(to) + "&limit=" + std::to_string(limit);
    if (!rows.empty()) {
      q += "&rows=";
      for (size_t i = 0; i < rows.size(); ++i)
        q += (i ? "," : "") + std::to_string(rows[i]);
    }
    SCOPED_TRACE(q);
    auto selected = [&](uint32_t row) {
      return rows.empty() || std::count(rows.begin(), rows.end(), row) != 0;
    };
    const json j = Get("lamport", q);
    std::vector<uint32_t> slices;
    for (uint32_t i = 0; i < t.slices.size(); ++i)
      if (selected(t.slices.thread[i]) && t.slices.begin[i] <= to && t.slices.end[i] >= from)
        slices.push_back(i);
    std::sort(slices.begin(), slices.end(), [&](uint32_t a, uint32_t b) {
      return std::tie(t.slices.begin[a], a) < std::tie(t.slices.begin[b], b);
    });
    const model::MessageTable& m = t.messages;
    auto in = [&](uint32_t rec) {
      return selected(m.thread[rec]) && m.time[rec] >= from && m.time[rec] <= to;
    };
    std::vector<uint32_t> messages;
    for (const auto& p : pairs_.pairs)
      if (in(p.send) || in(p.recv)) messages.push_back(p.send);
    const bool truncated = slices.size() > limit || messages.size() > limit;
    EXPECT_EQ(j["truncated"].get<bool>(), truncated);
    ASSERT_EQ(j["slices"].size(), std::min(limit, slices.size()));
    uint64_t min_clock = UINT64_MAX, max_clock = 0;
    for (size_t i = 0; i < j["slices"].size(); ++i) {
      const json& s = j["slices"][i];
      const uint32_t id = slices[i];
      EXPECT_EQ(s["id"], id);
      EXPECT_EQ(s["row"], t.slices.thread[id]);
      EXPECT_EQ(s["depth"], t.slices.depth[id]);
      EXPECT_EQ(s["begin_clock"], clocks_.slice_begin[id]);
      EXPECT_EQ(s["end_clock"], clocks_.slice_end[id]);
      EXPECT_EQ(s["begin"], T(t.slices.begin[id]));
      min_clock = std::min(min_clock, clocks_.slice_begin[id]);
      max_clock = std::max(max_clock, clocks_.slice_end[id]);
    }
    std::set<uint32_t> expected_messages(messages.begin(), messages.end());
    std::set<uint32_t> seen;
    ASSERT_EQ(j["messages"].size(), std::min(limit, messages.size()));
    double last_send = -1e300;
    for (const json& msg : j["messages"]) {
      const uint32_t send = msg["id"];
      EXPECT_TRUE(expected_messages.count(send)) << send;
      EXPECT_TRUE(seen.insert(send).second) << "twice: " << send;
      EXPECT_GE(msg["send_time"].get<double>(), last_send);
      last_send = msg["send_time"];
      const uint32_t recv = recv_of_.at(send);
      EXPECT_EQ(msg["recv_row"], m.thread[recv]);
      EXPECT_EQ(msg["send_clock"], clocks_.message[send]);
      EXPECT_EQ(msg["recv_clock"], clocks_.message[recv]);
      EXPECT_LT(clocks_.message[send], clocks_.message[recv]);
      min_clock = std::min(min_clock, clocks_.message[send]);
      max_clock = std::max(max_clock, clocks_.message[recv]);
    }
    if (!slices.empty() || !messages.empty()) {
      EXPECT_EQ(j["min_clock"], min_clock);
      EXPECT_EQ(j["max_clock"], max_clock);
    }
  }

  // The model's index of a state (definitions are merged by name).
  int64_t StateIndex(const std::string& name) const {
    for (size_t i = 0; i < trace_->states.size(); ++i)
      if (trace_->states[i].name == name) return static_cast<int64_t>(i);
    ADD_FAILURE() << "no state " << name;
    return -1;
  }
  std::string StateName(const json& index) const {
    return trace_->states.at(index.get<size_t>()).name;
  }

  testing::TempDir dir_;
  std::unique_ptr<TraceStore> store_;
  std::unique_ptr<Api> api_;
  const model::Trace* trace_ = nullptr;
  time::MessagePairs pairs_;
  std::map<uint32_t, uint32_t> recv_of_, send_of_;
  std::vector<Event> events_;
  time::LamportClocks clocks_;
};

}  // namespace plx::server
