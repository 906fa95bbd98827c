// The OTF2 importer's state, shared by its files: otf2_reader.cc (the
// import's steps and the ordered hand-over of events to the TraceBuilder),
// otf2_reader_records.cc (what each OTF2 record becomes) and
// otf2_reader_callbacks.cc (the OTF2 library's callbacks). Internal.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "interop/otf2/otf2.h"

namespace plx::interop::otf2 {

inline constexpr uint32_t kNone = model::kNone;

// An event held back while an earlier receive post of its location waits
// for its MpiIrecv (which names the peer and tag the post needs).
struct Pending {
  enum Kind : uint8_t {
    kEnter,
    kLeave,
    kSend,
    kRecv,
    kPost,
    kDropped,  // a post that never completed
    kCollective,
    kRma,
    kCounterInt,
    kCounterDouble,
    kInstantInt,
    kInstantString,  // x: the OTF2 string ref
    kThreadBegin,
    kThreadEnd,
  };
  Kind kind = kEnter;
  uint8_t op = 0;
  bool ready = true;
  uint32_t id = 0;  // state, communicator, counter or event type handle
  int64_t ns = 0;
  int64_t a = 0;   // peer, root, origin, int value
  int64_t b = 0;   // tag, target
  uint64_t x = 0;  // bytes, sent, match (post)
  uint64_t y = 0;  // received, match (send/recv)
  double d = 0;
  uint64_t index = 0;  // event number in its location, for errors
};

struct Location {
  uint64_t id = 0;
  std::string name;
  uint32_t group = 0;  // OTF2 location group
  uint64_t events_defined = 0;
  uint32_t thread = kNone;  // builder handle; kNone = not imported
  uint32_t process = kNone;
  std::string file;     // its .evt file, for errors
  uint64_t events = 0;  // read so far
  std::deque<Pending> queue;
  uint64_t popped = 0;                           // absolute index of queue.front()
  std::unordered_map<uint64_t, uint64_t> posts;  // request id -> absolute index of its post
};

struct Process {
  int64_t rank = -1;
  uint64_t sends = 0;  // match sequences
  uint64_t recvs = 0;
};

struct Comm {
  std::string name;
  uint32_t group = 0;
  // Resolved after the definitions:
  bool resolved = false;
  bool self = false;  // COMM_SELF: rank 0 is the location itself
  uint8_t kind = 0;   // 0: peers are world ranks, 1: stream ids
  std::vector<int64_t> peer_of_rank;
  std::vector<int64_t> world_members;
  std::vector<uint32_t> handle;  // builder communicator by process; kNone = not yet
};

struct Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  std::vector<uint64_t> members;
};

struct Region {
  uint32_t name = 0;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  OTF2_RegionRole role = OTF2_REGION_ROLE_UNKNOWN;
  uint32_t state = kNone;  // builder handle once used
};

struct MetricMember {
  uint32_t name = 0;
  uint32_t unit = 0;
  OTF2_Type type = OTF2_TYPE_INT64;
  uint32_t counter = kNone;
};

struct Parameter {
  uint32_t name = 0;
  uint32_t int_type = kNone;  // builder event types, by use
  uint32_t string_type = kNone;
};

class Importer {
 public:
  Importer(std::string anchor, TraceBuilder& out, const Progress& progress)
      : anchor_(std::move(anchor)), out_(out), progress_(progress) {}
  ~Importer() {
    if (reader_ != nullptr) OTF2_Reader_Close(reader_);
  }
  Status Run();

  // Callbacks (static trampolines below call these).
  OTF2_CallbackCode Code() const {
    return status_.ok() ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
  }
  Location* Start(OTF2_LocationRef location, OTF2_TimeStamp time, int64_t* ns);
  void Emit(Location& l, const Pending& p);
  uint32_t StateOf(OTF2_RegionRef region);
  Comm* CommOf(OTF2_CommRef comm);
  uint32_t CommHandle(OTF2_CommRef ref, Comm& c, uint32_t process);
  int64_t Peer(const Comm& c, const Location& l, uint32_t rank);
  void Send(Location& l, int64_t ns, OTF2_CommRef comm, uint32_t peer, uint32_t tag,
            uint64_t bytes);
  void Recv(Location& l, int64_t ns, OTF2_CommRef comm, uint32_t peer, uint32_t tag, uint64_t bytes,
            const uint64_t* request);
  void Post(Location& l, int64_t ns, uint64_t request);
  void Cancel(Location& l, uint64_t request);
  void Rma(Location& l, int64_t ns, uint8_t op, OTF2_RmaWinRef win, uint32_t remote,
           uint64_t bytes);
  void Metric(Location& l, int64_t ns, OTF2_MetricRef metric, uint8_t n, const OTF2_Type* types,
              const OTF2_MetricValue* values);
  void Param(Location& l, int64_t ns, OTF2_ParameterRef param, bool text, int64_t value,
             uint64_t string);
  void Note(ImportCounter what) { out_.Note(what); }
  const std::string& Str(uint32_t ref) {
    static const std::string kEmpty;
    auto it = strings_.find(ref);
    return it == strings_.end() ? kEmpty : it->second;
  }

  // Definitions, as read.
  uint64_t resolution_ = 0;
  uint64_t global_offset_ = 0;
  uint64_t realtime_ = OTF2_UNDEFINED_TIMESTAMP;
  std::unordered_map<uint32_t, std::string> strings_;
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> tree_nodes_;  // name, parent
  std::vector<std::pair<uint32_t, uint32_t>> groups_defined_;  // location groups: id, name
  std::unordered_map<uint32_t, uint32_t> group_parent_;        // location group -> tree node
  std::vector<Location> locations_;
  std::unordered_map<uint64_t, uint32_t> location_index_;  // OTF2 id -> locations_
  std::unordered_map<uint32_t, Region> regions_;
  std::unordered_map<uint32_t, Group> groups_;
  std::unordered_map<uint32_t, Comm> comms_;
  std::unordered_map<uint32_t, uint32_t> windows_;  // RmaWin -> comm
  std::unordered_map<uint32_t, MetricMember> members_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> metric_classes_;
  std::unordered_map<uint32_t, uint32_t> metric_instances_;  // instance -> class
  std::unordered_map<uint32_t, Parameter> parameters_;
  uint64_t definitions_ = 0;

 private:
  Status BuildModel();
  void ResolveComm(Comm& c);
  bool Apply(Location& l, const Pending& p);
  void Drain(Location& l);
  Status Diagnose(OTF2_ErrorCode code);
  int64_t ToNs(uint64_t t, bool* ok) const;

  const std::string anchor_;
  TraceBuilder& out_;
  const Progress& progress_;
  std::string dir_;  // DIR/NAME: NAME.def and NAME/ are beside the anchor
  Status status_;
  OTF2_Reader* reader_ = nullptr;
  std::vector<Process> processes_;
  uint64_t cached_id_ = ~uint64_t{0};
  Location* cached_ = nullptr;
};

/// Sets the callbacks of the records the importer reads or counts.
void RegisterDefinitionCallbacks(OTF2_GlobalDefReaderCallbacks* callbacks);
void RegisterEventCallbacks(OTF2_GlobalEvtReaderCallbacks* callbacks);

}  // namespace plx::interop::otf2
