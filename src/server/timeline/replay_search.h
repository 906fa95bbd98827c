// Where replay goes next: the next (previous) event of any kind — /step — and
// the first event after (before) a moment meeting a trigger condition —
// /find — over a ReplayIndex.
//
// Event order: (time, row, kind, record), kinds in the order end, begin,
// instant, message record (send or receive), counter sample. The replay cursor
// is a time, so the events at one time are one replay step: a step goes to the
// nearest event time strictly after (before) the cursor and names the first
// event at that time in this order, whichever the direction. Stepping forward
// from before the first event visits every event time once, in order; back
// from after the last visits them in reverse; forward then back returns to
// the same event.
#pragma once

#include <cstdint>
#include <vector>

#include "server/timeline/replay_index.h"

namespace plx::server {

enum class EventKind : uint8_t {
  kEnd,      // a slice's end (ref: slice)
  kBegin,    // a slice's begin (ref: slice)
  kInstant,  // ref: instant
  kSend,     // ref: message record
  kReceive,  // ref: message record
  kSample,   // ref: counter sample
  kState,    // /find: a slice lasting longer than the trigger's ns (ref: slice)
  kCounter,  // /find: a sample above the trigger's value (ref: counter sample)
  kMessage,  // /find: a send larger than the trigger's bytes (ref: send record)
};
/// "begin", "end", ..., as the API names the kinds.
const char* EventKindName(EventKind kind);

struct EventHit {
  bool found = false;
  int64_t time = 0;  // model time
  uint32_t row = 0;
  EventKind kind = EventKind::kBegin;
  uint32_t ref = 0;
};

/// The first event (in event order) at the nearest event time strictly after
/// `t` (forward) or before it (back), among `rows` (all when empty; each must
/// be < index.rows()). O(rows * depth * log n).
EventHit StepEvent(const ReplayIndex& index, int64_t t, bool forward,
                   const std::vector<uint32_t>& rows);

/// A trigger condition: which events /find stops at.
struct Trigger {
  EventKind kind = EventKind::kState;  // kState, kCounter or kMessage
  uint32_t state = model::kNone;       // kState: only slices of this state
  int64_t ns = 0;                      // kState: lasting longer than this (>= 0)
  uint32_t track = model::kNone;       // kCounter: only this counter track
  double value = 0;                    // kCounter: samples above this
  uint64_t bytes = 0;                  // kMessage: sends of more than this
};

/// The first event meeting `trigger` whose time is strictly after `t` and at
/// most `until` (forward), or the last strictly before `t` and at least
/// `until` (back); ties in (time, row, record) order, the first of them in
/// both directions. A state event's time is the slice's begin + ns (the moment
/// it has lasted that long). A scan from `t`, linear in the records between
/// `t` and the hit, advancing all rows together in doubling time windows.
EventHit FindEvent(const ReplayIndex& index, const Trigger& trigger, int64_t t, bool forward,
                   int64_t until);

}  // namespace plx::server
