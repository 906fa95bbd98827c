// Round-trip checks: what differs between two traces, as readable lines.
// Threads are matched by position (process order, then thread order); times
// are compared relative to each trace's begin.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"

namespace plx::testing {

struct CompareOptions {
  bool process_names = true;  // process name/rank, thread names
  bool messages = true;       // every send and receive, and how they pair
  bool counters = true;
  bool instants = false;
  bool collectives = false;
  bool rma = false;
  bool recv_posts = false;
  int64_t time_step_ns = 1;  // times equal when they round to the same multiple
};

/// Differences between `expected` and `actual` (at most `limit` lines; empty
/// when they hold the same states, messages, pairs, counters and names).
std::vector<std::string> CompareTraces(const model::Trace& expected, const model::Trace& actual,
                                       const CompareOptions& options = {}, size_t limit = 20);

}  // namespace plx::testing
