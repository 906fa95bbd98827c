#include "interop/event_walk.h"

#include <algorithm>
#include <queue>

namespace plx::interop {

namespace {

// The rows of `thread` in a table sorted by thread.
template <typename Column>
std::pair<uint32_t, uint32_t> RowsOf(const Column& thread_column, uint32_t thread) {
  auto [lo, hi] = std::equal_range(thread_column.begin(), thread_column.end(), thread);
  return {static_cast<uint32_t>(lo - thread_column.begin()),
          static_cast<uint32_t>(hi - thread_column.begin())};
}

}  // namespace

ThreadWalk::ThreadWalk(const model::Trace& trace, uint32_t thread) : trace_(trace) {
  auto set = [&](Source source, const std::vector<uint32_t>& threads,
                 const std::vector<int64_t>& times) {
    auto [lo, hi] = RowsOf(threads, thread);
    cursors_[source] = {lo, hi};
    times_[source] = &times;
  };
  set(kEnter, trace.slices.thread, trace.slices.begin);
  set(kMessage, trace.messages.thread, trace.messages.time);
  set(kRecvPost, trace.recv_posts.thread, trace.recv_posts.time);
  set(kCollective, trace.collectives.thread, trace.collectives.time);
  set(kRma, trace.rma.thread, trace.rma.time);
  set(kCounter, trace.counter_samples.thread, trace.counter_samples.time);
  set(kInstant, trace.instants.thread, trace.instants.time);
  set(kControl, trace.controls.thread, trace.controls.time);
  Find();
}

void ThreadWalk::Find() {
  next_time_ = kDone;
  const model::SliceTable& s = trace_.slices;
  // The next slice may sit beside or above open ones: those whose depth is at
  // least its depth end first (at their end, which is at or before its begin).
  const Cursor& enter = cursors_[kEnter];
  if (!open_.empty()) {
    const uint32_t top = open_.back();
    const bool closes_before_next = enter.row == enter.end || s.depth[enter.row] < open_.size() ||
                                    s.end[top] <= s.begin[enter.row];
    if (closes_before_next) {
      next_time_ = s.end[top];
      next_source_ = kLeave;
    }
  }
  if (enter.row < enter.end && s.begin[enter.row] < next_time_) {
    next_time_ = s.begin[enter.row];
    next_source_ = kEnter;
  }
  for (int i = kMessage; i < kSources; ++i) {
    const Cursor& c = cursors_[i];
    if (c.row < c.end && (*times_[i])[c.row] < next_time_) {
      next_time_ = (*times_[i])[c.row];
      next_source_ = static_cast<Source>(i);
    }
  }
  // A leave after the last point events of a slice: point events at the
  // slice's end time were taken above only when strictly earlier, so those at
  // the same time as the leave go first.
  if (next_source_ == kLeave) {
    for (int i = kMessage; i < kSources; ++i) {
      const Cursor& c = cursors_[i];
      if (c.row < c.end && (*times_[i])[c.row] == next_time_) {
        next_source_ = static_cast<Source>(i);
        break;
      }
    }
  }
}

void ThreadWalk::Step(EventVisitor& visitor) {
  switch (next_source_) {
    case kLeave:
      visitor.Leave(open_.back());
      open_.pop_back();
      break;
    case kEnter: {
      const uint32_t row = cursors_[kEnter].row++;
      visitor.Enter(row);
      open_.push_back(row);
      break;
    }
    case kMessage:
      visitor.Message(cursors_[kMessage].row++);
      break;
    case kRecvPost:
      visitor.RecvPost(cursors_[kRecvPost].row++);
      break;
    case kCollective:
      visitor.Collective(cursors_[kCollective].row++);
      break;
    case kRma:
      visitor.Rma(cursors_[kRma].row++);
      break;
    case kCounter:
      visitor.CounterSample(cursors_[kCounter].row++);
      break;
    case kInstant:
      visitor.Instant(cursors_[kInstant].row++);
      break;
    case kControl:
      visitor.Control(cursors_[kControl].row++);
      break;
    case kSources:
      break;
  }
  Find();
}

void ThreadWalk::Run(EventVisitor& visitor) {
  while (!done())
    Step(visitor);
}

uint64_t EventCount(const model::Trace& t) {
  return 2 * uint64_t{t.slices.size()} + t.messages.size() + t.recv_posts.size() +
         t.collectives.size() + t.rma.size() + t.counter_samples.size() + t.instants.size() +
         t.controls.size();
}

void WalkTrace(const model::Trace& trace, EventVisitor& visitor,
               const std::function<void(uint64_t, uint64_t)>& progress) {
  std::vector<ThreadWalk> walks;
  walks.reserve(trace.threads.size());
  for (uint32_t t = 0; t < trace.threads.size(); ++t)
    walks.emplace_back(trace, t);
  auto later = [&](uint32_t a, uint32_t b) {
    const int64_t ta = walks[a].next_time(), tb = walks[b].next_time();
    return ta != tb ? ta > tb : a > b;
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(later)> heap(later);
  for (uint32_t t = 0; t < walks.size(); ++t) {
    if (!walks[t].done()) heap.push(t);
  }
  const uint64_t total = EventCount(trace);
  uint64_t done = 0;
  while (!heap.empty()) {
    const uint32_t t = heap.top();
    heap.pop();
    ThreadWalk& w = walks[t];
    // Stay on this thread while it is still first.
    const int64_t limit = heap.empty() ? INT64_MAX : walks[heap.top()].next_time();
    do {
      w.Step(visitor);
      if (progress && (++done & 0xfffff) == 0) progress(done, total);
    } while (!w.done() && (w.next_time() < limit || (w.next_time() == limit && t < heap.top())));
    if (!w.done()) heap.push(t);
  }
  if (progress) progress(total, total);
}

}  // namespace plx::interop
