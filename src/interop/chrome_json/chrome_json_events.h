// What the Chrome JSON importer keeps of a file: compact per-thread events
// (no JSON text), side tables for their payloads, processes and threads in
// order of first appearance. Feed() sorts, nests and writes them.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "interop/trace_builder.h"

namespace plx::interop::chrome {

/// Interned strings; id 0 is "".
class Strings {
 public:
  Strings();
  uint32_t Intern(std::string_view s);
  std::string_view operator[](uint32_t id) const { return store_[id]; }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::deque<std::string> store_;  // stable addresses for the map's keys
  std::unordered_map<std::string_view, uint32_t, Hash, std::equal_to<>> ids_;
};

enum class Kind : uint8_t {
  kBegin,     // B: opens a slice, closed by the next kEnd
  kEnd,       // E
  kComplete,  // X: a slice of `dur`
  kInstant,   // aux: instants
  kCounter,   // aux: counter_samples
  kSend,      // aux: messages
  kRecv,      // aux: messages
  kCollective,
  kRma,
  kRecvPost,
};

struct Event {
  int64_t ts = 0;   // ns, before the time base is added
  int64_t dur = 0;  // kComplete: ns
  uint32_t name = 0;
  uint32_t cat = 0;
  uint32_t aux = 0;
  Kind kind = Kind::kInstant;
};

struct InstantValue {
  model::ValueKind kind = model::ValueKind::kNone;
  int64_t i = 0;
  double d = 0;
  uint64_t text = 0;  // kString: offset in Gathered::texts
  uint32_t text_size = 0;
};

struct CounterSample {
  uint32_t counter = 0;  // index into Gathered::counters
  bool is_int = true;
  int64_t i = 0;
  double d = 0;
};

inline constexpr uint32_t kNoThread = 0xffffffffu;

struct MessageInfo {
  uint32_t comm = 0;  // name (string id); 0 = none
  int64_t peer = -1;
  int64_t tag = 0;
  uint64_t bytes = 0;
  uint64_t match = 0;
  uint64_t clock = 0;
  // A flow without message arguments: the thread at its other end (peer and
  // communicator are chosen when writing).
  uint32_t other_thread = kNoThread;
};

struct CollectiveInfo {
  uint8_t op = 13;
  uint32_t comm = 0;
  int64_t root = -1;
  uint64_t sent = 0, received = 0;
};

struct RmaInfo {
  uint8_t op = 3;
  uint32_t comm = 0;
  int64_t origin = -1, target = -1;
  uint64_t bytes = 0;
};

struct RecvPostInfo {
  uint32_t comm = 0;
  int64_t peer = -1, tag = -1;
  uint64_t match = 0;
};

struct CounterDef {
  uint32_t name = 0;
  uint32_t cat = 0;
  bool is_double = false;  // any sample was not an integer
};

struct CommDef {
  uint32_t name = 0;
  uint8_t kind = 0;
  uint64_t global_id = 0;
  std::vector<int64_t> members;
};

struct ThreadData {
  uint32_t process = 0;
  uint64_t tid = 0;
  std::string name;
  std::vector<Event> events;
};

struct ProcessData {
  ProcessInfo info;
  std::string labels;
  std::vector<uint32_t> threads;  // in order of first appearance
  std::vector<CommDef> comms;     // parallax_communicator metadata
};

/// One end of a flow (s, t, f or a bound flow_in/flow_out slice).
struct FlowPoint {
  uint32_t key = 0;   // string id of category + id
  uint8_t phase = 0;  // 0 start, 1 step, 2 end
  int64_t ts = 0;
  uint32_t thread = 0;
  uint32_t seq = 0;  // file order
};

struct Gathered {
  Strings strings;
  std::vector<ProcessData> processes;
  std::vector<ThreadData> threads;
  std::vector<InstantValue> instants;
  std::vector<CounterSample> counter_samples;
  std::vector<CounterDef> counters;
  std::vector<MessageInfo> messages;
  std::vector<CollectiveInfo> collectives;
  std::vector<RmaInfo> rmas;
  std::vector<RecvPostInfo> recv_posts;
  std::vector<FlowPoint> flows;
  std::string texts;    // payloads of string instants
  int64_t base_ns = 0;  // otherData.parallax_time_base_ns
  int64_t min_ts = 0;   // smallest time seen (times are shifted when negative)
};

/// Pairs the flow points into messages (one per arrow, each with a tag of
/// its own so that matching pairs exactly these two ends).
void PairFlows(Gathered& g, TraceBuilder& out);

/// Sorts each thread's events, nests its slices and writes everything (a
/// time the builder refuses is counted as chrome.time_refused).
void Feed(Gathered& g, TraceBuilder& out);

}  // namespace plx::interop::chrome
