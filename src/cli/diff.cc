// `parallax diff`: two traces' numbers (diff_gather.cc) matched entity by
// entity into change rows; each row's change split into its per-instance and
// count parts, tested against the noise its instances show, and sorted by
// the time it cost or saved. docs/diff.md states the rules.
#include "cli/diff.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "base/strings.h"

namespace plx::cli::diff {

namespace {

// Welch's t at least this for a per-instance change: the difference of the
// means over its standard error. Four rather than the textbook two: runs of
// the same program on a loaded machine differ more than their instances'
// spread says (the scheduler shifts whole runs), and a diff should rather
// miss a small real change than report noise.
constexpr double kMinT = 4.0;
// A count change is significant beyond this many sigmas of a Poisson count
// (sqrt(n)), for the same reason.
constexpr double kCountSigmas = 4.0;
// Fewer instances on a side give no variance: no per-instance test.
constexpr int64_t kMinInstances = 2;

/// The per-instance and count tests of a row whose instances both traces have.
void CompareInstances(Change& c, double min_change, double min_impact_ns) {
  const double na = static_cast<double>(c.a.count), nb = static_cast<double>(c.b.count);
  const double ma = c.a.Mean(), mb = c.b.Mean();
  c.per_instance_ns = (mb - ma) * nb;
  c.count_ns = (nb - na) * ma;
  const std::optional<double> rel_mean = ma > 0 ? std::optional((mb - ma) / ma) : std::nullopt;
  const double rel_count = (nb - na) / na;
  const double se = std::sqrt(c.a.Variance() / na + c.b.Variance() / nb);
  // Instances all alike on both sides (a deterministic program, a test):
  // any difference of the means is beyond noise, t is infinite.
  if (c.a.count >= kMinInstances && c.b.count >= kMinInstances)
    c.t = se > 0 ? (mb - ma) / se : mb == ma ? 0.0 : std::copysign(INFINITY, mb - ma);

  std::vector<std::string> why;
  bool mean_sig = false;
  if (!c.t) {
    why.push_back("per instance: too few instances to tell noise");
  } else if (std::abs(*c.t) < kMinT) {
    why.push_back(StrFormat("per instance: within noise (|t| %.1f < %.0f)", std::abs(*c.t), kMinT));
  } else if (!rel_mean || std::abs(*rel_mean) < min_change) {
    why.push_back("per instance: change below --min-change");
  } else if (std::abs(c.per_instance_ns) < min_impact_ns) {
    why.push_back("per instance: impact below --min-impact");
  } else {
    mean_sig = true;
    why.push_back(StrFormat("per instance %+.0f%% (t = %.1f)", 100.0 * *rel_mean, *c.t));
  }
  bool count_sig = false;
  const double dn = nb - na;
  if (std::abs(dn) <= kCountSigmas * std::sqrt(std::max(na, nb))) {
    if (dn != 0) why.push_back("count: within noise");
  } else if (std::abs(rel_count) < min_change) {
    why.push_back("count: change below --min-change");
  } else if (std::abs(c.count_ns) < min_impact_ns) {
    why.push_back("count: impact below --min-impact");
  } else {
    count_sig = true;
    why.push_back(StrFormat("count %+.0f%%", 100.0 * rel_count));
  }
  c.significant = mean_sig || count_sig;
  // The impact is the larger part, among the significant ones when any is.
  const bool by_mean =
      mean_sig == count_sig ? std::abs(c.per_instance_ns) >= std::abs(c.count_ns) : mean_sig;
  c.impact = by_mean ? c.per_instance_ns : c.count_ns;
  c.part = by_mean ? "per-instance" : "count";
  c.relative = by_mean ? rel_mean : std::optional(rel_count);
  for (const std::string& w : why)
    c.why += (c.why.empty() ? "" : "; ") + w;
}

/// A row one trace has no instance of: all its change is in the count.
void CompareNewInstances(Change& c, double min_impact_ns) {
  c.count_ns = c.delta;
  c.impact = c.delta;
  c.part = "count";
  const double na = static_cast<double>(c.a.count), nb = static_cast<double>(c.b.count);
  if (c.a.count > 0) c.relative = -1.0;
  if (std::abs(nb - na) <= kCountSigmas * std::sqrt(std::max(na, nb))) {
    c.why = nb > na ? "new, but too few instances to tell noise" : "gone, but too few instances";
  } else if (std::abs(c.impact) < min_impact_ns) {
    c.why = nb > na ? "new, impact below --min-impact" : "gone, impact below --min-impact";
  } else {
    c.significant = true;
    c.why = nb > na ? "new in B" : "gone in B";
  }
}

/// A row of one total (critical path, imbalance): no instances to measure
/// its noise by, and on repeated runs of one program these move the most
/// (the path flips between ranks on a few microseconds), so such rows
/// explain the significant rows but are never significant themselves.
void CompareTotals(Change& c) {
  c.impact = c.delta;
  c.part = "total";
  if (c.a.total != 0) c.relative = c.delta / std::abs(c.a.total);
  c.why = "one total, no instances to tell noise by";
}

void CompareCounts(Change& c) {
  c.part = "total";
  if (c.a.total != 0) c.relative = c.delta / c.a.total;
  c.why = "no time of its own: its effect shows in the time rows";
}

Change CompareRow(const Entity& e, const Measure& a, const Measure& b, const Thresholds& th,
                  double run_ns) {
  Change c;
  c.what = e;
  c.a = a;
  c.b = b;
  c.delta = b.total - a.total;
  const double min_impact_ns = th.min_impact * run_ns;
  if (!IsTimeKind(e.kind))
    CompareCounts(c);
  else if (!a.instances)
    CompareTotals(c);
  else if (a.count > 0 && b.count > 0)
    CompareInstances(c, th.min_change, min_impact_ns);
  else
    CompareNewInstances(c, min_impact_ns);
  return c;
}

bool SortsBefore(const Change& x, const Change& y) {
  if (x.significant != y.significant) return x.significant;
  if (std::abs(x.impact) != std::abs(y.impact)) return std::abs(x.impact) > std::abs(y.impact);
  if (std::abs(x.delta) != std::abs(y.delta)) return std::abs(x.delta) > std::abs(y.delta);
  return x.what < y.what;
}

std::string ProcList(bool mpi, const std::set<int64_t>& procs) {
  std::string out;
  size_t n = 0;
  for (int64_t p : procs) {
    if (++n > 4) return out + ", ...";
    out += (out.empty() ? "" : ", ") + ProcLabel(mpi, p);
  }
  return out.empty() ? "none" : out;
}

/// What only one of the traces has; fills `common` with the shared processes.
std::vector<Unmatched> FindUnmatched(const TraceNumbers& a, const TraceNumbers& b,
                                     std::set<int64_t>* common) {
  std::vector<Unmatched> out;
  std::set_intersection(a.procs.begin(), a.procs.end(), b.procs.begin(), b.procs.end(),
                        std::inserter(*common, common->end()));
  for (const auto* t : {&a, &b}) {
    const auto* other = t == &a ? &b : &a;
    const char in = t == &a ? 'a' : 'b';
    for (int64_t p : t->procs)
      if (!common->count(p)) out.push_back({"process", ProcLabel(t->mpi, p), in});
    for (const auto& th : t->threads)
      if (common->count(th.first) && !other->threads.count(th))
        out.push_back({"thread",
                       StrFormat("%s thread %lld", ProcLabel(t->mpi, th.first).c_str(),
                                 static_cast<long long>(th.second)),
                       in});
    for (const std::string& s : t->states)
      if (!other->states.count(s)) out.push_back({"state", s, in});
  }
  return out;
}

/// The trace's measure of `e`; where it has none, what it means: no
/// instances, or for self time (kept only where it differs) the state's time.
Measure RowOf(const TraceNumbers& t, const Entity& e) {
  auto it = t.rows.find(e);
  if (it != t.rows.end()) return it->second;
  if (e.kind == Kind::kSelf) {
    Entity state = e;
    state.kind = Kind::kState;
    it = t.rows.find(state);
    if (it != t.rows.end()) return it->second;
  }
  const bool instances =
      e.kind != Kind::kCriticalPath && e.kind != Kind::kImbalance && IsTimeKind(e.kind);
  return {0, 0, 0, instances};
}

bool Matched(const Entity& e, const std::set<int64_t>& common, const TraceNumbers& a,
             const TraceNumbers& b) {
  if (e.proc >= 0 && !common.count(e.proc)) return false;
  if (e.peer >= 0 && !common.count(e.peer)) return false;
  if (e.kind == Kind::kOutside)
    return a.threads.count({e.proc, e.thread}) && b.threads.count({e.proc, e.thread});
  return true;
}

}  // namespace

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kOutside:
      return "outside-states";
    case Kind::kState:
      return "state";
    case Kind::kSelf:
      return "self";
    case Kind::kCallsite:
      return "callsite";
    case Kind::kWaits:
      return "waits";
    case Kind::kCriticalPath:
      return "critical-path";
    case Kind::kImbalance:
      return "imbalance";
    case Kind::kMessages:
      return "messages";
    case Kind::kBytes:
      return "bytes";
  }
  return "?";
}

