// WindowSolver: causal repair (time::RepairCausality) over constraints that
// arrive in time order, with only a window of each thread's anchors in
// memory. Every constraint event of a thread is an anchor; shifts start at
// 0 and only grow, under cones of slope max_slope between neighbouring
// anchors (time/repair_rules.h): a worklist run to the least fixpoint, which
// does not depend on the order the constraints come in, so it is the
// in-memory solver's. Anchors older than the window are frozen; a
// constraint or a cone that would still move one means the window was too
// short (exceeded()), and the caller runs again with a longer one.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "time/causal_repair.h"
#include "time/repair_rules.h"
#include "time/time_map.h"

namespace plx::store {

/// One event a constraint names: its thread and time.
struct ConstraintEvent {
  uint32_t thread = 0;
  int64_t time = 0;
};

/// A collective's constraint group (time::CausalConstraints): every target
/// ends at least `lag` after the latest source on another thread began.
struct CollectiveConstraint {
  int64_t lag = 0;
  std::vector<ConstraintEvent> sources;
  std::vector<ConstraintEvent> targets;
  std::vector<uint32_t> target_rows;  // collectives rows
  // The instance's place in the in-memory order (by earliest record): orders
  // repairs of equal shift.
  std::array<uint64_t, 5> order = {0, 0, 0, 0, 0};
};

class WindowSolver {
 public:
  WindowSolver(const model::Trace& trace, const time::RepairOptions& options, int64_t window_ns);

  /// Makes the anchors of events about to be named by groups, merged into
  /// each thread's in one go; `ids` gets each event's anchor, in order.
  void Prepare(const std::vector<ConstraintEvent>& events, std::vector<uint32_t>* ids);
  /// A message: its receive must come `lag` after its send; `send_anchor`
  /// and `recv_anchor` are the events' anchors (Prepare).
  void AddMessage(const ConstraintEvent& send, uint32_t send_anchor, uint32_t send_row,
                  const ConstraintEvent& recv, uint32_t recv_anchor, uint32_t recv_row,
                  int64_t lag);
  /// Starts fetching what AddMessage of these anchors will touch: a slab's
  /// anchors have left the cache since Prepare made them, and adding is
  /// otherwise a wait on memory. Call a few messages ahead.
  void Prefetch(uint32_t send_anchor, uint32_t recv_anchor) const {
    __builtin_prefetch(&anchors_[send_anchor], 1);
    __builtin_prefetch(&anchors_[recv_anchor], 1);
  }
  /// A collective instance's group; `anchors` are its sources' then its
  /// targets' anchors (Prepare).
  void AddCollective(CollectiveConstraint c, const uint32_t* anchors);
  /// Every constraint event before `frontier` has been added; anchors before
  /// frontier - window are frozen, and groups wholly before it are settled.
  void Advance(int64_t frontier);
  /// Every group was added: settles the rest.
  void Finish();

  bool exceeded() const { return exceeded_; }
  /// After Finish: the report (less what applying the maps measures) and
  /// each thread's map (only the anchors where the shift is not 0 and their
  /// neighbours: the same function as all of them).
  time::RepairReport& report() { return report_; }
  std::vector<time::ThreadTimeMap>& maps() { return maps_; }

 private:
  static constexpr uint32_t kNone = model::kNone;
  struct Anchor {
    int64_t time = 0;
    time::Scaled scaled = 0;
    int64_t shift = 0;
    uint32_t thread = 0;
    uint32_t refs = 0;                  // live groups naming it
    uint32_t deps[2] = {kNone, kNone};  // live groups it is a source of ...
    uint32_t more = kNone;              // ... and more in more_[more]
  };
  struct Group {
    bool message = true;
    bool queued = false;
    int64_t lag = 0;
    // A message's one source and target; a collective's in collectives_.
    uint32_t source = kNone, target = kNone;  // anchor ids
    uint32_t collective = kNone;
    int64_t latest = 0;
    uint32_t first_repair = 0, repairs = 0;  // in report_.repairs
  };
  struct Collective {
    CollectiveConstraint c;
    std::vector<uint32_t> sources, targets;  // anchor ids
  };
  struct ThreadAnchors {
    std::deque<std::pair<int64_t, uint32_t>> by_time;  // (time, anchor id), ascending
    bool removed_any = false;                          // anchors before the first have settled:
    int64_t removed_time = 0;                          // the last of them
    time::Scaled removed_scaled = 0;
    // The map, built as anchors settle: the last one waits for its successor.
    bool pending = false;
    int64_t pending_time = 0, pending_shift = 0;
    int64_t before_pending_shift = 0;
  };

  size_t IndexOf(const ThreadAnchors& t, int64_t time) const;
  void AddDependent(uint32_t anchor, uint32_t group);
  void RemoveDependent(uint32_t anchor, uint32_t group);
  template <typename F>
  void ForDependents(const Anchor& a, F&& f);
  uint32_t NewGroup();
  void Queue(uint32_t group);
  void Enforce(uint32_t group);
  void Raise(uint32_t anchor, time::Scaled value);
  void Set(uint32_t anchor, time::Scaled value);
  void Run();
  void Settle(uint32_t group);
  // Settles the groups due before `before` (`all`: every one).
  void SettleDue(bool all, int64_t before);
  void Remove(uint32_t thread, int64_t before);
  void Emit(ThreadAnchors* t, uint32_t thread, int64_t time, int64_t shift);
  time::LatestSources Latest(const Group& g, bool repaired) const;
  void Count(const Group& g, bool repaired, time::Violations* v) const;

  time::RepairOptions options_;
  time::Scaled slope_;
  int64_t window_;
  int64_t frozen_before_ = INT64_MIN;
  std::vector<Anchor> anchors_;
  std::vector<uint32_t> free_anchors_;
  std::vector<std::vector<uint32_t>> more_;
  std::vector<uint32_t> free_more_;
  std::vector<Group> groups_;
  std::vector<uint32_t> free_groups_;
  std::vector<Collective> collectives_;
  std::vector<uint32_t> free_collectives_;
  using Due = std::pair<int64_t, uint32_t>;  // (latest event, group)
  std::vector<Due> due_;                     // groups not settled, in no order
  std::vector<Due> settling_;                // SettleDue's
  std::vector<ThreadAnchors> threads_;
  std::deque<uint32_t> queue_;
  // Prepare's: where each thread's events start in by_thread_ (time, event).
  std::vector<uint32_t> thread_start_, thread_next_;
  std::vector<std::pair<int64_t, uint32_t>> by_thread_;
  uint64_t anchors_seen_ = 0;
  bool exceeded_ = false;
  bool stopped_ = false;  // the update limit was reached
  time::RepairReport report_;
  std::vector<std::pair<std::array<uint64_t, 5>, uint32_t>> repair_order_;  // group order, target
  std::vector<time::ThreadTimeMap> maps_;
};

}  // namespace plx::store
