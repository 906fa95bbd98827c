// The statistics section: the repair options, every scope's rows, the
// (state, call site) rows, then the mountain range's bins (zero runs as a
// count, so the empty bins of a sparse trace take a few bytes). Doubles as
// their bits, so what is read is what was computed, bit for bit.
#include <bit>

#include "base/strings.h"
#include "store/index_repair.h"
#include "store/index_results.h"
#include "store/mountain_bins.h"

namespace plx::store {

namespace {

void PutRow(IndexWriter* w, const analysis::StateStats& s) {
  w->U(s.state);
  w->U(s.callsite == model::kNone ? 0 : uint64_t{s.callsite} + 1);
  w->U(s.count);
  w->S(s.total_ns);
  w->S(s.self_ns);
  w->S(s.min_ns);
  w->S(s.max_ns);
  w->Double(s.mean_ns);
  w->Double(s.stddev_ns);
  w->Double(s.share);
}

bool GetRow(IndexReader* r, analysis::StateStats* s) {
  uint64_t callsite = 0;
  if (!r->U(&s->state) || !r->U(&callsite) || callsite > model::kNone) return false;
  s->callsite = callsite == 0 ? model::kNone : static_cast<uint32_t>(callsite - 1);
  return r->U(&s->count) && r->S(&s->total_ns) && r->S(&s->self_ns) && r->S(&s->min_ns) &&
         r->S(&s->max_ns) && r->Double(&s->mean_ns) && r->Double(&s->stddev_ns) &&
         r->Double(&s->share);
}

void PutRows(IndexWriter* w, const std::vector<analysis::StateStats>& rows) {
  w->U(rows.size());
  for (const analysis::StateStats& s : rows)
    PutRow(w, s);
}

bool GetRows(IndexReader* r, std::vector<analysis::StateStats>* rows) {
  size_t n = 0;
  if (!r->Count(&n, 13)) return false;
  rows->resize(n);
  for (analysis::StateStats& s : *rows)
    if (!GetRow(r, &s)) return false;
  return true;
}

void PutScope(IndexWriter* w, const analysis::StateStatsScope& scope) {
  w->S(scope.thread_time_ns);
  PutRows(w, scope.states);
}

bool GetScope(IndexReader* r, analysis::StateStatsScope* scope) {
  return r->S(&scope->thread_time_ns) && GetRows(r, &scope->states);
}

void PutScopes(IndexWriter* w, const std::vector<analysis::StateStatsScope>& scopes) {
  w->U(scopes.size());
  for (const analysis::StateStatsScope& s : scopes)
    PutScope(w, s);
}

bool GetScopes(IndexReader* r, std::vector<analysis::StateStatsScope>* scopes) {
  size_t n = 0;
  if (!r->Count(&n, 2)) return false;
  scopes->resize(n);
  for (analysis::StateStatsScope& s : *scopes)
    if (!GetScope(r, &s)) return false;
  return true;
}

}  // namespace

void PutStatistics(IndexWriter* w, const IndexedStatistics& s) {
  PutRepairOptions(w, s.repair);
  PutScope(w, s.report.all);
  PutScopes(w, s.report.processes);
  PutScopes(w, s.report.threads);
  PutRows(w, s.callsites);
  const MountainCounts& m = s.mountain;
  w->S(m.bin_ns);
  w->U(m.bins);
  w->U(m.states);
  // Values, each non-zero one after the count of zeros before it.
  w->U(m.ns.size());
  uint64_t zeros = 0;
  for (int64_t v : m.ns) {
    if (v == 0) {
      ++zeros;
      continue;
    }
    w->U(zeros);
    w->S(v);
    zeros = 0;
  }
  w->U(zeros);
}

bool GetStatistics(IndexReader* r, IndexedStatistics* s, uint64_t most_values) {
  if (!GetRepairOptions(r, &s->repair) || !GetScope(r, &s->report.all) ||
      !GetScopes(r, &s->report.processes) || !GetScopes(r, &s->report.threads) ||
      !GetRows(r, &s->callsites))
    return false;
  MountainCounts& m = s->mountain;
  uint64_t size = 0;
  if (!r->S(&m.bin_ns) || !r->U(&m.bins) || !r->U(&m.states) || !r->U(&size)) return false;
  if (m.bins > MountainBins::kMaxBins || m.states > most_values || size != m.bins * m.states ||
      size > most_values)
    return false;
  m.ns.assign(static_cast<size_t>(size), 0);
  for (size_t at = 0;;) {
    uint64_t zeros = 0;
    if (!r->U(&zeros) || zeros > size - at) return false;
    at += static_cast<size_t>(zeros);
    if (at == size) break;
    if (!r->S(&m.ns[at++])) return false;
  }
  return true;
}

Status CheckStatisticsFits(const IndexedStatistics& s, const model::Trace& trace,
                           const std::string& name) {
  auto stale = [&](const char* why) {
    return DataLoss(StrFormat("the index's statistics do not fit %s (%s)", name.c_str(), why));
  };
  const auto rows_fit = [&](const std::vector<analysis::StateStats>& rows) {
    for (const analysis::StateStats& r : rows)
      if (r.state >= trace.states.size() ||
          (r.callsite != model::kNone && r.callsite >= trace.callsites.size()))
        return false;
    return true;
  };
  if (s.report.processes.size() != trace.processes.size() ||
      s.report.threads.size() != trace.threads.size())
    return stale("scope count");
  bool fits = rows_fit(s.report.all.states) && rows_fit(s.callsites);
  for (const auto* scopes : {&s.report.processes, &s.report.threads})
    for (const analysis::StateStatsScope& scope : *scopes)
      fits = fits && rows_fit(scope.states);
  if (!fits) return stale("a state or call site");
  return Status::Ok();
}

}  // namespace plx::store
