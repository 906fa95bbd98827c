// DetectDeadlocks: one pass over the slices finds the unclosed calls; only
// when there are some are the posted receives, unmatched sends and blocked
// collectives turned into wait-for edges between processes, whose strongly
// connected components (Tarjan's algorithm) are the deadlocks.
#include "analysis/deadlock.h"

#include <algorithm>
#include <utility>

#include "analysis/mpi_calls.h"
#include "time/communicator_keys.h"
#include "time/message_pairs.h"
#include "time/record_calls.h"

namespace plx::analysis {

namespace {

using model::kNone;

class Detector {
 public:
  Detector(const model::Trace& trace, DeadlockReport* report, std::vector<uint32_t>* blocked_of)
      : t_(trace), kinds_(ClassifyStates(trace)), blocked_of_(*blocked_of), r_(*report) {}

  void FindBlocked(const std::vector<UnclosedSlice>& unclosed) {
    blocked_of_.assign(t_.threads.size(), kNone);
    uint32_t comm_category = kNone;
    for (uint32_t i = 0; i < t_.categories.size(); ++i)
      if (t_.categories[i].name == "comm") comm_category = i;
    std::vector<uint16_t> depth;  // of each blocked call's slice
    for (const UnclosedSlice& u : unclosed) {
      const uint32_t state = u.state;
      const bool comm = state < t_.states.size() && t_.states[state].category == comm_category &&
                        comm_category != kNone;
      if (!IsBlockingMpiCall(state < kinds_.size() ? kinds_[state] : 0) && !comm) continue;
      // Unclosed slices of a thread nest: keep the innermost.
      uint32_t& index = blocked_of_[u.thread];
      if (index != kNone && depth[index] > u.depth) continue;
      if (index == kNone) {
        index = static_cast<uint32_t>(r_.blocked.size());
        r_.blocked.emplace_back();
        depth.push_back(0);
      }
      BlockedCall& b = r_.blocked[index];
      depth[index] = u.depth;
      b.slice = u.slice;
      b.thread = u.thread;
      b.process = t_.threads[b.thread].process;
      b.rank = RankOf(b.thread);
      b.since_ns = u.begin;
      b.state = state;
    }
  }

  void Finish(const DeadlockRecords& records) {
    if (r_.blocked.empty()) return;
    AddPendingReceives(records.posts);
    AddUnmatchedSends(records.sends);
    AddCollectives();
    for (BlockedCall& b : r_.blocked) {
      std::sort(b.waits_for.begin(), b.waits_for.end());
      b.waits_for.erase(std::unique(b.waits_for.begin(), b.waits_for.end()), b.waits_for.end());
    }
    FindCycles();
  }

 private:
  uint16_t Kind(const BlockedCall& b) const {
    return b.state < kinds_.size() ? kinds_[b.state] : 0;
  }
  int64_t RankOf(uint32_t thread) const { return t_.processes[t_.threads[thread].process].rank; }

  // The first thing a call waits for names its communicator and tag.
  void Note(BlockedCall* b, uint32_t comm, int64_t tag) {
    if (b->comm != kNone || comm == kNone) return;
    b->comm = comm;
    b->tag = tag;
  }

  // Every member of the communicator but the caller (an any-source receive).
  void AddMembers(BlockedCall* b, uint32_t comm) {
    if (comm < t_.communicators.size() && !t_.communicators[comm].members.empty()) {
      for (int64_t rank : t_.communicators[comm].members)
        if (rank != b->rank) b->waits_for.push_back(rank);
      return;
    }
    for (const model::Process& p : t_.processes)
      if (p.rank >= 0 && p.rank != b->rank) b->waits_for.push_back(p.rank);
  }

