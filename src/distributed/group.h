// Group: the processes of an MPI-parallel command (`parallax-mpi`), as the
// analyses see them: who this is, how many there are, and the
// collective steps the spread analyses need. Every process calls each step
// in the same order; a process that failed still takes part (AllOk tells
// the others), so a failure never leaves the others waiting. The MPI
// implementation is mpi_group.h; this header needs no MPI, so `parallax`
// builds without it.
#pragma once

#include <string>
#include <vector>

namespace plx::distributed {

class Group {
 public:
  virtual ~Group() = default;
  /// This process, 0 .. size() - 1; process 0 prints and merges.
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// On process 0: every process's bytes, by rank (its own included);
  /// elsewhere empty.
  virtual std::vector<std::string> Gather(std::string mine) = 0;
  /// Every process sends `to[r]` to process r (to.size() == size()) and
  /// gets, by rank, what each sent it.
  virtual std::vector<std::string> Exchange(std::vector<std::string> to) = 0;
  /// Whether `ok` holds on every process (each learns the answer).
  virtual bool AllOk(bool ok) = 0;
  /// Process 0's `message` to every process (elsewhere `message` is
  /// ignored). With `idle`, the others wait for it without the step
  /// timeout: a server's processes waiting for its next request.
  virtual std::string Broadcast(std::string message, bool idle) = 0;
};

}  // namespace plx::distributed
