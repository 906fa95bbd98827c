// StepEvent (binary searches per row and kind) and FindEvent (a scan of all
// rows together in doubling time windows); see replay_search.h for the order.
#include "server/timeline/replay_search.h"

#include <algorithm>

namespace plx::server {

const char* EventKindName(EventKind kind) {
  switch (kind) {
    case EventKind::kEnd:
      return "end";
    case EventKind::kBegin:
      return "begin";
    case EventKind::kInstant:
      return "instant";
    case EventKind::kSend:
      return "send";
    case EventKind::kReceive:
      return "receive";
    case EventKind::kSample:
      return "sample";
    case EventKind::kState:
      return "state";
    case EventKind::kCounter:
      return "counter";
    case EventKind::kMessage:
      return "message";
  }
  return "";
}

namespace {

using Range = ReplayIndex::Range;

int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? (b > 0 ? INT64_MAX : INT64_MIN) : r;
}
int64_t SatSub(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_sub_overflow(a, b, &r) ? (b > 0 ? INT64_MIN : INT64_MAX) : r;
}

// Position of the first record of `r` with time > t (forward), or one past
// the last with time < t (back), in a column sorted within the range.
uint64_t Bound(const std::vector<int64_t>& time, Range r, int64_t t, bool forward) {
  const auto b = time.begin() + static_cast<ptrdiff_t>(r.begin);
  const auto e = time.begin() + static_cast<ptrdiff_t>(r.end);
  return static_cast<uint64_t>((forward ? std::upper_bound(b, e, t) : std::lower_bound(b, e, t)) -
                               time.begin());
}

// The nearest time strictly after (before) t in the range, folded into *best.
void Nearest(const std::vector<int64_t>& time, Range r, int64_t t, bool forward, bool* found,
             int64_t* best) {
  const uint64_t i = Bound(time, r, t, forward);
  if (forward ? i >= r.end : i <= r.begin) return;
  const int64_t v = time[forward ? i : i - 1];
  if (!*found || (forward ? v < *best : v > *best)) *best = v;
  *found = true;
}

// The first slice of a lane (ends are in begin order there) ending at or
// after t (`at_or_after`), else after t.
uint32_t LaneFirstEnd(const ReplayIndex& index, const TimelineIndex::Lane& lane, int64_t t,
                      bool at_or_after) {
  const std::vector<int64_t>& end = index.trace().slices.end;
  uint32_t lo = 0, hi = lane.count;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    const int64_t v = end[index.timeline().slice_id(lane, mid)];
    if (at_or_after ? v < t : v <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The same for slice ends: per lane (ends are in begin order there), or a
// scan of the row should the model have broken nesting.
void NearestEnd(const ReplayIndex& index, uint32_t row, int64_t t, bool forward, bool* found,
                int64_t* best) {
  const std::vector<int64_t>& end = index.trace().slices.end;
  auto fold = [&](int64_t v) {
    if (forward ? v <= t : v >= t) return;
    if (!*found || (forward ? v < *best : v > *best)) *best = v;
    *found = true;
  };
  if (!index.ends_sorted(row)) {
    const Range r = index.slices(row);
    for (uint64_t i = r.begin; i < r.end; ++i)
      fold(end[i]);
    return;
  }
  const TimelineIndex& tl = index.timeline();
  for (uint16_t d = 0; d <= tl.max_depth(row); ++d) {
    const TimelineIndex::Lane* lane = tl.lane(row, d);
    if (lane == nullptr) continue;
    const uint32_t lo = LaneFirstEnd(index, *lane, t, !forward);
    if (forward && lo < lane->count) fold(end[tl.slice_id(*lane, lo)]);
    if (!forward && lo > 0) fold(end[tl.slice_id(*lane, lo - 1)]);
  }
}

// The first record of the range at exactly time t, or kNone.
uint32_t FirstAt(const std::vector<int64_t>& time, Range r, int64_t t) {
  const uint64_t i = Bound(time, r, t, false);
  return i < r.end && time[i] == t ? static_cast<uint32_t>(i) : model::kNone;
}

// The smallest slice id of `row` ending at exactly t, whatever its depth, or kNone.
uint32_t EndAt(const ReplayIndex& index, uint32_t row, int64_t t) {
  const std::vector<int64_t>& end = index.trace().slices.end;
  uint32_t found = model::kNone;
  if (!index.ends_sorted(row)) {
    const Range r = index.slices(row);
    for (uint64_t i = r.begin; i < r.end && found == model::kNone; ++i)
      if (end[i] == t) found = static_cast<uint32_t>(i);
    return found;
  }
  const TimelineIndex& tl = index.timeline();
  for (uint16_t d = 0; d <= tl.max_depth(row); ++d) {
    const TimelineIndex::Lane* lane = tl.lane(row, d);
    if (lane == nullptr) continue;
    const uint32_t i = LaneFirstEnd(index, *lane, t, true);
    if (i < lane->count && end[tl.slice_id(*lane, i)] == t)
      found = std::min(found, tl.slice_id(*lane, i));
  }
  return found;
}

// The first event of `row` at exactly time t in event order.
bool FirstEventAt(const ReplayIndex& index, uint32_t row, int64_t t, EventHit* hit) {
  const model::Trace& tr = index.trace();
  *hit = EventHit{true, t, row, EventKind::kEnd, model::kNone};
  const Range slices = index.slices(row);
  const uint32_t end = EndAt(index, row, t);
  if (end != model::kNone) {
    hit->ref = end;
    return true;
  }
  struct Column {
    EventKind kind;
    const std::vector<int64_t>* time;
    Range range;
  };
  const Column columns[] = {{EventKind::kBegin, &tr.slices.begin, slices},
                            {EventKind::kInstant, &tr.instants.time, index.instants(row)},
                            {EventKind::kSend, &tr.messages.time, index.messages(row)},
                            {EventKind::kSample, &tr.counter_samples.time, index.samples(row)}};
  for (const Column& c : columns) {
    const uint32_t i = FirstAt(*c.time, c.range, t);
    if (i == model::kNone) continue;
    hit->kind = c.kind;
    if (c.kind == EventKind::kSend && !tr.messages.is_send[i]) hit->kind = EventKind::kReceive;
    hit->ref = i;
    return true;
  }
  return false;
}

}  // namespace

EventHit StepEvent(const ReplayIndex& index, int64_t t, bool forward,
                   const std::vector<uint32_t>& rows) {
  std::vector<uint32_t> order;
  for (uint32_t r : rows)
    if (r < index.rows()) order.push_back(r);
  if (rows.empty())
    for (uint32_t r = 0; r < index.rows(); ++r)
      order.push_back(r);
  std::sort(order.begin(), order.end());
  order.erase(std::unique(order.begin(), order.end()), order.end());
  const model::Trace& tr = index.trace();
  bool found = false;
  int64_t best = 0;
  for (uint32_t row : order) {
    Nearest(tr.slices.begin, index.slices(row), t, forward, &found, &best);
    NearestEnd(index, row, t, forward, &found, &best);
    Nearest(tr.instants.time, index.instants(row), t, forward, &found, &best);
    Nearest(tr.messages.time, index.messages(row), t, forward, &found, &best);
    Nearest(tr.counter_samples.time, index.samples(row), t, forward, &found, &best);
  }
  EventHit hit;
  if (!found) return hit;
  for (uint32_t row : order)
    if (FirstEventAt(index, row, best, &hit)) return hit;
  return EventHit{};  // unreachable: some row has an event at `best`
}

namespace {

// A record a trigger accepts: its key (the time column) and where it is.
struct Candidate {
  bool found = false;
  int64_t key = 0;
  uint32_t row = 0;
  uint64_t record = 0;
};

// The record of the smallest key > from and <= until (forward), or the largest
// key < from and >= until (back), among the ranges of `rows` of a column
// sorted within each range, that `accept` takes; ties: the lowest row, then
// the lowest record. All rows advance together through time windows that
// double from `window`, so the scan is linear in the records passed.
template <typename Accept>
Candidate Sweep(const std::vector<int64_t>& key, const std::vector<uint32_t>& rows,
                const std::vector<Range>& ranges, int64_t from, int64_t until, bool forward,
                int64_t window, const Accept& accept) {
  Candidate best;
  std::vector<uint64_t> cursor(rows.size());
  for (size_t k = 0; k < rows.size(); ++k)
    cursor[k] = Bound(key, ranges[k], from, forward);
  int64_t edge = from;
  while (true) {
    const int64_t next = forward ? SatAdd(edge, window) : SatSub(edge, window);
    bool left = false;
    for (size_t k = 0; k < rows.size(); ++k) {
      const Range r = ranges[k];
      uint64_t i = cursor[k];
      if (forward) {
        for (; i < r.end && key[i] <= next; ++i) {
          if (key[i] > until) {
            i = r.end;
            break;
          }
          if (accept(i)) {
            if (!best.found || key[i] < best.key) best = {true, key[i], rows[k], i};
            break;
          }
        }
        left |= i < r.end;
      } else {
        for (; i > r.begin && key[i - 1] >= next; --i) {
          if (key[i - 1] < until) {
            i = r.begin;
            break;
          }
          if (accept(i - 1)) {
            uint64_t first = i - 1;  // the lowest accepted record at that key
            for (uint64_t j = first; j > r.begin && key[j - 1] == key[first]; --j)
              if (accept(j - 1)) first = j - 1;
            if (!best.found || key[first] > best.key) best = {true, key[first], rows[k], first};
            break;
          }
        }
        left |= i > r.begin;
      }
      cursor[k] = i;
    }
    if (best.found || !left) return best;
    if (forward ? next >= until : next <= until) return best;
    edge = next;
    window = window > INT64_MAX / 2 ? INT64_MAX : window * 2;
  }
}

// About 256 records of `n` over the trace's span in the first window.
int64_t FirstWindow(const model::Trace& tr, size_t n) {
  const int64_t span = std::max<int64_t>(1, tr.end_ns - tr.begin_ns);
  return std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(span) * 256.0 /
                                                   static_cast<double>(std::max<size_t>(1, n))));
}

}  // namespace

