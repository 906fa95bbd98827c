// SideExtractor: the sweep of time::EnclosingSlices, run over a thread's
// records as its chunks arrive.
#include "store/side_extractor.h"

#include <algorithm>

namespace plx::store {

void SideExtractor::Add(const ChunkRows& rows) {
  const model::Trace& t = *rows.tables;
  const model::SliceTable& s = t.slices;
  chunk_ = &rows;
  next_slice_ = rows.carried;
  const auto row = [&](TableIndex table, size_t i) {
    return static_cast<uint32_t>(rows.first.table[table] + i);
  };
  const model::MessageTable& m = t.messages;
  for (size_t i = 0; i < m.size(); ++i) {
    MessageSide x;
    x.time = m.time[i];
    x.row = row(kMessages, i);
    x.thread = rows.thread;
    x.comm = m.comm[i];
    x.send = m.is_send[i] != 0;
    x.peer = m.peer[i];
    x.tag = m.tag[i];
    x.bytes = m.bytes[i];
    x.match = m.match[i];
    messages_.push_back(x);
  }
  const model::CollectiveTable& c = t.collectives;
  for (size_t i = 0; i < c.size(); ++i)
    collectives_.push_back(
        {c.time[i], row(kCollectives, i), rows.thread, c.comm[i], c.op[i], c.root[i], {}});
  const model::RecvPostTable& p = t.recv_posts;
  for (size_t i = 0; i < p.size(); ++i)
    posts_.push_back(
        {p.time[i], row(kRecvPosts, i), rows.thread, p.comm[i], p.peer[i], p.tag[i], p.match[i]});
  // The last time of the chunk, over every table (they are each in time order).
  const auto last = [&](const std::vector<int64_t>& times) {
    if (!times.empty()) last_time_ = std::max(last_time_, times.back());
  };
  last(s.begin);
  last(t.instants.time);
  last(m.time);
  last(t.counter_samples.time);
  last(t.rma.time);
  last(t.controls.time);
  last(c.time);
  last(p.time);
  // A record at the last time seen may get a slice that begins at that same
  // time from the next chunk: it waits.
  Resolve(last_time_);
  // Every slice of the chunk began by then: the sweep opens the rest now.
  // The records left, at that time, find the same slices open when they
  // resolve (what opens later begins at that time too, and a sweep moved to
  // a time in two steps ends as one moved there at once).
  CallAt(last_time_);
  chunk_ = nullptr;
}

void SideExtractor::Finish() {
  finished_ = true;
  Resolve(INT64_MAX);
}

void SideExtractor::Resolve(int64_t limit) {
  // Both kinds in time order together: the sweep only moves forward.
  for (;;) {
    const bool m = resolved_m_ < messages_.size() && messages_[resolved_m_].time < limit;
    const bool c = resolved_c_ < collectives_.size() && collectives_[resolved_c_].time < limit;
    if (m && (!c || messages_[resolved_m_].time <= collectives_[resolved_c_].time)) {
      MessageSide& x = messages_[resolved_m_++];
      x.call = CallAt(x.time);
    } else if (c) {
      CollectiveSide& x = collectives_[resolved_c_++];
      x.call = CallAt(x.time);
    } else {
      break;
    }
  }
}

CallRef SideExtractor::CallAt(int64_t t) {
  // Open every slice that began by t, closing those that ended before it began.
  const model::SliceTable* s = chunk_ != nullptr ? &chunk_->tables->slices : nullptr;
  for (; s != nullptr && next_slice_ < s->size() && s->begin[next_slice_] <= t; ++next_slice_) {
    const size_t r = next_slice_;
    const Slice slice{static_cast<uint32_t>(chunk_->slice_row(r)),
                      s->state[r],
                      s->callsite[r],
                      s->depth[r],
                      s->begin[r],
                      s->end[r]};
    while (!open_.empty() && open_.back().end < slice.begin)
      open_.pop_back();
    // A parent and a child that begin at the same ns may come in either
    // order: keep the deeper one on top.
    if (!open_.empty() && open_.back().begin == slice.begin && open_.back().depth > slice.depth)
      open_.insert(open_.end() - 1, slice);
    else
      open_.push_back(slice);
  }
  while (!open_.empty() && open_.back().end < t)
    open_.pop_back();
  if (open_.empty()) return {};
  const Slice& top = open_.back();
  return {top.row, top.state, top.callsite, top.begin, top.end};
}

void SideExtractor::Take(int64_t until, std::vector<MessageSide>* messages,
                         std::vector<CollectiveSide>* collectives, std::vector<PostSide>* posts) {
  // Records at the last time seen wait (Add), unless the thread is finished:
  // every record before the limit has its call.
  const int64_t limit = finished_ ? until : std::min(until, last_time_);
  while (!messages_.empty() && messages_.front().time < limit) {
    messages->push_back(messages_.front());
    messages_.pop_front();
    --resolved_m_;
  }
  while (!collectives_.empty() && collectives_.front().time < limit) {
    collectives->push_back(collectives_.front());
    collectives_.pop_front();
    --resolved_c_;
  }
  while (!posts_.empty() && posts_.front().time < limit) {
    posts->push_back(posts_.front());
    posts_.pop_front();
  }
  // Move the sweep up to the limit, so slices no record will need go even
  // on threads with few records (what is open at a time depends on that
  // time alone, not on the times visited before).
  if (limit != INT64_MIN) CallAt(limit);
}

}  // namespace plx::store
