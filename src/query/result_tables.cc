// The tables made once and kept (RowTable): the definitions, and what the
// trace store's analyses find — paired messages, wait states, the critical
// path, anomalies — each made by its pass the first time a statement reads
// it, with the answers the commands print (the same store passes).
#include "query/result_tables.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>

#include "analysis/anomalies.h"
#include "analysis/critical_path.h"
#include "analysis/wait_states.h"
#include "query/row_table.h"
#include "store/message_pass.h"
#include "store/stream_anomalies.h"
#include "store/stream_critical_path.h"
#include "store/stream_waits.h"

namespace plx::query {

namespace {

// Progress of one pass, named.
std::function<void(uint64_t, uint64_t)> Step(const Progress& progress, const char* what) {
  if (!progress) return {};
  return [progress, what](uint64_t done, uint64_t total) { progress(what, done, total); };
}

// A thread's process and rank into the columns at `process` and `rank`.
void SetWhere(const TraceContext& c, RowTable* t, uint32_t thread, int process, int rank) {
  if (thread >= c.process_of.size()) return;
  t->SetInt(process, c.process_of[thread]);
  if (c.rank_of[thread] >= 0) t->SetInt(rank, c.rank_of[thread]);
}

Status FillThreads(const TraceContext& c, RowTable* t) {
  const model::Trace& trace = c.trace();
  for (uint32_t i = 0; i < trace.threads.size(); ++i) {
    const model::Thread& th = trace.threads[i];
    t->AddRow();
    t->SetInt(kThreadId, i);
    SetWhere(c, t, i, kThreadProcess, kThreadRank);
    t->SetInt(kThreadStream, th.file_stream);
    t->SetInt(kThreadTid, static_cast<int64_t>(th.tid));
    if (!th.name.empty()) t->SetText(kThreadName, th.name);
    t->SetInt(kThreadBegin, c.Shown(th.begin_ns));
    t->SetInt(kThreadEnd, c.Shown(th.end_ns));
    t->SetInt(kThreadRecords, static_cast<int64_t>(th.records));
  }
  return Status::Ok();
}

Status FillProcesses(const TraceContext& c, RowTable* t) {
  const model::Trace& trace = c.trace();
  std::vector<int64_t> threads(trace.processes.size(), 0);
  for (const model::Thread& th : trace.threads)
    if (th.process < threads.size()) ++threads[th.process];
  for (uint32_t i = 0; i < trace.processes.size(); ++i) {
    const model::Process& p = trace.processes[i];
    t->AddRow();
    t->SetInt(kProcessId, i);
    if (p.rank >= 0) t->SetInt(kProcessRank, p.rank);
    t->SetInt(kProcessPid, static_cast<int64_t>(p.pid));
    t->SetText(kProcessHost, p.host);
    t->SetText(kProcessExecutable, p.executable);
    if (!p.name.empty()) t->SetText(kProcessName, p.name);
    t->SetInt(kProcessThreads, threads[i]);
  }
  return Status::Ok();
}

Status FillStates(const TraceContext& c, RowTable* t) {
  const model::Trace& trace = c.trace();
  for (uint32_t i = 0; i < trace.states.size(); ++i) {
    const model::State& s = trace.states[i];
    t->AddRow();
    t->SetInt(kStateId, i);
    t->SetText(kStateName, s.name);
    if (s.category < trace.categories.size())
      t->SetText(kStateCategory, trace.categories[s.category].name);
    if (s.color & 0x1000000u) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "#%06x", s.color & 0xffffffu);
      t->SetText(kStateColor, hex);
    }
  }
  return Status::Ok();
}

Status FillCallsites(const TraceContext& c, RowTable* t) {
  const model::Trace& trace = c.trace();
  for (uint32_t i = 0; i < trace.callsites.size(); ++i) {
    const model::Callsite& s = trace.callsites[i];
    t->AddRow();
    t->SetInt(kCallsiteId, i);
    t->SetText(kCallsiteFile, s.file);
    t->SetInt(kCallsiteLine, s.line);
    if (!s.function.empty()) t->SetText(kCallsiteFunction, s.function);
  }
  return Status::Ok();
}

