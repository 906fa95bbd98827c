// Helpers of the src/server tests: a model::Trace built by hand (rows appended
// in the order the loader keeps them: by thread, then time) and a decoder of
// binary tiles into record vectors (BuildDecodedTile needs
// plx_server_timeline).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "model/trace.h"
#include "server/api.gen.h"
#include "server/timeline/tile_builder.h"
#include "time/message_pairs.h"

namespace plx::testing {

struct TimelineTrace {
  model::Trace trace;
  time::MessagePairs pairs;

  explicit TimelineTrace(uint32_t threads, uint32_t states = 4) {
    trace.processes.resize(1);
    trace.threads.resize(threads);
    trace.states.resize(states);
  }

  uint32_t Slice(uint32_t thread, int64_t begin, int64_t end, uint32_t state, uint16_t depth = 0,
                 bool unclosed = false) {
    model::SliceTable& s = trace.slices;
    s.thread.push_back(thread);
    s.begin.push_back(begin);
    s.end.push_back(end);
    s.state.push_back(state);
    s.callsite.push_back(model::kNone);
    s.depth.push_back(depth);
    s.self_ns.push_back(end - begin);
    s.flags.push_back(unclosed ? model::SliceTable::kUnclosed : 0);
    return static_cast<uint32_t>(s.size() - 1);
  }

  uint32_t Instant(uint32_t thread, int64_t time, uint32_t type) {
    model::InstantTable& in = trace.instants;
    in.thread.push_back(thread);
    in.time.push_back(time);
    in.type.push_back(type);
    in.callsite.push_back(model::kNone);
    in.kind.push_back(model::ValueKind::kNone);
    in.int_value.push_back(0);
    in.double_value.push_back(0);
    in.text.push_back(model::kNone);
    return static_cast<uint32_t>(in.size() - 1);
  }

  uint32_t MessageRecord(uint32_t thread, int64_t time, bool send) {
    model::MessageTable& m = trace.messages;
    m.thread.push_back(thread);
    m.time.push_back(time);
    m.is_send.push_back(send ? 1 : 0);
    m.comm.push_back(0);
    m.peer.push_back(0);
    m.tag.push_back(0);
    m.bytes.push_back(8);
    m.clock.push_back(0);
    m.match.push_back(0);
    return static_cast<uint32_t>(m.size() - 1);
  }

  // A matched message; returns the send's row. Rows need not be in thread
  // order for the index.
  uint32_t Message(uint32_t from, int64_t send, uint32_t to, int64_t recv) {
    const uint32_t s = MessageRecord(from, send, true);
    const uint32_t r = MessageRecord(to, recv, false);
    pairs.pairs.push_back({s, r});
    return s;
  }

  void Sample(uint32_t thread, int64_t time, uint32_t counter, double value) {
    model::CounterTable& c = trace.counter_samples;
    c.thread.push_back(thread);
    c.time.push_back(time);
    c.counter.push_back(counter);
    c.value.push_back(value);
    if (trace.counters.size() <= counter) trace.counters.resize(counter + 1);
  }

  // Sets begin_ns / end_ns to the extremes of the slices (or as given).
  void Finish(int64_t begin, int64_t end) {
    trace.begin_ns = begin;
    trace.end_ns = end;
    for (auto& t : trace.threads) {
      t.begin_ns = begin;
      t.end_ns = end;
    }
  }
};

struct DecodedTile {
  server::wire::TileHeader header;
  std::vector<server::wire::TileSlice> slices;
  std::vector<server::wire::TileInstant> instants;
  std::vector<server::wire::TileArrow> arrows;
  std::vector<server::wire::TileCounterPoint> points;
};

template <typename T>
inline bool ReadRecords(const std::string& bytes, size_t* at, uint32_t n, std::vector<T>* out) {
  if (bytes.size() - *at < static_cast<size_t>(n) * sizeof(T)) return false;
  out->resize(n);
  if (n > 0) std::memcpy(out->data(), bytes.data() + *at, static_cast<size_t>(n) * sizeof(T));
  *at += static_cast<size_t>(n) * sizeof(T);
  return true;
}

/// Decodes a tile; fails the test when its sizes do not add up.
inline DecodedTile DecodeTile(const std::string& bytes) {
  DecodedTile t;
  EXPECT_GE(bytes.size(), sizeof(t.header));
  if (bytes.size() < sizeof(t.header)) return t;
  std::memcpy(&t.header, bytes.data(), sizeof(t.header));
  size_t at = sizeof(t.header);
  const bool ok = ReadRecords(bytes, &at, t.header.slices, &t.slices) &&
                  ReadRecords(bytes, &at, t.header.instants, &t.instants) &&
                  ReadRecords(bytes, &at, t.header.arrows, &t.arrows) &&
                  ReadRecords(bytes, &at, t.header.points, &t.points);
  EXPECT_TRUE(ok);
  EXPECT_EQ(at, bytes.size());
  return t;
}

/// BuildTile's tile, decoded; fails the test when the request is refused.
inline DecodedTile BuildDecodedTile(const server::TimelineIndex& index,
                                    const server::TileRequest& request) {
  std::string out;
  const Status s = server::BuildTile(index, request, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return DecodeTile(out);
}

}  // namespace plx::testing
