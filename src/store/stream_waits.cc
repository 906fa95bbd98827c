// StreamWaits: each partition's consumer turns pairs into candidate waits
// for both rows, posted to the rows' threads; after each slab every thread
// settles its rows in order, merging runs of one call's candidates as
// AddWait does; collective instances give their members' waits. Spread
// over processes, the candidates for threads decoded elsewhere travel to
// their decoder after each slab (ShareSlab), and process 0 alone groups
// the collectives.
#include "store/stream_waits.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "analysis/mpi_calls.h"
#include "base/wire.h"
#include "store/collective_groups.h"
#include "store/message_pass.h"
#include "store/stream_deadlocks.h"
#include "time/collective_instances.h"

namespace plx::store {

namespace {

using analysis::WaitInstance;
using analysis::WaitKind;
using model::kNone;

// A row's candidate wait, and the state and call site of its call.
struct Resolution {
  uint32_t row = 0;
  bool has = false;
  WaitInstance wait;
  uint32_t state = kNone, callsite = kNone;
};

class Rules {
 public:
  explicit Rules(const model::Trace& trace) : kinds_(analysis::ClassifyStates(trace)) {}
  uint16_t Kind(const CallRef& call) const {
    return call.slice == kNone || call.state >= kinds_.size() ? 0 : kinds_[call.state];
  }
  bool Blocking(const CallRef& call, uint16_t any_of) const {
    const uint16_t k = Kind(call);
    return analysis::IsBlockingMpiCall(k) && (k & any_of) != 0;
  }

 private:
  std::vector<uint16_t> kinds_;
};

// One thread's message rows, settled in row order.
class ThreadWaits {
 public:
  void Register(uint32_t row) {
    if (rows_.empty()) base_ = row;
    rows_.emplace_back();
  }
  void Resolve(const Resolution& r) { rows_[r.row - base_] = {true, r}; }
  template <typename Emit>
  void Settle(bool all, const Emit& emit) {
    while (!rows_.empty() && (rows_.front().first || all)) {
      if (rows_.front().first && rows_.front().second.has) Run(rows_.front().second, emit);
      rows_.pop_front();
      ++base_;
    }
    if (all)
      for (std::optional<Resolution>& run : runs_)
        if (run) emit(*run), run.reset();
  }

 private:
  // AddWait: a run of one call's waits of one kind keeps the longest (the
  // first of equal ones).
  template <typename Emit>
  void Run(const Resolution& r, const Emit& emit) {
    std::optional<Resolution>& run = runs_[r.wait.kind == WaitKind::kLateSender ? 0 : 1];
    if (run && run->wait.slice == r.wait.slice) {
      if (r.wait.wait_ns > run->wait.wait_ns) run = r;
      return;
    }
    if (run) emit(*run);
    run = r;
  }

  uint32_t base_ = 0;
  std::deque<std::pair<bool, Resolution>> rows_;  // (settled, candidate)
  std::optional<Resolution> runs_[2];             // late sender, late receiver
};

class Consumer : public MessageConsumer {
 public:
  Consumer(const Rules& rules, std::vector<std::vector<Resolution>>* outbox,
           DeadlockCollector* deadlocks)
      : rules_(rules), outbox_(*outbox), deadlocks_(*deadlocks) {}

  void Pair(const MessageSide& send, const MessageSide& recv, bool has_post,
            int64_t post_time) override {
    Resolution r{recv.row, false, {}, recv.call.state, recv.call.callsite};
    if (rules_.Blocking(recv.call, analysis::kMpiRecv | analysis::kMpiComplete)) {
      const int64_t sender_begin = send.call.slice == kNone ? send.time : send.call.begin;
      const int64_t wait = std::min(sender_begin, recv.call.end) - recv.call.begin;
      if (wait > 0) {
        r.has = true;
        r.wait = {recv.call.slice, WaitKind::kLateSender, recv.call.begin, wait, send.thread,
                  recv.row};
      }
    }
    outbox_[recv.thread].push_back(r);

    Resolution s{send.row, false, {}, send.call.state, send.call.callsite};
    if (send.call.slice != kNone && (rules_.Kind(send.call) & analysis::kMpiSendMayWait) != 0) {
      const int64_t post = has_post                   ? post_time
                           : recv.call.slice == kNone ? recv.time
                                                      : recv.call.begin;
      if (post > send.call.begin && post < send.call.end) {
        s.has = true;
        s.wait = {send.call.slice, WaitKind::kLateReceiver,
                  send.call.begin, post - send.call.begin,
                  recv.thread,     send.row};
      }
    }
    outbox_[send.thread].push_back(s);
  }
  void Unmatched(const MessageSide& m) override {
    Resolution r;
    r.row = m.row;
    outbox_[m.thread].push_back(r);
    deadlocks_.Unmatched(m);
  }