Status FillCounters(const TraceContext& c, RowTable* t) {
  const model::Trace& trace = c.trace();
  for (uint32_t i = 0; i < trace.counters.size(); ++i) {
    t->AddRow();
    t->SetInt(kCounterId, i);
    t->SetText(kCounterName, trace.counters[i].name);
    if (!trace.counters[i].unit.empty()) t->SetText(kCounterUnit, trace.counters[i].unit);
  }
  return Status::Ok();
}

// Every pair, and every record left without a partner, of one partition.
class PairCollector : public store::MessageConsumer {
 public:
  struct Message {
    std::optional<store::MessageSide> send, recv;
    int64_t time() const { return send ? send->time : recv->time; }
    uint32_t row() const { return send ? send->row : recv->row; }
  };
  void Pair(const store::MessageSide& send, const store::MessageSide& recv, bool,
            int64_t) override {
    messages.push_back({send, recv});
  }
  void Unmatched(const store::MessageSide& m) override {
    messages.push_back(m.send ? Message{m, std::nullopt} : Message{std::nullopt, m});
  }
  std::vector<Message> messages;
};

Status FillMessages(const TraceContext& c, const Progress& progress, RowTable* t) {
  const model::Trace& trace = c.trace();
  auto consumers = store::RunMessagePass(
      *c.store, [](size_t) { return std::make_unique<PairCollector>(); }, {},
      Step(progress, "messages"));
  std::vector<PairCollector::Message> all;
  for (auto& consumer : consumers) {
    auto& m = static_cast<PairCollector&>(*consumer).messages;
    all.insert(all.end(), m.begin(), m.end());
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return a.time() != b.time() ? a.time() < b.time() : a.row() < b.row();
  });
  auto side = [&](const store::MessageSide& m, int thread, int process, int rank, int time,
                  int slice, int call) {
    t->SetInt(thread, m.thread);
    SetWhere(c, t, m.thread, process, rank);
    t->SetInt(time, c.Shown(m.time));
    if (m.call.slice != model::kNone) t->SetInt(slice, m.call.slice);
    if (m.call.state < trace.states.size()) t->SetText(call, trace.states[m.call.state].name);
  };
  for (size_t i = 0; i < all.size(); ++i) {
    const PairCollector::Message& m = all[i];
    const store::MessageSide& any = m.send ? *m.send : *m.recv;
    t->AddRow();
    t->SetInt(kMessageId, static_cast<int64_t>(i));
    if (any.comm < trace.communicators.size())
      t->SetText(kMessageComm, trace.communicators[any.comm].name);
    t->SetInt(kMessageTag, any.tag);
    t->SetInt(kMessageBytes, static_cast<int64_t>(any.bytes));
    if (m.send)
      side(*m.send, kMessageSendThread, kMessageSender, kMessageSendRank, kMessageSendTime,
           kMessageSendSlice, kMessageSendCall);
    if (m.recv)
      side(*m.recv, kMessageRecvThread, kMessageReceiver, kMessageRecvRank, kMessageRecvTime,
           kMessageRecvSlice, kMessageRecvCall);
    if (m.send && m.recv) t->SetInt(kMessageLatency, m.recv->time - m.send->time);
  }
  return Status::Ok();
}

