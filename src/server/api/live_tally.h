// What a live trace's history window drops, summarised: per EVENTS chunk, the
// slices that end in it (per state name) and its messages (ChunkTally, made
// at ingest); for the window, the sum over every chunk it dropped
// (WindowDropped, StatsResult.dropped of spec/api.toml).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace plx::server::live {

struct ChunkTally {
  struct State {
    std::string name;
    uint64_t count = 0;    // slices that end in the chunk
    int64_t total_ns = 0;  // their inclusive time (they may begin in earlier chunks)
  };
  std::vector<State> states;
  uint64_t sends = 0, receives = 0, bytes_sent = 0;
};

struct WindowDropped {
  struct State {
    uint64_t count = 0;
    int64_t total_ns = 0;
  };
  uint64_t records = 0;
  std::map<std::string, State> states;  // by name, over every process
  uint64_t sends = 0, receives = 0, bytes_sent = 0;

  /// Adds a dropped chunk of `records` records.
  void Add(const ChunkTally& t, uint64_t chunk_records) {
    records += chunk_records;
    for (const ChunkTally::State& s : t.states) {
      State& d = states[s.name];
      d.count += s.count;
      d.total_ns += s.total_ns;
    }
    sends += t.sends;
    receives += t.receives;
    bytes_sent += t.bytes_sent;
  }
  bool operator==(const WindowDropped&) const = default;
};

}  // namespace plx::server::live