  void AddPendingReceives(const std::vector<DeadlockRecords::Post>& posts) {
    for (const DeadlockRecords::Post& p : posts) {
      const uint32_t index = blocked_of_[p.thread];
      if (index == kNone) continue;
      BlockedCall& b = r_.blocked[index];
      const uint16_t kind = Kind(b);
      if ((kind & (kMpiRecv | kMpiComplete | kMpiProbe)) == 0 && kind != kMpiOther && kind != 0)
        continue;
      // A probe (match 0) matches no receive: pending only if it is this call.
      if (p.match == 0 ? p.time < b.since_ns : p.completed) continue;
      const uint32_t comm = p.comm;
      if (comm < t_.communicators.size() && t_.communicators[comm].kind != 0) continue;
      Note(&b, comm, p.tag);
      if (p.peer >= 0)
        b.waits_for.push_back(p.peer);
      else
        AddMembers(&b, comm);
    }
  }

  // A blocked send's own unmatched send; a blocked wait's unmatched sends
  // started by nonblocking calls before it.
  void AddUnmatchedSends(const std::vector<DeadlockRecords::Send>& sends) {
    for (const DeadlockRecords::Send& s : sends) {
      const uint32_t index = blocked_of_[s.thread];
      if (index == kNone) continue;
      BlockedCall& b = r_.blocked[index];
      const uint16_t kind = Kind(b);
      const uint16_t send_kind =
          s.call == kNone || s.call_state >= kinds_.size() ? 0 : kinds_[s.call_state];
      const bool own = s.call == b.slice && (kind & kMpiSend) != 0;
      const bool waited = (kind & kMpiComplete) != 0 && (send_kind & kMpiSend) != 0 &&
                          !IsBlockingMpiCall(send_kind) && s.time < b.since_ns;
      if (!own && !waited) continue;
      if (s.comm < t_.communicators.size() && t_.communicators[s.comm].kind != 0) continue;
      Note(&b, s.comm, s.tag);
      if (s.peer >= 0) b.waits_for.push_back(s.peer);
    }
  }

  void AddCollectives() {
    for (BlockedCall& b : r_.blocked) {
      if ((Kind(b) & kMpiCollective) == 0) continue;
      std::vector<bool> arrived(t_.processes.size(), false);
      for (const BlockedCall& other : r_.blocked)
        if (other.state == b.state) arrived[other.process] = true;
      for (uint32_t p = 0; p < t_.processes.size(); ++p)
        if (!arrived[p] && t_.processes[p].rank >= 0) b.waits_for.push_back(t_.processes[p].rank);
    }
  }

  void FindCycles();

  const model::Trace& t_;
  const std::vector<uint16_t> kinds_;
  std::vector<uint32_t>& blocked_of_;  // per thread: index into r_.blocked, or kNone
  DeadlockReport& r_;
};

void Detector::FindCycles() {
  const size_t n = t_.processes.size();
  const auto by_rank = time::ProcessesByRank(t_);
  // Edges between blocked processes only: one that is not blocked may still
  // release the others.
  std::vector<bool> blocked(n, false);
  for (const BlockedCall& b : r_.blocked)
    blocked[b.process] = true;
  std::vector<std::vector<uint32_t>> edges(n);
  for (const BlockedCall& b : r_.blocked)
    for (int64_t rank : b.waits_for) {
      auto it = by_rank.find(rank);
      if (it != by_rank.end() && blocked[it->second]) edges[b.process].push_back(it->second);
    }

  // Tarjan's strongly connected components, iteratively.
  std::vector<uint32_t> index(n, kNone), low(n, 0), stack, component(n, kNone);
  std::vector<bool> on_stack(n, false);
  std::vector<std::pair<uint32_t, size_t>> frames;  // node, next edge
  uint32_t counter = 0, components = 0;
  std::vector<std::vector<uint32_t>> cycles;
  for (uint32_t root = 0; root < n; ++root) {
    if (!blocked[root] || index[root] != kNone) continue;
    frames.push_back({root, 0});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!frames.empty()) {
      auto& [v, e] = frames.back();
      if (e < edges[v].size()) {
        const uint32_t w = edges[v][e++];
        if (index[w] == kNone) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = true;
          frames.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const uint32_t done = v;
      frames.pop_back();
      if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[done]);
      if (low[done] != index[done]) continue;
      std::vector<uint32_t> members;
      uint32_t w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        members.push_back(w);
      } while (w != done);
      const bool self_loop =
          std::find(edges[done].begin(), edges[done].end(), done) != edges[done].end();
      if (members.size() < 2 && !self_loop) continue;
      for (uint32_t p : members)
        component[p] = components;
      ++components;
      cycles.push_back(std::move(members));
    }
  }

