// ExportOtf2: a model::Trace as an OTF2 archive, written with the OTF2
// library. Timestamps are the model's nanoseconds (timer resolution 1e9); the
// mapping of every record is in docs/interop.md (OTF2).
#include <otf2/otf2.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/strings.h"
#include "interop/event_walk.h"
#include "interop/otf2/otf2.h"
#include "interop/otf2/otf2_common.h"

namespace plx::interop {

namespace {

constexpr uint32_t kNoComm = OTF2_UNDEFINED_COMM;

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp PostFlush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}
OTF2_FlushCallbacks kFlushCallbacks = {PreFlush, PostFlush};

bool IsMpiState(const model::Trace& t, const model::State& s) {
  if (s.name.rfind("MPI_", 0) == 0) return true;
  return s.category != model::kNone && t.categories[s.category].name == "comm";
}

// The region role of an MPI call, from its name (what Score-P assigns).
OTF2_RegionRole MpiRole(const std::string& name) {
  std::string n;
  for (char c : name)
    n += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
  if (has("barrier")) return OTF2_REGION_ROLE_BARRIER;
  if (has("send") || has("recv")) return OTF2_REGION_ROLE_POINT2POINT;
  if (has("put") || has("get")) return OTF2_REGION_ROLE_RMA;
  if (has("bcast") || has("scatter")) return OTF2_REGION_ROLE_COLL_ONE2ALL;
  if (has("allreduce") || has("allgather") || has("alltoall")) return OTF2_REGION_ROLE_COLL_ALL2ALL;
  if (has("gather") || has("reduce")) return OTF2_REGION_ROLE_COLL_ALL2ONE;
  if (has("scan")) return OTF2_REGION_ROLE_COLL_OTHER;
  return OTF2_REGION_ROLE_FUNCTION;
}

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

void Exporter::PlanCommunicators() {
  // World ranks: the first thread of each MPI process, in rank order.
  std::vector<std::pair<int64_t, uint32_t>> ranked;  // (rank, process)
  std::vector<uint32_t> first_thread(t_.processes.size(), model::kNone);
  for (uint32_t th = 0; th < t_.threads.size(); ++th) {
    uint32_t& f = first_thread[t_.threads[th].process];
    if (f == model::kNone) f = th;
  }
  for (uint32_t p = 0; p < t_.processes.size(); ++p) {
    if (t_.processes[p].rank >= 0 && first_thread[p] != model::kNone)
      ranked.emplace_back(t_.processes[p].rank, p);
  }
  std::sort(ranked.begin(), ranked.end());
  std::unordered_map<int64_t, uint64_t> position_of_rank;
  for (const auto& [rank, p] : ranked) {
    if (!position_of_rank.try_emplace(rank, mpi_locations_.size()).second) continue;
    mpi_locations_.push_back(first_thread[p]);
    mpi_ranks_.push_back(rank);
  }

  std::map<std::pair<uint64_t, std::string>, uint32_t> by_key;  // (global id, name or "")
  comm_of_.assign(t_.communicators.size(), kNoComm);
  for (uint32_t c = 0; c < t_.communicators.size(); ++c) {
    const model::Communicator& mc = t_.communicators[c];
    std::pair<uint64_t, std::string> key;
    if (mc.kind == 1) {
      key = {~uint64_t{0} - c, ""};  // streams of one process: never shared
    } else {
      key = mc.global_id != 0 ? std::make_pair(mc.global_id, std::string())
                              : std::make_pair(uint64_t{0}, mc.name);
    }
    auto [it, inserted] = by_key.try_emplace(key, static_cast<uint32_t>(comms_.size()));
    comm_of_[c] = it->second;
    if (!inserted) continue;
    OtfComm oc;
    oc.name = mc.name;
    oc.kind = mc.kind;
    if (mc.kind == 1) {
      // Members are the process's threads in stream order; their positions in
      // the PTHREAD COMM_LOCATIONS group are their thread (location) numbers.
      std::vector<std::pair<uint32_t, uint32_t>> streams;  // (stream, thread)
      for (uint32_t th = 0; th < t_.threads.size(); ++th) {
        if (t_.threads[th].process == mc.process)
          streams.emplace_back(t_.threads[th].file_stream, th);
      }
      std::sort(streams.begin(), streams.end());
      for (const auto& [stream, th] : streams) {
        oc.rank_of.emplace(stream, static_cast<uint32_t>(oc.group_members.size()));
        oc.group_members.push_back(th);
      }
    } else {
      const std::vector<int64_t> all(mpi_ranks_.begin(), mpi_ranks_.end());
      for (int64_t rank : mc.members.empty() ? all : mc.members) {
        auto pos = position_of_rank.find(rank);
        if (pos == position_of_rank.end()) continue;  // a rank without a process
        oc.rank_of.emplace(rank, static_cast<uint32_t>(oc.group_members.size()));
        oc.group_members.push_back(pos->second);
      }
    }
    comms_.push_back(std::move(oc));
  }
}

// A receive whose post is recorded on the same thread becomes MpiIrecvRequest
// (at the post) and MpiIrecv (at the receive) with one request id.
void Exporter::PlanRecvPosts() {
  const model::RecvPostTable& p = t_.recv_posts;
  request_of_post_.assign(p.size(), 0);
  if (p.size() == 0) return;
  const model::MessageTable& m = t_.messages;
  struct Hash {
    size_t operator()(const std::pair<uint32_t, uint64_t>& k) const {
      return std::hash<uint64_t>()(k.second * 0x9e3779b97f4a7c15ull ^ k.first);
    }
  };
  std::unordered_map<std::pair<uint32_t, uint64_t>, uint32_t, Hash> recv_of;  // (thread, match)
  for (uint32_t r = 0; r < m.size(); ++r) {
    if (!m.is_send[r] && m.match[r] != 0) recv_of.try_emplace({m.thread[r], m.match[r]}, r);
  }
  uint64_t next = 1;
  for (uint32_t r = 0; r < p.size(); ++r) {
    if (p.match[r] == 0) continue;  // a probe: no receive to carry it
    auto it = recv_of.find({p.thread[r], p.match[r]});
    if (it == recv_of.end() || m.time[it->second] < p.time[r]) continue;
    if (!request_of_recv_.try_emplace(it->second, next).second) continue;
    request_of_post_[r] = next++;
  }
}

void Exporter::Message(uint32_t r) {
  const model::MessageTable& m = t_.messages;
  if (m.comm[r] == model::kNone) return;  // OTF2 messages need a communicator
  const uint32_t comm = comm_of_[m.comm[r]];
  const uint32_t peer = CommRank(comm, m.peer[r]);
  const auto tag = static_cast<uint32_t>(m.tag[r]);
  if (m.is_send[r]) {
    Check(OTF2_EvtWriter_MpiSend(writer_, nullptr, Ts(m.time[r]), peer, comm, tag, m.bytes[r]));
    return;
  }
  auto request = request_of_recv_.find(r);
  if (request != request_of_recv_.end()) {
    Check(OTF2_EvtWriter_MpiIrecv(writer_, nullptr, Ts(m.time[r]), peer, comm, tag, m.bytes[r],
                                  request->second));
  } else {
    Check(OTF2_EvtWriter_MpiRecv(writer_, nullptr, Ts(m.time[r]), peer, comm, tag, m.bytes[r]));
  }
}

void Exporter::RecvPost(uint32_t r) {
  if (request_of_post_[r] == 0) return;  // probes and posts without their receive
  Check(OTF2_EvtWriter_MpiIrecvRequest(writer_, nullptr, Ts(t_.recv_posts.time[r]),
                                       request_of_post_[r]));
}

void Exporter::Collective(uint32_t r) {
  const model::CollectiveTable& c = t_.collectives;
  const uint32_t comm = c.comm[r] == model::kNone ? kNoComm : comm_of_[c.comm[r]];
  const uint32_t root =
      comm == kNoComm || c.root[r] < 0 ? OTF2_UNDEFINED_UINT32 : CommRank(comm, c.root[r]);
  // The model keeps the end only; the begin goes at the same time.
  Check(OTF2_EvtWriter_MpiCollectiveBegin(writer_, nullptr, Ts(c.time[r])));
  Check(OTF2_EvtWriter_MpiCollectiveEnd(writer_, nullptr, Ts(c.time[r]),
                                        otf2::ToOtf2CollectiveOp(c.op[r]), comm, root, c.sent[r],
                                        c.received[r]));
}

void Exporter::Rma(uint32_t r) {
  const model::RmaTable& m = t_.rma;
  if (m.comm[r] == model::kNone) return;  // a window needs a communicator
  const uint32_t win = comm_of_[m.comm[r]];
  comms_[win].rma = true;
  const uint32_t remote = CommRank(win, m.target[r]);
  const uint64_t id = ++rma_matching_;
  const OTF2_TimeStamp ts = Ts(m.time[r]);
  switch (m.op[r]) {
    case 0:
      Check(OTF2_EvtWriter_RmaPut(writer_, nullptr, ts, win, remote, m.bytes[r], id));
      break;
    case 1:
      Check(OTF2_EvtWriter_RmaGet(writer_, nullptr, ts, win, remote, m.bytes[r], id));
      break;
    case 2:
      Check(OTF2_EvtWriter_RmaAtomic(writer_, nullptr, ts, win, remote,
                                     OTF2_RMA_ATOMIC_TYPE_ACCUMULATE, m.bytes[r], 0, id));
      break;
    default:
      Check(OTF2_EvtWriter_RmaAtomic(writer_, nullptr, ts, win, remote, OTF2_RMA_ATOMIC_TYPE_SWAP,
                                     m.bytes[r], 0, id));
  }
  Check(OTF2_EvtWriter_RmaOpCompleteBlocking(writer_, nullptr, ts, win, id));
}

void Exporter::CounterSample(uint32_t r) {
  const model::CounterTable& c = t_.counter_samples;
  OTF2_Type type;
  OTF2_MetricValue value;
  if (t_.counters[c.counter[r]].value_kind == model::ValueKind::kDouble) {
    type = OTF2_TYPE_DOUBLE;
    value.floating_point = c.value[r];
  } else {
    type = OTF2_TYPE_INT64;
    value.signed_int = static_cast<int64_t>(c.value[r]);
  }
  Check(OTF2_EvtWriter_Metric(writer_, nullptr, Ts(c.time[r]), c.counter[r], 1, &type, &value));
}

void Exporter::Instant(uint32_t r) {
  const model::InstantTable& i = t_.instants;
  const OTF2_TimeStamp ts = Ts(i.time[r]);
  switch (i.kind[r]) {
    case model::ValueKind::kString:
      Check(OTF2_EvtWriter_ParameterString(
          writer_, nullptr, ts, i.type[r],
          String(i.text[r] == model::kNone ? std::string() : t_.texts[i.text[r]])));
      break;
    case model::ValueKind::kDouble:  // OTF2 parameters have no floating-point kind
      Check(OTF2_EvtWriter_ParameterString(writer_, nullptr, ts, i.type[r],
                                           String(StrFormat("%.17g", i.double_value[r]))));
      break;
    default:
      Check(OTF2_EvtWriter_ParameterInt(writer_, nullptr, ts, i.type[r], i.int_value[r]));
  }
}

void Exporter::Control(uint32_t r) {
  const model::ControlTable& c = t_.controls;
  if (c.lost[r] != 0) return;  // OTF2 has no lost-record marker
  Check(OTF2_EvtWriter_MeasurementOnOff(writer_, nullptr, Ts(c.time[r]),
                                        c.on[r] ? OTF2_MEASUREMENT_ON : OTF2_MEASUREMENT_OFF));
}

Status Exporter::WriteDefinitions(OTF2_GlobalDefWriter* w) {
  OTF2_ErrorCode e = OTF2_SUCCESS;
  auto ok = [&](OTF2_ErrorCode code) {
    if (code != OTF2_SUCCESS && e == OTF2_SUCCESS) e = code;
  };
  // Names first, so that every later definition can refer to them.
  String("");
  const uint32_t machine = String("machine"), node = String("node"), root = String("Parallax");
  std::vector<uint32_t> process_node(t_.processes.size(), 0);
  std::map<std::string, uint32_t> hosts;
  for (uint32_t p = 0; p < t_.processes.size(); ++p) {
    const std::string& h = t_.processes[p].host;
    if (h.empty()) continue;
    auto [it, inserted] = hosts.try_emplace(h, static_cast<uint32_t>(hosts.size() + 1));
    process_node[p] = it->second;
  }
  for (const auto& [h, id] : hosts)
    String(h);
  // Unnamed processes and threads get names: ViTE keys its containers by
  // them and stops at the second empty one.
  std::vector<std::string> process_names(t_.processes.size()), thread_names(t_.threads.size());
  for (uint32_t p = 0; p < t_.processes.size(); ++p) {
    const model::Process& pr = t_.processes[p];
    process_names[p] = !pr.name.empty() ? pr.name
                       : pr.rank >= 0   ? "rank " + std::to_string(pr.rank)
                                        : "process " + std::to_string(p);
    String(process_names[p]);
  }
  std::vector<uint32_t> threads_of(t_.processes.size(), 0);
  for (uint32_t th = 0; th < t_.threads.size(); ++th) {
    const model::Thread& td = t_.threads[th];
    const uint32_t k = threads_of[td.process]++;
    thread_names[th] = !td.name.empty() ? td.name : "thread " + std::to_string(k);
    String(thread_names[th]);
  }
  // The paradigms' names, as Score-P writes them (ViTE looks them up).
  const uint32_t user_name = String("user"), mpi_name = String("MPI");
  const uint32_t pthread_name = String("Pthread");
  for (const model::State& s : t_.states)
    String(s.name);
  for (const OtfComm& c : comms_) {
    String(c.name);
    if (c.rma) String("window of " + c.name);
  }
  for (const model::Counter& c : t_.counters) {
    String(c.name);
    String(c.unit);
  }
  for (const model::EventType& et : t_.event_types)
    String(et.name);
  for (uint32_t s = 0; s < strings_.size(); ++s)
    ok(OTF2_GlobalDefWriter_WriteString(w, s, strings_[s].c_str()));
  strings_written_ = true;

  const uint64_t length = static_cast<uint64_t>(std::max<int64_t>(0, t_.end_ns - t_.begin_ns));
  uint64_t realtime = OTF2_UNDEFINED_TIMESTAMP;
  if (!t_.processes.empty() && t_.processes[0].realtime_minus_monotonic_ns != 0) {
    realtime = static_cast<uint64_t>(t_.begin_ns + t_.processes[0].realtime_minus_monotonic_ns);
  }
  ok(OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000, Ts(t_.begin_ns), length, realtime));
  ok(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_USER, user_name,
                                        OTF2_PARADIGM_CLASS_PROCESS));
  ok(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, mpi_name,
                                        OTF2_PARADIGM_CLASS_PROCESS));
  ok(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_PTHREAD, pthread_name,
                                        OTF2_PARADIGM_CLASS_THREAD_CREATE_WAIT));

  ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, root, machine,
                                              OTF2_UNDEFINED_SYSTEM_TREE_NODE));
  for (const auto& [h, id] : hosts)
    ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, id, String(h), node, 0));
  for (uint32_t p = 0; p < t_.processes.size(); ++p) {
    ok(OTF2_GlobalDefWriter_WriteLocationGroup(w, p, String(process_names[p]),
                                               OTF2_LOCATION_GROUP_TYPE_PROCESS, process_node[p],
                                               OTF2_UNDEFINED_LOCATION_GROUP));
  }
  for (uint32_t th = 0; th < t_.threads.size(); ++th) {
    ok(OTF2_GlobalDefWriter_WriteLocation(w, th, String(thread_names[th]),
                                          OTF2_LOCATION_TYPE_CPU_THREAD, location_events_[th],
                                          t_.threads[th].process));
  }
  for (uint32_t s = 0; s < t_.states.size(); ++s) {
    const model::State& st = t_.states[s];
    const bool mpi = IsMpiState(t_, st);
    const uint32_t name = String(st.name);
    ok(OTF2_GlobalDefWriter_WriteRegion(
        w, s, name, name, 0, mpi ? MpiRole(st.name) : OTF2_RegionRole{OTF2_REGION_ROLE_FUNCTION},
        mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING,
        0, 0));
  }

  // Groups: the COMM_LOCATIONS group of each paradigm (MPI: one location per
  // world rank; PTHREAD: every location), then one COMM_GROUP per communicator.
  uint32_t next_group = 0;
  const uint32_t mpi_group = next_group++;
  ok(OTF2_GlobalDefWriter_WriteGroup(
      w, mpi_group, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
      static_cast<uint32_t>(mpi_locations_.size()), mpi_locations_.data()));
  bool threads = false;
  for (const OtfComm& c : comms_)
    threads |= c.kind == 1;
  if (threads) {
    std::vector<uint64_t> all(t_.threads.size());
    for (uint64_t th = 0; th < all.size(); ++th)
      all[th] = th;
    ok(OTF2_GlobalDefWriter_WriteGroup(w, next_group++, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                       OTF2_PARADIGM_PTHREAD, OTF2_GROUP_FLAG_NONE,
                                       static_cast<uint32_t>(all.size()), all.data()));
  }
  for (uint32_t c = 0; c < comms_.size(); ++c) {
    const OtfComm& oc = comms_[c];
    const uint32_t group = next_group++;
    ok(OTF2_GlobalDefWriter_WriteGroup(
        w, group, 0, OTF2_GROUP_TYPE_COMM_GROUP,
        oc.kind == 1 ? OTF2_PARADIGM_PTHREAD : OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
        static_cast<uint32_t>(oc.group_members.size()), oc.group_members.data()));
    ok(OTF2_GlobalDefWriter_WriteComm(w, c, String(oc.name), group, OTF2_UNDEFINED_COMM,
                                      OTF2_COMM_FLAG_NONE));
  }
  for (uint32_t c = 0; c < comms_.size(); ++c) {
    if (comms_[c].rma) {
      ok(OTF2_GlobalDefWriter_WriteRmaWin(w, c, String("window of " + comms_[c].name), c,
                                          OTF2_RMA_WIN_FLAG_NONE));
    }
  }
  // One metric member and class per counter, the class id the counter's.
  for (uint32_t c = 0; c < t_.counters.size(); ++c) {
    const model::Counter& mc = t_.counters[c];
    const bool dbl = mc.value_kind == model::ValueKind::kDouble;
    ok(OTF2_GlobalDefWriter_WriteMetricMember(
        w, c, String(mc.name), 0, OTF2_METRIC_TYPE_OTHER, OTF2_METRIC_ABSOLUTE_POINT,
        dbl ? OTF2_TYPE_DOUBLE : OTF2_TYPE_INT64, OTF2_BASE_DECIMAL, 0, String(mc.unit)));
  }
  for (uint32_t c = 0; c < t_.counters.size(); ++c) {
    const OTF2_MetricMemberRef member = c;
    ok(OTF2_GlobalDefWriter_WriteMetricClass(w, c, 1, &member, OTF2_METRIC_ASYNCHRONOUS,
                                             OTF2_RECORDER_KIND_ABSTRACT));
  }
  // Instant events are parameters: one per event type.
  for (uint32_t et = 0; et < t_.event_types.size(); ++et) {
    const model::ValueKind kind = t_.event_types[et].value_kind;
    const bool text = kind == model::ValueKind::kString || kind == model::ValueKind::kDouble;
    ok(OTF2_GlobalDefWriter_WriteParameter(
        w, et, String(t_.event_types[et].name),
        text ? OTF2_PARAMETER_TYPE_STRING : OTF2_PARAMETER_TYPE_INT64));
  }
  if (e != OTF2_SUCCESS) return Fail("writing definitions", e);
  return Status::Ok();
}

