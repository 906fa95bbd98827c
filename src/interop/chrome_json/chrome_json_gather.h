// The builder half of the Chrome JSON importer: one parsed event (its
// members, checked by the reader) becomes compact events and side-table rows
// in a Gathered (chrome_json_events.h), on a thread per (pid, tid) or per
// async id; metadata names processes and threads. Internal to the importer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "interop/chrome_json/chrome_json_events.h"
#include "interop/chrome_json/chrome_json_scan.h"
#include "interop/trace_builder.h"

namespace plx::interop::chrome {

/// The members of an event the importer reads; nullptr when absent.
struct EventFields {
  const JsonValue* ph = nullptr;
  const JsonValue* name = nullptr;
  const JsonValue* cat = nullptr;
  const JsonValue* pid = nullptr;
  const JsonValue* tid = nullptr;
  const JsonValue* ts = nullptr;
  const JsonValue* dur = nullptr;
  const JsonValue* id = nullptr;
  const JsonValue* id2 = nullptr;
  const JsonValue* args = nullptr;
  const JsonValue* bind_id = nullptr;
  bool flow_in = false, flow_out = false;
};

/// Picks the members EventFields names out of an event's members.
EventFields FieldsOf(const std::vector<JsonMember>& members);

/// The member `key` of `members`, nullptr when there is none.
const JsonValue* Find(const std::vector<JsonMember>& members, std::string_view key);
/// An integer from a number or a string holding one.
bool IntOf(const JsonValue* v, int64_t* out);

class Gatherer {
 public:
  /// `out` counts what is skipped (TraceBuilder::Note); nothing else is
  /// written to it before Feed().
  explicit Gatherer(TraceBuilder& out) : out_(out) {}

  /// A checked event other than metadata ("ph" is a string, "name" and "cat"
  /// strings or absent, "pid" and "tid" numbers, strings or absent) at `ts`
  /// with duration `dur` (ns); `args` are the members of its "args" object.
  void Event(const EventFields& f, const std::vector<JsonMember>& args, int64_t ts, int64_t dur);
  /// A metadata event ("ph": "M"): names and Parallax's process and
  /// communicator records.
  void Metadata(const EventFields& f, const std::vector<JsonMember>& args);

  Gathered& gathered() { return g_; }

 private:
  uint32_t Intern(const JsonValue* v);
  void Push(uint32_t thread, const chrome::Event& e) { g_.threads[thread].events.push_back(e); }

  uint32_t ProcessOf(const JsonValue* pid);
  uint32_t ThreadOf(const JsonValue* pid, const JsonValue* tid);
  uint32_t NewThread(ThreadData t);
  uint32_t AsyncThread(const EventFields& f, uint32_t name);
  uint32_t FlowKey(std::string_view prefix, const JsonValue* id);

  void Instant(uint32_t thread, int64_t ts, uint32_t name, uint32_t cat);
  void Counter(const EventFields& f, uint32_t thread, int64_t ts, uint32_t name, uint32_t cat);
  void Flow(const EventFields& f, uint32_t thread, int64_t ts, uint32_t cat);

  TraceBuilder& out_;
  Gathered g_;
  const std::vector<JsonMember>* args_ = nullptr;  // of the event at hand
  std::unordered_map<std::string, uint32_t> process_ids_, thread_ids_;
  std::unordered_map<uint32_t, uint32_t> counter_ids_;  // series name -> Gathered::counters
  std::string key_;
  uint32_t flow_seq_ = 0;
  // The last process and thread looked up (events come in runs).
  std::string last_pid_, last_tid_;
  char last_pid_type_ = 0, last_tid_type_ = 0;
  uint32_t last_process_ = kNoThread, last_thread_ = kNoThread;
  uint32_t last_thread_process_ = 0;
};

}  // namespace plx::interop::chrome
