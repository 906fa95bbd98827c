// The OTF2 library's callbacks for the importer: definitions are kept as
// read, events go to the Importer (otf2_importer.h), records without a
// counterpart in the model are counted as "otf2.<record>".
#include "interop/otf2/otf2_common.h"
#include "interop/otf2/otf2_importer.h"

namespace plx::interop::otf2 {

// ---- Definitions ---------------------------------------------------------

#define PLX_IM (*static_cast<Importer*>(user))

struct Callbacks {
  static OTF2_CallbackCode Clock(void* user, uint64_t resolution, uint64_t offset, uint64_t,
                                 uint64_t realtime) {
    PLX_IM.resolution_ = resolution;
    PLX_IM.global_offset_ = offset;
    PLX_IM.realtime_ = realtime;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode String(void* user, OTF2_StringRef self, const char* s) {
    PLX_IM.strings_[self] = s == nullptr ? "" : s;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode TreeNode(void* user, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                    OTF2_StringRef, OTF2_SystemTreeNodeRef parent) {
    PLX_IM.tree_nodes_[self] = {name, parent};
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode LocationGroup(void* user, OTF2_LocationGroupRef self,
                                         OTF2_StringRef name, OTF2_LocationGroupType,
                                         OTF2_SystemTreeNodeRef parent, OTF2_LocationGroupRef) {
    if (PLX_IM.group_parent_.try_emplace(self, parent).second)
      PLX_IM.groups_defined_.emplace_back(self, name);
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode Location(void* user, OTF2_LocationRef self, OTF2_StringRef name,
                                    OTF2_LocationType, uint64_t events,
                                    OTF2_LocationGroupRef group) {
    Importer& im = PLX_IM;
    if (!im.location_index_.try_emplace(self, static_cast<uint32_t>(im.locations_.size())).second)
      return OTF2_CALLBACK_SUCCESS;
    otf2::Location l;
    l.id = self;
    l.name = im.Str(name);
    l.group = group;
    l.events_defined = events;
    im.locations_.push_back(std::move(l));
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode RegionDef(void* user, OTF2_RegionRef self, OTF2_StringRef name,
                                     OTF2_StringRef, OTF2_StringRef, OTF2_RegionRole role,
                                     OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef,
                                     uint32_t, uint32_t) {
    PLX_IM.regions_[self] = {name, paradigm, role, kNone};
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode GroupDef(void* user, OTF2_GroupRef self, OTF2_StringRef,
                                    OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag,
                                    uint32_t n, const uint64_t* members) {
    Group& g = PLX_IM.groups_[self];
    g.type = type;
    g.paradigm = paradigm;
    g.members.assign(members, members + n);
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode CommDef(void* user, OTF2_CommRef self, OTF2_StringRef name,
                                   OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag) {
    Comm& c = PLX_IM.comms_[self];
    c.name = PLX_IM.Str(name);
    c.group = group;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode RmaWin(void* user, OTF2_RmaWinRef self, OTF2_StringRef,
                                  OTF2_CommRef comm, OTF2_RmaWinFlag) {
    PLX_IM.windows_[self] = comm;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode Member(void* user, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                  OTF2_StringRef, OTF2_MetricType, OTF2_MetricMode, OTF2_Type type,
                                  OTF2_Base, int64_t, OTF2_StringRef unit) {
    PLX_IM.members_[self] = {name, unit, type, kNone};
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode MetricClass(void* user, OTF2_MetricRef self, uint8_t n,
                                       const OTF2_MetricMemberRef* members, OTF2_MetricOccurrence,
                                       OTF2_RecorderKind) {
    PLX_IM.metric_classes_[self].assign(members, members + n);
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode MetricInstance(void* user, OTF2_MetricRef self, OTF2_MetricRef cls,
                                          OTF2_LocationRef, OTF2_MetricScope, uint64_t) {
    PLX_IM.metric_instances_[self] = cls;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode ParameterDef(void* user, OTF2_ParameterRef self, OTF2_StringRef name,
                                        OTF2_ParameterType) {
    PLX_IM.parameters_[self].name = name;
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode UnknownDef(void* user) {
    PLX_IM.Note(ImportCounter::kOtf2UnknownDefinition);
    return OTF2_CALLBACK_SUCCESS;
  }

  // ---- Events --------------------------------------------------------------
#define PLX_START                                    \
  Importer& im = PLX_IM;                             \
  int64_t ns = 0;                                    \
  otf2::Location* l = im.Start(location, time, &ns); \
  if (l == nullptr) return im.Code()

  static OTF2_CallbackCode Enter(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                 OTF2_AttributeList*, OTF2_RegionRef region) {
    PLX_START;
    Pending p;
    p.kind = Pending::kEnter;
    p.id = im.StateOf(region);
    p.ns = ns;
    im.Emit(*l, p);
    return im.Code();
  }
  static OTF2_CallbackCode Leave(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                 OTF2_AttributeList*, OTF2_RegionRef region) {
    PLX_START;
    Pending p;
    p.kind = Pending::kLeave;
    p.id = im.StateOf(region);
    p.ns = ns;
    im.Emit(*l, p);
    return im.Code();
  }
  static OTF2_CallbackCode MpiSend(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                   OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm,
                                   uint32_t tag, uint64_t length) {
    PLX_START;
    im.Send(*l, ns, comm, receiver, tag, length);
    return im.Code();
  }
  static OTF2_CallbackCode MpiIsend(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                    OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm,
                                    uint32_t tag, uint64_t length, uint64_t) {
    PLX_START;
    im.Send(*l, ns, comm, receiver, tag, length);
    return im.Code();
  }
  static OTF2_CallbackCode MpiRecv(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                   OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm,
                                   uint32_t tag, uint64_t length) {
    PLX_START;
    im.Recv(*l, ns, comm, sender, tag, length, nullptr);
    return im.Code();
  }
  static OTF2_CallbackCode MpiIrecv(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                    OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm,
                                    uint32_t tag, uint64_t length, uint64_t request) {
    PLX_START;
    im.Recv(*l, ns, comm, sender, tag, length, &request);
    return im.Code();
  }
  static OTF2_CallbackCode MpiIrecvRequest(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           void* user, OTF2_AttributeList*, uint64_t request) {
    PLX_START;
    im.Post(*l, ns, request);
    return im.Code();
  }
  static OTF2_CallbackCode MpiCancelled(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                        OTF2_AttributeList*, uint64_t request) {
    PLX_START;
    im.Cancel(*l, request);
    return im.Code();
  }
  // Parts of constructs the records above carry whole: read and dropped.
  static OTF2_CallbackCode Request(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                   OTF2_AttributeList*, uint64_t) {
    PLX_START;
    return im.Code();
  }
  static OTF2_CallbackCode CollectiveBegin(OTF2_LocationRef location, OTF2_TimeStamp time,
                                           void* user, OTF2_AttributeList*) {
    PLX_START;
    return im.Code();
  }
  static OTF2_CallbackCode RmaComplete(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                       OTF2_AttributeList*, OTF2_RmaWinRef, uint64_t) {
    PLX_START;
    return im.Code();
  }
  static OTF2_CallbackCode CollectiveEnd(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                         OTF2_AttributeList*, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                         uint64_t received) {
    PLX_START;
    Comm* c = im.CommOf(comm);
    if (c == nullptr) {
      im.Note(ImportCounter::kOtf2CollectiveOnUndefinedComm);
      return im.Code();
    }
    Pending p;
    p.kind = Pending::kCollective;
    p.ns = ns;
    p.op = otf2::FromOtf2CollectiveOp(op);
    p.id = im.CommHandle(comm, *c, l->process);
    p.a = root == OTF2_UNDEFINED_UINT32 ? -1 : im.Peer(*c, *l, root);
    p.x = sent;
    p.y = received;
    im.Emit(*l, p);
    return im.Code();
  }
  static OTF2_CallbackCode RmaPut(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                  OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                                  uint64_t bytes, uint64_t) {
    PLX_START;
    im.Rma(*l, ns, 0, win, remote, bytes);
    return im.Code();
  }
  static OTF2_CallbackCode RmaGet(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                  OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                                  uint64_t bytes, uint64_t) {
    PLX_START;
    im.Rma(*l, ns, 1, win, remote, bytes);
    return im.Code();
  }
  static OTF2_CallbackCode RmaAtomic(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                     OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                                     OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                                     uint64_t) {
    PLX_START;
    const bool accumulate = type == OTF2_RMA_ATOMIC_TYPE_ACCUMULATE;
    im.Rma(*l, ns, accumulate ? 2 : 3, win, remote,
           accumulate ? sent : (sent > received ? sent : received));
    return im.Code();
  }
  static OTF2_CallbackCode Metric(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                  OTF2_AttributeList*, OTF2_MetricRef metric, uint8_t n,
                                  const OTF2_Type* types, const OTF2_MetricValue* values) {
    PLX_START;
    im.Metric(*l, ns, metric, n, types, values);
    return im.Code();
  }
  static OTF2_CallbackCode ParamInt(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                    OTF2_AttributeList*, OTF2_ParameterRef param, int64_t value) {
    PLX_START;
    im.Param(*l, ns, param, false, value, 0);
    return im.Code();
  }
  static OTF2_CallbackCode ParamUnsigned(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                         OTF2_AttributeList*, OTF2_ParameterRef param,
                                         uint64_t value) {
    PLX_START;
    if (value > static_cast<uint64_t>(INT64_MAX)) {
      im.Note(ImportCounter::kOtf2ParameterClamped);
      value = INT64_MAX;
    }
    im.Param(*l, ns, param, false, static_cast<int64_t>(value), 0);
    return im.Code();
  }
  static OTF2_CallbackCode ParamString(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                       OTF2_AttributeList*, OTF2_ParameterRef param,
                                       OTF2_StringRef s) {
    PLX_START;
    im.Param(*l, ns, param, true, 0, s);
    return im.Code();
  }
  static OTF2_CallbackCode ThreadBegin(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                       OTF2_AttributeList*, OTF2_CommRef, uint64_t) {
    PLX_START;
    Pending p;
    p.kind = Pending::kThreadBegin;
    p.ns = ns;
    im.Emit(*l, p);
    return im.Code();
  }
  static OTF2_CallbackCode ThreadEnd(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                     OTF2_AttributeList*, OTF2_CommRef, uint64_t) {
    PLX_START;
    Pending p;
    p.kind = Pending::kThreadEnd;
    p.ns = ns;
    im.Emit(*l, p);
    return im.Code();
  }
  static OTF2_CallbackCode UnknownEvent(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                        OTF2_AttributeList*) {
    PLX_START;
    im.Note(ImportCounter::kOtf2UnknownRecord);
    return im.Code();
  }
  // Records with no counterpart in the model: counted as "otf2.<record>".
  template <ImportCounter kCounter>
  struct Skip {
    template <typename... Rest>
    static OTF2_CallbackCode Cb(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                                OTF2_AttributeList*, Rest...) {
      PLX_START;
      im.Note(kCounter);
      return im.Code();
    }
  };
#undef PLX_START
};

// A record the model has no counterpart for, counted as ImportCounter::`counter`
// (declared in spec/import_counters.toml).
#define PLX_SKIP(Record, counter)                      \
  OTF2_GlobalEvtReaderCallbacks_Set##Record##Callback( \
      cbs, &Callbacks::Skip<ImportCounter::counter>::Cb)

void RegisterDefinitionCallbacks(OTF2_GlobalDefReaderCallbacks* dc) {
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dc, Callbacks::Clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(dc, Callbacks::String);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(dc, Callbacks::TreeNode);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dc, Callbacks::LocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, Callbacks::Location);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dc, Callbacks::RegionDef);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, Callbacks::GroupDef);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(dc, Callbacks::CommDef);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(dc, Callbacks::RmaWin);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(dc, Callbacks::Member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(dc, Callbacks::MetricClass);
  OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(dc, Callbacks::MetricInstance);
  OTF2_GlobalDefReaderCallbacks_SetParameterCallback(dc, Callbacks::ParameterDef);
  OTF2_GlobalDefReaderCallbacks_SetUnknownCallback(dc, Callbacks::UnknownDef);
}

void RegisterEventCallbacks(OTF2_GlobalEvtReaderCallbacks* cbs) {
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cbs, Callbacks::Enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cbs, Callbacks::Leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cbs, Callbacks::MpiSend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cbs, Callbacks::MpiIsend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cbs, Callbacks::MpiRecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cbs, Callbacks::MpiIrecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cbs, Callbacks::MpiIrecvRequest);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cbs, Callbacks::MpiCancelled);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cbs, Callbacks::Request);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(cbs, Callbacks::Request);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cbs, Callbacks::CollectiveBegin);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cbs, Callbacks::CollectiveEnd);
  OTF2_GlobalEvtReaderCallbacks_SetRmaPutCallback(cbs, Callbacks::RmaPut);
  OTF2_GlobalEvtReaderCallbacks_SetRmaGetCallback(cbs, Callbacks::RmaGet);
  OTF2_GlobalEvtReaderCallbacks_SetRmaAtomicCallback(cbs, Callbacks::RmaAtomic);
  OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cbs, Callbacks::RmaComplete);
  OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cbs, Callbacks::RmaComplete);
  OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cbs, Callbacks::RmaComplete);
  OTF2_GlobalEvtReaderCallbacks_SetRmaOpTestCallback(cbs, Callbacks::RmaComplete);
  OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(cbs, Callbacks::Metric);
  OTF2_GlobalEvtReaderCallbacks_SetParameterIntCallback(cbs, Callbacks::ParamInt);
  OTF2_GlobalEvtReaderCallbacks_SetParameterUnsignedIntCallback(cbs, Callbacks::ParamUnsigned);
  OTF2_GlobalEvtReaderCallbacks_SetParameterStringCallback(cbs, Callbacks::ParamString);
  OTF2_GlobalEvtReaderCallbacks_SetThreadBeginCallback(cbs, Callbacks::ThreadBegin);
  OTF2_GlobalEvtReaderCallbacks_SetThreadEndCallback(cbs, Callbacks::ThreadEnd);
  OTF2_GlobalEvtReaderCallbacks_SetUnknownCallback(cbs, Callbacks::UnknownEvent);
  PLX_SKIP(BufferFlush, kOtf2BufferFlush);
  PLX_SKIP(MeasurementOnOff, kOtf2MeasurementOnOff);
  PLX_SKIP(ProgramBegin, kOtf2ProgramBegin);
  PLX_SKIP(ProgramEnd, kOtf2ProgramEnd);
  PLX_SKIP(OmpFork, kOtf2OmpFork);
  PLX_SKIP(OmpJoin, kOtf2OmpJoin);
  PLX_SKIP(OmpAcquireLock, kOtf2OmpAcquireLock);
  PLX_SKIP(OmpReleaseLock, kOtf2OmpReleaseLock);
  PLX_SKIP(OmpTaskCreate, kOtf2OmpTaskCreate);
  PLX_SKIP(OmpTaskSwitch, kOtf2OmpTaskSwitch);
  PLX_SKIP(OmpTaskComplete, kOtf2OmpTaskComplete);
  PLX_SKIP(RmaWinCreate, kOtf2RmaWinCreate);
  PLX_SKIP(RmaWinDestroy, kOtf2RmaWinDestroy);
  PLX_SKIP(RmaCollectiveBegin, kOtf2RmaCollectiveBegin);
  PLX_SKIP(RmaCollectiveEnd, kOtf2RmaCollectiveEnd);
  PLX_SKIP(RmaGroupSync, kOtf2RmaGroupSync);
  PLX_SKIP(RmaRequestLock, kOtf2RmaRequestLock);
  PLX_SKIP(RmaAcquireLock, kOtf2RmaAcquireLock);
  PLX_SKIP(RmaTryLock, kOtf2RmaTryLock);
  PLX_SKIP(RmaReleaseLock, kOtf2RmaReleaseLock);
  PLX_SKIP(RmaSync, kOtf2RmaSync);
  PLX_SKIP(RmaWaitChange, kOtf2RmaWaitChange);
  PLX_SKIP(ThreadFork, kOtf2ThreadFork);
  PLX_SKIP(ThreadJoin, kOtf2ThreadJoin);
  PLX_SKIP(ThreadTeamBegin, kOtf2ThreadTeamBegin);
  PLX_SKIP(ThreadTeamEnd, kOtf2ThreadTeamEnd);
  PLX_SKIP(ThreadAcquireLock, kOtf2ThreadAcquireLock);
  PLX_SKIP(ThreadReleaseLock, kOtf2ThreadReleaseLock);
  PLX_SKIP(ThreadTaskCreate, kOtf2ThreadTaskCreate);
  PLX_SKIP(ThreadTaskSwitch, kOtf2ThreadTaskSwitch);
  PLX_SKIP(ThreadTaskComplete, kOtf2ThreadTaskComplete);
  PLX_SKIP(ThreadCreate, kOtf2ThreadCreate);
  PLX_SKIP(ThreadWait, kOtf2ThreadWait);
  PLX_SKIP(CallingContextEnter, kOtf2CallingContextEnter);
  PLX_SKIP(CallingContextLeave, kOtf2CallingContextLeave);
  PLX_SKIP(CallingContextSample, kOtf2CallingContextSample);
  PLX_SKIP(IoCreateHandle, kOtf2IoCreateHandle);
  PLX_SKIP(IoDestroyHandle, kOtf2IoDestroyHandle);
  PLX_SKIP(IoDuplicateHandle, kOtf2IoDuplicateHandle);
  PLX_SKIP(IoSeek, kOtf2IoSeek);
  PLX_SKIP(IoChangeStatusFlags, kOtf2IoChangeStatusFlags);
  PLX_SKIP(IoDeleteFile, kOtf2IoDeleteFile);
  PLX_SKIP(IoOperationBegin, kOtf2IoOperationBegin);
  PLX_SKIP(IoOperationTest, kOtf2IoOperationTest);
  PLX_SKIP(IoOperationIssued, kOtf2IoOperationIssued);
  PLX_SKIP(IoOperationComplete, kOtf2IoOperationComplete);
  PLX_SKIP(IoOperationCancelled, kOtf2IoOperationCancelled);
  PLX_SKIP(IoAcquireLock, kOtf2IoAcquireLock);
  PLX_SKIP(IoReleaseLock, kOtf2IoReleaseLock);
  PLX_SKIP(IoTryLock, kOtf2IoTryLock);
  PLX_SKIP(NonBlockingCollectiveRequest, kOtf2NonBlockingCollectiveRequest);
  PLX_SKIP(NonBlockingCollectiveComplete, kOtf2NonBlockingCollectiveComplete);
  PLX_SKIP(CommCreate, kOtf2CommCreate);
  PLX_SKIP(CommDestroy, kOtf2CommDestroy);
}

#undef PLX_SKIP
#undef PLX_IM

}  // namespace plx::interop::otf2
