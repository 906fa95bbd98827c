// Scripted traces for the replay endpoints' tests (replay_api_test.cc): a
// small one whose states, messages and counters are known, and a generated one
// with thousands of records.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/trace_script.h"

namespace plx::testing {

// Rank 0: compute [1000, 9000) holding MPI_Send [2000, 2500) (with pack
// [2100, 2150) inside; its message of 100 bytes reaches rank 1 at 2500), a
// zero-length MPI_Send at 3000 (5000 bytes to rank 2, received at 3900) and a
// send of 7 bytes at 4000 nobody receives; counter heap 100, 300, 50.
// Rank 1: MPI_Recv [1000, 2600), compute [2600, 7000), MPI_Send [7000, 7100)
// whose 1 MB message rank 2 receives at 11000. Rank 2 starts the trace at 500.
inline std::string SmallScript() {
  return MpiScriptPreamble(3) +
         "state 0 10 pack\n"
         "event_type 0 1 marker kind=int\n"
         "counter_def 0 1 heap unit=bytes kind=int\n"
         "counter_def 1 1 heap unit=bytes kind=int\n"
         "enter 0 0 t=1000 compute\n"
         "counter 0 0 t=1500 heap value=100\n"
         "enter 0 0 t=2000 MPI_Send\n"
         "enter 0 0 t=2100 pack\n"
         "leave 0 0 t=2150 pack\n"
         "send 0 0 t=2200 comm=world peer=1 tag=1 bytes=100 match=1\n"
         "leave 0 0 t=2500 MPI_Send\n"
         "enter 0 0 t=3000 MPI_Send\n"
         "send 0 0 t=3000 comm=world peer=2 tag=2 bytes=5000 match=2\n"
         "leave 0 0 t=3000 MPI_Send\n"
         "send 0 0 t=4000 comm=world peer=1 tag=9 bytes=7 match=3\n"
         "counter 0 0 t=5000 heap value=300\n"
         "event 0 0 t=6000 marker value=7\n"
         "counter 0 0 t=8000 heap value=50\n"
         "leave 0 0 t=9000 compute\n"
         "enter 1 0 t=1000 MPI_Recv\n"
         "counter 1 0 t=2000 heap value=10\n"
         "recv 1 0 t=2500 comm=world peer=0 tag=1 bytes=100 match=1\n"
         "leave 1 0 t=2600 MPI_Recv\n"
         "enter 1 0 t=2600 compute\n"
         "leave 1 0 t=7000 compute\n"
         "enter 1 0 t=7000 MPI_Send\n"
         "send 1 0 t=7050 comm=world peer=2 tag=3 bytes=1000000 match=1\n"
         "leave 1 0 t=7100 MPI_Send\n"
         "counter 1 0 t=9000 heap value=1000\n"
         "enter 2 0 t=500 compute\n"
         "leave 2 0 t=3500 compute\n"
         "enter 2 0 t=3500 MPI_Recv\n"
         "recv 2 0 t=3900 comm=world peer=0 tag=2 bytes=5000 match=1\n"
         "leave 2 0 t=4000 MPI_Recv\n"
         "enter 2 0 t=10000 MPI_Recv\n"
         "recv 2 0 t=11000 comm=world peer=1 tag=3 bytes=1000000 match=2\n"
         "leave 2 0 t=11500 MPI_Recv\n";
}

// Four ranks: random nesting up to depth 3 with ties and zero-length slices,
// 2000 messages (most short, some long, some never received), counter samples
// and instants, all at random times (deterministic).
inline std::string RandomScript() {
  constexpr int kRanks = 4;
  std::mt19937_64 rng(7);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  std::string script = MpiScriptPreamble(kRanks);
  std::vector<std::vector<std::pair<int64_t, std::string>>> lines(kRanks);
  const char* states[] = {"compute", "MPI_Send", "MPI_Recv", "pack"};
  int64_t end = 0;
  for (int r = 0; r < kRanks; ++r) {
    const std::string p = std::to_string(r);
    script += "state " + p + " 10 pack\nevent_type " + p + " 1 marker kind=int\n" + "counter_def " +
              p + " 1 heap kind=int\ncounter_def " + p + " 2 load kind=int\n";
    std::vector<std::string> stack;
    int64_t t = 1000 + uniform(0, 100);
    for (int k = 0; k < 700; ++k) {
      t += uniform(0, 3) == 0 ? 0 : uniform(1, 60);
      if (!stack.empty() && (stack.size() == 3 || uniform(0, 9) < 4)) {
        lines[r].push_back({t, "leave " + p + " 0 t=" + std::to_string(t) + " " + stack.back()});
        stack.pop_back();
      } else {
        stack.push_back(states[uniform(0, 3)]);
        lines[r].push_back({t, "enter " + p + " 0 t=" + std::to_string(t) + " " + stack.back()});
      }
    }
    while (!stack.empty()) {
      lines[r].push_back({t, "leave " + p + " 0 t=" + std::to_string(t) + " " + stack.back()});
      stack.pop_back();
    }
    end = std::max(end, t);
    for (int k = 0; k < 150; ++k) {
      const int64_t when = uniform(1000, 40000);
      lines[r].push_back({when, "counter " + p + " 0 t=" + std::to_string(when) + " " +
                                    (k % 3 ? "heap" : "load") +
                                    " value=" + std::to_string(uniform(0, 1000))});
    }
    for (int k = 0; k < 40; ++k) {
      const int64_t when = uniform(1000, 40000);
      lines[r].push_back({when, "event " + p + " 0 t=" + std::to_string(when) + " marker value=1"});
    }
  }
  for (int k = 0; k < 2000; ++k) {
    const int from = static_cast<int>(uniform(0, kRanks - 1));
    const int to = (from + static_cast<int>(uniform(1, kRanks - 1))) % kRanks;
    const int64_t send = uniform(1000, 40000);
    const int64_t kind = uniform(0, 99);
    const int64_t latency = kind < 93 ? uniform(100, 400) : uniform(3000, 20000);
    const std::string common = " comm=world tag=" + std::to_string(k) +
                               " bytes=" + std::to_string(uniform(1, 100000)) + " match=1";
    lines[from].push_back({send, "send " + std::to_string(from) + " 0 t=" + std::to_string(send) +
                                     " peer=" + std::to_string(to) + common});
    if (kind >= 97) continue;  // never received
    lines[to].push_back({send + latency, "recv " + std::to_string(to) +
                                             " 0 t=" + std::to_string(send + latency) +
                                             " peer=" + std::to_string(from) + common});
  }
  for (auto& rank : lines) {
    std::stable_sort(rank.begin(), rank.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [when, line] : rank)
      script += line + "\n";
  }
  return script;
}

}  // namespace plx::testing
