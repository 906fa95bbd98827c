// What the tests of `mpirun -np N parallax-mpi COMMAND` share: running a
// command with its standard output kept apart, the parallax-mpi programs
// built (Open MPI, MPICH) with the process counts each is run with, the
// command lines of a spread run and of `parallax` alone, and the parts
// directory of a real MPI run left unmerged.
#pragma once

#include <string>
#include <vector>

#include "mpi_launch.h"
#include "support/test_support.h"

namespace plx::testing {

struct Output {
  int exit_code = -1;
  std::string out;  // standard output
  std::string all;  // standard output and error
};

/// `argv...` with its standard output kept apart.
Output RunKept(const TempDir& dir, std::vector<std::string> argv);

/// parallax-mpi for one MPI, with the process counts run: Open MPI's 1, 2
/// and 4; MPICH's 2 (the same program, another launcher).
struct SpreadProgram {
  Flavor flavor;
  std::string path;
  std::vector<int> processes;
};

/// The programs built here (a note for each that is not).
std::vector<SpreadProgram> SpreadPrograms();

/// `mpirun -np processes PROGRAM args...`.
std::vector<std::string> Spread(const SpreadProgram& program, int processes,
                                const std::vector<std::string>& args);
/// The same with Open MPI's parallax-mpi.
std::vector<std::string> Spread(int processes, const std::vector<std::string>& args);
/// `parallax args...`.
std::vector<std::string> Alone(const std::vector<std::string>& args);

/// The parts directory of a real 4-rank run of farm left unmerged, in
/// `dir` (empty when Open MPI cannot run farm here).
std::string RecordParts(const TempDir& dir);

}  // namespace plx::testing
