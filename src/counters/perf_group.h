// One thread's perf_event group: the events PLX_COUNTERS names, read with one
// read(2) and, when sampling periodically, with a task-clock member whose
// kernel ring buffer gets a sample of every member each period of the
// thread's CPU time (perf_event_open(2), "group", "mmap layout").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "counters/event_table.h"

namespace plx::counters {

inline constexpr size_t kMaxEvents = 16;  // events per group (more are left out)

/// One periodic sample from the ring: CLOCK_MONOTONIC time, the CPU, and the
/// totals of the group's events in Open's order (raw counts).
struct RingSample {
  uint64_t time_ns = 0;
  uint32_t cpu = 0;
  bool valid = false;  // false when the group was not on a CPU at all (no values)
  uint64_t values[kMaxEvents] = {};
};

/// Why perf_event_open failed for `name`, in one line (errno as it left it).
std::string OpenFailure(const std::string& name, int err);

class PerfGroup {
 public:
  PerfGroup() = default;
  ~PerfGroup() { Close(); }
  PerfGroup(const PerfGroup&) = delete;
  PerfGroup& operator=(const PerfGroup&) = delete;

  /// Opens `events` (at most kMaxEvents) as one group for the calling thread
  /// (user and kernel counts where allowed, else user-space only).
  /// period_ns > 0: a task-clock member samples the group every period_ns of
  /// CPU time into a ring of up to ring_pages data pages (fewer when the
  /// kernel's locked-memory limit says so). False when nothing could be
  /// opened; the first failure is in `error` (one line) and events that fail
  /// alone are skipped.
  bool Open(const std::vector<EventSpec>& events, uint64_t period_ns, size_t ring_pages,
            std::string* error);
  void Close();

  bool open() const { return leader_ >= 0; }
  /// Whether periodic samples come (the ring is mapped).
  bool sampling() const { return ring_ != nullptr; }
  /// Whether event i of Open's list is counted.
  bool counted(size_t i) const { return i < slot_.size() && slot_[i] >= 0; }

  /// The events' totals now, in Open's order (raw counts: a group that the
  /// kernel time-shares with others counts only while it is on); false when
  /// the read failed or the group never ran.
  bool Read(uint64_t* values) const;

  /// Whether the kernel wrote samples (or lost some) not read yet: one load.
  bool pending() const;
  /// The next periodic sample the kernel wrote, oldest first; false when
  /// none is left (the space read is then given back to the kernel).
  bool NextSample(RingSample* out);
  /// Samples the kernel dropped because the ring was full, since the last call.
  uint64_t TakeLost();

 private:
  bool Enable();  // starts the complete group; false (and closed) when it cannot
  void CopyOut(uint64_t pos, void* dst, size_t n) const;
  bool Values(const uint64_t* group, size_t words, uint64_t* values) const;

  int leader_ = -1;
  std::vector<int> fds_;   // every fd, leader first
  std::vector<int> slot_;  // event i -> position among the group's values (-1: not counted)
  size_t members_ = 0;     // values a group read returns
  void* ring_ = nullptr;   // header page + data pages
  size_t ring_bytes_ = 0;  // data part
  uint64_t tail_ = 0;      // next byte to read
  uint64_t given_ = 0;     // data_tail as last told to the kernel
  uint64_t lost_ = 0;
};

}  // namespace plx::counters
