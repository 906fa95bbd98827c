// TraceBuilder and the event walk together: walking a trace and writing each
// event back through a builder must give the same trace again.
#include "interop/trace_builder.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "format/trace_file.h"
#include "interop/event_walk.h"
#include "interop_test_trace.h"
#include "support/test_support.h"
#include "trace_compare.h"

namespace plx::interop {
namespace {

using testing::CompareTraces;
using testing::TempDir;

// Writes every event it visits through a TraceBuilder.
class Copier : public EventVisitor {
 public:
  Copier(const model::Trace& t, TraceBuilder& b) : t_(t), b_(b) {
    for (const model::Process& p : t.processes) {
      b.AddProcess({p.name, p.rank, p.pid, p.host, p.executable, p.arguments,
                    p.realtime_minus_monotonic_ns});
    }
    for (const model::Thread& th : t.threads)
      b.AddThread(th.process, {th.tid, th.name});
    for (const model::Communicator& c : t.communicators) {
      comms_.push_back(b.Communicator(c.process, c.name, c.kind, c.global_id, c.members));
    }
  }
  void Enter(uint32_t r) override {
    const model::State& s = t_.states[t_.slices.state[r]];
    const std::string category =
        s.category == model::kNone ? "user" : t_.categories[s.category].name;
    Check(b_.Enter(t_.slices.thread[r], t_.slices.begin[r], b_.State(s.name, category, s.color)));
  }
  void Leave(uint32_t r) override {
    const model::State& s = t_.states[t_.slices.state[r]];
    Check(b_.Leave(t_.slices.thread[r], t_.slices.end[r], b_.State(s.name)));
  }
  void Message(uint32_t r) override {
    const model::MessageTable& m = t_.messages;
    if (m.is_send[r]) {
      Check(b_.Send(m.thread[r], m.time[r], comms_[m.comm[r]], m.peer[r], m.tag[r], m.bytes[r],
                    m.match[r], m.clock[r]));
    } else {
      Check(b_.Recv(m.thread[r], m.time[r], comms_[m.comm[r]], m.peer[r], m.tag[r], m.bytes[r],
                    m.match[r], m.clock[r]));
    }
  }
  void RecvPost(uint32_t r) override {
    const model::RecvPostTable& p = t_.recv_posts;
    Check(b_.RecvPost(p.thread[r], p.time[r], comms_[p.comm[r]], p.peer[r], p.tag[r], p.match[r]));
  }
  void Collective(uint32_t r) override {
    const model::CollectiveTable& c = t_.collectives;
    Check(b_.Collective(c.thread[r], c.time[r], c.op[r], comms_[c.comm[r]], c.root[r], c.sent[r],
                        c.received[r]));
  }
  void Rma(uint32_t r) override {
    const model::RmaTable& m = t_.rma;
    Check(b_.Rma(m.thread[r], m.time[r], m.op[r], comms_[m.comm[r]], m.origin[r], m.target[r],
                 m.bytes[r]));
  }
  void CounterSample(uint32_t r) override {
    const model::CounterTable& c = t_.counter_samples;
    const model::Counter& def = t_.counters[c.counter[r]];
    const uint32_t id = b_.Counter(def.name, def.unit, def.value_kind);
    if (def.value_kind == model::ValueKind::kInt) {
      Check(b_.CounterInt(c.thread[r], c.time[r], id, static_cast<int64_t>(c.value[r])));
    } else {
      Check(b_.CounterDouble(c.thread[r], c.time[r], id, c.value[r]));
    }
  }
  void Instant(uint32_t r) override {
    const model::InstantTable& i = t_.instants;
    const model::EventType& e = t_.event_types[i.type[r]];
    const uint32_t id = b_.EventType(e.name, e.value_kind);
    switch (i.kind[r]) {
      case model::ValueKind::kDouble:
        Check(b_.InstantDouble(i.thread[r], i.time[r], id, i.double_value[r]));
        break;
      case model::ValueKind::kString:
        Check(b_.InstantString(i.thread[r], i.time[r], id, t_.texts[i.text[r]]));
        break;
      default:
        Check(b_.InstantInt(i.thread[r], i.time[r], id, i.int_value[r]));
    }
  }

 private:
  static void Check(bool accepted) { EXPECT_TRUE(accepted); }
  const model::Trace& t_;
  TraceBuilder& b_;
  std::vector<uint32_t> comms_;
};

TEST(TraceBuilderTest, WalkAndRebuildGiveTheSameTrace) {
  TempDir dir;
  model::Trace original;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &original);
  ASSERT_EQ(original.threads.size(), 4u);
  auto builder = TraceBuilder::Create(dir.File("out.plx"));
  ASSERT_TRUE(builder.ok()) << builder.status().message();
  Copier copier(original, **builder);
  uint64_t last_done = 0;
  WalkTrace(original, copier, [&](uint64_t done, uint64_t total) {
    EXPECT_EQ(total, EventCount(original));
    last_done = done;
  });
  EXPECT_EQ(last_done, EventCount(original));
  EXPECT_EQ((*builder)->events(), EventCount(original));
  ASSERT_TRUE((*builder)->Finish().ok());

