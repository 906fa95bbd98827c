// Function address -> state handle and callsite: a fixed-size open-addressing
// table read without a lock on every instrumented call. Entries are only ever
// added (under the resolver's lock), never changed or removed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace plx::functions {

struct FunctionEntry {
  std::atomic<uintptr_t> address{0};  // 0 = free; published last
  uint32_t handle = 0;                // state handle; 0 = not traced (excluded)
  uint32_t callsite = 0;              // the function's file:line, 0 = unknown
};

class FunctionTable {
 public:
  static constexpr size_t kSlots = size_t{1} << 18;
  /// Inserts fail beyond this many functions, so a probe always meets a free slot.
  static constexpr size_t kMaxFunctions = kSlots / 4 * 3;

  /// The entry of `address`, or null when it has none yet. Lock-free.
  const FunctionEntry* Find(uintptr_t address) const {
    for (size_t i = Home(address);; i = (i + 1) & (kSlots - 1)) {
      const uintptr_t key = slots_[i].address.load(std::memory_order_acquire);
      if (key == address) return &slots_[i];
      if (key == 0) return nullptr;
    }
  }

  /// Adds `address` (not present yet); callers serialise. Null when full.
  const FunctionEntry* Insert(uintptr_t address, uint32_t handle, uint32_t callsite) {
    if (count_ == kMaxFunctions) return nullptr;
    size_t i = Home(address);
    while (slots_[i].address.load(std::memory_order_relaxed) != 0)
      i = (i + 1) & (kSlots - 1);
    slots_[i].handle = handle;
    slots_[i].callsite = callsite;
    slots_[i].address.store(address, std::memory_order_release);
    ++count_;
    return &slots_[i];
  }

  size_t size() const { return count_; }

 private:
  static size_t Home(uintptr_t address) {
    return static_cast<size_t>((static_cast<uint64_t>(address) * 0x9e3779b97f4a7c15ull) >> 46);
  }

  FunctionEntry slots_[kSlots];
  size_t count_ = 0;
};

static_assert(FunctionTable::kSlots == size_t{1} << (64 - 46), "Home() yields 18 bits");

}  // namespace plx::functions
