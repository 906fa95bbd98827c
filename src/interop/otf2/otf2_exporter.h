// The OTF2 exporter's state, shared by its files: otf2_writer.cc (the
// archive and the events), otf2_writer_plan.cc (communicators and receive
// requests, planned before any event is written) and otf2_writer_defs.cc (the
// global definitions, written last). Internal.
#pragma once

#include <otf2/otf2.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "interop/event_walk.h"
#include "interop/otf2/otf2_common.h"
#include "interop/trace_builder.h"
#include "model/trace.h"

namespace plx::interop::otf2 {

inline constexpr uint32_t kNoComm = OTF2_UNDEFINED_COMM;

// One OTF2 communicator: model communicators of several processes with the
// same global id (or, without one, the same name) become one.
struct OtfComm {
  std::string name;
  uint8_t kind = 0;                     // as model::Communicator::kind
  std::vector<uint64_t> group_members;  // positions in the paradigm's COMM_LOCATIONS group
  std::unordered_map<int64_t, uint32_t> rank_of;  // world rank / stream id -> comm rank
  bool rma = false;                               // an RmaWin of the same id is needed
};

class Exporter : public EventVisitor {
 public:
  Exporter(const model::Trace& trace, std::string anchor) : t_(trace), anchor_(std::move(anchor)) {}
  Status Run(const Progress& progress);

  // EventVisitor: writes to writer_ (the current thread's location).
  void Enter(uint32_t r) override {
    Check(OTF2_EvtWriter_Enter(writer_, nullptr, Ts(t_.slices.begin[r]), t_.slices.state[r]));
  }
  void Leave(uint32_t r) override {
    Check(OTF2_EvtWriter_Leave(writer_, nullptr, Ts(t_.slices.end[r]), t_.slices.state[r]));
  }
  void Message(uint32_t r) override;
  void RecvPost(uint32_t r) override;
  void Collective(uint32_t r) override;
  void Rma(uint32_t r) override;
  void CounterSample(uint32_t r) override;
  void Instant(uint32_t r) override;
  void Control(uint32_t r) override;

 private:
  static OTF2_TimeStamp Ts(int64_t ns) { return static_cast<OTF2_TimeStamp>(ns < 0 ? 0 : ns); }
  void Check(OTF2_ErrorCode code) {
    if (code != OTF2_SUCCESS && status_.ok()) {
      status_ = IoError(anchor_ + ": writing events: " + otf2::ErrorText(code));
    }
  }
  Status Fail(const char* what, OTF2_ErrorCode code) const {
    return IoError(anchor_ + ": " + what + ": " + otf2::ErrorText(code));
  }
  uint32_t String(const std::string& s) {
    auto [it, inserted] = string_ids_.try_emplace(s, static_cast<uint32_t>(strings_.size()));
    if (inserted) {
      strings_.push_back(s);
      // Every name must be known before the STRING definitions are written.
      if (strings_written_ && status_.ok()) status_ = Internal(anchor_ + ": undefined string " + s);
    }
    return it->second;
  }
  void PlanCommunicators();
  void PlanRecvPosts();
  // The rank in `comm` of `peer` (a world rank or stream id); undefined when
  // it is negative, the peer as is when it is not a member.
  uint32_t CommRank(uint32_t comm, int64_t peer) const {
    if (peer < 0) return OTF2_UNDEFINED_UINT32;
    auto it = comms_[comm].rank_of.find(peer);
    return it == comms_[comm].rank_of.end() ? static_cast<uint32_t>(peer) : it->second;
  }
  Status WriteDefinitions(OTF2_GlobalDefWriter* w);

  const model::Trace& t_;
  const std::string anchor_;
  Status status_;
  OTF2_EvtWriter* writer_ = nullptr;
  uint64_t rma_matching_ = 0;

  std::vector<std::string> strings_;
  bool strings_written_ = false;  // the STRING definitions are out
  std::unordered_map<std::string, uint32_t> string_ids_;
  std::vector<OtfComm> comms_;
  std::vector<uint32_t> comm_of_;          // model communicator -> comms_ index
  std::vector<uint64_t> mpi_locations_;    // MPI COMM_LOCATIONS group: by world rank order
  std::vector<int64_t> mpi_ranks_;         // the world rank of each of those
  std::vector<uint64_t> request_of_post_;  // recv_posts row -> request id, 0 = none
  std::unordered_map<uint32_t, uint64_t> request_of_recv_;  // messages row -> request id
  std::vector<uint64_t> location_events_;
};

}  // namespace plx::interop::otf2
