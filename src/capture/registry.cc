// Registry: interning and definition records.
#include "capture/registry.h"

#include <type_traits>

#include "capture/config.h"
#include "capture/raw_record.h"
#include "format/records.gen.h"

namespace plx::capture {

namespace {
// The pending buffer always keeps this much spare room, so a signal handler can
// append a clock_sync record without allocating.
constexpr size_t kSpareBytes = 4096;

std::string Key(std::string_view a, std::string_view b) {
  std::string k(a);
  k += '\0';
  k += b;
  return k;
}
}  // namespace

template <typename D>
void Registry::AppendLocked(const D& def) {
  uint8_t* begin = pending_.Reserve(format::MaxEncodedSize(def));
  const uint8_t* end = format::EncodeDef(begin, def);
  // Clock pairs are taken anew by a forked child (and may come from a signal
  // handler, where nothing may allocate); every other definition is kept.
  if constexpr (!std::is_same_v<D, format::ClockSyncDef>) history_.Append(begin, end - begin);
  pending_.Commit(end);
  pending_.Reserve(kSpareBytes);
}

void Registry::ReplayAfterFork() {
  pending_.Clear();
  pending_.Append(history_.data(), history_.size());
  pending_.Reserve(kSpareBytes);
}

void Registry::Init(std::string_view level) {
  OwnerLockGuard guard(lock_);
  level_ = level;
  pending_.Reserve(kSpareBytes);
  for (const char* name : {"user", "comm", "sync", "io", "counter", "internal"})
    CategoryLocked(name);
  communicators_["world"] = PLX_COMM_WORLD;
  AppendLocked(format::CommunicatorDef{PLX_COMM_WORLD, StringLocked("world"), 0});
  communicators_["threads"] = PLX_COMM_THREADS;
  AppendLocked(format::CommunicatorDef{PLX_COMM_THREADS, StringLocked("threads"), 1});
}

uint32_t Registry::StringLocked(std::string_view s) {
  if (s.empty()) return 0;
  // A name, path or command line longer than this is cut: every definition must
  // fit one chunk (a huge command line would otherwise not be writable).
  if (s.size() > kMaxDefStringBytes) s = s.substr(0, kMaxDefStringBytes);
  auto [it, inserted] = strings_.try_emplace(std::string(s), 0);
  if (inserted) {
    it->second = static_cast<uint32_t>(strings_.size());
    AppendLocked(format::StringDef{it->second, s});
  }
  return it->second;
}

uint32_t Registry::CategoryLocked(const char* name) {
  std::string_view n = name && *name ? name : "user";
  for (uint32_t i = 0; i < categories_.size(); ++i)
    if (categories_[i] == n) return i;
  if (categories_.size() == kMaxCategories) return kCatUser;  // full: fold into "user"
  const uint32_t index = static_cast<uint32_t>(categories_.size());
  categories_.emplace_back(n);
  AppendLocked(format::CategoryDef{index + 1, StringLocked(n)});
  if (LevelSelects(level_, n)) selected_.fetch_or(1u << index, std::memory_order_relaxed);
  return index;
}

template <typename MakeDef>
uint32_t Registry::InternLocked(std::unordered_map<std::string, uint32_t>& map, std::string key,
                                uint32_t category, MakeDef make_def) {
  auto [it, inserted] = map.try_emplace(std::move(key), 0);
  if (inserted) {
    const uint32_t id = static_cast<uint32_t>(map.size());
    if (id > kMaxArg) {
      map.erase(it);
      return 0;
    }
    AppendLocked(make_def(id));
    it->second = id | (category << 24);
  }
  return it->second;
}

plx_state_t Registry::State(std::string_view name, uint32_t color, const char* category) {
  OwnerLockGuard guard(lock_);
  const uint32_t cat = CategoryLocked(category);
  const uint64_t c = color == PLX_COLOR_AUTO ? 0 : (0x1000000u | (color & 0xffffffu));
  return InternLocked(states_, Key(name, categories_[cat]), cat, [&](uint32_t id) {
    return format::StateDef{id, StringLocked(name), cat + 1, c};
  });
}

plx_event_t Registry::EventType(std::string_view name, const char* category, int value_kind) {
  OwnerLockGuard guard(lock_);
  const uint32_t cat = CategoryLocked(category);
  return InternLocked(event_types_, Key(name, categories_[cat]), cat, [&](uint32_t id) {
    return format::EventTypeDef{id, StringLocked(name), cat + 1, static_cast<uint64_t>(value_kind)};
  });
}

plx_counter_t Registry::Counter(std::string_view name, const char* unit, int kind) {
  OwnerLockGuard guard(lock_);
  return InternLocked(counters_, std::string(name), kCatCounter, [&](uint32_t id) {
    return format::CounterDef{id, StringLocked(name), StringLocked(unit ? unit : ""),
                              static_cast<uint64_t>(kind == PLX_DOUBLE ? 2 : 1), kCatCounter + 1};
  });
}

uint32_t Registry::Communicator(std::string_view name, int kind) {
  OwnerLockGuard guard(lock_);
  return InternLocked(communicators_, std::string(name), 0, [&](uint32_t id) {
    return format::CommunicatorDef{id, StringLocked(name), kind == 1 ? 1u : 0u};
  });
}

uint32_t Registry::GroupCommunicator(std::string_view name, uint64_t global_id,
                                     const std::vector<int64_t>& members, uint32_t id) {
  OwnerLockGuard guard(lock_);
  if (id == 0) {
    auto it = group_communicators_.find(global_id);
    if (it != group_communicators_.end()) return it->second;
    // Shares the id space of Communicator(); a unique key keeps names apart.
    id = static_cast<uint32_t>(communicators_.size() + 1);
    if (id > kMaxArg) return 0;
    communicators_["\x01" + std::to_string(global_id)] = id;
  }
  group_communicators_[global_id] = id;
  std::string packed;
  for (int64_t m : members) {
    uint8_t buf[kMaxVarintBytes];
    packed.append(reinterpret_cast<const char*>(buf),
                  static_cast<size_t>(PutUvarint(buf, static_cast<uint64_t>(m)) - buf));
  }
  AppendLocked(format::CommunicatorDef{id, StringLocked(name), 0, global_id, packed});
  return id;
}

void Registry::ClockOffset(uint64_t ns, int64_t offset_ns, uint64_t error_ns) {
  OwnerLockGuard guard(lock_);
  AppendLocked(format::ClockOffsetDef{ns, offset_ns, error_ns});
}

uint32_t Registry::Srcloc(plx_srcloc* loc, bool event, int value_kind) {
  const char* name = loc->name ? loc->name : "?";
  const uint32_t handle =
      event ? EventType(name, loc->category, value_kind) : State(name, loc->color, loc->category);
  OwnerLockGuard guard(lock_);
  std::string key = Key(loc->file ? loc->file : "", loc->function ? loc->function : "");
  key += '\0';
  key += std::to_string(loc->line);
  auto [it, inserted] = callsites_.try_emplace(std::move(key), 0);
  if (inserted) {
    it->second = static_cast<uint32_t>(callsites_.size());
    AppendLocked(format::CallsiteDef{it->second, StringLocked(loc->file ? loc->file : ""),
                                     loc->line, StringLocked(loc->function ? loc->function : "")});
  }
  __atomic_store_n(&loc->callsite, it->second, __ATOMIC_RELAXED);
  __atomic_store_n(&loc->id, handle, __ATOMIC_RELEASE);
  return handle;
}

void Registry::Process(uint64_t pid, std::string_view host, std::string_view exe,
                       std::string_view args) {
  OwnerLockGuard guard(lock_);
  process_ =
      format::ProcessDef{pid, -1, StringLocked(host), StringLocked(exe), StringLocked(args), 0};
  AppendLocked(process_);
}

void Registry::ProcessName(std::string_view name) {
  OwnerLockGuard guard(lock_);
  process_.name = StringLocked(name);
  AppendLocked(process_);
}

void Registry::ProcessRank(int64_t rank) {
  OwnerLockGuard guard(lock_);
  process_.rank = rank;
  AppendLocked(process_);
}

void Registry::Clock(ClockKind kind, double ticks_per_second, uint64_t realtime_ns,
                     uint64_t monotonic_ns) {
  OwnerLockGuard guard(lock_);
  AppendLocked(
      format::ClockDef{static_cast<uint64_t>(kind), ticks_per_second, realtime_ns, monotonic_ns});
}

void Registry::Sync(SyncPair pair) {
  // No guard: callers hold lock() (the writer) or own the process (signal handler).
  AppendLocked(format::ClockSyncDef{pair.tick, pair.ns});
}

void Registry::Stream(uint32_t id, int tid, std::string_view name) {
  OwnerLockGuard guard(lock_);
  AppendLocked(format::StreamDef{id, static_cast<uint64_t>(tid), StringLocked(name)});
}

void Registry::Attribute(std::string_view key, std::string_view value) {
  OwnerLockGuard guard(lock_);
  AppendLocked(format::AttributeDef{StringLocked(key), StringLocked(value)});
}

}  // namespace plx::capture