bool IsTimeKind(Kind kind) {
  return kind != Kind::kMessages && kind != Kind::kBytes;
}

double Measure::Variance() const {
  if (count < 2) return 0;
  const double n = static_cast<double>(count);
  return std::max(0.0, (sum_sq - total * total / n) / (n - 1));
}

std::string ProcLabel(bool mpi, int64_t proc) {
  return StrFormat("%s %lld", mpi ? "rank" : "process", static_cast<long long>(proc));
}

std::string EntityLabel(bool mpi, const Entity& e) {
  const std::string proc = e.proc >= 0 ? ProcLabel(mpi, e.proc) : "";
  switch (e.kind) {
    case Kind::kOutside:
      return e.thread > 0 ? StrFormat("%s thread %lld %s", proc.c_str(),
                                      static_cast<long long>(e.thread), kOutsideName)
                          : proc + " " + kOutsideName;
    case Kind::kState:
      return proc + " " + e.name;
    case Kind::kSelf:
      return proc + " " + e.name + " (self time)";
    case Kind::kCallsite:
      return e.name + " at " + e.callsite;
    case Kind::kWaits:
      return proc + " waiting: " + e.name;
    case Kind::kCriticalPath:
      return "critical path: " + proc;
    case Kind::kImbalance:
      return "imbalance of " + e.name;
    case Kind::kMessages:
      return "messages " + proc + " -> " + ProcLabel(mpi, e.peer);
    case Kind::kBytes:
      return "bytes " + proc + " -> " + ProcLabel(mpi, e.peer);
  }
  return proc;
}

