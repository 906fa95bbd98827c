// MpiGroup: the Group of MPI_COMM_WORLD. Making one initialises MPI (once
// per program) and destroying it finalises MPI.
#pragma once

#include <string>
#include <vector>

#include "distributed/group.h"

namespace plx::distributed {

class MpiGroup : public Group {
 public:
  MpiGroup(int* argc, char*** argv);
  ~MpiGroup() override;
  MpiGroup(const MpiGroup&) = delete;
  MpiGroup& operator=(const MpiGroup&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> Gather(std::string mine) override;
  bool AllOk(bool ok) override;

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace plx::distributed
