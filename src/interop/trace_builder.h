// TraceBuilder: what every importer writes through. It turns names and
// handles into the per-process definitions of a .plx file (format/TraceWriter)
// and keeps the importer's named counters of what it met and how it coped.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "format/trace_writer.h"
#include "interop/import_counters.gen.h"
#include "model/trace.h"

namespace plx::interop {

/// progress(done, total): importers count input bytes, exporters rows written.
using Progress = std::function<void(uint64_t done, uint64_t total)>;

/// The one-line error of a bad input: "FILE:WHERE: FIELD: WHAT" (WHERE a line
/// number or "offset N"; FIELD may be empty), as DataLoss.
Status InputError(std::string_view file, std::string_view where, std::string_view field,
                  std::string_view what);

struct ProcessInfo {
  std::string name;   // display name; empty = none
  int64_t rank = -1;  // MPI world rank; -1 = not an MPI process
  uint64_t pid = 0;
  std::string host;
  std::string executable;
  std::string arguments;
  int64_t realtime_minus_monotonic_ns = 0;  // wall clock = time + this
};

struct ThreadInfo {
  uint64_t tid = 0;
  std::string name;
};

/// Import counters: counts of input the importer skipped or repaired
/// (Perfetto's stats), by counter name (spec/import_counters.toml). Sorted by name.
using ImportStats = std::map<std::string, uint64_t, std::less<>>;

class TraceBuilder {
 public:
  /// Writes `path` (a .plx file) as the importer goes.
  static StatusOr<std::unique_ptr<TraceBuilder>> Create(const std::string& path,
                                                        format::WriterOptions options = {});
  ~TraceBuilder();
  TraceBuilder(const TraceBuilder&) = delete;
  TraceBuilder& operator=(const TraceBuilder&) = delete;

  // Definitions. Handles are small integers; states, event types, counters
  // and callsites are global (defined in a process on first use there),
  // communicators belong to one process.

  /// A process; its handle is its process number in the file (0, 1, ...).
  uint32_t AddProcess(const ProcessInfo& info);
  /// A thread of `process`; the handle is global (0, 1, ... over all processes).
  uint32_t AddThread(uint32_t process, const ThreadInfo& info);
  /// The state called `name` (one handle per name; the first category and
  /// colour given win). `color` is 0 (automatic) or 0x1000000 | 0xRRGGBB.
  uint32_t State(std::string_view name, std::string_view category = "user", uint32_t color = 0);
  uint32_t EventType(std::string_view name, model::ValueKind kind,
                     std::string_view category = "user");
  uint32_t Counter(std::string_view name, std::string_view unit, model::ValueKind kind,
                   std::string_view category = "counter");
  /// A source location; handle 0 is "unknown".
  uint32_t Callsite(std::string_view file, uint32_t line, std::string_view function);
  /// A communicator of `process`: kind 0 = peers are world ranks, 1 = peers
  /// are stream ids of the process's threads (StreamOf); `members` are world
  /// ranks in communicator rank order (may be empty).
  uint32_t Communicator(uint32_t process, std::string_view name, uint8_t kind, uint64_t global_id,
                        std::span<const int64_t> members);
  /// A key/value fact about the process (the source format, its version).
  void Attribute(uint32_t process, std::string_view key, std::string_view value);

  /// The thread's stream id within its process (for communicators of kind 1).
  uint32_t StreamOf(uint32_t thread) const { return threads_[thread].stream; }
  uint32_t ProcessOf(uint32_t thread) const { return threads_[thread].process; }
  size_t thread_count() const { return threads_.size(); }

