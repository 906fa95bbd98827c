// The OTF2 exporter's global definitions (see otf2_exporter.h): strings,
// clock, paradigms, system tree, locations, regions, groups, communicators,
// windows, metrics and parameters.
#include <algorithm>
#include <map>

#include "interop/otf2/otf2_exporter.h"

namespace plx::interop::otf2 {

namespace {

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

}  // namespace

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

}  // namespace plx::interop::otf2
