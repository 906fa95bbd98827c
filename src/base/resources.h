// What the trace engine may use: worker threads and a memory budget. The
// commands take them from --threads and --memory; the budget bounds what the
// engine keeps decoded (docs/memory.md), not the definitions of a trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/status.h"

namespace plx {

struct Resources {
  size_t threads = 0;         // 0 = every core
  uint64_t memory_bytes = 0;  // 0 = DefaultMemoryBudget()

  size_t Threads() const;
  uint64_t Memory() const;
};

/// Physical memory of the machine (0 when unknown).
uint64_t PhysicalMemoryBytes();

/// A quarter of the physical memory; 1 GiB when that is unknown.
uint64_t DefaultMemoryBudget();

/// "4G", "512M", "1.5GiB", "64k", "100000" (bytes). Suffixes are powers of
/// 1024 (k, M, G, T, with or without "iB"/"B"), case-insensitive.
StatusOr<uint64_t> ParseByteSize(std::string_view text);

}  // namespace plx
