// What each OTF2 record becomes in the importer: regions as states,
// communicator ranks as world ranks or streams, receive requests as posts,
// metrics as counters, parameters as instants.
#include "base/strings.h"
#include "interop/otf2/otf2_common.h"
#include "interop/otf2/otf2_importer.h"

namespace plx::interop::otf2 {

uint32_t Importer::StateOf(OTF2_RegionRef region) {
  auto it = regions_.find(region);
  if (it == regions_.end()) {
    Note(ImportCounter::kOtf2UndefinedRegion);
    return out_.State(StrFormat("region %u", region));
  }
  Region& r = it->second;
  if (r.state == kNone) {
    const char* category = "user";
    if (r.paradigm == OTF2_PARADIGM_MPI) {
      category = "comm";
    } else if (r.role == OTF2_REGION_ROLE_FILE_IO || r.role == OTF2_REGION_ROLE_FILE_IO_METADATA) {
      category = "io";
    } else if (r.paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM) {
      category = "internal";
    }
    const std::string& name = Str(r.name);
    r.state = out_.State(name.empty() ? StrFormat("region %u", region) : name, category);
  }
  return r.state;
}

Comm* Importer::CommOf(OTF2_CommRef comm) {
  auto it = comms_.find(comm);
  if (it == comms_.end()) return nullptr;
  if (!it->second.resolved) ResolveComm(it->second);
  return &it->second;
}

// A communicator's ranks as locations: a COMM_GROUP lists positions in the
// COMM_LOCATIONS group of its paradigm, which lists locations.
void Importer::ResolveComm(Comm& c) {
  c.resolved = true;
  auto g = groups_.find(c.group);
  if (g == groups_.end()) {
    Note(ImportCounter::kOtf2CommWithUndefinedGroup);
    return;
  }
  std::vector<uint64_t> locations;
  if (g->second.type == OTF2_GROUP_TYPE_COMM_SELF) {
    c.self = true;
    return;
  }
  if (g->second.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
    locations = g->second.members;
  } else {
    const Group* all = nullptr;
    for (const auto& [id, other] : groups_) {
      if (other.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && other.paradigm == g->second.paradigm &&
          (all == nullptr || id < c.group)) {
        all = &other;
      }
    }
    for (uint64_t m : g->second.members)
      locations.push_back(all != nullptr && m < all->members.size() ? all->members[m] : ~0ull);
  }
  // Peers are world ranks, unless a non-MPI communicator joins threads of one process.
  uint32_t process = kNone;
  bool one_process = g->second.paradigm != OTF2_PARADIGM_MPI;
  std::vector<const Location*> member_locations;
  for (uint64_t loc : locations) {
    auto it = location_index_.find(loc);
    const Location* l = it == location_index_.end() ? nullptr : &locations_[it->second];
    if (l == nullptr || l->thread == kNone) {
      one_process = false;
    } else if (process == kNone) {
      process = l->process;
    } else if (process != l->process) {
      one_process = false;
    }
    member_locations.push_back(l);
  }
  c.kind = one_process && process != kNone ? 1 : 0;
  for (const Location* l : member_locations) {
    int64_t peer = -1;
    if (l != nullptr && l->thread != kNone)
      peer = c.kind == 1 ? out_.StreamOf(l->thread) : processes_[l->process].rank;
    c.peer_of_rank.push_back(peer);
    if (c.kind == 0) c.world_members.push_back(peer);
  }
}

uint32_t Importer::CommHandle(OTF2_CommRef ref, Comm& c, uint32_t process) {
  if (c.handle.empty()) c.handle.assign(processes_.size(), kNone);
  uint32_t& h = c.handle[process];
  if (h == kNone) {
    std::string name = c.name.empty() ? StrFormat("comm %u", ref) : c.name;
    h = out_.Communicator(process, name, c.kind, c.kind == 0 ? uint64_t{ref} + 1 : 0,
                          c.kind == 0 ? c.world_members : std::vector<int64_t>{});
  }
  return h;
}

int64_t Importer::Peer(const Comm& c, const Location& l, uint32_t rank) {
  if (rank == OTF2_UNDEFINED_UINT32) return -1;
  if (c.self) {
    if (rank != 0) Note(ImportCounter::kOtf2RankOutsideCommunicator);
    return processes_[l.process].rank;
  }
  if (rank >= c.peer_of_rank.size() || c.peer_of_rank[rank] < 0) {
    Note(ImportCounter::kOtf2RankOutsideCommunicator);
    return -1;
  }
  return c.peer_of_rank[rank];
}

void Importer::Send(Location& l, int64_t ns, OTF2_CommRef comm, uint32_t peer, uint32_t tag,
                    uint64_t bytes) {
  Comm* c = CommOf(comm);
  if (c == nullptr) {
    Note(ImportCounter::kOtf2MessageOnUndefinedComm);
    return;
  }
  Pending p;
  p.kind = Pending::kSend;
  p.ns = ns;
  p.id = CommHandle(comm, *c, l.process);
  p.a = Peer(*c, l, peer);
  p.b = tag;
  p.x = bytes;
  p.y = ++processes_[l.process].sends;
  Emit(l, p);
}

void Importer::Recv(Location& l, int64_t ns, OTF2_CommRef comm, uint32_t peer, uint32_t tag,
                    uint64_t bytes, const uint64_t* request) {
  Comm* c = CommOf(comm);
  if (c == nullptr) {
    Note(ImportCounter::kOtf2MessageOnUndefinedComm);
    if (request != nullptr) Cancel(l, *request);
    return;
  }
  Pending p;
  p.kind = Pending::kRecv;
  p.ns = ns;
  p.id = CommHandle(comm, *c, l.process);
  p.a = Peer(*c, l, peer);
  p.b = tag;
  p.x = bytes;
  auto post = request == nullptr ? l.posts.end() : l.posts.find(*request);
  if (post != l.posts.end()) {
    // The receive was posted earlier: it matches in posting order.
    Pending& q = l.queue[post->second - l.popped];
    q.id = p.id;
    q.a = p.a;
    q.b = p.b;
    q.ready = true;
    p.y = q.x;
    l.posts.erase(post);
    Emit(l, p);
    Drain(l);
    return;
  }
  p.y = ++processes_[l.process].recvs;
  Emit(l, p);
}

void Importer::Post(Location& l, int64_t ns, uint64_t request) {
  if (l.posts.count(request) != 0) {
    Note(ImportCounter::kOtf2RequestIdReused);
    Cancel(l, request);
  }
  Pending p;
  p.kind = Pending::kPost;
  p.ns = ns;
  p.ready = false;
  p.x = ++processes_[l.process].recvs;
  l.posts.emplace(request, l.popped + l.queue.size());
  Emit(l, p);
}

void Importer::Cancel(Location& l, uint64_t request) {
  auto post = l.posts.find(request);
  if (post == l.posts.end()) return;
  Pending& q = l.queue[post->second - l.popped];
  q.kind = Pending::kDropped;
  q.ready = true;
  l.posts.erase(post);
  Note(ImportCounter::kOtf2IrecvRequestWithoutIrecv);
  Drain(l);
}

void Importer::Rma(Location& l, int64_t ns, uint8_t op, OTF2_RmaWinRef win, uint32_t remote,
                   uint64_t bytes) {
  auto w = windows_.find(win);
  Comm* c = w == windows_.end() ? nullptr : CommOf(w->second);
  if (c == nullptr) {
    Note(ImportCounter::kOtf2RmaOnUndefinedWindow);
    return;
  }
  Pending p;
  p.kind = Pending::kRma;
  p.ns = ns;
  p.op = op;
  p.id = CommHandle(w->second, *c, l.process);
  p.a = c->kind == 1 ? out_.StreamOf(l.thread) : processes_[l.process].rank;
  p.b = Peer(*c, l, remote);
  p.x = bytes;
  Emit(l, p);
}

void Importer::Metric(Location& l, int64_t ns, OTF2_MetricRef metric, uint8_t n,
                      const OTF2_Type* types, const OTF2_MetricValue* values) {
  auto instance = metric_instances_.find(metric);
  auto cls = metric_classes_.find(instance == metric_instances_.end() ? metric : instance->second);
  if (cls == metric_classes_.end()) {
    Note(ImportCounter::kOtf2MetricOfUndefinedClass);
    return;
  }
  if (n != cls->second.size()) Note(ImportCounter::kOtf2MetricValueCountMismatch);
  for (size_t i = 0; i < n && i < cls->second.size(); ++i) {
    auto m = members_.find(cls->second[i]);
    if (m == members_.end()) {
      Note(ImportCounter::kOtf2MetricOfUndefinedMember);
      continue;
    }
    MetricMember& mm = m->second;
    const bool dbl = mm.type == OTF2_TYPE_DOUBLE || mm.type == OTF2_TYPE_FLOAT;
    if (mm.counter == kNone) {
      mm.counter = out_.Counter(Str(mm.name), Str(mm.unit),
                                dbl ? model::ValueKind::kDouble : model::ValueKind::kInt);
    }
    Pending p;
    p.ns = ns;
    p.id = mm.counter;
    double d = 0;
    int64_t v = 0;
    switch (types[i]) {
      case OTF2_TYPE_DOUBLE:
        d = values[i].floating_point;
        v = static_cast<int64_t>(d);
        break;
      case OTF2_TYPE_UINT64:
        if (values[i].unsigned_int > static_cast<uint64_t>(INT64_MAX)) {
          Note(ImportCounter::kOtf2MetricValueClamped);
          v = INT64_MAX;
        } else {
          v = static_cast<int64_t>(values[i].unsigned_int);
        }
        d = static_cast<double>(values[i].unsigned_int);
        break;
      default:
        v = values[i].signed_int;
        d = static_cast<double>(v);
    }
    p.kind = dbl ? Pending::kCounterDouble : Pending::kCounterInt;
    p.a = v;
    p.d = d;
    Emit(l, p);
  }
}

void Importer::Param(Location& l, int64_t ns, OTF2_ParameterRef param, bool text, int64_t value,
                     uint64_t string) {
  auto it = parameters_.find(param);
  if (it == parameters_.end()) {
    Note(ImportCounter::kOtf2ParameterUndefined);
    return;
  }
  Parameter& pd = it->second;
  uint32_t& type = text ? pd.string_type : pd.int_type;
  if (type == kNone) {
    type = out_.EventType(Str(pd.name), text ? model::ValueKind::kString : model::ValueKind::kInt);
  }
  Pending p;
  p.kind = text ? Pending::kInstantString : Pending::kInstantInt;
  p.ns = ns;
  p.id = type;
  p.a = value;
  p.x = string;
  Emit(l, p);
}

}  // namespace plx::interop::otf2
