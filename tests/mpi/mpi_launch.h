// How the tests in tests/mpi start a traced MPI program: the two MPI flavours
// (Open MPI, MPICH), each with its launcher, program suffix and tracing
// library, and the command line that records a run with `parallax record`
// (or, in sanitizer builds, runs the *_linked program writing PLX_OUTPUT).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace plx::testing {

struct Flavor {
  std::string name;                  // for --mpi
  std::string mpirun;                // launcher
  std::string suffix;                // program name suffix
  std::string library;               // tracing library
  std::vector<std::string> options;  // launcher options before -np
};

inline Flavor OpenMpi() {
  return {"openmpi",
          "/usr/bin/mpirun.openmpi",
          "",
          "src/mpi/libparallax-mpi.so",
          {"--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"}};
}

inline Flavor Mpich() {
  return {"mpich", "/usr/bin/mpirun.mpich", "_mpich", "src/mpi/libparallax-mpich.so", {}};
}

inline std::vector<Flavor> Flavors() {
  return {OpenMpi(), Mpich()};
}

// Sanitizer builds cannot preload an instrumented library into an
// uninstrumented mpirun: they run the programs linked with the library.
#ifdef PLX_SANITIZE_BUILD
inline constexpr bool kLinked = true;
#else
inline constexpr bool kLinked = false;
#endif

inline bool Exists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

/// The built test program `program` for `flavor`.
inline std::string ProgramPath(const Flavor& flavor, const std::string& program) {
  return BuildPath("tests/mpi/" + program + flavor.suffix + (kLinked ? "_linked" : ""));
}

/// Whether this machine has the flavour's launcher, the program and the library.
inline bool Available(const Flavor& flavor, const std::string& program) {
  return Exists(flavor.mpirun) && Exists(ProgramPath(flavor, program)) &&
         (kLinked || Exists(BuildPath(flavor.library)));
}

/// The flavours that can run `program` here; prints a note for each it cannot.
inline std::vector<Flavor> FlavorsFor(const std::string& program) {
  std::vector<Flavor> out;
  for (const Flavor& f : Flavors()) {
    if (Available(f, program))
      out.push_back(f);
    else
      std::printf("note: %s is not run with %s: not built or not installed here\n", program.c_str(),
                  f.name.c_str());
  }
  return out;
}

/// The command line that runs `program args...` on `ranks` ranks recorded into
/// `trace`; appends the environment it needs to `env`.
inline std::vector<std::string> TracedLaunch(const Flavor& flavor, const std::string& program,
                                             int ranks, const std::vector<std::string>& args,
                                             const std::string& trace,
                                             std::vector<std::string>* env) {
  std::vector<std::string> launch;
  if (!kLinked)
    launch = {BuildPath("src/cli/parallax"), "record", "-o", trace, "--mpi", flavor.name, "--"};
  launch.push_back(flavor.mpirun);
  launch.insert(launch.end(), flavor.options.begin(), flavor.options.end());
  launch.push_back("-np");
  launch.push_back(std::to_string(ranks));
  launch.push_back(ProgramPath(flavor, program));
  launch.insert(launch.end(), args.begin(), args.end());
  env->push_back("ASAN_OPTIONS=detect_leaks=0");
  env->push_back("PLX_MPI_LIBDIR=" + BuildPath("src/mpi"));
  if (kLinked) env->push_back("PLX_OUTPUT=" + trace);
  return launch;
}

/// Merges what a killed run left in `trace`.parts, the way `parallax record` does.
inline RunResult MergeLeftovers(const std::string& trace) {
  if (Exists(trace) || !Exists(trace + ".parts")) return RunResult{0, 0, ""};
  return RunProgram({BuildPath("src/cli/parallax"), "merge", "-o", trace, trace + ".parts"});
}

}  // namespace plx::testing