EventHit FindEvent(const ReplayIndex& index, const Trigger& trigger, int64_t t, bool forward,
                   int64_t until) {
  const model::Trace& tr = index.trace();
  std::vector<uint32_t> rows;
  std::vector<Range> ranges;
  EventHit hit;
  hit.kind = trigger.kind;
  auto all_rows = [&](Range (ReplayIndex::*range)(uint32_t) const) {
    for (uint32_t r = 0; r < index.rows(); ++r) {
      rows.push_back(r);
      ranges.push_back((index.*range)(r));
    }
  };
  Candidate c;
  switch (trigger.kind) {
    case EventKind::kState: {
      // Time = begin + ns: search begins shifted by ns. None is long enough
      // when ns >= the longest slice (which also keeps the shift in range).
      if (trigger.ns < 0 || trigger.ns >= index.max_duration(trigger.state)) return EventHit{};
      all_rows(&ReplayIndex::slices);
      const model::SliceTable& s = tr.slices;
      c = Sweep(s.begin, rows, ranges, SatSub(t, trigger.ns), SatSub(until, trigger.ns), forward,
                FirstWindow(tr, s.size()), [&](uint64_t i) {
                  return s.end[i] - s.begin[i] > trigger.ns &&
                         (trigger.state == model::kNone || s.state[i] == trigger.state);
                });
      if (c.found) hit.time = c.key + trigger.ns;
      break;
    }
    case EventKind::kCounter: {
      const auto& tracks = index.timeline().counter_tracks();
      uint32_t counter = model::kNone;
      double max = 0;
      bool any = false;
      for (uint32_t k = 0; k < tracks.size(); ++k)
        if (trigger.track == model::kNone || trigger.track == k) {
          max = any ? std::max(max, tracks[k].max) : tracks[k].max;
          any = true;
        }
      if (!any || !(max > trigger.value)) return EventHit{};
      if (trigger.track == model::kNone) {
        all_rows(&ReplayIndex::samples);
      } else {
        if (tracks[trigger.track].thread >= index.rows()) return EventHit{};
        counter = tracks[trigger.track].counter;
        rows.push_back(tracks[trigger.track].thread);
        ranges.push_back(index.samples(rows.back()));
      }
      const model::CounterTable& cs = tr.counter_samples;
      c = Sweep(cs.time, rows, ranges, t, until, forward, FirstWindow(tr, cs.size()),
                [&](uint64_t i) {
                  return cs.value[i] > trigger.value &&
                         (counter == model::kNone || cs.counter[i] == counter);
                });
      hit.time = c.key;
      break;
    }
    case EventKind::kMessage: {
      if (index.max_send_bytes() <= trigger.bytes) return EventHit{};
      all_rows(&ReplayIndex::messages);
      const model::MessageTable& m = tr.messages;
      c = Sweep(m.time, rows, ranges, t, until, forward, FirstWindow(tr, m.size()),
                [&](uint64_t i) { return m.is_send[i] && m.bytes[i] > trigger.bytes; });
      hit.time = c.key;
      break;
    }
    default:
      return EventHit{};
  }
  if (!c.found) return EventHit{};
  hit.found = true;
  hit.row = c.row;
  hit.ref = static_cast<uint32_t>(c.record);
  return hit;
}

}  // namespace plx::server
