// StreamRepair: partitions collect their pairs; after each slab they, and
// the collective instances completed, go to the solver as groups, and the
// solver's window moves up to the slab's end.
#include "store/stream_repair.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>

#include "base/foreground.h"
#include "base/serial_worker.h"
#include "base/wire.h"
#include "store/collective_groups.h"
#include "store/message_pass.h"
#include "store/thread_pass.h"
#include "store/window_solver.h"
#include "time/collective_instances.h"
#include "time/communicator_keys.h"

namespace plx::store {

namespace {

class PairCollector : public MessageConsumer {
 public:
  void Pair(const MessageSide& send, const MessageSide& recv, bool, int64_t) override {
    pairs.push_back({send.time, recv.time, send.thread, recv.thread, send.row, recv.row});
  }
  // What the solver takes of a pair: 32 bytes, not the sides' 176.
  struct Ends {
    int64_t send_time, recv_time;
    uint32_t send_thread, recv_thread;
    uint32_t send_row, recv_row;
    ConstraintEvent send() const { return {send_thread, send_time}; }
    ConstraintEvent recv() const { return {recv_thread, recv_time}; }
  };
  std::vector<Ends> pairs;
};
static_assert(sizeof(PairCollector::Ends) == 32);

uint64_t Ordered(int64_t t) {
  return static_cast<uint64_t>(t) ^ (uint64_t{1} << 63);
}

// A collective recorded inside a wait or test call completed a nonblocking
// collective: its call says nothing about the other participants.
bool IsCompletionCall(std::string_view state) {
  return state.starts_with("MPI_Wait") || state.starts_with("MPI_Test");
}

class NoVisitor : public ChunkVisitor {
 public:
  void Chunk(const ChunkRows&, const TimeMapper*) override {}
};

}  // namespace

time::TimeMapStats MeasureTimeMaps(const TraceStore& store,
                                   const std::vector<time::ThreadTimeMap>& maps,
                                   const std::function<void(uint64_t, uint64_t)>& progress,
                                   const std::function<bool(uint32_t thread)>& only) {
  time::TimeMapStats stats;
  ThreadPassOptions options = WithProgress(progress, &maps);
  options.only = only;
  options.moved = &stats;
  RunThreadPass<NoVisitor>(
      store, [] { return NoVisitor(); }, options);
  return stats;
}

model::Trace RepairedDefinitions(const model::Trace& trace,
                                 const std::vector<time::ThreadTimeMap>& maps) {
  model::Trace out = trace;
  time::MoveSpans(maps, &out);
  return out;
}

Status CheckRepairOptions(const time::RepairOptions& options) {
  if (options.min_latency_ns < 0)
    return InvalidArgument("RepairCausality: min_latency_ns must not be negative");
  if (!(options.max_slope > 0 && options.max_slope < 1))
    return InvalidArgument("RepairCausality: max_slope must be in (0, 1)");
  // Counting collectives' violations without repairing them needs them
  // recounted on the repaired times; no command asks for it.
  if (!options.collectives)
    return Unimplemented("causal repair without collectives is done in memory only");
  return Status::Ok();
}

StatusOr<StreamedRepair> SolveRepair(const TraceStore& store, const time::RepairOptions& options,
                                     const std::function<void(uint64_t, uint64_t)>& progress,
                                     const RepairPassSize& size, PassSpread* spread) {
  const model::Trace& trace = store.trace();
  const auto by_rank = time::ProcessesByRank(trace);
  std::vector<PairCollector*> collectors;
  std::unique_ptr<WindowSolver> solver;
  CollectiveGroups groups(trace);
  std::vector<CollectiveConstraint> pending;  // instances handed on, for the next drain

  const auto message_group = [&](const PairCollector::Ends& p, uint32_t send_anchor,
                                 uint32_t recv_anchor) {
    const bool same = trace.threads[p.send_thread].process == trace.threads[p.recv_thread].process;
    solver->AddMessage(p.send(), send_anchor, p.send_row, p.recv(), recv_anchor, p.recv_row,
                       same ? 0 : options.min_latency_ns);
  };
  // The rules of time::BuildCausalConstraints for one instance.
  const auto collective_group = [&](const std::vector<CollectiveSide>& rows,
                                    const std::array<uint64_t, 3>& key) {
    if (rows.size() < 2) return;
    time::CollectiveShape shape = time::CollectiveShapeOf(rows.front().op);
    if (shape == time::CollectiveShape::kPrefix || shape == time::CollectiveShape::kUnknown) return;
    for (const CollectiveSide& c : rows)
      if (c.call.slice == model::kNone || c.call.state >= trace.states.size() ||
          IsCompletionCall(trace.states[c.call.state].name))
        return;
    uint32_t root_process = model::kNone;
    if (shape != time::CollectiveShape::kAllToAll) {
      const auto it = by_rank.find(rows.front().root);
      if (it == by_rank.end()) return;
      root_process = it->second;
    }
    CollectiveConstraint g;
    g.lag = options.min_latency_ns;
    int64_t earliest = std::numeric_limits<int64_t>::max();
    for (const CollectiveSide& c : rows) {
      earliest = std::min(earliest, c.time);
      const bool is_root = trace.threads[c.thread].process == root_process;
      const bool source = shape == time::CollectiveShape::kAllToAll ||
                          (shape == time::CollectiveShape::kRootToAll && is_root) ||
                          (shape == time::CollectiveShape::kAllToRoot && !is_root);
      const bool target = shape == time::CollectiveShape::kAllToAll ||
                          (shape == time::CollectiveShape::kRootToAll && !is_root) ||
                          (shape == time::CollectiveShape::kAllToRoot && is_root);
      if (source) g.sources.push_back({c.thread, c.call.begin});
      if (target) {
        g.targets.push_back({c.thread, c.call.end});
        g.target_rows.push_back(c.row);
      }
    }
    g.order = {1, Ordered(earliest), key[0], key[1], key[2]};
    pending.push_back(std::move(g));
  };
  // The solver runs on a thread of its own, a slab behind the pairing: it
  // is sequential, and the pairing of the next slab need not wait for it.
  // Each slab's pairs and collective instances go to it as one batch, in
  // the order they would have been added in one thread, so the results do
  // not change. Its verdict on the window reaches the pass a slab late.
  struct Batch {
    std::vector<std::vector<PairCollector::Ends>> pairs;  // per partition
    std::vector<CollectiveConstraint> collectives;
    bool advance = false;
    int64_t frontier = 0;
  };
  std::atomic<bool> exceeded{false};
  // A slab's pairs' anchors are made in one go per thread (one at a time,
  // anchors arriving far from a thread's latest would be costly).
  std::vector<ConstraintEvent> events;
  std::vector<uint32_t> ids;
  const auto solve = [&](Batch& batch) {
    events.clear();
    for (const auto& pairs : batch.pairs)
      for (const PairCollector::Ends& p : pairs) {
        events.push_back(p.send());
        events.push_back(p.recv());
      }
    for (const CollectiveConstraint& g : batch.collectives) {
      events.insert(events.end(), g.sources.begin(), g.sources.end());
      events.insert(events.end(), g.targets.begin(), g.targets.end());
    }
    // The solver gives way to tiles as the pass feeding it does (between
    // chunks there): before each step and every 2^16 pairs.
    GiveWayPoint();
    solver->Prepare(events, &ids);
    GiveWayPoint();
    size_t next = 0;
    constexpr size_t kAhead = 2 * 8;  // ids of the pair 8 ahead
    for (const auto& pairs : batch.pairs)
      for (const PairCollector::Ends& p : pairs) {
        if (next % (size_t{2} << 16) == 0) GiveWayPoint();
        if (next + kAhead + 1 < ids.size())
          solver->Prefetch(ids[next + kAhead], ids[next + kAhead + 1]);
        message_group(p, ids[next], ids[next + 1]);
        next += 2;
      }
    for (CollectiveConstraint& g : batch.collectives) {
      const size_t n = g.sources.size() + g.targets.size();
      solver->AddCollective(std::move(g), ids.data() + next);
      next += n;
    }
    GiveWayPoint();
    if (batch.advance) solver->Advance(batch.frontier);
    if (solver->exceeded()) exceeded = true;
  };
  // Batches are used again, and with them the room of their vectors (a
  // slab's pairs are tens of megabytes: allocating them anew each slab cost
  // more system time than the thread saved).
  std::mutex spare_mu;
  std::vector<std::shared_ptr<Batch>> spare;
  SerialWorker worker(/*max_queued=*/1);
  // Hands what the slab paired (lists of pairs) and completed to the solver.
  const auto drain = [&](std::vector<std::vector<PairCollector::Ends>>& lists, bool advance,
                         int64_t frontier) {
    std::shared_ptr<Batch> batch;
    {
      std::lock_guard<std::mutex> lock(spare_mu);
      if (!spare.empty()) {
        batch = std::move(spare.back());
        spare.pop_back();
      }
    }
    if (!batch) batch = std::make_shared<Batch>();
    batch->pairs.resize(lists.size());
    for (size_t p = 0; p < lists.size(); ++p)
      batch->pairs[p].swap(lists[p]);
    batch->collectives.swap(pending);
    batch->advance = advance;
    batch->frontier = frontier;
    worker.Post([batch, &solve, &spare_mu, &spare] {
      solve(*batch);
      for (auto& pairs : batch->pairs)
        pairs.clear();
      batch->collectives.clear();
      std::lock_guard<std::mutex> lock(spare_mu);
      spare.push_back(batch);
    });
  };

  // What the partitions paired since the last drain.
  std::vector<std::vector<PairCollector::Ends>> paired;
  const auto take_pairs = [&] {
    paired.resize(collectors.size());
    for (size_t p = 0; p < collectors.size(); ++p)
      paired[p].swap(collectors[p]->pairs);
  };
  // Spread: every process sends process 0, the only one that solves, its
  // pairs and its threads' collective records of the slab (`collectives`;
  // null after the last). True on process 0, with them in `gathered`.
  const bool solves = spread == nullptr || spread->rank() == 0;
  std::vector<std::vector<PairCollector::Ends>> gathered;
  std::vector<std::vector<CollectiveSide>> gathered_collectives(trace.threads.size());
  const std::vector<std::vector<CollectiveSide>> no_collectives;
  int cut_from = -1;  // a process whose bytes were cut (never, but said)
  const auto gather = [&](const std::vector<std::vector<CollectiveSide>>* collectives) {
    std::string mine;
    WirePut(&mine, static_cast<uint64_t>(paired.size()));
    for (std::vector<PairCollector::Ends>& pairs : paired) {
      WirePutAll(&mine, pairs);
      pairs.clear();
    }
    PutCollectives(collectives != nullptr ? *collectives : no_collectives, &mine);
    std::vector<std::string> to(static_cast<size_t>(spread->size()));
    to[0] = std::move(mine);
    const std::vector<std::string> from = spread->Exchange(std::move(to));
    if (!solves) return false;
    gathered.clear();
    for (std::vector<CollectiveSide>& c : gathered_collectives)
      c.clear();
    for (size_t r = 0; r < from.size(); ++r) {
      WireReader in(from[r]);
      uint64_t lists = 0;
      bool ok = in.Get(&lists);
      for (uint64_t k = 0; ok && k < lists; ++k)
        ok = in.GetAll(&gathered.emplace_back());
      ok = ok && GetCollectives(&in, &gathered_collectives);
      if (!ok && cut_from < 0) cut_from = static_cast<int>(r);
    }
    return true;
  };

  MessagePassOptions pass;
  pass.slab_records = size.slab_records;
  pass.horizon_ns = size.horizon_ns;
  pass.spread = spread;
  pass.begin_attempt = [&](int64_t horizon) {
    worker.Wait();  // what an attempt that stopped early still had queued
    // Pairs come a horizon after their records: the window is a few more.
    const int64_t window =
        horizon > std::numeric_limits<int64_t>::max() / 16 ? horizon : 2 * horizon;
    if (solves) solver = std::make_unique<WindowSolver>(trace, options, window);
    exceeded = false;
    groups.Reset(horizon);
  };
  pass.after_slab = [&](const Slab& slab) {
    take_pairs();
    // Not process 0: its verdict reaches every process with the pass's.
    if (spread != nullptr && !gather(&slab.collectives)) return true;
    const bool in_order = groups.Add(spread != nullptr ? gathered_collectives : slab.collectives,
                                     slab.until, collective_group);
    // After the last slab, pairs still come (sends to any stream): the
    // window stays open until Finish.
    drain(spread != nullptr ? gathered : paired, slab.until != std::numeric_limits<int64_t>::max(),
          slab.until);
    return in_order && !exceeded;
  };
  pass.end_attempt = [&] {
    take_pairs();
    if (spread != nullptr && !gather(nullptr)) return true;
    groups.Finish(collective_group);
    drain(spread != nullptr ? gathered : paired, false, 0);
    worker.Wait();
    solver->Finish();
    return !solver->exceeded();
  };
  RunMessagePass(
      store,
      [&](size_t p) -> std::unique_ptr<MessageConsumer> {
        auto c = std::make_unique<PairCollector>();
        if (p == 0) collectors.clear();
        collectors.push_back(c.get());
        return c;
      },
      pass, progress);
  worker.Wait();
  if (cut_from >= 0)
    return Internal("the causal repair's pairs from process " + std::to_string(cut_from) +
                    " are cut");
  if (!solves) return StreamedRepair{};
  return StreamedRepair{std::move(solver->report()), std::move(solver->maps())};
}

StatusOr<StreamedRepair> StreamRepair(const TraceStore& store, const time::RepairOptions& options,
                                      const std::function<void(uint64_t, uint64_t)>& progress,
                                      const RepairPassSize& size) {
  PLX_RETURN_IF_ERROR(CheckRepairOptions(options));
  // The repair depends only on the trace and the options: the index keeps
  // the last one computed.
  if (std::optional<IndexedRepair> kept = store.FindRepair(options)) {
    if (progress) progress(1, 1);
    return StreamedRepair{std::move(kept->report), std::move(kept->maps)};
  }
  PLX_ASSIGN_OR_RETURN(StreamedRepair solved, SolveRepair(store, options, progress, size));
  if (options.pairs == nullptr) {
    IndexedRepair keep{options, std::move(solved.report), std::move(solved.maps)};
    store.KeepRepair(&keep);
    solved = StreamedRepair{std::move(keep.report), std::move(keep.maps)};
  }
  return solved;
}

}  // namespace plx::store
