// MpiGroup: the Group of MPI_COMM_WORLD. Making one initialises MPI (once
// per program) and destroying it finalises MPI. Every step waits at most
// the step timeout for the others: a process that stopped or is stuck
// (alive, so the launcher does not end the job) makes the others say so
// and end the job (MPI_Abort) instead of waiting forever. With the
// environment variable PLX_GROUP_STATS=FILE, each process appends to FILE
// at its end one JSON line: its steps, the bytes it exchanged and gathered,
// and the seconds it waited (what docs/distributed.md's cost model counts).
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
  std::vector<std::string> Exchange(std::vector<std::string> to) override;
  bool AllOk(bool ok) override;
  std::string Broadcast(std::string message, bool idle) override;
  /// Seconds a step waits for the others; 0: no limit.
  void set_step_timeout(double seconds) { timeout_s_ = seconds; }

 private:
  // Waits for `request` (a step's collective), or ends the job past the
  // timeout with a message naming `step` (never when `idle`).
  void Wait(void* request, const char* step, bool idle = false);

  int rank_ = 0, size_ = 1;
  double timeout_s_ = 0;
  // Counted for PLX_GROUP_STATS; bytes to or from other processes only.
  uint64_t steps_ = 0;
  uint64_t exchanged_sent_ = 0, exchanged_received_ = 0;
  uint64_t gathered_sent_ = 0, gathered_received_ = 0;
  double waited_s_ = 0;
};

}  // namespace plx::distributed
