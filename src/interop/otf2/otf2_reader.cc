// ImportOtf2: an OTF2 archive (Score-P's, or ours) into a TraceBuilder, read
// with the OTF2 library: global definitions first, then the events of all
// locations merged by time. The mapping is in docs/interop.md (OTF2).
#include <otf2/otf2.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/strings.h"
#include "interop/otf2/otf2.h"
#include "interop/otf2/otf2_common.h"
#include "interop/otf2/otf2_importer.h"

namespace plx::interop {

namespace otf2 {

namespace {

uint64_t FileSize(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

}  // namespace

int64_t Importer::ToNs(uint64_t t, bool* ok) const {
  unsigned __int128 ns = t;
  if (resolution_ != 1000000000) ns = ns * 1000000000u / resolution_;
  *ok = ns <= static_cast<unsigned __int128>(INT64_MAX);
  return static_cast<int64_t>(ns);
}

Location* Importer::Start(OTF2_LocationRef location, OTF2_TimeStamp time, int64_t* ns) {
  if (!status_.ok()) return nullptr;
  Location* l = cached_;
  if (location != cached_id_) {
    auto it = location_index_.find(location);
    l = it == location_index_.end() ? nullptr : &locations_[it->second];
    cached_id_ = location;
    cached_ = l;
  }
  if (l == nullptr || l->thread == kNone) {
    Note(ImportCounter::kOtf2EventOfUnknownLocation);
    return nullptr;
  }
  ++l->events;
  bool ok = false;
  *ns = ToNs(time, &ok);
  if (!ok) {
    status_ = InputError(
        l->file, StrFormat("event %llu", static_cast<unsigned long long>(l->events)), "time",
        StrFormat("%llu ticks is past the year 2262", static_cast<unsigned long long>(time)));
    return nullptr;
  }
  return l;
}

void Importer::Emit(Location& l, const Pending& p) {
  if (l.queue.empty() && p.ready) {
    Pending q = p;
    q.index = l.events;
    Apply(l, q);
    return;
  }
  l.queue.push_back(p);
  l.queue.back().index = l.events;
}

void Importer::Drain(Location& l) {
  while (!l.queue.empty() && l.queue.front().ready && status_.ok()) {
    Apply(l, l.queue.front());
    l.queue.pop_front();
    ++l.popped;
  }
}

bool Importer::Apply(Location& l, const Pending& p) {
  if (!status_.ok()) return false;
  const uint32_t t = l.thread;
  bool ok = true;
  switch (p.kind) {
    case Pending::kEnter:
      ok = out_.Enter(t, p.ns, p.id);
      break;
    case Pending::kLeave:
      ok = out_.Leave(t, p.ns, p.id);
      break;
    case Pending::kSend:
      ok = out_.Send(t, p.ns, p.id, p.a, p.b, p.x, p.y);
      break;
    case Pending::kRecv:
      ok = out_.Recv(t, p.ns, p.id, p.a, p.b, p.x, p.y);
      break;
    case Pending::kPost:
      ok = out_.RecvPost(t, p.ns, p.id, p.a, p.b, p.x);
      break;
    case Pending::kDropped:
      break;
    case Pending::kCollective:
      ok = out_.Collective(t, p.ns, p.op, p.id, p.a, p.x, p.y);
      break;
    case Pending::kRma:
      ok = out_.Rma(t, p.ns, p.op, p.id, p.a, p.b, p.x);
      break;
    case Pending::kCounterInt:
      ok = out_.CounterInt(t, p.ns, p.id, p.a);
      break;
    case Pending::kCounterDouble:
      ok = out_.CounterDouble(t, p.ns, p.id, p.d);
      break;
    case Pending::kInstantInt:
      ok = out_.InstantInt(t, p.ns, p.id, p.a);
      break;
    case Pending::kInstantString:
      ok = out_.InstantString(t, p.ns, p.id, Str(static_cast<uint32_t>(p.x)));
      break;
    case Pending::kThreadBegin:
      ok = out_.ThreadBegin(t, p.ns);
      break;
    case Pending::kThreadEnd:
      ok = out_.ThreadEnd(t, p.ns);
      break;
  }
  if (!ok) {
    status_ = InputError(
        l.file, StrFormat("event %llu", static_cast<unsigned long long>(p.index)), "time",
        StrFormat("%lld ns is before the location's previous event at %lld ns",
                  static_cast<long long>(p.ns), static_cast<long long>(out_.LastTime(t))));
  }
  return ok;
}

Status Importer::BuildModel() {
  if (resolution_ == 0) {
    Note(ImportCounter::kOtf2NoClockProperties);
    resolution_ = 1000000000;
  }
  // World ranks: positions in the MPI COMM_LOCATIONS group (Score-P's convention).
  const Group* world = nullptr;
  uint32_t world_id = 0;
  for (const auto& [id, g] : groups_) {
    if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI &&
        (world == nullptr || id < world_id)) {
      world = &g;
      world_id = id;
    }
  }
  std::unordered_map<uint64_t, int64_t> rank_of_location;
  if (world != nullptr) {
    for (size_t r = 0; r < world->members.size(); ++r)
      rank_of_location.try_emplace(world->members[r], static_cast<int64_t>(r));
  }
  int64_t realtime_minus = 0;
  if (realtime_ != OTF2_UNDEFINED_TIMESTAMP) {
    bool ok = false;
    const int64_t offset = ToNs(global_offset_, &ok);
    if (ok && realtime_ <= static_cast<uint64_t>(INT64_MAX))
      realtime_minus = static_cast<int64_t>(realtime_) - offset;
  }
  std::unordered_map<uint32_t, uint32_t> process_of_group;
  std::vector<std::vector<uint32_t>> locations_of(groups_defined_.size());
  for (uint32_t g = 0; g < groups_defined_.size(); ++g)
    process_of_group.emplace(groups_defined_[g].first, g);
  for (uint32_t i = 0; i < locations_.size(); ++i) {
    auto it = process_of_group.find(locations_[i].group);
    if (it == process_of_group.end()) {
      Note(ImportCounter::kOtf2LocationWithoutGroup);
      continue;
    }
    locations_of[it->second].push_back(i);
  }
  for (uint32_t g = 0; g < groups_defined_.size(); ++g) {
    ProcessInfo info;
    info.name = Str(groups_defined_[g].second);
    for (uint32_t i : locations_of[g]) {
      auto r = rank_of_location.find(locations_[i].id);
      if (r != rank_of_location.end()) {
        info.rank = r->second;
        break;
      }
    }
    // The host: the system tree node the process hangs from, unless it is the root.
    auto node = tree_nodes_.find(group_parent_[groups_defined_[g].first]);
    if (node != tree_nodes_.end() && node->second.second != OTF2_UNDEFINED_SYSTEM_TREE_NODE)
      info.host = Str(node->second.first);
    info.realtime_minus_monotonic_ns = realtime_minus;
    const uint32_t process = out_.AddProcess(info);
    processes_.push_back({info.rank, 0, 0});
    for (uint32_t i : locations_of[g]) {
      Location& l = locations_[i];
      l.process = process;
      l.thread = out_.AddThread(process, {0, l.name});
      l.file = dir_ + "/" + std::to_string(l.id) + ".evt";
    }
  }
  return Status::Ok();
}

// Which location's events the library could not read: each one alone.
Status Importer::Diagnose(OTF2_ErrorCode code) {
  const std::string what = otf2::ErrorText(code);
  OTF2_Reader* r = OTF2_Reader_Open(anchor_.c_str());
  OTF2_GlobalDefReader* defs = nullptr;
  uint64_t n = 0;
  if (r != nullptr && OTF2_Reader_SetSerialCollectiveCallbacks(r) == OTF2_SUCCESS &&
      (defs = OTF2_Reader_GetGlobalDefReader(r)) != nullptr &&
      OTF2_Reader_ReadAllGlobalDefinitions(r, defs, &n) == OTF2_SUCCESS) {
    for (const Location& l : locations_) {
      if (l.thread != kNone) OTF2_Reader_SelectLocation(r, l.id);
    }
    if (OTF2_Reader_OpenEvtFiles(r) == OTF2_SUCCESS) {
      for (const Location& l : locations_) {
        if (l.thread == kNone) continue;
        OTF2_EvtReader* e = OTF2_Reader_GetEvtReader(r, l.id);
        if (e == nullptr) {
          OTF2_Reader_Close(r);
          return InputError(l.file, "", "", "cannot read the event file: " + what);
        }
        // A read of fewer events than asked for ends the file (asking again fails).
        constexpr uint64_t kBatch = 1 << 16;
        uint64_t total = 0;
        OTF2_ErrorCode c;
        while ((c = OTF2_Reader_ReadLocalEvents(r, e, kBatch, &n)) == OTF2_SUCCESS) {
          total += n;
          if (n < kBatch) break;
        }
        if (c != OTF2_SUCCESS) {
          OTF2_Reader_Close(r);
          return InputError(l.file,
                            StrFormat("event %llu", static_cast<unsigned long long>(total + 1)), "",
                            "cannot decode: " + otf2::ErrorText(c));
        }
      }
    }
  }
  if (r != nullptr) OTF2_Reader_Close(r);
  return InputError(dir_ + "/", "", "", "reading the events: " + what);
}

Status Importer::Run() {
  struct stat st;
  if (::stat(anchor_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return InputError(anchor_, "", "", "cannot open: no such OTF2 anchor file");
  }
  if (st.st_size == 0) return InputError(anchor_, "", "", "empty input");
  std::string dir, name;
  if (!otf2::SplitAnchor(anchor_, &dir, &name)) {
    const size_t dot = anchor_.rfind('.');
    dir_ = dot == std::string::npos ? anchor_ : anchor_.substr(0, dot);
  } else {
    dir_ = dir + "/" + name;
  }
  const std::string def_file = dir_ + ".def";
  // OTF2 3.0.2 leaks what it allocated when it cannot open an anchor: check
  // the magic before handing the file over (its first bytes hold "OTF2").
  {
    char head[8] = {};
    FILE* f = std::fopen(anchor_.c_str(), "rb");
    const size_t got = f == nullptr ? 0 : std::fread(head, 1, sizeof head, f);
    if (f != nullptr) std::fclose(f);
    if (std::string_view(head, got).find("OTF2") == std::string_view::npos) {
      return InputError(anchor_, "offset 0", "", "not an OTF2 anchor file (no OTF2 magic)");
    }
  }
  otf2::CaptureLibraryErrors();
  otf2::TakeLibraryError();
  reader_ = OTF2_Reader_Open(anchor_.c_str());
  if (reader_ == nullptr) {
    return InputError(anchor_, "", "", "not an OTF2 anchor file: " + otf2::TakeLibraryError());
  }
  OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks(reader_);
  if (e != OTF2_SUCCESS) return InputError(anchor_, "", "", otf2::ErrorText(e));

  // Global definitions.
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader_);
  if (defs == nullptr) {
    return InputError(def_file, "", "", "cannot open: " + otf2::TakeLibraryError());
  }
  OTF2_GlobalDefReaderCallbacks* dc = OTF2_GlobalDefReaderCallbacks_New();
  RegisterDefinitionCallbacks(dc);
  e = OTF2_Reader_RegisterGlobalDefCallbacks(reader_, defs, dc, this);
  OTF2_GlobalDefReaderCallbacks_Delete(dc);
  if (e == OTF2_SUCCESS) e = OTF2_Reader_ReadAllGlobalDefinitions(reader_, defs, &definitions_);
  if (e != OTF2_SUCCESS) {
    return InputError(def_file, "", "", "cannot read the definitions: " + otf2::ErrorText(e));
  }
  OTF2_Reader_CloseGlobalDefReader(reader_, defs);
  PLX_RETURN_IF_ERROR(BuildModel());
  if (!processes_.empty()) {
    uint8_t major = 0, minor = 0, bugfix = 0;
    if (OTF2_Reader_GetVersion(reader_, &major, &minor, &bugfix) == OTF2_SUCCESS)
      out_.Attribute(0, "otf2.version", StrFormat("%u.%u.%u", major, minor, bugfix));
    char* creator = nullptr;
    if (OTF2_Reader_GetCreator(reader_, &creator) == OTF2_SUCCESS && creator != nullptr) {
      out_.Attribute(0, "otf2.creator", creator);
      free(creator);
    }
  }

  // Local definitions: Score-P's mapping tables and clock offsets, which the
  // library applies to the events it hands over.
  uint64_t total_events = 0, total_bytes = 0;
  for (const Location& l : locations_) {
    if (l.thread == kNone) continue;
    OTF2_Reader_SelectLocation(reader_, l.id);
    total_events += l.events_defined;
    total_bytes += FileSize(l.file);
  }
  if (OTF2_Reader_OpenDefFiles(reader_) == OTF2_SUCCESS) {
    for (const Location& l : locations_) {
      const std::string file = dir_ + "/" + std::to_string(l.id) + ".def";
      if (l.thread == kNone || ::stat(file.c_str(), &st) != 0) continue;
      OTF2_DefReader* d = OTF2_Reader_GetDefReader(reader_, l.id);
      if (d == nullptr) {
        return InputError(file, "", "", "cannot open: " + otf2::TakeLibraryError());
      }
      uint64_t n = 0;
      e = OTF2_Reader_ReadAllLocalDefinitions(reader_, d, &n);
      if (e != OTF2_SUCCESS) {
        return InputError(file, "", "", "cannot read the definitions: " + otf2::ErrorText(e));
      }
      OTF2_Reader_CloseDefReader(reader_, d);
    }
    OTF2_Reader_CloseDefFiles(reader_);
  }

  // Events of all locations, merged by time.
  e = OTF2_Reader_OpenEvtFiles(reader_);
  if (e != OTF2_SUCCESS) return InputError(dir_ + "/", "", "", otf2::ErrorText(e));
  for (const Location& l : locations_) {
    if (l.thread == kNone) continue;
    if (OTF2_Reader_GetEvtReader(reader_, l.id) == nullptr) {
      return InputError(l.file, "", "", "cannot open: " + otf2::TakeLibraryError());
    }
  }
  OTF2_GlobalEvtReader* events = OTF2_Reader_GetGlobalEvtReader(reader_);
  if (events == nullptr) return Diagnose(OTF2_ERROR_INVALID);
  OTF2_GlobalEvtReaderCallbacks* ec = OTF2_GlobalEvtReaderCallbacks_New();
  RegisterEventCallbacks(ec);
  e = OTF2_Reader_RegisterGlobalEvtCallbacks(reader_, events, ec, this);
  OTF2_GlobalEvtReaderCallbacks_Delete(ec);
  if (e != OTF2_SUCCESS) return InputError(dir_ + "/", "", "", otf2::ErrorText(e));
  uint64_t read = 0;
  for (;;) {
    uint64_t n = 0;
    e = OTF2_Reader_ReadGlobalEvents(reader_, events, 1 << 16, &n);
    PLX_RETURN_IF_ERROR(status_);
    if (e != OTF2_SUCCESS) return Diagnose(e);
    if (n == 0) break;
    read += n;
    if (progress_ && total_events > 0) {
      progress_(std::min(total_bytes, static_cast<uint64_t>(static_cast<double>(read) /
                                                            static_cast<double>(total_events) *
                                                            static_cast<double>(total_bytes))),
                total_bytes);
    }
  }
  // Posts whose receive never came: the peer and tag they wait for are unknown.
  for (Location& l : locations_) {
    while (!l.posts.empty())
      Cancel(l, l.posts.begin()->first);
    Drain(l);
  }
  PLX_RETURN_IF_ERROR(status_);
  if (progress_) progress_(total_bytes, total_bytes);
  return Status::Ok();
}

}  // namespace otf2

Status ImportOtf2(const std::string& anchor, TraceBuilder& out, const Progress& progress) {
  return otf2::Importer(anchor, out, progress).Run();
}

}  // namespace plx::interop
