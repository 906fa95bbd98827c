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
  explicit Detector(const model::Trace& trace)
      : t_(trace), kinds_(ClassifyStates(trace)), blocked_of_(trace.threads.size(), kNone) {}

  DeadlockReport Run() {
    FindBlocked();
    if (r_.blocked.empty()) return std::move(r_);
    AddPendingReceives();
    AddUnmatchedSends();
    AddCollectives();
    for (BlockedCall& b : r_.blocked) {
      std::sort(b.waits_for.begin(), b.waits_for.end());
      b.waits_for.erase(std::unique(b.waits_for.begin(), b.waits_for.end()), b.waits_for.end());
    }
    FindCycles();
    return std::move(r_);
  }

 private:
  uint16_t Kind(const BlockedCall& b) const { return kinds_[t_.slices.state[b.slice]]; }
  int64_t RankOf(uint32_t thread) const { return t_.processes[t_.threads[thread].process].rank; }

  void FindBlocked() {
    const model::SliceTable& s = t_.slices;
    uint32_t comm_category = kNone;
    for (uint32_t i = 0; i < t_.categories.size(); ++i)
      if (t_.categories[i].name == "comm") comm_category = i;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if ((s.flags[i] & model::SliceTable::kUnclosed) == 0) continue;
      const uint32_t state = s.state[i];
      const bool comm = state < t_.states.size() && t_.states[state].category == comm_category &&
                        comm_category != kNone;
      if (!IsBlockingMpiCall(state < kinds_.size() ? kinds_[state] : 0) && !comm) continue;
      // Unclosed slices of a thread nest: keep the innermost.
      uint32_t& index = blocked_of_[s.thread[i]];
      if (index != kNone && s.depth[r_.blocked[index].slice] > s.depth[i]) continue;
      if (index == kNone) {
        index = static_cast<uint32_t>(r_.blocked.size());
        r_.blocked.emplace_back();
      }
      BlockedCall& b = r_.blocked[index];
      b.slice = i;
      b.thread = s.thread[i];
      b.process = t_.threads[b.thread].process;
      b.rank = RankOf(b.thread);
      b.since_ns = s.begin[i];
    }
  }

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

  void AddPendingReceives() {
    const model::RecvPostTable& p = t_.recv_posts;
    const model::MessageTable& m = t_.messages;
    std::vector<std::pair<uint32_t, uint64_t>> completed;  // (process, match) of receives
    for (size_t i = 0; i < m.size(); ++i)
      if (!m.is_send[i] && m.match[i] != 0)
        completed.emplace_back(t_.threads[m.thread[i]].process, m.match[i]);
    std::sort(completed.begin(), completed.end());
    for (size_t i = 0; i < p.size(); ++i) {
      const uint32_t index = blocked_of_[p.thread[i]];
      if (index == kNone) continue;
      BlockedCall& b = r_.blocked[index];
      const uint16_t kind = Kind(b);
      if ((kind & (kMpiRecv | kMpiComplete | kMpiProbe)) == 0 && kind != kMpiOther && kind != 0)
        continue;
      // A probe (match 0) matches no receive: pending only if it is this call.
      if (p.match[i] == 0 ? p.time[i] < b.since_ns
                          : std::binary_search(completed.begin(), completed.end(),
                                               std::make_pair(b.process, p.match[i])))
        continue;
      const uint32_t comm = p.comm[i];
      if (comm < t_.communicators.size() && t_.communicators[comm].kind != 0) continue;
      Note(&b, comm, p.tag[i]);
      if (p.peer[i] >= 0)
        b.waits_for.push_back(p.peer[i]);
      else
        AddMembers(&b, comm);
    }
  }

  // A blocked send's own unmatched send; a blocked wait's unmatched sends
  // started by nonblocking calls before it.
  void AddUnmatchedSends() {
    bool any = false;
    for (const BlockedCall& b : r_.blocked)
      any |= (Kind(b) & (kMpiSend | kMpiComplete)) != 0;
    if (!any) return;
    const model::MessageTable& m = t_.messages;
    const time::MessagePairs pairs = time::MatchMessages(t_);
    std::vector<uint32_t> rows, thread;
    std::vector<int64_t> when;
    for (uint32_t row : pairs.unmatched_sends) {
      if (blocked_of_[m.thread[row]] == kNone) continue;
      rows.push_back(row);
      thread.push_back(m.thread[row]);
      when.push_back(m.time[row]);
    }
    const std::vector<uint32_t> calls = time::EnclosingSlices(t_, thread, when);
    for (size_t i = 0; i < rows.size(); ++i) {
      BlockedCall& b = r_.blocked[blocked_of_[thread[i]]];
      const uint16_t kind = Kind(b);
      const uint16_t send_kind = calls[i] == kNone ? 0 : kinds_[t_.slices.state[calls[i]]];
      const bool own = calls[i] == b.slice && (kind & kMpiSend) != 0;
      const bool waited = (kind & kMpiComplete) != 0 && (send_kind & kMpiSend) != 0 &&
                          !IsBlockingMpiCall(send_kind) && when[i] < b.since_ns;
      const uint32_t comm = m.comm[rows[i]];
      if (!own && !waited) continue;
      if (comm < t_.communicators.size() && t_.communicators[comm].kind != 0) continue;
      Note(&b, comm, m.tag[rows[i]]);
      if (m.peer[rows[i]] >= 0) b.waits_for.push_back(m.peer[rows[i]]);
    }
  }

  void AddCollectives() {
    for (BlockedCall& b : r_.blocked) {
      if ((Kind(b) & kMpiCollective) == 0) continue;
      const uint32_t state = t_.slices.state[b.slice];
      std::vector<bool> arrived(t_.processes.size(), false);
      for (const BlockedCall& other : r_.blocked)
        if (t_.slices.state[other.slice] == state) arrived[other.process] = true;
      for (uint32_t p = 0; p < t_.processes.size(); ++p)
        if (!arrived[p] && t_.processes[p].rank >= 0) b.waits_for.push_back(t_.processes[p].rank);
    }
  }

  void FindCycles();

  const model::Trace& t_;
  const std::vector<uint16_t> kinds_;
  std::vector<uint32_t> blocked_of_;  // per thread: index into r_.blocked, or kNone
  DeadlockReport r_;
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

DeadlockReport DetectDeadlocks(const model::Trace& trace) {
  return Detector(trace).Run();
}

}  // namespace plx::analysis
