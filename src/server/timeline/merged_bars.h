// MergedBars: one lane's (row and depth) merged bars of a tile — slices too
// short to draw apart, shown as one bar of the state that covers most of
// them (flags 1, ref = how many). A bar at the pixel right after the lane's
// last one, of the same state, widens that one instead. Both tile builders
// use it: the one over the in-memory index and the one over the file's
// summary.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "server/api.gen.h"

namespace plx::server {

class MergedBars {
 public:
  MergedBars(std::vector<wire::TileSlice>* out, uint32_t row, uint16_t depth)
      : out_(*out), row_(row), depth_(depth) {}

  /// `count` slices over [begin, end] in pixel `px`, mostly `state`.
  void Add(int64_t px, double begin, double end, uint32_t state, uint32_t count) {
    if (last_ != kNoBar && last_ == out_.size() - 1 && last_px_ + 1 == px &&
        out_[last_].state == state) {
      Widen(px, end, count);
      return;
    }
    wire::TileSlice s;
    s.begin = begin;
    s.end = end;
    s.row = row_;
    s.state = state;
    s.ref = count;
    s.depth = depth_;
    s.flags = 1;
    last_ = out_.size();
    out_.push_back(s);
    last_px_ = px;
  }

  /// The last bar (there is one) goes on to pixel `px` and `end` with
  /// `count` more slices.
  void Widen(int64_t px, double end, uint32_t count) {
    out_[last_].end = std::max(out_[last_].end, end);
    out_[last_].ref += count;
    last_px_ = px;
  }

 private:
  static constexpr size_t kNoBar = SIZE_MAX;
  std::vector<wire::TileSlice>& out_;
  uint32_t row_;
  uint16_t depth_;
  size_t last_ = kNoBar;  // index in out_ of the lane's last bar
  int64_t last_px_ = 0;
};

}  // namespace plx::server
