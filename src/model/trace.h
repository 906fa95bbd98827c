// plx::model::Trace: the in-memory, columnar trace model every consumer
// (analysis, CLI, server) works on, built from a .plx file by LoadTrace().
//
// Definitions from all processes are merged: states, categories, event types,
// counters and callsites with equal names become one id. Times are
// CLOCK_MONOTONIC nanoseconds; a process with clock_offset measurements (MPI:
// offsets to world rank 0) has its times moved onto the reference clock by the
// loader. Tables are structs of arrays; rows are sorted by thread, then time.
// spec/model.toml declares every table's columns (docs/model-tables.md);
// each record table's columns() ties them all, for code that treats them
// alike (the live load cache copies and truncates them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace plx::model {

// Before kNone: gcc's -Wshadow flags an enumerator declared after a
// namespace-scope name it shares.
enum class ValueKind : uint8_t { kNone = 0, kInt = 1, kDouble = 2, kString = 3 };

/// "No row / no definition" in index columns.
inline constexpr uint32_t kNone = 0xffffffffu;

}  // namespace plx::model

// The definition structs (Process, Thread, State, ...) and the record tables'
// columns, generated from spec/model.toml; docs/model-tables.md lists them.
#include "model/member_list.h"
#include "model/tables.gen.h"

namespace plx::model {

// The record tables. Their columns, columns(), kColumnNames and sort_key()
// come from their *Columns base, generated from spec/model.toml (which says
// what a row is and what rows are sorted by); size() and enums are here.

struct SliceTable : SliceColumns {
  enum Flags : uint8_t {
    kUnclosed = 1,  // never left: end is the thread's last record
  };
  size_t size() const { return begin.size(); }
};

struct InstantTable : InstantColumns {
  size_t size() const { return time.size(); }
};

struct MessageTable : MessageColumns {
  size_t size() const { return time.size(); }
};

struct CollectiveTable : CollectiveColumns {
  size_t size() const { return time.size(); }
};

struct RecvPostTable : RecvPostColumns {
  size_t size() const { return time.size(); }
};

struct CounterTable : CounterColumns {
  size_t size() const { return time.size(); }
};

struct RmaTable : RmaColumns {
  size_t size() const { return time.size(); }
};

struct ControlTable : ControlColumns {
  size_t size() const { return time.size(); }
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