Status FillWaits(const TraceContext& c, const Progress& progress, RowTable* t) {
  const store::StreamedWaits w =
      store::StreamWaits(*c.store, /*wait_ends=*/false, Step(progress, "wait states"), nullptr,
                         nullptr, {}, {}, /*longest=*/SIZE_MAX);
  for (const analysis::WaitInstance& i : w.waits.instances) {
    t->AddRow();
    t->SetInt(kWaitSlice, i.slice);
    t->SetText(kWaitKind, analysis::WaitKindName(i.kind));
    t->SetInt(kWaitThread, i.thread);
    SetWhere(c, t, i.thread, kWaitProcess, kWaitRank);
    t->SetInt(kWaitBegin, c.Shown(i.begin_ns));
    t->SetInt(kWaitEnd, c.Shown(i.end_ns()));
    t->SetInt(kWaitDur, i.wait_ns);
    if (i.cause_thread < c.rank_of.size()) {
      t->SetInt(kWaitCauseThread, i.cause_thread);
      if (c.rank_of[i.cause_thread] >= 0) t->SetInt(kWaitCauseRank, c.rank_of[i.cause_thread]);
    }
  }
  return Status::Ok();
}

Status FillPath(const TraceContext& c, const Progress& progress, RowTable* t) {
  const store::StreamedWaits w =
      store::StreamWaits(*c.store, /*wait_ends=*/true, Step(progress, "wait states"));
  const analysis::CriticalPath path =
      store::StreamCriticalPath(*c.store, w.ends, Step(progress, "critical path"));
  for (size_t i = 0; i < path.segments.size(); ++i) {
    const analysis::PathSegment& s = path.segments[i];
    t->AddRow();
    t->SetInt(kPathSegment, static_cast<int64_t>(i));
    if (s.thread != model::kNone) {
      t->SetInt(kPathThread, s.thread);
      SetWhere(c, t, s.thread, kPathProcess, kPathRank);
    }
    t->SetInt(kPathBegin, c.Shown(s.begin_ns));
    t->SetInt(kPathEnd, c.Shown(s.end_ns));
    t->SetInt(kPathDur, s.length_ns());
  }
  return Status::Ok();
}

Status FillAnomalies(const TraceContext& c, const Progress& progress, RowTable* t) {
  const std::vector<analysis::Anomaly> found =
      store::StreamAnomalies(*c.store, analysis::AnomalyOptions(), Step(progress, "anomalies"));
  const model::Trace& trace = c.trace();
  for (const analysis::Anomaly& a : found) {
    t->AddRow();
    t->SetInt(kAnomalySlice, a.slice);
    t->SetInt(kAnomalyThread, a.thread);
    SetWhere(c, t, a.thread, kAnomalyProcess, kAnomalyRank);
    if (a.state < trace.states.size()) t->SetText(kAnomalyState, trace.states[a.state].name);
    t->SetInt(kAnomalyBegin, c.Shown(a.begin_ns));
    t->SetInt(kAnomalyDur, a.duration_ns);
    t->SetReal(kAnomalyMedian, a.median_ns);
    t->SetReal(kAnomalyLimit, a.limit_ns);
    t->SetReal(kAnomalyScore, a.score);
    t->SetInt(kAnomalyGroupSize, static_cast<int64_t>(a.group_size));
  }
  return Status::Ok();
}

}  // namespace

std::vector<std::unique_ptr<VirtualTable>> ResultTables(const TraceContext& context,
                                                        Progress progress) {
  using Filler = Status (*)(const TraceContext&, RowTable*);
  using Pass = Status (*)(const TraceContext&, const Progress&, RowTable*);
  std::vector<std::unique_ptr<VirtualTable>> out;
  auto add = [&](const char* name, Filler fill) {
    out.push_back(std::make_unique<RowTable>(
        *FindTable(name), [&context, fill](RowTable* t) { return fill(context, t); }));
  };
  auto add_pass = [&](const char* name, Pass fill) {
    out.push_back(std::make_unique<RowTable>(
        *FindTable(name),
        [&context, progress, fill](RowTable* t) { return fill(context, progress, t); }));
  };
  add("threads", FillThreads);
  add("processes", FillProcesses);
  add("states", FillStates);
  add("callsites", FillCallsites);
  add("counters", FillCounters);
  add_pass("messages", FillMessages);
  add_pass("wait_states", FillWaits);
  add_pass("critical_path", FillPath);
  add_pass("anomalies", FillAnomalies);
  return out;
}

}  // namespace plx::query
