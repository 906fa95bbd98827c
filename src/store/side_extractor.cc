// SideExtractor: the sweep of time::EnclosingSlices, run over a thread's
// records as its chunks arrive.
#include "store/side_extractor.h"

#include <algorithm>

namespace plx::store {

void SideExtractor::Add(const ChunkRows& rows) {
  const model::Trace& t = *rows.tables;
  const model::SliceTable& s = t.slices;
  for (size_t r = rows.carried; r < s.size(); ++r)
    pending_.push_back({static_cast<uint32_t>(rows.slice_row(r)), s.state[r], s.callsite[r],
                        s.depth[r], s.begin[r], s.end[r]});
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
}

CallRef SideExtractor::CallAt(int64_t t) {
  // Open every slice that began by t, closing those that ended before it began.
  while (!pending_.empty() && pending_.front().begin <= t) {
    const Slice slice = pending_.front();
    pending_.pop_front();
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
  // A record at the last time seen may get a slice that begins at that same
  // time from the next chunk: it waits, unless the thread is finished.
  const int64_t limit = finished_ ? until : std::min(until, last_time_);
  // Records of the three kinds in time order together: the sweep only moves forward.
  for (;;) {
    int64_t next = limit;
    int kind = -1;
    if (!messages_.empty() && messages_.front().time < next)
      next = messages_.front().time, kind = 0;
    if (!collectives_.empty() && collectives_.front().time < next)
      next = collectives_.front().time, kind = 1;
    if (!posts_.empty() && posts_.front().time < next) next = posts_.front().time, kind = 2;
    if (kind < 0) break;
    if (kind == 0) {
      MessageSide x = messages_.front();
      messages_.pop_front();
      x.call = CallAt(x.time);
      messages->push_back(x);
    } else if (kind == 1) {
      CollectiveSide x = collectives_.front();
      collectives_.pop_front();
      x.call = CallAt(x.time);
      collectives->push_back(x);
    } else {
      posts->push_back(posts_.front());
      posts_.pop_front();
    }
  }
  // Move the sweep up to the limit, so slices no record will need go even
  // on threads with few records (what is open at a time depends on that
  // time alone, not on the times visited before).
  if (limit != INT64_MIN) CallAt(limit);
}

}  // namespace plx::store
