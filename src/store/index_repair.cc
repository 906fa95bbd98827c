// Options and report as fields in order; repairs as they are (largest shift
// first); maps with their anchors and shifts as differences from the
// previous one, which are small for a smooth map.
#include "store/index_repair.h"

#include <bit>
#include <limits>

#include "base/strings.h"

namespace plx::store {

namespace {

// Times and shifts an index may hold: far inside int64 so that applying a
// map, or taking the difference of two mapped times, never overflows.
constexpr int64_t kTimeBound = int64_t{1} << 60;

bool InBounds(int64_t v) {
  return v > -kTimeBound && v < kTimeBound;
}

}  // namespace

bool SameRepairOptions(const time::RepairOptions& a, const time::RepairOptions& b) {
  return a.min_latency_ns == b.min_latency_ns &&
         std::bit_cast<uint64_t>(a.max_slope) == std::bit_cast<uint64_t>(b.max_slope) &&
         a.collectives == b.collectives && a.max_updates == b.max_updates && a.pairs == nullptr &&
         b.pairs == nullptr;
}

void PutRepairOptions(IndexWriter* w, const time::RepairOptions& o) {
  w->S(o.min_latency_ns);
  w->Double(o.max_slope);
  w->U(o.collectives ? 1 : 0);
  w->U(o.max_updates);
}

bool GetRepairOptions(IndexReader* r, time::RepairOptions* o) {
  *o = time::RepairOptions();
  return r->S(&o->min_latency_ns) && r->Double(&o->max_slope) && r->Bool(&o->collectives) &&
         r->U(&o->max_updates);
}

void PutRepairReport(IndexWriter* w, const time::RepairReport& r) {
  for (uint64_t v :
       {r.before.messages, r.before.collectives, r.after.messages, r.after.collectives,
        r.violations_before, r.violations_after, r.constraints, r.events_moved, r.updates})
    w->U(v);
  w->S(r.max_shift_ns);
  w->S(r.max_duration_change_ns);
  w->Double(r.max_relative_change);
  w->U(r.converged ? 1 : 0);
  w->U(r.thread_max_shift_ns.size());
  for (int64_t v : r.thread_max_shift_ns)
    w->S(v);
  w->U(r.repairs.size());
  for (const time::Repair& x : r.repairs) {
    w->U(static_cast<uint8_t>(x.kind));
    w->U(x.thread);
    w->U(x.row);
    w->U(x.send_row == model::kNone ? 0 : uint64_t{x.send_row} + 1);
    w->S(x.time_ns);
    w->S(x.violation_ns);
    w->S(x.shift_ns);
  }
}

void PutRepair(IndexWriter* w, const IndexedRepair& repair) {
  PutRepairOptions(w, repair.options);
  PutRepairReport(w, repair.report);
  w->U(repair.maps.size());
  for (const time::ThreadTimeMap& m : repair.maps) {
    w->U(m.anchors.size());
    int64_t anchor = 0, shift = 0;
    for (size_t i = 0; i < m.anchors.size(); ++i) {
      // Wrapping differences: any int64 pair round-trips.
      w->S(static_cast<int64_t>(static_cast<uint64_t>(m.anchors[i]) -
                                static_cast<uint64_t>(anchor)));
      w->S(static_cast<int64_t>(static_cast<uint64_t>(m.shifts[i]) - static_cast<uint64_t>(shift)));
      anchor = m.anchors[i];
      shift = m.shifts[i];
    }
  }
}

bool GetRepairReport(IndexReader* r, time::RepairReport* report) {
  time::RepairReport& p = *report;
  for (uint64_t* v :
       {&p.before.messages, &p.before.collectives, &p.after.messages, &p.after.collectives,
        &p.violations_before, &p.violations_after, &p.constraints, &p.events_moved, &p.updates})
    if (!r->U(v)) return false;
  size_t n = 0;
  if (!r->S(&p.max_shift_ns) || !r->S(&p.max_duration_change_ns) ||
      !r->Double(&p.max_relative_change) || !r->Bool(&p.converged) || !r->Count(&n))
    return false;
  p.thread_max_shift_ns.resize(n);
  for (int64_t& v : p.thread_max_shift_ns)
    if (!r->S(&v)) return false;
  if (!r->Count(&n, 7)) return false;
  p.repairs.resize(n);
  for (time::Repair& x : p.repairs) {
    uint8_t kind = 0;
    uint64_t send = 0;
    if (!r->U(&kind) || kind > 1 || !r->U(&x.thread) || !r->U(&x.row) || !r->U(&send) ||
        send > model::kNone || !r->S(&x.time_ns) || !r->S(&x.violation_ns) || !r->S(&x.shift_ns))
      return false;
    x.kind = static_cast<time::CausalConstraints::Kind>(kind);
    x.send_row = send == 0 ? model::kNone : static_cast<uint32_t>(send - 1);
  }
  return true;
}

bool GetRepair(IndexReader* r, IndexedRepair* repair) {
  size_t n = 0;
  if (!GetRepairOptions(r, &repair->options) || !GetRepairReport(r, &repair->report) ||
      !r->Count(&n))
    return false;
  repair->maps.resize(n);
  for (time::ThreadTimeMap& m : repair->maps) {
    if (!r->Count(&n, 2)) return false;
    m.anchors.resize(n);
    m.shifts.resize(n);
    int64_t anchor = 0, shift = 0;
    for (size_t i = 0; i < n; ++i) {
      int64_t da = 0, ds = 0;
      if (!r->S(&da) || !r->S(&ds)) return false;
      anchor = static_cast<int64_t>(static_cast<uint64_t>(anchor) + static_cast<uint64_t>(da));
      shift = static_cast<int64_t>(static_cast<uint64_t>(shift) + static_cast<uint64_t>(ds));
      m.anchors[i] = anchor;
      m.shifts[i] = shift;
    }
  }
  return true;
}

Status CheckRepairFits(const IndexedRepair& repair, uint32_t threads, const RowCounts& totals,
                       const std::string& name) {
  auto stale = [&](const char* why) {
    return DataLoss(StrFormat("the index's causal repair does not fit %s (%s)", name.c_str(), why));
  };
  if (repair.maps.size() != threads) return stale("thread count");
  for (const time::ThreadTimeMap& m : repair.maps) {
    if (m.anchors.size() != m.shifts.size()) return stale("a time map");
    for (size_t i = 0; i < m.anchors.size(); ++i)
      if (!InBounds(m.anchors[i]) || !InBounds(m.shifts[i]) ||
          (i > 0 && m.anchors[i] <= m.anchors[i - 1]))
        return stale("a time map");
  }
  return CheckRepairReportFits(repair.report, threads, totals, name);
}

Status CheckRepairReportFits(const time::RepairReport& report, uint32_t threads,
                             const RowCounts& totals, const std::string& name) {
  auto stale = [&](const char* why) {
    return DataLoss(StrFormat("the index's causal repair does not fit %s (%s)", name.c_str(), why));
  };
  if (report.thread_max_shift_ns.size() != threads) return stale("thread count");
  for (const time::Repair& x : report.repairs) {
    const bool message = x.kind == time::CausalConstraints::Kind::kMessage;
    const uint64_t rows = message ? totals.table[kMessages] : totals.table[kCollectives];
    if (x.thread >= threads || x.row >= rows ||
        (x.send_row != model::kNone && (!message || x.send_row >= totals.table[kMessages])))
      return stale("a repaired event");
  }
  return Status::Ok();
}

}  // namespace plx::store
