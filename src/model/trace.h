// plx::model::Trace: the in-memory, columnar trace model every consumer
// (analysis, CLI, server) works on, built from a .plx file by LoadTrace().
//
// Definitions from all processes are merged: states, categories, event types,
// counters and callsites with equal names become one id. Times are
// CLOCK_MONOTONIC nanoseconds; a process with clock_offset measurements (MPI:
// offsets to world rank 0) has its times moved onto the reference clock by the
// loader. Tables are structs of arrays; rows are sorted by thread, then time.
// Each table's columns() ties all its columns, for code that treats them
// alike (the live load cache copies and truncates them).
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace plx::model {

// Before kNone: gcc's -Wshadow flags an enumerator declared after a
// namespace-scope name it shares.
enum class ValueKind : uint8_t { kNone = 0, kInt = 1, kDouble = 2, kString = 3 };

/// "No row / no definition" in index columns.
inline constexpr uint32_t kNone = 0xffffffffu;

/// One measurement of a process's clock against the reference clock.
struct ClockOffset {
  int64_t ns = 0;         // the process's CLOCK_MONOTONIC ns at the measurement
  int64_t offset_ns = 0;  // add to the process's ns to get the reference clock's
  uint64_t error_ns = 0;  // the offset is exact within this
};

struct Process {
  uint32_t file_id = 0;  // process number in the file (the MPI rank for MPI traces)
  uint64_t pid = 0;
  int64_t rank = -1;  // MPI world rank, -1 for non-MPI processes
  std::string host;
  std::string executable;
  std::string arguments;
  std::string name;                         // plx_process_name, or empty
  int64_t realtime_minus_monotonic_ns = 0;  // add to a time to get wall-clock ns since 1970
  std::vector<ClockOffset> clock_offsets;   // as recorded, in file order
  // The correction the loader applied to this process's times (0 when none):
  // the offset at the first measurement, and the drift after it (a time t
  // became t + clock_offset_ns + (t - first measurement) * clock_drift_ppm / 1e6).
  int64_t clock_offset_ns = 0;
  double clock_drift_ppm = 0;
};

struct Thread {
  uint32_t process = 0;  // index into Trace::processes
  uint32_t file_stream = 0;
  uint64_t tid = 0;
  std::string name;
  int64_t begin_ns = 0;  // first record
  int64_t end_ns = 0;    // last record
  uint64_t records = 0;
  bool ended = false;  // a thread_end record was seen
};

struct Category {
  std::string name;
};

struct State {
  std::string name;
  uint32_t category = kNone;  // index into Trace::categories
  uint32_t color = 0;         // 0 = automatic, else 0x1000000 | 0xRRGGBB
};

struct EventType {
  std::string name;
  uint32_t category = kNone;
  ValueKind value_kind = ValueKind::kNone;
};

struct Callsite {
  std::string file;
  uint32_t line = 0;
  std::string function;
};

struct Counter {
  std::string name;
  std::string unit;
  ValueKind value_kind = ValueKind::kInt;
  uint32_t category = kNone;
};

struct Communicator {
  uint32_t process = 0;  // index into Trace::processes; communicators are per process
  uint64_t file_id = 0;
  std::string name;
  uint8_t kind = 0;              // 0 = peers are process ranks; 1 = peers are thread stream ids
  uint64_t global_id = 0;        // the same in every process for one communicator; 0 = local
  std::vector<int64_t> members;  // world ranks in communicator rank order; empty = not recorded
};

/// One state instance: [begin, end) on a thread, at a nesting depth.
/// Rows are sorted by thread, then begin.
struct SliceTable {
  enum Flags : uint8_t {
    kUnclosed = 1,  // never left: end is the thread's last record
  };
  std::vector<uint32_t> thread;
  std::vector<int64_t> begin;
  std::vector<int64_t> end;
  std::vector<uint32_t> state;
  std::vector<uint32_t> callsite;  // kNone when unknown
  std::vector<uint16_t> depth;     // 0 = outermost
  std::vector<int64_t> self_ns;    // duration minus the durations of direct children
  std::vector<uint8_t> flags;
  size_t size() const { return begin.size(); }
  auto columns() { return std::tie(thread, begin, end, state, callsite, depth, self_ns, flags); }
  auto columns() const {
    return std::tie(thread, begin, end, state, callsite, depth, self_ns, flags);
  }
};

/// Instant events (plx_event_*, annotations).
struct InstantTable {
  std::vector<uint32_t> thread;
  std::vector<int64_t> time;
  std::vector<uint32_t> type;      // index into Trace::event_types
  std::vector<uint32_t> callsite;  // kNone when unknown
  std::vector<ValueKind> kind;
  std::vector<int64_t> int_value;
  std::vector<double> double_value;
  std::vector<uint32_t> text;  // index into Trace::texts, kNone when not a string
  size_t size() const { return time.size(); }
  auto columns() {
    return std::tie(thread, time, type, callsite, kind, int_value, double_value, text);
  }
  auto columns() const {
    return std::tie(thread, time, type, callsite, kind, int_value, double_value, text);
  }
};

/// Message send and receive records, as recorded (pairing is analysis work).
struct MessageTable {
  std::vector<uint32_t> thread;
  std::vector<int64_t> time;
  std::vector<uint8_t> is_send;  // 1 send, 0 receive
  std::vector<uint32_t> comm;    // index into Trace::communicators, kNone if undefined
  std::vector<int64_t> peer;
  std::vector<int64_t> tag;
  std::vector<uint64_t> bytes;
  std::vector<uint64_t> clock;  // Lamport clock carried, 0 = none
  std::vector<uint64_t> match;  // per-process sequence in MPI matching order, 0 = none
  size_t size() const { return time.size(); }
  auto columns() { return std::tie(thread, time, is_send, comm, peer, tag, bytes, clock, match); }
  auto columns() const {
    return std::tie(thread, time, is_send, comm, peer, tag, bytes, clock, match);
  }
};

/// Collective operations, one row per participating stream, at their end.
struct CollectiveTable {
  std::vector<uint32_t> thread;
  std::vector<int64_t> time;
  std::vector<uint8_t> op;     // 1 barrier .. 12 neighbor, 13 other (format-records.md)
  std::vector<uint32_t> comm;  // index into Trace::communicators, kNone if undefined
  std::vector<int64_t> root;   // world rank, -1 = no root
  std::vector<uint64_t> sent;  // bytes this process contributed
  std::vector<uint64_t> received;
  size_t size() const { return time.size(); }
  auto columns() { return std::tie(thread, time, op, comm, root, sent, received); }
  auto columns() const { return std::tie(thread, time, op, comm, root, sent, received); }
};

/// Receives as posted (MPI: at MPI_Recv, MPI_Irecv, MPI_Sendrecv, MPI_Start of
/// a persistent receive, MPI_Probe/Mprobe), before they match.
struct RecvPostTable {
  std::vector<uint32_t> thread;
  std::vector<int64_t> time;
  std::vector<uint32_t> comm;   // index into Trace::communicators, kNone if undefined
  std::vector<int64_t> peer;    // source: world rank (comm kind 0) or stream id; -1 = any
  std::vector<int64_t> tag;     // -1 = any tag
  std::vector<uint64_t> match;  // the `match` its receive record carries; 0 = a probe
  size_t size() const { return time.size(); }
  auto columns() { return std::tie(thread, time, comm, peer, tag, match); }
  auto columns() const { return std::tie(thread, time, comm, peer, tag, match); }
};

struct CounterTable {
  std::vector<uint32_t> thread;
  std::vector<int64_t> time;
  std::vector<uint32_t> counter;  // index into Trace::counters
  std::vector<double> value;      // int counters are stored exactly up to 2^53
  size_t size() const { return time.size(); }
  auto columns() { return std::tie(thread, time, counter, value); }
  auto columns() const { return std::tie(thread, time, counter, value); }
};

struct RmaTable {
  std::vector<uint32_t> thread;
  std::vector<int64_t> time;
  std::vector<uint8_t> op;  // 0 put, 1 get, 2 accumulate, 3 other
  std::vector<uint32_t> comm;
  std::vector<int64_t> origin;
  std::vector<int64_t> target;
  std::vector<uint64_t> bytes;
  size_t size() const { return time.size(); }
  auto columns() { return std::tie(thread, time, op, comm, origin, target, bytes); }
  auto columns() const { return std::tie(thread, time, op, comm, origin, target, bytes); }
};

/// Recording switched off/on (plx_control); lost-record markers.
struct ControlTable {
  std::vector<uint32_t> thread;
  std::vector<int64_t> time;
  std::vector<uint8_t> on;     // 1 on, 0 off (1 on lost-record markers)
  std::vector<uint64_t> lost;  // > 0: a lost-record marker, records dropped here
  size_t size() const { return time.size(); }
  auto columns() { return std::tie(thread, time, on, lost); }
  auto columns() const { return std::tie(thread, time, on, lost); }
};

/// Named counts of what the loader met and how it coped (Perfetto-style stats).
struct LoadStats {
  uint64_t records = 0;
  uint64_t unknown_record_kinds = 0;  // records of kinds this build does not know (skipped)
  uint64_t leave_without_enter = 0;   // leave on an empty stack (ignored)
  uint64_t leave_mismatch = 0;        // leave of a state other than the innermost (closed anyway)
  uint64_t unclosed_slices = 0;       // still open at the thread's end
  uint64_t undefined_refs = 0;        // ids with no definition (shown as "<undefined N>")
  uint64_t lost_records = 0;          // sum of `lost` records
  uint64_t damaged_chunks = 0;        // chunks that failed checks or decoding (skipped)
  bool operator==(const LoadStats&) const = default;
};

struct Trace {
  std::string source;              // path of the file it came from
  std::vector<Process> processes;  // in file process order
  std::vector<Thread> threads;     // sorted by process, then file stream
  std::vector<Category> categories;
  std::vector<State> states;
  std::vector<EventType> event_types;
  std::vector<Callsite> callsites;
  std::vector<Counter> counters;
  std::vector<Communicator> communicators;
  std::vector<std::string> texts;  // payloads of string instant events

  SliceTable slices;
  InstantTable instants;
  MessageTable messages;
  CounterTable counter_samples;
  RmaTable rma;
  ControlTable controls;
  CollectiveTable collectives;
  RecvPostTable recv_posts;

  int64_t begin_ns = 0;  // first record of any thread
  int64_t end_ns = 0;    // last record of any thread
  LoadStats stats;
  std::vector<std::string> problems;  // one line each: file damage and load errors
};

}  // namespace plx::model