  model::Trace copy;
  testing::LoadPlx(dir.File("out.plx"), &copy);
  testing::CompareOptions all;
  all.instants = all.collectives = all.rma = all.recv_posts = true;
  EXPECT_EQ(CompareTraces(original, copy, all), std::vector<std::string>{});
  EXPECT_EQ(copy.stats.leave_mismatch, 0u);
  EXPECT_EQ(copy.stats.undefined_refs, 0u);
  // Colours, categories, units and absolute times survive too.
  EXPECT_EQ(copy.begin_ns, original.begin_ns);
  EXPECT_EQ(copy.processes[1].host, "node0");
  EXPECT_EQ(copy.processes[2].host, "node1");

  // The comparison sees a changed slice, message and counter.
  model::Trace changed = copy;
  changed.slices.end[3] += 1;
  changed.messages.tag[0] = 99;
  changed.counter_samples.value[0] = 1;
  std::string lines;
  for (const std::string& line : CompareTraces(original, changed, all))
    lines += line + "\n";
  EXPECT_NE(lines.find("states: missing"), std::string::npos) << lines;
  EXPECT_NE(lines.find("messages: missing"), std::string::npos) << lines;
  EXPECT_NE(lines.find("message pairs: missing"), std::string::npos) << lines;
  EXPECT_NE(lines.find("counters: missing"), std::string::npos) << lines;
}

TEST(TraceBuilderTest, ThreadWalkPutsPointEventsInsideTheirSlice) {
  TempDir dir;
  model::Trace t;
  testing::WriteInteropTestTrace(dir.File("in.plx"), &t);
  // Rank 0's barrier: the collective at the barrier's end comes before the leave.
  struct Log : EventVisitor {
    explicit Log(const model::Trace& trace) : t(trace) {}
    void Enter(uint32_t r) override { out += "+" + t.states[t.slices.state[r]].name + " "; }
    void Leave(uint32_t r) override { out += "-" + t.states[t.slices.state[r]].name + " "; }
    void Collective(uint32_t) override { out += "coll "; }
    void Message(uint32_t r) override { out += t.messages.is_send[r] ? "send " : "recv "; }
    const model::Trace& t;
    std::string out;
  } log(t);
  ThreadWalk(t, 0).Run(log);
  EXPECT_NE(log.out.find("+MPI_Barrier coll -MPI_Barrier +MPI_Bcast coll -MPI_Bcast"),
            std::string::npos)
      << log.out;
  EXPECT_EQ(log.out.find("+compute +solve step -solve step +solve step -solve step +MPI_Send send"
                         " -MPI_Send +MPI_Send send -MPI_Send"),
            0u)
      << log.out;
}

TEST(TraceBuilderTest, RefusesTimeGoingBackAndNamesWhere) {
  TempDir dir;
  auto builder = TraceBuilder::Create(dir.File("t.plx"));
  ASSERT_TRUE(builder.ok());
  TraceBuilder& b = **builder;
  const uint32_t p = b.AddProcess({"p", -1, 1, "", "", "", 0});
  const uint32_t t = b.AddThread(p, {1, "main"});
  const uint32_t s = b.State("work");
  EXPECT_TRUE(b.Enter(t, 100, s));
  EXPECT_FALSE(b.Leave(t, 99, s));
  EXPECT_FALSE(b.Enter(t, -1, s));
  EXPECT_EQ(b.LastTime(t), 100);
  EXPECT_TRUE(b.Leave(t, 100, s));
  b.Note(ImportCounter::kChromeUnmatchedEnd);
  b.Note(ImportCounter::kChromeUnmatchedEnd, 2);
  EXPECT_EQ(b.stats().at("chrome.unmatched_end"), 3u);
  ASSERT_TRUE(b.Finish().ok());
  // The counters stay attributes "import.NAME" of process 0, as files have them.
  auto file = format::TraceFile::Open(dir.File("t.plx"));
  ASSERT_TRUE(file.ok()) << file.status().message();
  const format::ProcessDefs& defs = (*file)->processes().begin()->second;
  std::map<std::string, std::string> imported;
  for (const format::AttributeDef& a : defs.attributes) {
    if (defs.Str(a.key).starts_with("import."))
      imported[std::string(defs.Str(a.key))] = std::string(defs.Str(a.value));
  }
  EXPECT_EQ(imported, (std::map<std::string, std::string>{{"import.chrome.unmatched_end", "3"}}));
  const Status e = InputError("x.json", "offset 17", "ts", "not a number");
  EXPECT_EQ(e.message(), "x.json:offset 17: ts: not a number");
}

}  // namespace
}  // namespace plx::interop
