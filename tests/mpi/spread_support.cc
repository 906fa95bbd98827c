// The tests' shared runs of parallax and parallax-mpi (spread_support.h).
#include "spread_support.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace plx::testing {

Output RunKept(const TempDir& dir, std::vector<std::string> argv) {
  const std::string out = dir.File("stdout.txt");
  std::string script = "\"$0\"";
  for (size_t i = 1; i < argv.size(); ++i)
    script += " \"${" + std::to_string(i) + "}\"";
  script += " > \"${" + std::to_string(argv.size()) + "}\"";
  argv.push_back(out);
  argv.insert(argv.begin(), {"/bin/sh", "-c", script});
  const RunResult r = RunProgram(argv, {"ASAN_OPTIONS=detect_leaks=0", "OMPI_MCA_btl=self,vader",
                                        "XDG_CACHE_HOME=" + dir.File("cache")});
  return {r.exit_code, ReadFile(out), r.output};
}

std::vector<SpreadProgram> SpreadPrograms() {
  std::vector<SpreadProgram> out;
  for (SpreadProgram p : {SpreadProgram{OpenMpi(), BuildPath("src/cli/parallax-mpi"), {1, 2, 4}},
                          SpreadProgram{Mpich(), BuildPath("src/cli/parallax-mpi-mpich"), {2}}}) {
    if (Exists(p.path) && Exists(p.flavor.mpirun))
      out.push_back(std::move(p));
    else
      std::printf("note: %s is not built or %s is not here\n", p.path.c_str(),
                  p.flavor.mpirun.c_str());
  }
  return out;
}

std::vector<std::string> Spread(const SpreadProgram& program, int processes,
                                const std::vector<std::string>& args) {
  const Flavor& f = program.flavor;
  std::vector<std::string> argv = {f.mpirun};
  argv.insert(argv.end(), f.options.begin(), f.options.end());
  argv.insert(argv.end(), {"-np", std::to_string(processes), program.path});
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::vector<std::string> Spread(int processes, const std::vector<std::string>& args) {
  return Spread({OpenMpi(), BuildPath("src/cli/parallax-mpi"), {}}, processes, args);
}

std::vector<std::string> Alone(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {BuildPath("src/cli/parallax")};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::string RecordParts(const TempDir& dir) {
  if (FlavorsFor("farm").empty() || FlavorsFor("farm")[0].name != "openmpi") return "";
  const std::string trace = dir.File("farm.plx"), parts = trace + ".parts";
  std::vector<std::string> env = {"PLX_MERGE=0"};
  std::vector<std::string> launch = TracedLaunch(OpenMpi(), "farm", 4, {dir.path()}, trace, &env);
  if (!kLinked) launch.insert(launch.begin() + 2, "--no-merge");  // after "record"
  const RunResult run = RunProgram(launch, env);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(Exists(parts + "/rank-3.plx"));
  return parts;
}

}  // namespace plx::testing
