// ExportOtf2: a model::Trace as an OTF2 archive, written with the OTF2
// library: the archive and each location's events here, the plan and the
// global definitions in otf2_writer_plan.cc and otf2_writer_defs.cc.
// Timestamps are the model's nanoseconds (timer resolution 1e9); the mapping
// of every record is in docs/interop.md (OTF2).
#include <otf2/otf2.h>
#include <sys/stat.h>

#include <string>

#include "base/strings.h"
#include "interop/otf2/otf2.h"
#include "interop/otf2/otf2_exporter.h"

namespace plx::interop {

namespace otf2 {

namespace {

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp PostFlush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}
OTF2_FlushCallbacks kFlushCallbacks = {PreFlush, PostFlush};

}  // namespace

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

}  // namespace otf2

Status ExportOtf2(const model::Trace& trace, const std::string& anchor, const Progress& progress) {
  return otf2::Exporter(trace, anchor).Run(progress);
}

}  // namespace plx::interop