 private:
  const Rules& rules_;
  std::vector<std::vector<Resolution>>& outbox_;  // per thread
  DeadlockCollector& deadlocks_;
};

using Shape = time::CollectiveShape;

// The waits of one collective instance (analysis/wait_states.cc's rules).
template <typename Add>
void CollectiveWaits(const model::Trace& t, const Rules& rules,
                     const std::vector<CollectiveSide>& rows, const Add& add) {
  Shape shape = time::CollectiveShapeOf(rows.front().op);
  if (shape == Shape::kPrefix) shape = Shape::kAllToAll;
  if (shape == Shape::kUnknown) return;
  const auto member = [&](const CollectiveSide& c) {
    return rules.Blocking(c.call, analysis::kMpiCollective | analysis::kMpiComplete);
  };
  const auto rank = [&](const CollectiveSide& c) {
    return t.processes[t.threads[c.thread].process].rank;
  };
  const CollectiveSide *root = nullptr, *last = nullptr;
  for (const CollectiveSide& c : rows) {
    if (!member(c)) continue;
    if (shape != Shape::kAllToAll && rank(c) == c.root) {
      root = &c;
    } else if (last == nullptr || c.call.begin > last->call.begin) {
      last = &c;
    }
  }
  const auto wait = [&](const CollectiveSide& c, int64_t until, const CollectiveSide& cause) {
    const int64_t w = std::min(until, c.call.end) - c.call.begin;
    if (w > 0)
      add(WaitInstance{c.call.slice, WaitKind::kCollective, c.call.begin, w, cause.thread, c.row},
          c);
  };
  if (shape == Shape::kAllToAll) {
    if (last == nullptr) return;
    for (const CollectiveSide& c : rows)
      if (member(c)) wait(c, last->call.begin, *last);
  } else if (shape == Shape::kRootToAll) {
    if (root == nullptr) return;
    for (const CollectiveSide& c : rows)
      if (&c != root && member(c)) wait(c, root->call.begin, *root);
  } else if (root != nullptr && last != nullptr) {
    wait(*root, last->call.begin, *last);
  }
}

// The spread pass's traffic after a slab: the resolutions of threads
// decoded elsewhere to their decoder, the slab's collective records to
// process 0 (which alone groups them); what came, into `arrived` and
// `gathered`. False when some process's bytes were cut.
bool ShareSlab(PassSpread& spread, const model::Trace& trace,
               std::vector<std::vector<std::vector<Resolution>>>* outboxes,
               const std::vector<std::vector<CollectiveSide>>& collectives,
               std::vector<std::vector<Resolution>>* arrived,
               std::vector<std::vector<CollectiveSide>>* gathered) {
  const auto n = static_cast<size_t>(spread.size());
  std::vector<std::string> to(n);
  std::vector<std::vector<uint32_t>> away(n);  // threads, by decoder
  for (uint32_t t = 0; t < trace.threads.size(); ++t)
    if (!spread.Decodes(t)) away[static_cast<size_t>(spread.Decoder(t))].push_back(t);
  for (size_t r = 0; r < n; ++r) {
    std::vector<uint32_t> with;
    for (uint32_t t : away[r])
      for (const auto& o : *outboxes)
        if (!o[t].empty()) {
          with.push_back(t);
          break;
        }
    WirePut(&to[r], static_cast<uint64_t>(with.size()));
    for (uint32_t t : with) {
      std::vector<Resolution> all;
      for (auto& o : *outboxes) {
        all.insert(all.end(), o[t].begin(), o[t].end());
        o[t].clear();
      }
      WirePut(&to[r], t);
      WirePutAll(&to[r], all);
    }
    PutCollectives(r == 0 ? collectives : std::vector<std::vector<CollectiveSide>>{}, &to[r]);
  }
  for (std::vector<CollectiveSide>& c : *gathered)
    c.clear();
  bool ok = true;
  for (const std::string& from : spread.Exchange(std::move(to))) {
    WireReader in(from);
    uint64_t threads = 0;
    bool read = in.Get(&threads);
    for (uint64_t k = 0; read && k < threads; ++k) {
      uint32_t t = 0;
      read = in.Get(&t) && t < arrived->size() && spread.Decodes(t) && in.GetAll(&(*arrived)[t]);
    }
    ok &= read && GetCollectives(&in, gathered) && in.done();
  }
  return ok;
}

// StreamWaits, spread over processes when `spread`: then the answer is
// process 0's, and an error when some process's bytes came cut.
StatusOr<StreamedWaits> Run(const TraceStore& store, bool wait_ends,
                            const std::function<void(uint64_t, uint64_t)>& progress,
                            const std::vector<time::ThreadTimeMap>* maps,
                            const std::vector<analysis::UnclosedSlice>* unclosed,
                            const LockstepVisits& visits, const std::function<void()>& restart,
                            size_t longest, PassSpread* spread) {
  const model::Trace& trace = store.trace();
  const Rules rules(trace);
  const size_t parts = store.pool()->size();
  const uint32_t threads = store.threads();
  const auto here = [&](size_t t) {
    return spread == nullptr || spread->Decodes(static_cast<uint32_t>(t));
  };
  // Spread: process 0 alone groups the collectives, from every process's.
  const bool groups_here = spread == nullptr || spread->rank() == 0;
  std::vector<std::vector<std::vector<Resolution>>> outboxes(
      parts, std::vector<std::vector<Resolution>>(threads));
  std::vector<std::vector<Resolution>> arrived(spread != nullptr ? threads : 0);
  std::vector<std::vector<CollectiveSide>> gathered(threads);
  bool cut = false;  // some process's bytes
  std::vector<ThreadWaits> rows;
  std::vector<analysis::WaitStatesBuilder> builders;
  CollectiveGroups groups(trace);
  DeadlockCollector deadlocks(store, unclosed);
  std::vector<std::vector<analysis::WaitEnd>> ends;  // per thread
  // A wait of thread t: totals in the worker's builder, its end in t's list
  // (a thread's waits come from one worker at a time).
  const auto add = [&](size_t worker, const WaitInstance& w, uint32_t t, uint32_t state,
                       uint32_t callsite) {
    builders[worker].Add(w, t, state, callsite, /*keep=*/false);
    if (wait_ends) ends[t].emplace_back(w);
  };

  // Settles thread t's rows from every partition's outbox (and, spread,
  // what other processes resolved).
  const auto settle = [&](size_t t, size_t worker, bool all) {
    const auto resolve = [&](std::vector<Resolution>* list) {
      for (const Resolution& r : *list)
        rows[t].Resolve(r);
      list->clear();
    };
    for (size_t p = 0; p < parts; ++p)
      resolve(&outboxes[p][t]);
    if (spread != nullptr) resolve(&arrived[t]);
    rows[t].Settle(all, [&](const Resolution& r) {
      add(worker, r.wait, static_cast<uint32_t>(t), r.state, r.callsite);
    });
  };

  MessagePassOptions options;
  options.maps = maps;
  options.visits = visits;
  options.spread = spread;
  options.begin_attempt = [&](int64_t horizon) {
    if (restart) restart();
    for (auto& o : outboxes)
      for (auto& v : o)
        v.clear();
    for (auto& v : arrived)
      v.clear();
    rows.assign(threads, ThreadWaits());
    ends.assign(wait_ends ? threads : 0, {});
    builders.clear();
    for (size_t w = 0; w < parts; ++w) {
      builders.emplace_back(trace);
      builders.back().KeepLongest(longest);
    }
    groups.Reset(horizon);
    deadlocks.Reset();
  };
  const auto collective = [&](const std::vector<CollectiveSide>& members,
                              const std::array<uint64_t, 3>&) {
    CollectiveWaits(trace, rules, members, [&](const WaitInstance& w, const CollectiveSide& c) {
      add(0, w, c.thread, c.call.state, c.call.callsite);
    });
  };
  const auto share = [&](const std::vector<std::vector<CollectiveSide>>& collectives) {
    if (spread != nullptr &&
        !ShareSlab(*spread, trace, &outboxes, collectives, &arrived, &gathered))
      cut = true;
  };
  options.after_joins = [&](const Slab& decoded, const Slab& joined) {
    deadlocks.AfterSlab(decoded, joined, *spread);
  };
  options.after_slab = [&](const Slab& slab) {
    share(slab.collectives);
    store.pool()->ParallelFor(threads, [&](size_t t, size_t worker) {
      if (!here(t)) return;
      for (const MessageSide& m : slab.messages[t])
        rows[t].Register(m.row);
      settle(t, worker, false);
    });
    if (spread == nullptr) deadlocks.AfterSlab(slab);
    if (!groups_here) return true;
    return groups.Add(spread != nullptr ? gathered : slab.collectives, slab.until, collective);
  };
  options.end_attempt = [&] {
    share({});
    store.pool()->ParallelFor(threads, [&](size_t t, size_t worker) {
      if (here(t)) settle(t, worker, true);
    });
    if (groups_here) groups.Finish(collective);
    return true;
  };
  RunMessagePass(
      store,
      [&](size_t p) -> std::unique_ptr<MessageConsumer> {
        return std::make_unique<Consumer>(rules, &outboxes[p], &deadlocks);
      },
      options, progress);
  for (size_t w = 1; w < builders.size(); ++w)
    builders[0].Merge(std::move(builders[w]));
  if (spread != nullptr) {
    // Every process's totals and deadlock records to process 0.
    std::string mine;
    WirePutBytes(&mine, builders[0].Save());
    WirePutBytes(&mine, deadlocks.Save());
    // The wait ends of this process's threads (process 0 keeps its own
    // and every collective wait's).
    std::vector<uint32_t> with;
    for (uint32_t t = 0; wait_ends && spread->rank() != 0 && t < threads; ++t)
      if (!ends[t].empty()) with.push_back(t);
    WirePut(&mine, static_cast<uint64_t>(with.size()));
    for (uint32_t t : with) {
      WirePut(&mine, t);
      WirePutAll(&mine, ends[t]);
      std::vector<analysis::WaitEnd>().swap(ends[t]);
    }
    const std::vector<std::string> from = GatherOnFirst(*spread, std::move(mine));
    if (cut) return Internal("the wait states' records from another process are cut");
    if (spread->rank() != 0) return StreamedWaits{};
    for (size_t r = 1; r < from.size(); ++r) {
      WireReader in(from[r]);
      std::string_view totals, records;
      uint64_t sent = 0;
      bool ok = in.GetBytes(&totals) && in.GetBytes(&records) && in.Get(&sent);
      for (uint64_t k = 0; ok && k < sent; ++k) {
        uint32_t t = 0;
        ok = in.Get(&t) && t < ends.size() && in.GetAll(&ends[t]);
      }
      if (!ok || !in.done())
        return Internal("the wait states from process " + std::to_string(r) + " are cut");
      PLX_RETURN_IF_ERROR(builders[0].MergeSaved(totals));
      PLX_RETURN_IF_ERROR(deadlocks.MergeSaved(records));
    }
  }
  StreamedWaits out{std::move(builders[0]).Finish(), deadlocks.Finish(), {}};
  if (wait_ends) {
    store.pool()->ParallelFor(ends.size(), [&](size_t t) { analysis::SortWaitEnds(&ends[t]); });
    out.ends = analysis::IndexWaitEnds(&ends);
  }
  return out;
}

}  // namespace

StreamedWaits StreamWaits(const TraceStore& store, bool wait_ends,
                          const std::function<void(uint64_t, uint64_t)>& progress,
                          const std::vector<time::ThreadTimeMap>* maps,
                          const std::vector<analysis::UnclosedSlice>* unclosed,
                          const LockstepVisits& visits, const std::function<void()>& restart,
                          size_t longest) {
  // One process sends no bytes, so nothing can come cut.
  return *Run(store, wait_ends, progress, maps, unclosed, visits, restart, longest, nullptr);
}

StatusOr<StreamedWaits> StreamWaitsSpread(const TraceStore& store, PassSpread& spread,
                                          bool wait_ends,
                                          const std::function<void(uint64_t, uint64_t)>& progress,
                                          const std::vector<time::ThreadTimeMap>* maps,
                                          const std::vector<analysis::UnclosedSlice>* unclosed,
                                          const LockstepVisits& visits,
                                          const std::function<void()>& restart, size_t longest) {
  return Run(store, wait_ends, progress, maps, unclosed, visits, restart, longest, &spread);
}

}  // namespace plx::store
