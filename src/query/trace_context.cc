#include "query/trace_context.h"

#include "query/vtab.h"

namespace plx::query {

TraceContext::TraceContext(const store::TraceStore& s) : store(&s) {
  const model::Trace& t = s.trace();
  origin = t.begin_ns;
  for (const model::Thread& th : t.threads) {
    process_of.push_back(th.process);
    rank_of.push_back(th.process < t.processes.size() ? t.processes[th.process].rank : -1);
  }
  for (const model::Callsite& c : t.callsites)
    callsites.push_back(c.file + ":" + std::to_string(c.line));
}

void TraceContext::Rank(uint32_t t, Cell cell) const {
  if (t < rank_of.size() && rank_of[t] >= 0) return cell.Int(rank_of[t]);
  cell.Null();
}

void TraceContext::Callsite(uint32_t c, Cell cell) const {
  if (c < callsites.size()) return cell.StaticText(callsites[c]);
  cell.Null();
}

void TraceContext::Category(uint32_t c, Cell cell) const {
  if (c < trace().categories.size()) return cell.StaticText(trace().categories[c].name);
  cell.Null();
}

void TraceContext::Comm(uint32_t c, Cell cell) const {
  if (c < trace().communicators.size()) return cell.StaticText(trace().communicators[c].name);
  cell.Null();
}

}  // namespace plx::query
