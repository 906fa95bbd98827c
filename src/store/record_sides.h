// What the streaming passes take from each message, collective and posted
// receive record: the record's own fields and the call around it (the
// innermost slice on its thread containing its time, as
// time::EnclosingSlices finds it). Rows are global rows of the model's tables.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/trace.h"

namespace plx::store {

/// The innermost slice around a record; slice == kNone when there is none.
struct CallRef {
  uint32_t slice = model::kNone;  // Trace::slices row
  uint32_t state = model::kNone;
  uint32_t callsite = model::kNone;
  int64_t begin = 0;
  int64_t end = 0;
};

struct MessageSide {
  int64_t time = 0;
  uint32_t row = 0;  // Trace::messages row
  uint32_t thread = 0;
  uint32_t comm = model::kNone;
  bool send = false;
  int64_t peer = 0;
  int64_t tag = 0;
  uint64_t bytes = 0;
  uint64_t match = 0;
  CallRef call;
};

struct CollectiveSide {
  int64_t time = 0;
  uint32_t row = 0;  // Trace::collectives row
  uint32_t thread = 0;
  uint32_t comm = model::kNone;
  uint8_t op = 0;
  int64_t root = -1;
  CallRef call;
};

/// What pairs a posted receive with the receive it posted: the receiving
/// process and the record's match key.
struct PostKey {
  uint32_t process;
  uint64_t match;
  bool operator==(const PostKey&) const = default;
};
struct PostHash {
  size_t operator()(const PostKey& k) const {
    const uint64_t h =
        (k.match * 0x9e3779b97f4a7c15ull) ^ (uint64_t{k.process} * 0xbf58476d1ce4e5b9ull);
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct PostSide {
  int64_t time = 0;
  uint32_t row = 0;  // Trace::recv_posts row
  uint32_t thread = 0;
  uint32_t comm = model::kNone;
  int64_t peer = 0;
  int64_t tag = 0;
  uint64_t match = 0;
};

}  // namespace plx::store
