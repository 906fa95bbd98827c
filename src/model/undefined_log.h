// UndefinedLog: ids that records use but their process does not define, met
// while decoding without a DefMerger (threads decoded in parallel, chunks
// decoded alone). The loader makes a placeholder for each such id in the
// order it first meets them; a log notes that order per thread, so that the
// placeholders can be made afterwards in the same order, and once made, it
// answers with them.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "model/def_merger.h"

namespace plx::model {

class UndefinedLog {
 public:
  using Key = std::tuple<RefKind, uint32_t, uint64_t>;  // kind, process, id
  using Resolved = std::map<Key, uint32_t>;             // -> placeholder's global index

  UndefinedLog() = default;
  /// A log that answers with placeholders made already (may be null).
  explicit UndefinedLog(const Resolved* resolved) : resolved_(resolved) {}

  /// Notes a use; returns the placeholder when it is known, else kNone.
  uint32_t Use(RefKind kind, uint32_t process, uint64_t id) {
    ++uses_;
    const Key key{kind, process, id};
    if (resolved_ != nullptr) {
      auto it = resolved_->find(key);
      if (it != resolved_->end()) return it->second;
    }
    if (seen_.insert(key).second) first_seen_.push_back(key);
    return kNone;
  }

  uint64_t uses() const { return uses_; }
  /// Ids without a placeholder yet, in the order first used.
  const std::vector<Key>& first_seen() const { return first_seen_; }

 private:
  const Resolved* resolved_ = nullptr;
  std::set<Key> seen_;
  std::vector<Key> first_seen_;
  uint64_t uses_ = 0;
};

}  // namespace plx::model
