// StateVote: which state covers the most time among a few (state, ns) votes,
// the "dominant state" of a merged bar or a summary bucket. Votes beyond the
// first kMax distinct states are dropped (a bar that mixes more is drawn in
// the colour of the largest of the first ones).
#pragma once

#include <cstddef>
#include <cstdint>

namespace plx {

template <size_t kMax>
class StateVote {
 public:
  void Add(uint32_t state, double ns) {
    for (size_t i = 0; i < n_; ++i) {
      if (states_[i] == state) {
        ns_[i] += ns;
        return;
      }
    }
    if (n_ < kMax) {
      states_[n_] = state;
      ns_[n_++] = ns;
    }
  }
  /// The state with the most ns (the first on ties; 0 without votes).
  uint32_t BestState() const { return states_[BestIndex()]; }
  /// Its ns (0 without votes).
  double BestNs() const { return n_ == 0 ? 0.0 : ns_[BestIndex()]; }

 private:
  size_t BestIndex() const {
    size_t best = 0;
    for (size_t i = 1; i < n_; ++i)
      if (ns_[i] > ns_[best]) best = i;
    return best;
  }

  uint32_t states_[kMax] = {};
  double ns_[kMax] = {};
  size_t n_ = 0;
};

}  // namespace plx
