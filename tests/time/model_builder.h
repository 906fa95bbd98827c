// Hand-built models for the tests of src/time: processes with one thread each,
// a world communicator, slices, messages and collectives added in time order
// per thread (the order the model's tables keep).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"

namespace plx::time::testing {

class ModelBuilder {
 public:
  /// `processes` MPI processes (ranks 0..n-1), one thread each (thread = rank),
  /// each with a "world" communicator (global id 1, all ranks as members).
  explicit ModelBuilder(uint32_t processes) {
    std::vector<int64_t> members;
    for (uint32_t p = 0; p < processes; ++p)
      members.push_back(p);
    for (uint32_t p = 0; p < processes; ++p) {
      model::Process proc;
      proc.file_id = p;
      proc.rank = p;
      t_.processes.push_back(proc);
      model::Thread th;
      th.process = p;
      th.file_stream = 1;
      t_.threads.push_back(th);
      model::Communicator c;
      c.process = p;
      c.name = "MPI_COMM_WORLD";
      c.global_id = 1;
      c.members = members;
      t_.communicators.push_back(c);
    }
  }

  uint32_t State(const std::string& name) {
    for (uint32_t i = 0; i < t_.states.size(); ++i)
      if (t_.states[i].name == name) return i;
    t_.states.push_back({name, model::kNone, 0});
    return static_cast<uint32_t>(t_.states.size() - 1);
  }

  /// Returns the slice row.
  uint32_t Slice(uint32_t thread, const std::string& state, int64_t begin, int64_t end,
                 uint16_t depth = 0) {
    model::SliceTable& s = t_.slices;
    s.thread.push_back(thread);
    s.begin.push_back(begin);
    s.end.push_back(end);
    s.state.push_back(State(state));
    s.callsite.push_back(model::kNone);
    s.depth.push_back(depth);
    s.self_ns.push_back(end - begin);
    s.flags.push_back(0);
    // Direct children: the parent's self time loses theirs.
    for (size_t i = s.size() - 1; depth > 0 && i-- > 0;) {
      if (s.thread[i] == thread && s.depth[i] + 1 == depth) {
        s.self_ns[i] -= end - begin;
        break;
      }
    }
    Touch(thread, begin);
    Touch(thread, end);
    return static_cast<uint32_t>(s.size() - 1);
  }

  /// Returns the message row. `peer` is a world rank.
  uint32_t Message(bool send, uint32_t thread, int64_t time, int64_t peer, int64_t tag = 0) {
    model::MessageTable& m = t_.messages;
    m.thread.push_back(thread);
    m.time.push_back(time);
    m.is_send.push_back(send ? 1 : 0);
    m.comm.push_back(thread);  // the thread's process's world communicator
    m.peer.push_back(peer);
    m.tag.push_back(tag);
    m.bytes.push_back(8);
    m.clock.push_back(0);
    m.match.push_back(0);
    Touch(thread, time);
    return static_cast<uint32_t>(m.size() - 1);
  }
  uint32_t Send(uint32_t thread, int64_t time, int64_t peer, int64_t tag = 0) {
    return Message(true, thread, time, peer, tag);
  }
  uint32_t Recv(uint32_t thread, int64_t time, int64_t peer, int64_t tag = 0) {
    return Message(false, thread, time, peer, tag);
  }

  /// A collective record (op 8 = allreduce, 2 = bcast, ...); returns the row.
  uint32_t Collective(uint32_t thread, int64_t time, uint8_t op = 8, int64_t root = -1) {
    model::CollectiveTable& c = t_.collectives;
    c.thread.push_back(thread);
    c.time.push_back(time);
    c.op.push_back(op);
    c.comm.push_back(thread);
    c.root.push_back(root);
    c.sent.push_back(8);
    c.received.push_back(8);
    Touch(thread, time);
    return static_cast<uint32_t>(c.size() - 1);
  }

  model::Trace& trace() { return t_; }

 private:
  void Touch(uint32_t thread, int64_t time) {
    model::Thread& th = t_.threads[thread];
    if (th.records == 0 || time < th.begin_ns) th.begin_ns = time;
    if (th.records == 0 || time > th.end_ns) th.end_ns = time;
    ++th.records;
    bool first = true;
    for (const model::Thread& x : t_.threads) {
      if (x.records == 0) continue;
      t_.begin_ns = first ? x.begin_ns : std::min(t_.begin_ns, x.begin_ns);
      t_.end_ns = first ? x.end_ns : std::max(t_.end_ns, x.end_ns);
      first = false;
    }
  }

  model::Trace t_;
};

}  // namespace plx::time::testing
