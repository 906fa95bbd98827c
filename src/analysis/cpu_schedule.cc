// ComputeCpuSchedule: one pass over the `cpu` counter's samples turns each
// thread's samples into spans (merging repeats); the threads' span lists are
// then merged by begin into per-CPU buckets.
#include "analysis/cpu_schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace plx::analysis {
namespace {

// The counter PLX_SCHED=1 writes: named "cpu", unit "cpu" (definitions with
// equal names are merged, so there is at most one "cpu").
uint32_t CpuCounter(const model::Trace& trace) {
  for (uint32_t i = 0; i < trace.counters.size(); ++i)
    if (trace.counters[i].name == "cpu" && trace.counters[i].unit == "cpu") return i;
  return model::kNone;
}

// What the pass keeps of the thread it is in.
struct Open {
  uint32_t thread = model::kNone;
  int64_t cpu = -1;       // the open span's CPU; -1 = none open
  int64_t last_cpu = -1;  // the thread's last valid sample; -1 = none yet
  int64_t begin_ns = 0;
};

}  // namespace

CpuSchedule ComputeCpuSchedule(const model::Trace& trace) {
  CpuSchedule out;
  const uint32_t counter = CpuCounter(trace);
  if (counter == model::kNone) return out;
  const model::CounterTable& c = trace.counter_samples;
  // Each thread's spans are one run, in begin order (samples are in time
  // order per thread); `runs` holds where each run starts.
  std::vector<CpuSpan> spans;
  std::vector<size_t> runs;
  spans.reserve(static_cast<size_t>(std::count(c.counter.begin(), c.counter.end(), counter)));
  std::vector<size_t> per_cpu;  // spans per CPU number
  Open open;
  auto close = [&](int64_t end_ns) {
    if (open.cpu < 0) return;
    const auto cpu = static_cast<uint32_t>(open.cpu);
    spans.push_back(CpuSpan{cpu, open.thread, open.begin_ns, std::max(end_ns, open.begin_ns)});
    if (cpu >= per_cpu.size()) per_cpu.resize(cpu + 1, 0);
    ++per_cpu[cpu];
    open.cpu = -1;
  };
  auto thread_end = [&](uint32_t thread) {
    return thread < trace.threads.size() ? trace.threads[thread].end_ns : open.begin_ns;
  };
  for (size_t i = 0; i < c.size(); ++i) {
    if (c.counter[i] != counter) continue;
    out.has_data = true;
    const uint32_t thread = c.thread[i];
    const int64_t t = c.time[i];
    if (thread != open.thread) {
      close(thread_end(open.thread));
      open = Open{};
      open.thread = thread;
      runs.push_back(spans.size());
    }
    const double v = c.value[i];
    if (!(v >= 0 && v < kMaxCpu) || v != std::floor(v)) {
      ++out.invalid_samples;
      close(t);
      continue;
    }
    const auto cpu = static_cast<int64_t>(v);
    if (cpu == open.cpu) continue;  // the same CPU again: the span goes on
    if (open.last_cpu >= 0 && cpu != open.last_cpu) ++out.migrations;
    close(t);
    open.cpu = open.last_cpu = cpu;
    open.begin_ns = t;
  }
  close(thread_end(open.thread));
  runs.push_back(spans.size());

  // Where each CPU's spans go, then the runs merged by (begin, thread)
  // through a heap of run heads (O(n log threads)), each span written to its
  // CPU's next place: every CPU's spans come out in begin order.
  std::vector<size_t> next(per_cpu.size() + 1, 0);
  for (size_t cpu = 0; cpu < per_cpu.size(); ++cpu) {
    next[cpu + 1] = next[cpu] + per_cpu[cpu];
    if (per_cpu[cpu] == 0) continue;
    out.cpus.push_back(static_cast<uint32_t>(cpu));
    out.cpu_offsets.push_back(next[cpu]);
  }
  out.cpu_offsets.push_back(spans.size());
  struct Head {
    size_t pos, end;
  };
  auto later = [&](const Head& a, const Head& b) {
    const CpuSpan &x = spans[a.pos], &y = spans[b.pos];
    return x.begin_ns != y.begin_ns ? x.begin_ns > y.begin_ns : x.thread > y.thread;
  };
  std::vector<Head> heap;
  for (size_t r = 0; r + 1 < runs.size(); ++r)
    if (runs[r] < runs[r + 1]) heap.push_back(Head{runs[r], runs[r + 1]});
  std::make_heap(heap.begin(), heap.end(), later);
  out.spans.resize(spans.size());
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    Head& h = heap.back();
    const CpuSpan& s = spans[h.pos];
    out.spans[next[s.cpu]++] = s;
    if (++h.pos < h.end) {
      std::push_heap(heap.begin(), heap.end(), later);
    } else {
      heap.pop_back();
    }
  }
  out.max_end.resize(out.spans.size());
  for (size_t k = 0; k + 1 < out.cpu_offsets.size(); ++k) {
    int64_t max_end = INT64_MIN;
    for (size_t i = out.cpu_offsets[k]; i < out.cpu_offsets[k + 1]; ++i)
      out.max_end[i] = max_end = std::max(max_end, out.spans[i].end_ns);
  }
  return out;
}

std::vector<size_t> SelectCpuSpans(const CpuSchedule& schedule, int64_t from_ns, int64_t to_ns,
                                   size_t limit, bool* truncated) {
  std::vector<size_t> out;
  *truncated = false;
  if (to_ns < from_ns) return out;
  for (size_t k = 0; k + 1 < schedule.cpu_offsets.size(); ++k) {
    const size_t first = schedule.cpu_offsets[k], last = schedule.cpu_offsets[k + 1];
    // Before `lo` every span ended before from_ns; from `hi` on all begin
    // after to_ns. In between, a span may still have ended early (a long
    // span before it keeps max_end high): skip those.
    const auto ends = schedule.max_end.begin();
    const size_t lo =
        static_cast<size_t>(std::partition_point(ends + static_cast<std::ptrdiff_t>(first),
                                                 ends + static_cast<std::ptrdiff_t>(last),
                                                 [&](int64_t e) { return e < from_ns; }) -
                            ends);
    for (size_t i = lo; i < last && schedule.spans[i].begin_ns <= to_ns; ++i) {
      if (schedule.spans[i].end_ns < from_ns) continue;
      if (out.size() == limit) {
        *truncated = true;
        return out;
      }
      out.push_back(i);
    }
  }
  return out;
}

}  // namespace plx::analysis
