// LiveStatus: how the live trace of `parallax serve --listen` is doing — the
// LiveStatus type of spec/api.toml (what the status bar shows, and the body of
// the `live` WebSocket message). No dependencies, so every layer may hold one.
#pragma once

#include <cstdint>
#include <string>

namespace plx::server {

struct LiveStatus {
  std::string trace = "live";
  uint64_t generation = 0;          // snapshots published so far
  std::string program = "waiting";  // waiting | running | deadlocked | crashed | finished
  uint64_t connections = 0;         // open now
  uint64_t processes = 0;           // connections that said HELLO, in all
  uint64_t received = 0;            // EVENTS records received (valid chunks)
  uint64_t applied = 0;             // records of applied chunks
  uint64_t forced = 0;              // sends/receives released before their causes
  uint64_t missing = 0;             // records left out of the streams
  double clock = 0;                 // trace time of the newest applied record
  double lag_ms = 0;                // newest applied chunk's arrival -> snapshot ready
  double window_from = 0;           // trace time of the oldest record kept
  uint64_t dropped = 0;             // records dropped from the history window
  uint64_t bad_input = 0;
  std::string last_bad_input;

  bool operator==(const LiveStatus&) const = default;
};

}  // namespace plx::server
