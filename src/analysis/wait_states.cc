// ComputeWaitStates: pairs messages (time::MatchMessages) and groups
// collectives (time::GroupCollectives), finds the call around every record
// (time::EnclosingSlices), and compares the calls' begins and ends.
#include "analysis/wait_states.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "analysis/mpi_calls.h"
#include "time/collective_instances.h"
#include "time/message_pairs.h"
#include "time/record_calls.h"

namespace plx::analysis {

const char* WaitKindName(WaitKind kind) {
  switch (kind) {
    case WaitKind::kLateSender:
      return "late-sender";
    case WaitKind::kLateReceiver:
      return "late-receiver";
    case WaitKind::kCollective:
      return "collective";
  }
  return "collective";
}

void WaitTotals::Add(WaitKind kind, int64_t ns) {
  ++count;
  switch (kind) {
    case WaitKind::kLateSender:
      late_sender_ns += ns;
      break;
    case WaitKind::kLateReceiver:
      late_receiver_ns += ns;
      break;
    case WaitKind::kCollective:
      collective_ns += ns;
      break;
  }
}

void WaitTotals::Add(const WaitTotals& other) {
  late_sender_ns += other.late_sender_ns;
  late_receiver_ns += other.late_receiver_ns;
  collective_ns += other.collective_ns;
  count += other.count;
}

namespace {

using model::kNone;

// Adds a wait, or keeps the longer one when the previous wait is of the same
// kind in the same call: a call completing several receives (MPI_Waitall)
// waits for all of them at once, so its waits overlap instead of adding up.
void AddWait(const WaitInstance& w, std::vector<WaitInstance>* waits) {
  if (!waits->empty() && waits->back().slice == w.slice && waits->back().kind == w.kind) {
    if (w.wait_ns > waits->back().wait_ns) waits->back() = w;
    return;
  }
  waits->push_back(w);
}

// When each receive was posted, looked up by (receiving process, match).
class PostTimes {
 public:
  explicit PostTimes(const model::Trace& trace) {
    const model::RecvPostTable& p = trace.recv_posts;
    posts_.reserve(p.size());
    for (size_t i = 0; i < p.size(); ++i)
      if (p.match[i] != 0)
        posts_.push_back({trace.threads[p.thread[i]].process, p.match[i], p.time[i]});
    std::sort(posts_.begin(), posts_.end(), [](const Post& a, const Post& b) {
      return std::tie(a.process, a.match, a.time) < std::tie(b.process, b.match, b.time);
    });
  }
  /// The post time, or false when the receive has no post record.
  bool Find(uint32_t process, uint64_t match, int64_t* time) const {
    if (match == 0) return false;
    auto it = std::lower_bound(posts_.begin(), posts_.end(), Post{process, match, INT64_MIN},
                               [](const Post& a, const Post& b) {
                                 return std::tie(a.process, a.match) < std::tie(b.process, b.match);
                               });
    if (it == posts_.end() || it->process != process || it->match != match) return false;
    *time = it->time;
    return true;
  }

 private:
  struct Post {
    uint32_t process;
    uint64_t match;
    int64_t time;
  };
  std::vector<Post> posts_;
};

class WaitFinder {
 public:
  WaitFinder(const model::Trace& trace, const time::MessagePairs* pairs)
      : t_(trace), s_(trace.slices), kinds_(ClassifyStates(trace)), matched_(pairs) {}

  std::vector<WaitInstance> Find() {
    if (t_.messages.size() > 0) {
      const time::MessagePairs own =
          matched_ != nullptr ? time::MessagePairs{} : time::MatchMessages(t_);
      const time::MessagePairs& pairs = matched_ != nullptr ? *matched_ : own;
      const std::vector<uint32_t> calls =
          time::EnclosingSlices(t_, t_.messages.thread, t_.messages.time);
      LateSenders(pairs, calls);
      LateReceivers(pairs, calls);
    }
    if (t_.collectives.size() > 0) Collectives();
    return std::move(waits_);
  }

 private:
  uint16_t Kind(uint32_t slice) const { return slice == kNone ? 0 : kinds_[s_.state[slice]]; }
  bool Blocking(uint32_t slice, uint16_t any_of) const {
    const uint16_t k = Kind(slice);
    return IsBlockingMpiCall(k) && (k & any_of) != 0;
  }

