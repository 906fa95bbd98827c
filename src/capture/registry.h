// The process's definitions (strings, states, event types, counters,
// callsites, communicators, streams, clock): interned on first use, each new
// one appended as a .plx definition record to `pending` until a drain writes
// it. Handles carry their category in bits 24..28 so the fast path can test
// PLX_LEVEL with one shift.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/byte_buffer.h"
#include "capture/owner_lock.h"
#include "capture/ticks.h"
#include "format/records.gen.h"
#include "parallax/parallax.h"

namespace plx::capture {

inline constexpr uint32_t kMaxCategories = 31;  // g_mask bit 31 is kSampleBit
/// Strings in definitions (names, paths, the command line) are cut to this.
inline constexpr size_t kMaxDefStringBytes = 64u << 10;
// Built-in categories, in this order, so their indexes are fixed.
enum BuiltinCategory : uint32_t {
  kCatUser = 0,
  kCatComm,
  kCatSync,
  kCatIo,
  kCatCounter,
  kCatInternal,
};
static_assert(kCatComm == 1, "fast_path.h EmitMessage assumes it");

inline uint32_t HandleId(uint32_t handle) {
  return handle & 0xffffffu;
}
inline uint32_t HandleCategory(uint32_t handle) {
  return handle >> 24;
}

class Registry {
 public:
  /// Defines the built-in categories and communicators; `level` is PLX_LEVEL.
  void Init(std::string_view level);

  plx_state_t State(std::string_view name, uint32_t color, const char* category);
  plx_event_t EventType(std::string_view name, const char* category, int value_kind);
  plx_counter_t Counter(std::string_view name, const char* unit, int kind);
  uint32_t Communicator(std::string_view name, int kind);
  /// A communicator of process ranks known in every process by `global_id`
  /// (MPI); `members` are world ranks in communicator rank order. The same
  /// global_id returns the same id. `id` = PLX_COMM_WORLD re-defines "world".
  uint32_t GroupCommunicator(std::string_view name, uint64_t global_id,
                             const std::vector<int64_t>& members, uint32_t id = 0);
  /// A measured offset of this process's clock to the reference clock.
  void ClockOffset(uint64_t ns, int64_t offset_ns, uint64_t error_ns);
  /// Fills loc->callsite and loc->id (a state handle, or an event handle when
  /// `event` is set), publishing id last.
  uint32_t Srcloc(plx_srcloc* loc, bool event, int value_kind);

  void Process(uint64_t pid, std::string_view host, std::string_view exe, std::string_view args);
  /// Re-defines the process with a display name / an MPI world rank.
  void ProcessName(std::string_view name);
  void ProcessRank(int64_t rank);
  void Clock(ClockKind kind, double ticks_per_second, uint64_t realtime_ns, uint64_t monotonic_ns);
  void Sync(SyncPair pair);
  void Stream(uint32_t id, int tid, std::string_view name);
  void Attribute(std::string_view key, std::string_view value);

  /// Categories PLX_LEVEL selects (bit = category index).
  uint32_t selected_mask() const { return selected_.load(std::memory_order_relaxed); }

  /// Definitions not yet written; read and cleared by drains holding lock().
  OwnerLock& lock() { return lock_; }
  ByteBuffer& pending() { return pending_; }

  /// In a forked child, with the lock free: makes every definition made so
  /// far (clock pairs aside) pending again, for the child's own file; the
  /// handles the program holds stay valid.
  void ReplayAfterFork();

 private:
  uint32_t StringLocked(std::string_view s);
  /// The handle of `key` in `map` (id | category << 24), defining it with
  /// make_def(id) when new; 0 when the ids are used up.
  template <typename MakeDef>
  uint32_t InternLocked(std::unordered_map<std::string, uint32_t>& map, std::string key,
                        uint32_t category, MakeDef make_def);
  uint32_t CategoryLocked(const char* name);
  template <typename D>
  void AppendLocked(const D& def);

  OwnerLock lock_;
  std::string level_;
  std::atomic<uint32_t> selected_{0};
  ByteBuffer pending_;
  ByteBuffer history_;  // every definition appended, clock pairs aside
  std::unordered_map<std::string, uint32_t> strings_;
  std::vector<std::string> categories_;
  std::unordered_map<std::string, uint32_t> states_;
  std::unordered_map<std::string, uint32_t> event_types_;
  std::unordered_map<std::string, uint32_t> counters_;
  std::unordered_map<std::string, uint32_t> callsites_;
  std::unordered_map<std::string, uint32_t> communicators_;
  std::unordered_map<uint64_t, uint32_t> group_communicators_;  // global id -> id
  format::ProcessDef process_;
};

}  // namespace plx::capture
