// GroupSpread: a Group as the store's spread passes see it (store::PassSpread,
// store/message_pass.h): which threads this process decodes (share.h), and
// which process joins each traced process's message records — the one that
// decodes that process's first thread, so receives (and posts) are joined
// where they are decoded and only sends travel.
#pragma once

#include <string>
#include <vector>

#include "distributed/group.h"
#include "distributed/share.h"
#include "model/trace.h"
#include "store/message_pass.h"

namespace plx::distributed {

class GroupSpread : public store::PassSpread {
 public:
  GroupSpread(const model::Trace& trace, Group& group);
  int rank() const override { return group_.rank(); }
  int size() const override { return group_.size(); }
  bool Decodes(uint32_t thread) const override { return share_.Has(thread); }
  int Decoder(uint32_t thread) const override;
  int Joiner(uint32_t process) const override;
  std::vector<std::string> Exchange(std::vector<std::string> to) override {
    return group_.Exchange(std::move(to));
  }
  bool AllOk(bool ok) override { return group_.AllOk(ok); }

 private:
  Group& group_;
  ThreadShare share_;
  std::vector<uint32_t> first_;  // ShareThreads
  std::vector<int> joiner_;      // per traced process
};

}  // namespace plx::distributed