StatusOr<DiffResult> Compare(const TraceNumbers& a, const TraceNumbers& b,
                             const Thresholds& thresholds) {
  if (a.mpi != b.mpi) {
    const TraceNumbers& m = a.mpi ? a : b;
    const TraceNumbers& o = a.mpi ? b : a;
    return InvalidArgument(StrFormat(
        "%s and %s cannot be compared: %s is an MPI trace (processes are ranks), %s is not",
        a.path.c_str(), b.path.c_str(), m.path.c_str(), o.path.c_str()));
  }
  DiffResult result;
  std::set<int64_t> common;
  result.unmatched = FindUnmatched(a, b, &common);
  if (common.empty())
    return InvalidArgument(StrFormat("%s and %s have no process in common (%s: %s; %s: %s)",
                                     a.path.c_str(), b.path.c_str(), a.path.c_str(),
                                     ProcList(a.mpi, a.procs).c_str(), b.path.c_str(),
                                     ProcList(b.mpi, b.procs).c_str()));
  const double run_ns = static_cast<double>(std::max(a.Duration(), b.Duration()));
  std::set<Entity> entities;
  for (const auto* t : {&a, &b})
    for (const auto& [e, m] : t->rows)
      if (Matched(e, common, a, b)) entities.insert(e);
  for (const Entity& e : entities) {
    Change c = CompareRow(e, RowOf(a, e), RowOf(b, e), thresholds, run_ns);
    if (c.delta != 0 || c.a.count != c.b.count) result.changes.push_back(std::move(c));
  }
  std::sort(result.changes.begin(), result.changes.end(), SortsBefore);
  return result;
}

}  // namespace plx::cli::diff
