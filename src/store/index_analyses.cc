// The analyses section: what they were asked for, then each analysis' fields
// in the order of its struct. Ids that may be "none" are stored plus one (0:
// none); doubles as their bits; the matrices' empty cells as run lengths.
#include <algorithm>
#include <bit>
#include <cstring>

#include "base/strings.h"
#include "store/index_repair.h"
#include "store/index_results.h"

namespace plx::store {

namespace {

// An id that may be model::kNone, plus one.
void PutId(IndexWriter* w, uint32_t id) {
  w->U(id == model::kNone ? 0 : uint64_t{id} + 1);
}

bool GetId(IndexReader* r, uint32_t* id) {
  uint64_t v = 0;
  if (!r->U(&v) || v > model::kNone) return false;
  *id = v == 0 ? model::kNone : static_cast<uint32_t>(v - 1);
  return true;
}

template <typename T, typename Put>
void PutList(IndexWriter* w, const std::vector<T>& list, Put put) {
  w->U(list.size());
  for (const T& x : list)
    put(x);
}

template <typename T, typename Get>
bool GetList(IndexReader* r, std::vector<T>* list, Get get) {
  size_t n = 0;
  if (!r->Count(&n)) return false;
  list->resize(n);
  for (T& x : *list)
    if (!get(&x)) return false;
  return true;
}

void PutTotals(IndexWriter* w, const analysis::WaitTotals& t) {
  w->S(t.late_sender_ns);
  w->S(t.late_receiver_ns);
  w->S(t.collective_ns);
  w->U(t.count);
}

bool GetTotals(IndexReader* r, analysis::WaitTotals* t) {
  return r->S(&t->late_sender_ns) && r->S(&t->late_receiver_ns) && r->S(&t->collective_ns) &&
         r->U(&t->count);
}

void PutWaits(IndexWriter* w, const analysis::WaitStatesReport& x) {
  PutTotals(w, x.all);
  PutList(w, x.processes, [&](const analysis::WaitTotals& t) { PutTotals(w, t); });
  PutList(w, x.threads, [&](const analysis::WaitTotals& t) { PutTotals(w, t); });
  PutList(w, x.callsites, [&](const analysis::CallsiteWaits& c) {
    PutId(w, c.state);
    PutId(w, c.callsite);
    PutTotals(w, c.totals);
  });
  PutList(w, x.instances, [&](const analysis::WaitInstance& i) {
    PutId(w, i.slice);
    w->U(static_cast<uint8_t>(i.kind));
    w->S(i.begin_ns);
    w->S(i.wait_ns);
    PutId(w, i.cause_thread);
    PutId(w, i.record);
    PutId(w, i.thread);
  });
}

bool GetWaits(IndexReader* r, analysis::WaitStatesReport* x) {
  const auto totals = [&](analysis::WaitTotals* t) { return GetTotals(r, t); };
  return GetTotals(r, &x->all) && GetList(r, &x->processes, totals) &&
         GetList(r, &x->threads, totals) &&
         GetList(r, &x->callsites,
                 [&](analysis::CallsiteWaits* c) {
                   return GetId(r, &c->state) && GetId(r, &c->callsite) && GetTotals(r, &c->totals);
                 }) &&
         GetList(r, &x->instances, [&](analysis::WaitInstance* i) {
           uint8_t kind = 0;
           if (!GetId(r, &i->slice) || !r->U(&kind) || kind > 2) return false;
           i->kind = static_cast<analysis::WaitKind>(kind);
           return r->S(&i->begin_ns) && r->S(&i->wait_ns) && GetId(r, &i->cause_thread) &&
                  GetId(r, &i->record) && GetId(r, &i->thread);
         });
}

void PutDeadlocks(IndexWriter* w, const analysis::DeadlockReport& x) {
  const auto s = [&](int64_t v) { w->S(v); };
  const auto u = [&](uint32_t v) { w->U(v); };
  PutList(w, x.blocked, [&](const analysis::BlockedCall& b) {
    PutId(w, b.slice);
    PutId(w, b.state);
    PutId(w, b.thread);
    PutId(w, b.process);
    w->S(b.rank);
    w->S(b.since_ns);
    PutList(w, b.waits_for, s);
    PutId(w, b.comm);
    w->S(b.tag);
  });
  PutList(w, x.deadlocks, [&](const analysis::Deadlock& d) {
    PutList(w, d.ranks, s);
    PutList(w, d.calls, u);
  });
  PutList(w, x.not_in_cycle, u);
}

bool GetDeadlocks(IndexReader* r, analysis::DeadlockReport* x) {
  const auto s = [&](int64_t* v) { return r->S(v); };
  const auto u = [&](uint32_t* v) { return r->U(v); };
  return GetList(r, &x->blocked,
                 [&](analysis::BlockedCall* b) {
                   return GetId(r, &b->slice) && GetId(r, &b->state) && GetId(r, &b->thread) &&
                          GetId(r, &b->process) && r->S(&b->rank) && r->S(&b->since_ns) &&
                          GetList(r, &b->waits_for, s) && GetId(r, &b->comm) && r->S(&b->tag);
                 }) &&
         GetList(r, &x->deadlocks,
                 [&](analysis::Deadlock* d) {
                   return GetList(r, &d->ranks, s) && GetList(r, &d->calls, u);
                 }) &&
         GetList(r, &x->not_in_cycle, u);
}

void PutPath(IndexWriter* w, const analysis::CriticalPath& p) {
  w->S(p.length_ns);
  PutList(w, p.segments, [&](const analysis::PathSegment& s) {
    PutId(w, s.thread);
    w->S(s.begin_ns);
    w->S(s.end_ns);
  });
  PutList(w, p.states, [&](const analysis::PathStateTime& s) {
    PutId(w, s.state);
    w->S(s.ns);
  });
  PutList(w, p.processes, [&](int64_t v) { w->S(v); });
}

bool GetPath(IndexReader* r, analysis::CriticalPath* p) {
  return r->S(&p->length_ns) &&
         GetList(r, &p->segments,
                 [&](analysis::PathSegment* s) {
                   return GetId(r, &s->thread) && r->S(&s->begin_ns) && r->S(&s->end_ns);
                 }) &&
         GetList(r, &p->states,
                 [&](analysis::PathStateTime* s) { return GetId(r, &s->state) && r->S(&s->ns); }) &&
         GetList(r, &p->processes, [&](int64_t* v) { return r->S(v); });
}

void PutAnomaly(IndexWriter* w, const analysis::Anomaly& a) {
  w->U(a.slice);
  w->U(a.state);
  w->U(a.thread);
  w->U(a.process);
  PutId(w, a.callsite);
  w->U(a.by_callsite ? 1 : 0);
  w->S(a.begin_ns);
  w->S(a.duration_ns);
  w->Double(a.median_ns);
  w->Double(a.mad_ns);
  w->Double(a.limit_ns);
  w->U(a.group_size);
  w->Double(a.score);
  w->U(static_cast<uint8_t>(a.method));
}

bool GetAnomaly(IndexReader* r, analysis::Anomaly* a) {
  uint8_t method = 0;
  if (!r->U(&a->slice) || !r->U(&a->state) || !r->U(&a->thread) || !r->U(&a->process) ||
      !GetId(r, &a->callsite) || !r->Bool(&a->by_callsite) || !r->S(&a->begin_ns) ||
      !r->S(&a->duration_ns) || !r->Double(&a->median_ns) || !r->Double(&a->mad_ns) ||
      !r->Double(&a->limit_ns) || !r->U(&a->group_size) || !r->Double(&a->score) ||
      !r->U(&method) || method > 1)
    return false;
  a->method = static_cast<analysis::AnomalyMethod>(method);
  return true;
}

void PutImbalance(IndexWriter* w, const analysis::ImbalanceReport& x) {
  w->U(x.by_thread ? 1 : 0);
  PutList(w, x.rows, [&](const analysis::ImbalanceRow& row) {
    w->U(row.state);
    PutList(w, row.time_ns, [&](int64_t v) { w->S(v); });
    w->U(row.units);
    w->S(row.max_ns);
    w->S(row.min_ns);
    w->Double(row.mean_ns);
    w->U(row.max_unit);
    w->U(row.min_unit);
    w->Double(row.imbalance);
    w->Double(row.percent);
    w->Double(row.lost_ns);
  });
}

bool GetImbalance(IndexReader* r, analysis::ImbalanceReport* x) {
  return r->Bool(&x->by_thread) && GetList(r, &x->rows, [&](analysis::ImbalanceRow* row) {
           return r->U(&row->state) &&
                  GetList(r, &row->time_ns, [&](int64_t* v) { return r->S(v); }) &&
                  r->U(&row->units) && r->S(&row->max_ns) && r->S(&row->min_ns) &&
                  r->Double(&row->mean_ns) && r->U(&row->max_unit) && r->U(&row->min_unit) &&
                  r->Double(&row->imbalance) && r->Double(&row->percent) &&
                  r->Double(&row->lost_ns);
         });
}

// A processes x processes matrix, as if dense: each cell that is not all
// zero after the count of all-zero cells before it. `keys` (ascending) are
// the cells' places, row * processes + column.
template <typename Cell, typename Put>
void PutCells(IndexWriter* w, size_t processes, const std::vector<uint64_t>& keys,
              const std::vector<Cell>& cells, Put put) {
  w->U(processes);
  const Cell zero{};
  uint64_t next = 0;  // the first place not written yet
  for (size_t i = 0; i < cells.size(); ++i) {
    if (std::memcmp(&cells[i], &zero, sizeof(Cell)) == 0) continue;
    w->U(keys[i] - next);
    put(cells[i]);
    next = keys[i] + 1;
  }
  w->U(uint64_t{processes} * processes - next);
}

template <typename Cell, typename Get>
bool GetCells(IndexReader* r, size_t most_processes, size_t* processes, std::vector<uint64_t>* keys,
              std::vector<Cell>* cells, Get get) {
  if (!r->U(processes) || *processes > most_processes) return false;
  const uint64_t size = uint64_t{*processes} * *processes;
  keys->clear();
  cells->clear();
  for (uint64_t at = 0;;) {
    uint64_t zeros = 0;
    if (!r->U(&zeros) || zeros > size - at) return false;
    at += zeros;
    if (at == size) return true;
    keys->push_back(at++);
    if (!get(&cells->emplace_back())) return false;
  }
}

void PutMatrix(IndexWriter* w, const analysis::CommMatrix& m) {
  PutCells(w, m.processes, m.keys, m.cells, [&](const analysis::CommCell& c) {
    w->U(c.count);
    w->U(c.bytes);
    w->Double(c.mean_latency_ns);
    w->S(c.max_latency_ns);
  });
  PutList(w, m.unmatched_sends, [&](uint64_t v) { w->U(v); });
  PutList(w, m.unmatched_recvs, [&](uint64_t v) { w->U(v); });
  w->U(m.messages);
  w->U(m.bytes);
}

bool GetMatrix(IndexReader* r, size_t most_processes, analysis::CommMatrix* m) {
  const auto u = [&](uint64_t* v) { return r->U(v); };
  return GetCells(r, most_processes, &m->processes, &m->keys, &m->cells,
                  [&](analysis::CommCell* c) {
                    return r->U(&c->count) && r->U(&c->bytes) && r->Double(&c->mean_latency_ns) &&
                           r->S(&c->max_latency_ns);
                  }) &&
         GetList(r, &m->unmatched_sends, u) && GetList(r, &m->unmatched_recvs, u) &&
         r->U(&m->messages) && r->U(&m->bytes);
}

void PutRma(IndexWriter* w, const analysis::RmaMatrix& m) {
  PutCells(w, m.processes, m.keys, m.cells, [&](const analysis::RmaCell& c) {
    w->U(c.count);
    w->U(c.bytes);
    for (int k = 0; k < 4; ++k) {
      w->U(c.op_count[k]);
      w->U(c.op_bytes[k]);
    }
  });
  w->U(m.operations);
  w->U(m.bytes);
  w->U(m.unmapped);
}

bool GetRma(IndexReader* r, size_t most_processes, analysis::RmaMatrix* m) {
  return GetCells(r, most_processes, &m->processes, &m->keys, &m->cells,
                  [&](analysis::RmaCell* c) {
                    if (!r->U(&c->count) || !r->U(&c->bytes)) return false;
                    for (int k = 0; k < 4; ++k)
                      if (!r->U(&c->op_count[k]) || !r->U(&c->op_bytes[k])) return false;
                    return true;
                  }) &&
         r->U(&m->operations) && r->U(&m->bytes) && r->U(&m->unmapped);
}

void PutKey(IndexWriter* w, const AnalysesKey& k) {
  PutRepairOptions(w, k.repair);
  w->U(k.longest_waits);
  const analysis::AnomalyOptions& a = k.anomalies;
  w->U(static_cast<uint8_t>(a.method));
  w->Double(a.threshold);
  w->Double(a.min_ratio);
  w->S(a.min_excess_ns);
  w->U(a.min_samples);
  w->Double(a.percentile);
  PutId(w, a.state);
}

bool GetKey(IndexReader* r, AnalysesKey* k) {
  analysis::AnomalyOptions& a = k->anomalies;
  uint8_t method = 0;
  if (!GetRepairOptions(r, &k->repair) || !r->U(&k->longest_waits) || !r->U(&method) || method > 1)
    return false;
  a.method = static_cast<analysis::AnomalyMethod>(method);
  return r->Double(&a.threshold) && r->Double(&a.min_ratio) && r->S(&a.min_excess_ns) &&
         r->U(&a.min_samples) && r->Double(&a.percentile) && GetId(r, &a.state);
}

}  // namespace

bool SameAnalysesKey(const AnalysesKey& a, const AnalysesKey& b) {
  IndexWriter x, y;
  PutKey(&x, a);
  PutKey(&y, b);
  return SameRepairOptions(a.repair, b.repair) && x.bytes() == y.bytes();
}

void PutAnalyses(IndexWriter* w, const IndexedAnalyses& a) {
  PutKey(w, a.key);
  PutRepairReport(w, a.repair);
  PutWaits(w, a.waits);
  PutDeadlocks(w, a.deadlocks);
  PutPath(w, a.path);
  PutList(w, a.anomalies, [&](const analysis::Anomaly& x) { PutAnomaly(w, x); });
  PutImbalance(w, a.imbalance);
  PutMatrix(w, a.matrix);
  PutRma(w, a.rma);
}

bool GetAnalyses(IndexReader* r, IndexedAnalyses* a, size_t most_processes) {
  return GetKey(r, &a->key) && GetRepairReport(r, &a->repair) && GetWaits(r, &a->waits) &&
         GetDeadlocks(r, &a->deadlocks) && GetPath(r, &a->path) &&
         GetList(r, &a->anomalies, [&](analysis::Anomaly* x) { return GetAnomaly(r, x); }) &&
         GetImbalance(r, &a->imbalance) && GetMatrix(r, most_processes, &a->matrix) &&
         GetRma(r, most_processes, &a->rma);
}

Status CheckAnalysesFits(const IndexedAnalyses& a, const model::Trace& trace,
                         const RowCounts& totals, const std::string& name) {
  auto stale = [&](const char* why) {
    return DataLoss(StrFormat("the index's analyses do not fit %s (%s)", name.c_str(), why));
  };
  const size_t processes = trace.processes.size(), threads = trace.threads.size();
  // An id below `n`, or none where `none` allows it.
  const auto in = [](uint32_t id, uint64_t n, bool none = true) {
    return (none && id == model::kNone) || id < n;
  };
  const uint64_t states = trace.states.size(), callsites = trace.callsites.size();
  const uint64_t slices = totals.table[kSlices];
  const uint64_t records = std::max(totals.table[kMessages], totals.table[kCollectives]);
  PLX_RETURN_IF_ERROR(
      CheckRepairReportFits(a.repair, static_cast<uint32_t>(threads), totals, name));

  const analysis::WaitStatesReport& w = a.waits;
  if (w.processes.size() != processes || w.threads.size() != threads)
    return stale("wait states: scope count");
  for (const analysis::CallsiteWaits& c : w.callsites)
    if (!in(c.state, states) || !in(c.callsite, callsites))
      return stale("wait states: a call site");
  for (const analysis::WaitInstance& i : w.instances)
    if (!in(i.slice, slices) || !in(i.cause_thread, threads) || !in(i.record, records) ||
        !in(i.thread, threads))
      return stale("wait states: a wait");

  const analysis::DeadlockReport& d = a.deadlocks;
  for (const analysis::BlockedCall& b : d.blocked)
    if (!in(b.slice, slices) || !in(b.state, states) || !in(b.thread, threads) ||
        !in(b.process, processes) || !in(b.comm, trace.communicators.size()))
      return stale("deadlocks: a blocked call");
  for (const analysis::Deadlock& x : d.deadlocks)
    for (uint32_t call : x.calls)
      if (call >= d.blocked.size()) return stale("deadlocks: a call");
  for (uint32_t call : d.not_in_cycle)
    if (call >= d.blocked.size()) return stale("deadlocks: a call");

  const analysis::CriticalPath& p = a.path;
  if (p.processes.size() != processes) return stale("critical path: process count");
  for (const analysis::PathSegment& s : p.segments)
    if (!in(s.thread, threads)) return stale("critical path: a segment");
  for (const analysis::PathStateTime& s : p.states)
    if (!in(s.state, states)) return stale("critical path: a state");

  for (const analysis::Anomaly& x : a.anomalies)
    if (!in(x.slice, slices, false) || !in(x.state, states, false) ||
        !in(x.thread, threads, false) || !in(x.process, processes, false) ||
        !in(x.callsite, callsites))
      return stale("anomalies: a slice");

  const size_t units = a.imbalance.by_thread ? threads : processes;
  for (const analysis::ImbalanceRow& row : a.imbalance.rows)
    if (!in(row.state, states, false) || row.time_ns.size() != units ||
        (units > 0 && (row.max_unit >= units || row.min_unit >= units)))
      return stale("imbalance: a row");

  if (a.matrix.processes != processes || a.matrix.unmatched_sends.size() != processes ||
      a.matrix.unmatched_recvs.size() != processes || a.rma.processes != processes)
    return stale("matrix: process count");
  return Status::Ok();
}

}  // namespace plx::store
