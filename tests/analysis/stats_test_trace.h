// A model::Trace built by hand for the statistics tests (histogram, anomalies,
// concurrency profile, matrices, imbalance): no file, no loader, exact values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "model/trace.h"

namespace plx::testing {

class StatsTestTrace {
 public:
  uint32_t State(const std::string& name) {
    trace.states.push_back({name, model::kNone, 0});
    return static_cast<uint32_t>(trace.states.size() - 1);
  }
  uint32_t Callsite(const std::string& file, uint32_t line) {
    trace.callsites.push_back({file, line, ""});
    return static_cast<uint32_t>(trace.callsites.size() - 1);
  }
  uint32_t Process(int64_t rank = -1) {
    model::Process p;
    p.file_id = static_cast<uint32_t>(trace.processes.size());
    p.rank = rank;
    trace.processes.push_back(p);
    return p.file_id;
  }
  uint32_t Thread(uint32_t process, int64_t begin = 0, int64_t end = 0) {
    model::Thread t;
    t.process = process;
    t.file_stream = static_cast<uint32_t>(trace.threads.size());
    t.begin_ns = begin;
    t.end_ns = end;
    t.records = 2;
    trace.threads.push_back(t);
    return static_cast<uint32_t>(trace.threads.size() - 1);
  }
  // Rows must be added sorted by thread, then begin, as the loader makes them.
  uint32_t Slice(uint32_t thread, uint32_t state, int64_t begin, int64_t end, uint16_t depth = 0,
                 uint32_t callsite = model::kNone, uint8_t flags = 0) {
    model::SliceTable& s = trace.slices;
    s.thread.push_back(thread);
    s.begin.push_back(begin);
    s.end.push_back(end);
    s.state.push_back(state);
    s.callsite.push_back(callsite);
    s.depth.push_back(depth);
    s.self_ns.push_back(end - begin);  // tests here do not look at self time
    s.flags.push_back(flags);
    trace.begin_ns = s.size() == 1 ? begin : std::min(trace.begin_ns, begin);
    trace.end_ns = std::max(trace.end_ns, end);
    return static_cast<uint32_t>(s.size() - 1);
  }

  // A communicator with global id 1 on every process (MPI_COMM_WORLD-like).
  uint32_t World(uint32_t process) {
    model::Communicator c;
    c.process = process;
    c.name = "world";
    c.global_id = 1;
    trace.communicators.push_back(c);
    return static_cast<uint32_t>(trace.communicators.size() - 1);
  }
  uint32_t Message(bool send, uint32_t thread, int64_t time, uint32_t comm, int64_t peer,
                   uint64_t bytes, int64_t tag = 0) {
    model::MessageTable& m = trace.messages;
    m.thread.push_back(thread);
    m.time.push_back(time);
    m.is_send.push_back(send ? 1 : 0);
    m.comm.push_back(comm);
    m.peer.push_back(peer);
    m.tag.push_back(tag);
    m.bytes.push_back(bytes);
    m.clock.push_back(0);
    m.match.push_back(0);
    return static_cast<uint32_t>(m.size() - 1);
  }
  void Rma(uint32_t thread, int64_t time, uint8_t op, int64_t origin, int64_t target,
           uint64_t bytes) {
    model::RmaTable& r = trace.rma;
    r.thread.push_back(thread);
    r.time.push_back(time);
    r.op.push_back(op);
    r.comm.push_back(model::kNone);
    r.origin.push_back(origin);
    r.target.push_back(target);
    r.bytes.push_back(bytes);
  }

  model::Trace trace;
};

}  // namespace plx::testing