  void LateSenders(const time::MessagePairs& pairs, const std::vector<uint32_t>& calls) {
    const model::MessageTable& m = t_.messages;
    std::vector<uint32_t> send_of(m.size(), kNone);
    for (const time::MessagePair& p : pairs.pairs)
      send_of[p.recv] = p.send;
    // In table order the receives one call completed are adjacent (AddWait).
    for (uint32_t r = 0; r < m.size(); ++r) {
      const uint32_t send = send_of[r];
      const uint32_t call = calls[r];
      if (send == kNone || !Blocking(call, kMpiRecv | kMpiComplete)) continue;
      const uint32_t send_call = calls[send];
      const int64_t sender_begin = send_call == kNone ? m.time[send] : s_.begin[send_call];
      const int64_t wait = std::min(sender_begin, s_.end[call]) - s_.begin[call];
      if (wait > 0)
        AddWait({call, WaitKind::kLateSender, s_.begin[call], wait, m.thread[send], r}, &waits_);
    }
  }

  void LateReceivers(const time::MessagePairs& pairs, const std::vector<uint32_t>& calls) {
    const model::MessageTable& m = t_.messages;
    const PostTimes posts(t_);
    // Pairs come sorted by send row, so the sends of one call are adjacent.
    for (const time::MessagePair& p : pairs.pairs) {
      const uint32_t call = calls[p.send];
      if (call == kNone || (Kind(call) & kMpiSendMayWait) == 0) continue;
      int64_t post;
      if (!posts.Find(t_.threads[m.thread[p.recv]].process, m.match[p.recv], &post)) {
        const uint32_t recv_call = calls[p.recv];
        post = recv_call == kNone ? m.time[p.recv] : s_.begin[recv_call];
      }
      if (post <= s_.begin[call] || s_.end[call] <= post) continue;
      AddWait({call, WaitKind::kLateReceiver, s_.begin[call], post - s_.begin[call],
               m.thread[p.recv], p.send},
              &waits_);
    }
  }

  void Collectives();

