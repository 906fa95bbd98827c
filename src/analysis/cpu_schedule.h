// The processor-scheduling strip: which thread was seen on which CPU and when,
// from the `cpu` counter (unit "cpu") that PLX_SCHED=1 samples with
// sched_getcpu() at a thread's first record and whenever the CPU changed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace plx::analysis {

/// A thread seen on a CPU: from a `cpu` sample to the thread's next sample
/// with another value (an invalid one too), or to the thread's last record.
struct CpuSpan {
  uint32_t cpu = 0;
  uint32_t thread = 0;  // index into Trace::threads
  int64_t begin_ns = 0;
  int64_t end_ns = 0;  // >= begin_ns
};

struct CpuSchedule {
  bool has_data = false;  // some thread has a `cpu` counter sample
  // Sorted by cpu, then begin, then thread.
  std::vector<CpuSpan> spans;
  // CPUs seen, ascending; spans of cpus[i] are spans[cpu_offsets[i] ..
  // cpu_offsets[i + 1]).
  std::vector<uint32_t> cpus;
  std::vector<size_t> cpu_offsets;
  // Per span, the largest end of the spans of its CPU up to it (in order):
  // non-decreasing within a CPU, so overlap queries binary-search it.
  std::vector<int64_t> max_end;
  // Samples whose value differs from the same thread's previous valid one.
  uint64_t migrations = 0;
  // Samples that are not a CPU number (negative, fractional, >= kMaxCpu):
  // they end the thread's span; between them and its next valid sample it
  // is on no known CPU.
  uint64_t invalid_samples = 0;
};

/// Largest CPU number accepted (exclusive).
inline constexpr uint32_t kMaxCpu = 1u << 20;

/// The spans of every thread with samples of the counter named "cpu" whose
/// unit is "cpu": one pass over the counter samples (sorted by thread, then
/// time, as the model holds them), then a sort of the spans.
CpuSchedule ComputeCpuSchedule(const model::Trace& trace);

/// Indices into `schedule.spans` of the spans overlapping [from_ns, to_ns]
/// (begin <= to_ns and end >= from_ns), in schedule order; at most `limit`,
/// with *truncated set when there were more.
std::vector<size_t> SelectCpuSpans(const CpuSchedule& schedule, int64_t from_ns, int64_t to_ns,
                                   size_t limit, bool* truncated);

}  // namespace plx::analysis
