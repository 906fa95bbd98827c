// WriteTestTraces: scripts (support/trace_script.h) for the edge cases, the
// synthetic MPI generator (bench/mpi_trace_gen.h) for realistic runs, and
// byte surgery on a written file for damage.
#include "support/test_traces.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "bench/mpi_trace_gen.h"
#include "support/trace_script.h"

namespace plx::testing {

namespace {

std::string N(int64_t v) {
  return std::to_string(v);
}

// Two processes, three threads, 16-byte chunks: slices nested 5 deep across
// many chunk boundaries, some never closed; every record kind.
std::string NestedScript() {
  std::string s = "option chunk=96 zstd=0\n";
  for (int p = 0; p < 2; ++p) {
    const std::string P = N(p);
    s += "process " + P + " pid=" + N(100 + p) + " rank=" + P + "\n";
    s += "thread " + P + " 0 name=main\n";
    s += "state " + P + " 1 outer\nstate " + P + " 2 phase category=user\n";
    s += "state " + P + " 3 work category=user\nstate " + P + " 4 MPI_Send category=comm\n";
    s += "state " + P + " 5 MPI_Recv category=comm\nstate " + P + " 6 MPI_Barrier category=comm\n";
    s += "state " + P + " 7 inner\n";
    s += "callsite " + P + " 1 a.c 10 function=f\ncallsite " + P + " 2 b.c 20\n";
    s += "event_type " + P + " 1 note kind=string\nevent_type " + P + " 2 count kind=int\n";
    s += "event_type " + P + " 3 ratio kind=double\n";
    s += "counter_def " + P + " 1 bytes kind=int\ncounter_def " + P + " 2 load kind=double\n";
    s += "comm " + P + " 1 world global=1 members=0,1\n";
  }
  s += "thread 0 1 name=helper\n";
  int64_t t = 1000;
  // One record line: `head`, its time `step` ns after the last one, `tail`.
  auto rec = [&](const std::string& head, int64_t step, const std::string& tail) {
    t += step;
    s += head + " t=" + N(t) + " " + tail + "\n";
  };
  rec("thread_begin 0 0", 0, "");
  rec("enter 0 0", 0, "outer");
  rec("enter 1 0", 1, "outer");
  rec("enter 0 1", 1, "outer");
  for (int i = 0; i < 40; ++i) {
    const std::string I = N(i);
    const std::string tag = " tag=" + N(i % 3);
    rec("enter 0 0", 10, "phase callsite=1");
    rec("enter 0 0", 5, "work callsite=" + N(1 + i % 2));
    rec("enter 0 0", 5, "inner");
    rec("event 0 0", 3, "note value=n" + I);
    rec("counter 0 0", 2, "bytes value=" + N(i * 7));
    rec("leave 0 0", 20 + (i % 5) * 10, "inner");
    rec("enter 0 0", 2, "MPI_Send");
    rec("send 0 0", 1, "comm=world peer=1" + tag + " bytes=" + N(64 * i) + " match=" + N(i + 1));
    rec("leave 0 0", 3, "MPI_Send");
    rec("leave 0 0", 1, "work");
    rec("enter 1 0", 1, "MPI_Recv");
    rec("post 1 0", 1, "comm=world peer=0" + tag + " match=" + N(i + 1));
    rec("recv 1 0", 4, "comm=world peer=0" + tag + " bytes=" + N(64 * i) + " match=" + N(i + 1));
    rec("leave 1 0", 1, "MPI_Recv");
    rec("event 1 0", 1, "count value=" + I);
    rec("event 0 1", 1, "ratio value=0." + I);
    rec("counter 0 1", 1, "load value=" + N(i % 4) + ".5");
    if (i % 10 == 9) {
      rec("enter 0 0", 2, "MPI_Barrier");
      rec("enter 1 0", 1, "MPI_Barrier");
      rec("collective 0 0", 5, "op=1 comm=world");
      rec("collective 1 0", 1, "op=1 comm=world");
      rec("leave 0 0", 1, "MPI_Barrier");
      rec("leave 1 0", 1, "MPI_Barrier");
      rec("rma 0 0", 1, "op=0 comm=world origin=0 target=1 bytes=128");
    }
    if (i == 12) {
      rec("control 0 1", 1, "on=0");
      rec("control 0 1", 5, "on=1");
    }
    if (i == 17) rec("lost 1 0", 1, "count=3");
    if (i == 21) rec("leave 1 0", 1, "inner");  // never entered
    if (i == 25) {                              // left under another name
      rec("enter 0 1", 1, "work");
      rec("leave 0 1", 2, "inner");
    }
    if (i == 30) rec("raw 0 0", 1, "kind=200 hex=0102");  // a kind of the future
    rec("leave 0 0", 2, "phase");
  }
  rec("leave 1 0", 5, "outer");
  rec("enter 0 0", 5, "phase");
  rec("enter 0 0", 5, "MPI_Recv");  // never left
  rec("thread_end 0 1", 3, "");
  return s;
}

// Ids nobody defines: states, call sites, event types, counters and a
// communicator, the same raw id in two processes, some inside long slices.
std::string UndefinedScript() {
  std::string s = "option chunk=80 zstd=0\n";
  for (int p = 0; p < 2; ++p) {
    const std::string P = N(p);
    s += "process " + P + " rank=" + P + "\nthread " + P + " 0\nstate " + P + " 1 known\n";
  }
  int64_t t = 100;
  auto rec = [&](const std::string& head, int64_t step, const std::string& tail) {
    t += step;
    s += head + " t=" + N(t) + " " + tail + "\n";
  };
  for (int i = 0; i < 12; ++i) {
    for (int p = 0; p < 2; ++p) {
      const std::string P = N(p);
      const std::string outer = i % 3 == 0 ? "9" : "known";
      rec("enter " + P + " 0", 3, outer + " callsite=" + N(40 + i % 2));
      rec("enter " + P + " 0", 3, N(7 + p));
      rec("event " + P + " 0", 2, "5 value=1");
      rec("counter " + P + " 0", 2, "6 value=2");
      rec("send " + P + " 0", 1, "comm=3 peer=" + N(1 - p) + " tag=0 bytes=1");
      rec("leave " + P + " 0", 4, N(7 + p));
      rec("leave " + P + " 0", 2, outer);
    }
  }
  return s;
}

// A process on a TSC clock (2 ticks per ns) with sync pairs slightly off
// the line, next to one on ns: the loader's tick conversion per segment.
std::string TscScript() {
  std::string s = "option chunk=120 zstd=1\n";
  s += "process 0 rank=0\nprocess 1 rank=1\nclock 0 tsc=2000000000\nsync 0 tick=0 ns=1000\n";
  for (int p = 0; p < 2; ++p) {
    const std::string P = N(p);
    s += "thread " + P + " 0\nstate " + P + " 1 outer\nstate " + P + " 2 work\n";
    s += "state " + P + " 3 MPI_Send category=comm\nstate " + P + " 4 MPI_Recv category=comm\n";
    s += "comm " + P + " 1 world global=1 members=0,1\n";
  }
  const auto tick = [](int64_t ns) { return N((ns - 1000) * 2); };
  s += "enter 0 0 t=" + tick(2000) + " outer\nenter 1 0 t=2000 outer\n";
  for (int i = 0; i < 120; ++i) {
    const int64_t base = 3000 + int64_t{i} * 1000;
    if (i % 30 == 29)
      s += "sync 0 tick=" + tick(base) + " ns=" + N(base + (i % 60 == 29 ? 3 : -2)) + "\n";
    s += "enter 0 0 t=" + tick(base + 10) + " work\nleave 0 0 t=" + tick(base + 200) + " work\n";
    s += "enter 0 0 t=" + tick(base + 300) + " MPI_Send\n";
    s += "send 0 0 t=" + tick(base + 310) + " comm=world peer=1 tag=1 bytes=8 match=" + N(i + 1) +
         "\n";
    s += "leave 0 0 t=" + tick(base + 320) + " MPI_Send\n";
    // Process 1's clock is a little behind: some receives come before their sends.
    s += "enter 1 0 t=" + N(base + 250) + " MPI_Recv\n";
    s += "recv 1 0 t=" + N(base + 300 + (i % 7) * 5) +
         " comm=world peer=0 tag=1 bytes=8 match=" + N(i + 1) + "\n";
    s += "leave 1 0 t=" + N(base + 400) + " MPI_Recv\n";
  }
  s += "leave 0 0 t=" + tick(130000) + " outer\nleave 1 0 t=130000 outer\n";
  return s;
}

// Three ranks: 0 and 1 each wait in MPI_Recv for the other; 2 waits in a
// barrier the others never reach. Nothing is ever left.
std::string DeadlockScript() {
  std::string s = "option chunk=64 zstd=0\n" + MpiScriptPreamble(3);
  s += "enter 0 0 t=100 compute\nleave 0 0 t=200 compute\nenter 1 0 t=110 compute\n";
  s += "leave 1 0 t=210 compute\n";
  s += "enter 0 0 t=300 MPI_Send\nsend 0 0 t=301 comm=world peer=2 tag=4 bytes=8 match=1\n";
  s += "leave 0 0 t=302 MPI_Send\n";
  s += "enter 0 0 t=400 MPI_Recv\npost 0 0 t=401 comm=world peer=1 tag=7 match=1\n";
  s += "enter 1 0 t=410 MPI_Recv\npost 1 0 t=411 comm=world peer=0 tag=7 match=1\n";
  s += "enter 2 0 t=420 MPI_Recv\npost 2 0 t=421 comm=world peer=0 tag=4 match=1\n";
  s += "recv 2 0 t=430 comm=world peer=0 tag=4 bytes=8 match=1\nleave 2 0 t=431 MPI_Recv\n";
  s += "enter 2 0 t=500 MPI_Barrier\n";
  return s;
}

// A work queue between threads of one process: the producer sends each job
// to whichever worker takes it (peer -1), workers name the producer.
std::string FarmScript() {
  std::string s = "option chunk=100 zstd=0\nprocess 0 pid=7\n";
  s += "thread 0 0 name=producer\nthread 0 1 name=w1\nthread 0 2 name=w2\n";
  s += "state 0 1 produce\nstate 0 2 job\nstate 0 3 wait\ncomm 0 1 jobs kind=streams\n";
  for (int i = 0; i < 30; ++i) {
    const int64_t base = 1000 + i * 100;
    const std::string W = N(1 + i % 2);
    s += "enter 0 0 t=" + N(base) + " produce\n";
    s += "send 0 0 t=" + N(base + 5) + " comm=jobs peer=-1 tag=" + N(i) + " bytes=16\n";
    s += "leave 0 0 t=" + N(base + 10) + " produce\n";
    s += "enter 0 " + W + " t=" + N(base + 2) + " wait\n";
    s += "recv 0 " + W + " t=" + N(base + 12) + " comm=jobs peer=0 tag=" + N(i) + " bytes=16\n";
    s += "leave 0 " + W + " t=" + N(base + 13) + " wait\n";
    s += "enter 0 " + W + " t=" + N(base + 14) + " job\nleave 0 " + W +
         " t=" + N(base + 60 + (i == 17 ? 120 : i % 4)) + " job\n";
  }
  return s;
}

std::vector<uint8_t> ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void WriteAll(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

void Script(const std::string& dir, const std::string& name, const std::string& script,
            std::vector<TestTrace>* out) {
  const std::string path = dir + "/" + name + ".plx";
  const Status s = WriteTraceScript(script, path);
  EXPECT_TRUE(s.ok()) << name << ": " << s.message();
  out->push_back({name, path});
}

void Mpi(const std::string& dir, const std::string& name, uint32_t ranks, uint64_t events,
         uint64_t seed, std::vector<TestTrace>* out) {
  const std::string path = dir + "/" + name + ".plx";
  const StatusOr<uint64_t> written =
      bench::WriteMpiTrace(path, bench::MpiTraceOptions{ranks, events, seed});
  EXPECT_TRUE(written.ok()) << name << ": " << written.status().message();
  out->push_back({name, path});
}

}  // namespace

std::vector<TestTrace> WriteTestTraces(const std::string& dir) {
  std::vector<TestTrace> out;
  Script(dir, "nested", NestedScript(), &out);
  Script(dir, "undefined", UndefinedScript(), &out);
  Script(dir, "tsc", TscScript(), &out);
  Script(dir, "deadlock", DeadlockScript(), &out);
  Script(dir, "farm", FarmScript(), &out);
  Script(dir, "empty", "process 0 rank=0\nthread 0 0\nstate 0 1 idle\n", &out);
  Mpi(dir, "mpi4", 4, 20'000, 3, &out);
  Mpi(dir, "mpi16", 16, 60'000, 1, &out);

  // Damage: a payload byte flipped in a middle chunk of the nested trace, a
  // record cut short inside another, and the file cut inside its last chunks.
  const std::vector<uint8_t> nested = ReadAll(out.front().path);
  std::vector<uint8_t> damaged = nested;
  if (damaged.size() > 2000) {
    damaged[damaged.size() / 3] ^= 0x5a;
    damaged[damaged.size() / 2] ^= 0xff;
  }
  WriteAll(dir + "/damaged.plx", damaged);
  out.push_back({"damaged", dir + "/damaged.plx"});
  std::vector<uint8_t> truncated(nested.begin(),
                                 nested.begin() + static_cast<ptrdiff_t>(nested.size() * 2 / 3));
  WriteAll(dir + "/truncated.plx", truncated);
  out.push_back({"truncated", dir + "/truncated.plx"});
  return out;
}

TempDir* TestTracesSuite::dir_ = nullptr;
std::vector<TestTrace>* TestTracesSuite::traces_ = nullptr;

void TestTracesSuite::SetUpTestSuite() {
  dir_ = new TempDir();
  traces_ = new std::vector<TestTrace>(WriteTestTraces(dir_->path()));
}

void TestTracesSuite::TearDownTestSuite() {
  delete traces_;
  delete dir_;
  traces_ = nullptr;
  dir_ = nullptr;
}

}  // namespace plx::testing