Status Exporter::Run(const Progress& progress) {
  std::string dir, name;
  if (!otf2::SplitAnchor(anchor_, &dir, &name)) {
    return InvalidArgument(anchor_ + ": an OTF2 anchor file name must end in .otf2");
  }
  struct stat st;
  const std::string data_dir = dir + "/" + name;
  if (::stat(anchor_.c_str(), &st) == 0 || ::stat(data_dir.c_str(), &st) == 0) {
    return InvalidArgument(anchor_ + ": already exists (OTF2 does not overwrite an archive; " +
                           "remove " + anchor_ + ", " + data_dir + ".def and " + data_dir + "/)");
  }
  PlanCommunicators();
  PlanRecvPosts();
  otf2::CaptureLibraryErrors();
  OTF2_Archive* archive =
      OTF2_Archive_Open(dir.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, 1024 * 1024,
                        4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == nullptr) {
    return IoError(anchor_ + ": cannot create the archive: " + otf2::TakeLibraryError());
  }
  struct Closer {
    OTF2_Archive* a;
    ~Closer() {
      if (a != nullptr) OTF2_Archive_Close(a);
    }
  } closer{archive};
  OTF2_ErrorCode e = OTF2_Archive_SetFlushCallbacks(archive, &kFlushCallbacks, nullptr);
  if (e == OTF2_SUCCESS) e = OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  if (e == OTF2_SUCCESS) e = OTF2_Archive_SetCreator(archive, "Parallax");
  if (e == OTF2_SUCCESS) e = OTF2_Archive_OpenEvtFiles(archive);
  if (e != OTF2_SUCCESS) return Fail("opening the archive", e);

  const uint64_t total = EventCount(t_);
  uint64_t done = 0;
  location_events_.assign(t_.threads.size(), 0);
  for (uint32_t th = 0; th < t_.threads.size() && status_.ok(); ++th) {
    writer_ = OTF2_Archive_GetEvtWriter(archive, th);
    if (writer_ == nullptr) {
      return IoError(anchor_ + ": cannot write location " + std::to_string(th) + ": " +
                     otf2::TakeLibraryError());
    }
    ThreadWalk walk(t_, th);
    uint64_t steps = 0;
    while (!walk.done() && status_.ok()) {
      walk.Step(*this);
      if ((++steps & 0xffff) == 0 && progress) progress(done + steps, total);
    }
    done += steps;
    if (progress) progress(done, total);
    Check(OTF2_EvtWriter_GetNumberOfEvents(writer_, &location_events_[th]));
    Check(OTF2_Archive_CloseEvtWriter(archive, writer_));
    writer_ = nullptr;
  }
  PLX_RETURN_IF_ERROR(status_);
  e = OTF2_Archive_CloseEvtFiles(archive);
  if (e != OTF2_SUCCESS) return Fail("closing the event files", e);

  // Empty local definition files: readers expect one per location.
  e = OTF2_Archive_OpenDefFiles(archive);
  for (uint32_t th = 0; th < t_.threads.size() && e == OTF2_SUCCESS; ++th) {
    OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(archive, th);
    e = d == nullptr ? OTF2_ERROR_INVALID : OTF2_Archive_CloseDefWriter(archive, d);
  }
  if (e == OTF2_SUCCESS) e = OTF2_Archive_CloseDefFiles(archive);
  if (e != OTF2_SUCCESS) return Fail("writing the local definition files", e);

  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
  if (defs == nullptr) return IoError(anchor_ + ": " + otf2::TakeLibraryError());
  PLX_RETURN_IF_ERROR(WriteDefinitions(defs));
  closer.a = nullptr;
  e = OTF2_Archive_Close(archive);
  if (e != OTF2_SUCCESS) return Fail("closing the archive", e);
  return Status::Ok();
}

}  // namespace

Status ExportOtf2(const model::Trace& trace, const std::string& anchor, const Progress& progress) {
  return Exporter(trace, anchor).Run(progress);
}

}  // namespace plx::interop
