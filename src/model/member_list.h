// plx::model::MemberList: the world ranks of a communicator, shared between
// the communicators that have the same ones. Every process of an MPI run
// defines MPI_COMM_WORLD with all ranks, so a trace of 16,384 ranks has
// 16,384 copies of a 16,384-rank list: 2 GiB as vectors of their own, 128
// KiB shared. Reads like a const std::vector<int64_t>; a change copies the
// list first when another communicator shares it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace plx::model {

class MemberList {
 public:
  using value_type = int64_t;
  using const_iterator = std::vector<int64_t>::const_iterator;
  using iterator = const_iterator;

  MemberList() = default;
  MemberList(std::vector<int64_t> ranks)  // NOLINT: implicit, as a vector converts
      : ranks_(ranks.empty() ? nullptr
                             : std::make_shared<const std::vector<int64_t>>(std::move(ranks))) {}
  MemberList(std::initializer_list<int64_t> ranks) : MemberList(std::vector<int64_t>(ranks)) {}

  const std::vector<int64_t>& vec() const { return ranks_ ? *ranks_ : Empty(); }
  operator const std::vector<int64_t>&() const { return vec(); }  // NOLINT: reads as one

  size_t size() const { return vec().size(); }
  bool empty() const { return vec().empty(); }
  const_iterator begin() const { return vec().begin(); }
  const_iterator end() const { return vec().end(); }
  int64_t operator[](size_t i) const { return vec()[i]; }
  /// Whether two lists share their storage (tests).
  bool SharesWith(const MemberList& o) const { return ranks_ && ranks_ == o.ranks_; }

  void push_back(int64_t rank) {
    std::vector<int64_t> copy = vec();
    copy.push_back(rank);
    *this = MemberList(std::move(copy));
  }

  friend bool operator==(const MemberList& a, const MemberList& b) { return a.vec() == b.vec(); }
  friend bool operator==(const MemberList& a, const std::vector<int64_t>& b) {
    return a.vec() == b;
  }

 private:
  static const std::vector<int64_t>& Empty() {
    static const std::vector<int64_t> kEmpty;
    return kEmpty;
  }
  std::shared_ptr<const std::vector<int64_t>> ranks_;
};

}  // namespace plx::model
