// BuildCausalConstraints: message pairs become one-to-one groups; collective
// operations become groups over their participants' calls, shaped by the
// operation (all-to-all, root-to-all, all-to-root).
#include "time/causal_constraints.h"

#include <string_view>

#include "time/collective_instances.h"
#include "time/communicator_keys.h"
#include "time/message_pairs.h"
#include "time/record_calls.h"

namespace plx::time {

namespace {

using Shape = CollectiveShape;

// Scan and exscan impose prefix order only (rank i on the ranks below it),
// which these constraints do not express: they are left out, like ops of
// unknown shape.
Shape ConstrainedShape(uint8_t op) {
  const Shape shape = CollectiveShapeOf(op);
  return shape == Shape::kPrefix ? Shape::kUnknown : shape;
}

// A collective recorded inside a wait or test call completed a nonblocking
// collective: the wait began after the operation started, so other
// participants' waits say nothing about when this one may end.
bool IsCompletionCall(std::string_view state) {
  return state.starts_with("MPI_Wait") || state.starts_with("MPI_Test");
}

void CloseGroup(CausalConstraints* c, CausalConstraints::Kind kind, int64_t lag,
                uint32_t source_row) {
  c->kind.push_back(kind);
  c->lag.push_back(lag);
  c->source_row.push_back(source_row);
  c->source_first.push_back(static_cast<uint32_t>(c->sources.size()));
  c->target_first.push_back(static_cast<uint32_t>(c->targets.size()));
}

}  // namespace

CausalConstraints BuildCausalConstraints(const model::Trace& trace, int64_t min_latency_ns,
                                         bool collectives, const MessagePairs* matched) {
  CausalConstraints c;
  c.source_first.push_back(0);
  c.target_first.push_back(0);

  const model::MessageTable& m = trace.messages;
  const MessagePairs own = matched != nullptr ? MessagePairs{} : MatchMessages(trace);
  const MessagePairs& pairs = matched != nullptr ? *matched : own;
  for (const MessagePair& p : pairs.pairs) {
    const uint32_t from = trace.threads[m.thread[p.send]].process;
    const uint32_t to = trace.threads[m.thread[p.recv]].process;
    c.sources.push_back({m.thread[p.send], m.time[p.send]});
    c.targets.push_back({m.thread[p.recv], m.time[p.recv]});
    c.target_row.push_back(p.recv);
    CloseGroup(&c, CausalConstraints::Kind::kMessage, from == to ? 0 : min_latency_ns, p.send);
  }

  if (!collectives) return c;
  const model::CollectiveTable& col = trace.collectives;
  const CollectiveInstances instances = GroupCollectives(trace);
  const std::vector<uint32_t> calls = EnclosingSlices(trace, col.thread, col.time);
  const auto by_rank = ProcessesByRank(trace);
  for (size_t i = 0; i < instances.size(); ++i) {
    const uint32_t first = instances.first[i], last = instances.first[i + 1];
    if (last - first < 2) continue;
    const uint32_t row0 = instances.rows[first];
    const Shape shape = ConstrainedShape(col.op[row0]);
    if (shape == Shape::kUnknown) continue;
    bool usable = true;
    for (uint32_t k = first; k < last && usable; ++k) {
      const uint32_t call = calls[instances.rows[k]];
      usable =
          call != model::kNone && !IsCompletionCall(trace.states[trace.slices.state[call]].name);
    }
    if (!usable) continue;
    // The root's process, for rooted operations.
    uint32_t root_process = model::kNone;
    if (shape != Shape::kAllToAll) {
      const auto it = by_rank.find(col.root[row0]);
      if (it == by_rank.end()) continue;
      root_process = it->second;
    }
    for (uint32_t k = first; k < last; ++k) {
      const uint32_t row = instances.rows[k];
      const uint32_t call = calls[row];
      const bool is_root = trace.threads[col.thread[row]].process == root_process;
      const bool source = shape == Shape::kAllToAll || (shape == Shape::kRootToAll && is_root) ||
                          (shape == Shape::kAllToRoot && !is_root);
      const bool target = shape == Shape::kAllToAll || (shape == Shape::kRootToAll && !is_root) ||
                          (shape == Shape::kAllToRoot && is_root);
      if (source) c.sources.push_back({col.thread[row], trace.slices.begin[call]});
      if (target) {
        c.targets.push_back({col.thread[row], trace.slices.end[call]});
        c.target_row.push_back(row);
      }
    }
    CloseGroup(&c, CausalConstraints::Kind::kCollective, min_latency_ns, model::kNone);
  }
  return c;
}

}  // namespace plx::time