  r_.deadlocks.resize(components);
  for (uint32_t c = 0; c < components; ++c)
    for (uint32_t p : cycles[c])
      r_.deadlocks[c].ranks.push_back(t_.processes[p].rank);
  for (uint32_t i = 0; i < r_.blocked.size(); ++i) {
    const uint32_t c = component[r_.blocked[i].process];
    if (c == kNone)
      r_.not_in_cycle.push_back(i);
    else
      r_.deadlocks[c].calls.push_back(i);
  }
  for (Deadlock& d : r_.deadlocks)
    std::sort(d.ranks.begin(), d.ranks.end());
  std::sort(r_.deadlocks.begin(), r_.deadlocks.end(),
            [](const Deadlock& a, const Deadlock& b) { return a.ranks < b.ranks; });
}

}  // namespace

DeadlockReport FindBlockedCalls(const model::Trace& trace,
                                const std::vector<UnclosedSlice>& unclosed,
                                std::vector<uint32_t>* blocked_of) {
  DeadlockReport report;
  Detector(trace, &report, blocked_of).FindBlocked(unclosed);
  return report;
}

void FinishDeadlocks(const model::Trace& trace, const std::vector<uint32_t>& blocked_of,
                     const DeadlockRecords& records, DeadlockReport* report) {
  std::vector<uint32_t> of = blocked_of;
  Detector(trace, report, &of).Finish(records);
}

DeadlockReport DetectDeadlocks(const model::Trace& trace) {
  const model::SliceTable& s = trace.slices;
  std::vector<UnclosedSlice> unclosed;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (s.flags[i] & model::SliceTable::kUnclosed)
      unclosed.push_back({i, s.thread[i], s.state[i], s.depth[i], s.begin[i]});
  std::vector<uint32_t> blocked_of;
  DeadlockReport report = FindBlockedCalls(trace, unclosed, &blocked_of);
  if (report.blocked.empty()) return report;

  DeadlockRecords records;
  const model::RecvPostTable& p = trace.recv_posts;
  const model::MessageTable& m = trace.messages;
  std::vector<std::pair<uint32_t, uint64_t>> completed;  // (process, match) of receives
  for (size_t i = 0; i < m.size(); ++i)
    if (!m.is_send[i] && m.match[i] != 0)
      completed.emplace_back(trace.threads[m.thread[i]].process, m.match[i]);
  std::sort(completed.begin(), completed.end());
  for (size_t i = 0; i < p.size(); ++i) {
    if (blocked_of[p.thread[i]] == kNone) continue;
    const uint32_t process = trace.threads[p.thread[i]].process;
    records.posts.push_back({p.thread[i], p.time[i], p.comm[i], p.peer[i], p.tag[i], p.match[i],
                             std::binary_search(completed.begin(), completed.end(),
                                                std::make_pair(process, p.match[i]))});
  }
  bool sends = false;
  const std::vector<uint16_t> kinds = ClassifyStates(trace);
  for (const BlockedCall& b : report.blocked)
    sends |= (kinds[b.state] & (kMpiSend | kMpiComplete)) != 0;
  if (sends) {
    const time::MessagePairs pairs = time::MatchMessages(trace);
    std::vector<uint32_t> rows, thread;
    std::vector<int64_t> when;
    for (uint32_t row : pairs.unmatched_sends) {
      if (blocked_of[m.thread[row]] == kNone) continue;
      rows.push_back(row);
      thread.push_back(m.thread[row]);
      when.push_back(m.time[row]);
    }
    const std::vector<uint32_t> calls = time::EnclosingSlices(trace, thread, when);
    for (size_t i = 0; i < rows.size(); ++i)
      records.sends.push_back({thread[i], when[i], m.comm[rows[i]], m.peer[rows[i]], m.tag[rows[i]],
                               calls[i], calls[i] == kNone ? kNone : s.state[calls[i]]});
  }
  FinishDeadlocks(trace, blocked_of, records, &report);
  return report;
}

}  // namespace plx::analysis
