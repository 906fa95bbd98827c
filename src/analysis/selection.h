// Selection: the part of a trace an analysis covers, as an area selected in
// the viewer or `--from/--to/--processes/--rows` on the command line: a
// window of model time (both ends included) and some threads. What each
// analysis makes of it is what it gives for `parallax cut` of the same
// window and processes:
// - statistics: a slice counts when it overlaps the window, its duration
//   clipped to it, its self time the clipped duration minus its direct
//   children's clipped durations; thread time is each selected thread's
//   span clipped to the window;
// - the message matrix: the pairs whose send and receive are both in the
//   selection (on a selected thread, in the window), and the records left
//   without a partner that are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace plx::analysis {

struct Selection {
  int64_t from = std::numeric_limits<int64_t>::min();
  int64_t to = std::numeric_limits<int64_t>::max();
  std::vector<uint8_t> threads;  // by thread index, 1 = selected; empty: every thread

  bool Has(uint32_t thread) const {
    return threads.empty() || (thread < threads.size() && threads[thread] != 0);
  }
  /// Whether a record of `thread` at `time` is in the selection.
  bool Contains(uint32_t thread, int64_t time) const {
    return time >= from && time <= to && Has(thread);
  }
  /// The part of [begin, end] inside the window (0 when outside).
  int64_t Clip(int64_t begin, int64_t end) const {
    const int64_t b = std::max(begin, from), e = std::min(end, to);
    return e > b ? e - b : 0;
  }
};

}  // namespace plx::analysis