  const model::Trace& t_;
  const model::SliceTable& s_;
  const std::vector<uint16_t> kinds_;
  const time::MessagePairs* matched_;  // the caller's pairs, or null
  std::vector<WaitInstance> waits_;
};

using Shape = time::CollectiveShape;

// Scan and exscan count like all-to-all operations: each member waits for
// the last to arrive (an upper bound: rank i needs only the ranks below it).
Shape WaitShape(uint8_t op) {
  const Shape shape = time::CollectiveShapeOf(op);
  return shape == Shape::kPrefix ? Shape::kAllToAll : shape;
}

void WaitFinder::Collectives() {
  const model::CollectiveTable& c = t_.collectives;
  const time::CollectiveInstances inst = time::GroupCollectives(t_);
  const std::vector<uint32_t> calls = time::EnclosingSlices(t_, c.thread, c.time);
  // A member counts when the call it completed in blocks (the collective call
  // or a wait); after MPI_Test* neither its arrival nor its waiting is known.
  auto member = [&](uint32_t row) { return Blocking(calls[row], kMpiCollective | kMpiComplete); };
  auto rank = [&](uint32_t row) { return t_.processes[t_.threads[c.thread[row]].process].rank; };
  auto add = [&](uint32_t row, int64_t until, uint32_t cause) {
    const uint32_t call = calls[row];
    const int64_t wait = std::min(until, s_.end[call]) - s_.begin[call];
    if (wait > 0)
      waits_.push_back({call, WaitKind::kCollective, s_.begin[call], wait, c.thread[cause], row});
  };
  for (size_t i = 0; i < inst.size(); ++i) {
    const uint32_t* begin = inst.rows.data() + inst.first[i];
    const uint32_t* end = inst.rows.data() + inst.first[i + 1];
    const Shape shape = WaitShape(c.op[*begin]);
    if (shape == Shape::kUnknown) continue;
    // The root (rooted operations) and the last member to arrive but it.
    uint32_t root = kNone, last = kNone;
    for (const uint32_t* r = begin; r != end; ++r) {
      if (!member(*r)) continue;
      if (shape != Shape::kAllToAll && rank(*r) == c.root[*r]) {
        root = *r;
      } else if (last == kNone || s_.begin[calls[*r]] > s_.begin[calls[last]]) {
        last = *r;
      }
    }
    if (shape == Shape::kAllToAll) {
      if (last == kNone) continue;
      for (const uint32_t* r = begin; r != end; ++r)
        if (member(*r)) add(*r, s_.begin[calls[last]], last);
    } else if (shape == Shape::kRootToAll) {
      if (root == kNone) continue;
      for (const uint32_t* r = begin; r != end; ++r)
        if (*r != root && member(*r)) add(*r, s_.begin[calls[root]], root);
    } else if (root != kNone && last != kNone) {
      add(root, s_.begin[calls[last]], last);
    }
  }
}

}  // namespace

WaitStatesBuilder::WaitStatesBuilder(const model::Trace& trace) : trace_(trace) {
  r_.processes.resize(trace.processes.size());
  r_.threads.resize(trace.threads.size());
}

void WaitStatesBuilder::Add(const WaitInstance& w, uint32_t thread, uint32_t state,
                            uint32_t callsite, bool keep) {
  r_.all.Add(w.kind, w.wait_ns);
  r_.threads[thread].Add(w.kind, w.wait_ns);
  r_.processes[trace_.threads[thread].process].Add(w.kind, w.wait_ns);
  callsites_.push_back({(static_cast<uint64_t>(state) << 32) | callsite, {}});
  callsites_.back().second.Add(w.kind, w.wait_ns);
  // Keep the list short: fold it into sums now and then.
  if (callsites_.size() >= 4096) {
    std::vector<std::pair<uint64_t, WaitTotals>> folded;
    std::swap(folded, callsites_);
    std::sort(folded.begin(), folded.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [key, totals] : folded) {
      if (callsites_.empty() || callsites_.back().first != key) callsites_.push_back({key, {}});
      callsites_.back().second.Add(totals);
    }
  }
  if (keep) {
    r_.instances.push_back(w);
    r_.instances.back().thread = thread;
  } else if (longest_ > 0) {
    WaitInstance kept = w;
    kept.thread = thread;
    KeepIfLong(kept);
  }
}

void WaitStatesBuilder::KeepIfLong(const WaitInstance& w) {
  std::vector<WaitInstance>& heap = r_.instances;  // the shortest kept on top
  if (heap.size() == longest_) {
    if (!LongerWait(w, heap.front())) return;
    std::pop_heap(heap.begin(), heap.end(), LongerWait);
    heap.pop_back();
  }
  heap.push_back(w);
  std::push_heap(heap.begin(), heap.end(), LongerWait);
}

bool LongerWait(const WaitInstance& a, const WaitInstance& b) {
  if (a.wait_ns != b.wait_ns) return a.wait_ns > b.wait_ns;
  return std::tie(a.slice, a.kind, a.record) < std::tie(b.slice, b.kind, b.record);
}

void WaitStatesBuilder::Merge(WaitStatesBuilder&& o) {
  r_.all.Add(o.r_.all);
  for (size_t i = 0; i < r_.processes.size(); ++i)
    r_.processes[i].Add(o.r_.processes[i]);
  for (size_t i = 0; i < r_.threads.size(); ++i)
    r_.threads[i].Add(o.r_.threads[i]);
  callsites_.insert(callsites_.end(), o.callsites_.begin(), o.callsites_.end());
  if (longest_ > 0) {
    for (const WaitInstance& w : o.r_.instances)
      KeepIfLong(w);
  } else {
    r_.instances.insert(r_.instances.end(), o.r_.instances.begin(), o.r_.instances.end());
  }
}

WaitStatesReport WaitStatesBuilder::Finish() && {
  std::sort(callsites_.begin(), callsites_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < callsites_.size();) {
    CallsiteWaits c;
    c.state = static_cast<uint32_t>(callsites_[i].first >> 32);
    c.callsite = static_cast<uint32_t>(callsites_[i].first);
    for (; i < callsites_.size() && callsites_[i].first == (uint64_t{c.state} << 32 | c.callsite);
         ++i)
      c.totals.Add(callsites_[i].second);
    r_.callsites.push_back(c);
  }
  std::sort(r_.callsites.begin(), r_.callsites.end(),
            [](const CallsiteWaits& a, const CallsiteWaits& b) {
              if (a.totals.total_ns() != b.totals.total_ns())
                return a.totals.total_ns() > b.totals.total_ns();
              return std::tie(a.state, a.callsite) < std::tie(b.state, b.callsite);
            });
  std::sort(r_.instances.begin(), r_.instances.end(),
            [](const WaitInstance& a, const WaitInstance& b) {
              return std::tie(a.slice, a.kind, a.record) < std::tie(b.slice, b.kind, b.record);
            });
  return std::move(r_);
}

WaitStatesReport ComputeWaitStates(const model::Trace& trace, const time::MessagePairs* pairs) {
  WaitStatesBuilder builder(trace);
  const model::SliceTable& s = trace.slices;
  for (const WaitInstance& w : WaitFinder(trace, pairs).Find())
    builder.Add(w, s.thread[w.slice], s.state[w.slice], s.callsite[w.slice]);
  return std::move(builder).Finish();
}

}  // namespace plx::analysis