  // Events at `ns` (nanoseconds, >= 0, not decreasing within a thread). Each
  // returns false, writing nothing, when `ns` breaks that rule: the importer
  // then reports the place in its input.
  bool Enter(uint32_t thread, int64_t ns, uint32_t state, uint32_t callsite = 0);
  bool Leave(uint32_t thread, int64_t ns, uint32_t state);
  bool Send(uint32_t thread, int64_t ns, uint32_t comm, int64_t peer, int64_t tag, uint64_t bytes,
            uint64_t match = 0, uint64_t clock = 0);
  bool Recv(uint32_t thread, int64_t ns, uint32_t comm, int64_t peer, int64_t tag, uint64_t bytes,
            uint64_t match = 0, uint64_t clock = 0);
  bool RecvPost(uint32_t thread, int64_t ns, uint32_t comm, int64_t peer, int64_t tag,
                uint64_t match);
  /// op as in format-records.md `collective` (1 barrier .. 13 other); root a world rank or -1.
  bool Collective(uint32_t thread, int64_t ns, uint8_t op, uint32_t comm, int64_t root,
                  uint64_t sent, uint64_t received);
  /// op 0 put, 1 get, 2 accumulate, 3 other.
  bool Rma(uint32_t thread, int64_t ns, uint8_t op, uint32_t comm, int64_t origin, int64_t target,
           uint64_t bytes);
  bool CounterInt(uint32_t thread, int64_t ns, uint32_t counter, int64_t value);
  bool CounterDouble(uint32_t thread, int64_t ns, uint32_t counter, double value);
  bool Instant(uint32_t thread, int64_t ns, uint32_t type, uint32_t callsite = 0);
  bool InstantInt(uint32_t thread, int64_t ns, uint32_t type, int64_t value, uint32_t callsite = 0);
  bool InstantDouble(uint32_t thread, int64_t ns, uint32_t type, double value,
                     uint32_t callsite = 0);
  bool InstantString(uint32_t thread, int64_t ns, uint32_t type, std::string_view text,
                     uint32_t callsite = 0);
  bool ThreadBegin(uint32_t thread, int64_t ns);
  bool ThreadEnd(uint32_t thread, int64_t ns);

  /// The time of the thread's last event; -1 before its first.
  int64_t LastTime(uint32_t thread) const { return threads_[thread].last_ns; }

  /// Counts `n` occurrences of something the importer skipped or repaired.
  /// Counters are declared in spec/import_counters.toml.
  void Note(ImportCounter counter, uint64_t n = 1);
  const ImportStats& stats() const { return stats_; }
  uint64_t events() const { return events_; }

  /// Writes what is buffered and ends the file (the import counters become
  /// attributes "import.NAME" of process 0). Reports the writer's first error.
  Status Finish();

 private:
  struct ProcessState {
    uint32_t streams = 0;
    uint64_t next_comm = 1;
    std::vector<bool> strings;  // defined here, by global string id
    std::vector<bool> states;
    std::vector<bool> event_types;
    std::vector<bool> counters;
    std::vector<bool> callsites;
    std::vector<bool> categories;
  };
  struct ThreadState {
    uint32_t process = 0;
    uint32_t stream = 0;
    int64_t last_ns = -1;
  };
  struct StateInfo {
    uint32_t name = 0;  // string ids
    uint32_t category = 0;
    uint32_t color = 0;
  };
  struct EventTypeInfo {
    uint32_t name = 0;
    uint32_t category = 0;
    model::ValueKind kind = model::ValueKind::kNone;
  };
  struct CounterInfo {
    uint32_t name = 0;
    uint32_t unit = 0;
    uint32_t category = 0;
    model::ValueKind kind = model::ValueKind::kInt;
  };
  struct CallsiteInfo {
    uint32_t file = 0;
    uint32_t line = 0;
    uint32_t function = 0;
  };

  explicit TraceBuilder(std::unique_ptr<format::TraceWriter> writer);
  uint32_t Intern(std::string_view text);  // 0 for ""
  uint32_t CategoryId(std::string_view name);
  // Defines the item in the process on first use there; returns its id.
  uint64_t DefineString(uint32_t process, uint32_t id);
  uint64_t DefineCategory(uint32_t process, uint32_t id);
  uint64_t DefineState(uint32_t process, uint32_t state);
  uint64_t DefineEventType(uint32_t process, uint32_t type);
  uint64_t DefineCounter(uint32_t process, uint32_t counter);
  uint64_t DefineCallsite(uint32_t process, uint32_t callsite);
  /// False when `ns` is negative or before the thread's last event.
  bool Accept(uint32_t thread, int64_t ns);
  template <typename R>
  void Write(uint32_t thread, int64_t ns, const R& record);

  std::unique_ptr<format::TraceWriter> writer_;
  std::vector<ProcessState> processes_;
  std::vector<ThreadState> threads_;
  std::vector<std::string> strings_;  // by id; 0 = ""
  std::unordered_map<std::string, uint32_t> string_ids_;
  std::vector<uint32_t> categories_;                     // category id -> string id
  std::unordered_map<uint32_t, uint32_t> category_ids_;  // string id -> category id
  std::vector<StateInfo> states_;
  std::unordered_map<uint32_t, uint32_t> state_ids_;  // name string id -> state
  std::vector<EventTypeInfo> event_types_;
  std::unordered_map<uint32_t, uint32_t> event_type_ids_;
  std::vector<CounterInfo> counters_;
  std::unordered_map<uint32_t, uint32_t> counter_ids_;
  std::vector<CallsiteInfo> callsites_;  // [0] = unknown
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> callsite_ids_;
  ImportStats stats_;
  uint64_t events_ = 0;
};

}  // namespace plx::interop
