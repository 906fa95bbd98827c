// ProcessDefs: applies DEFS payloads.
#include "format/definitions.h"

#include "format/layout.h"

namespace plx::format {

std::string_view ProcessDefs::Str(uint64_t string_id) const {
  auto it = strings.find(string_id);
  return it == strings.end() ? std::string_view() : std::string_view(it->second);
}

namespace {

class DefsApplier : public DefVisitorBase {
 public:
  using DefVisitorBase::On;
  explicit DefsApplier(ProcessDefs& d) : d_(d) {}

  void On(const StringDef& r) {
    if (Valid(r.id)) d_.strings[r.id] = std::string(r.text);
  }
  void On(const ProcessDef& r) { d_.process = r; }
  void On(const ClockDef& r) { d_.clock = r; }
  void On(const ClockSyncDef& r) { d_.syncs.push_back(r); }
  void On(const StreamDef& r) { Put(d_.streams, r); }
  void On(const CategoryDef& r) { Put(d_.categories, r); }
  void On(const StateDef& r) { Put(d_.states, r); }
  void On(const EventTypeDef& r) { Put(d_.event_types, r); }
  void On(const CallsiteDef& r) { Put(d_.callsites, r); }
  void On(const CounterDef& r) { Put(d_.counters, r); }
  void On(const CommunicatorDef& r) {
    if (!Valid(r.id)) return;
    // The view points into the payload, which does not outlive Apply().
    d_.communicator_members[r.id] = std::string(r.members);
    CommunicatorDef& stored = d_.communicators[r.id] = r;
    stored.members = {};
  }
  void On(const ClockOffsetDef& r) { d_.clock_offsets.push_back(r); }
  void On(const AttributeDef& r) { d_.attributes.push_back(r); }
  void OnUnknown(uint8_t, const uint8_t*, size_t) { ++d_.unknown_records; }

 private:
  bool Valid(uint64_t id) {
    if (id <= kMaxDefId) return true;
    ++d_.bad_ids;
    return false;
  }
  template <typename Map, typename D>
  void Put(Map& map, const D& r) {
    if (Valid(r.id)) map[r.id] = r;
  }

  ProcessDefs& d_;
};

}  // namespace

bool ProcessDefs::Apply(const uint8_t* begin, const uint8_t* end, DecodeError* error) {
  DefsApplier applier(*this);
  return DecodeDefs(begin, end, applier, error);
}

}  // namespace plx::format
