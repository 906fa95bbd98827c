// `parallax record -- srun ...`: a stand-in for Slurm's srun (there is no
// Slurm here) takes srun's -n/--ntasks, gives each task the variables Slurm
// sets, and starts the tasks with the flavour's own launcher underneath, the
// environment passed on as srun's default --export=ALL does. record must
// recognise srun, tell the MPI flavour from the program's libraries (srun
// has none of its own), name the trace after the program and leave one
// merged trace of every rank; a launcher it knows only by name is warned
// about and needs --mpi when the program shows no MPI.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "mpi_launch.h"
#include "support/test_support.h"

namespace plx::testing {
namespace {

void WriteScript(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

// srun -n N [options] PROGRAM ARGS: runs under `flavor`'s mpirun.
std::string FakeSrun(const Flavor& flavor) {
  std::string mpirun = flavor.mpirun;
  for (const std::string& o : flavor.options)
    mpirun += " " + o;
  return "#!/bin/sh\n"
         "n=1\n"
         "while [ $# -gt 0 ]; do\n"
         "  case \"$1\" in\n"
         "    -n|--ntasks) n=$2; shift 2 ;;\n"
         "    --ntasks=*) n=${1#--ntasks=}; shift ;;\n"
         "    -*) shift ;;\n"
         "    *) break ;;\n"
         "  esac\n"
         "done\n"
         "export SLURM_JOB_ID=4242 SLURM_NTASKS=$n SLURM_NNODES=1 SLURM_STEP_ID=0\n"
         "exec " +
         mpirun + " -np \"$n\" \"$@\"\n";
}

TEST(MpiSrun, RecordsAJobSrunStarts) {
  if (kLinked) GTEST_SKIP() << "sanitizer build: the tracing library is not preloaded";
  const std::vector<Flavor> flavors = FlavorsFor("p2p");
  if (flavors.empty()) GTEST_SKIP() << "no MPI flavour can run p2p here";
  for (const Flavor& flavor : flavors) {
    SCOPED_TRACE(flavor.name);
    TempDir dir;
    WriteScript(dir.File("srun"), FakeSrun(flavor));
    // No --mpi: the flavour comes from the program's libraries.
    const RunResult run =
        RunProgram({"/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", dir.path(),
                    BuildPath("src/cli/parallax"), "record", "--", "./srun", "--ntasks=3",
                    "--exclusive", ProgramPath(flavor, "p2p")},
                   {"PLX_MPI_LIBDIR=" + BuildPath("src/mpi")});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const std::string trace =
        dir.File(std::filesystem::path(ProgramPath(flavor, "p2p")).filename().string() + ".plx");
    auto file = format::TraceFile::Open(trace);
    ASSERT_TRUE(file.ok()) << file.status().message() << "\n" << run.output;
    ASSERT_EQ((*file)->processes().size(), 3u) << run.output;
    std::vector<int64_t> ranks;
    for (const auto& [id, defs] : (*file)->processes())
      ranks.push_back(defs.process ? defs.process->rank : -1);
    EXPECT_EQ(ranks, (std::vector<int64_t>{0, 1, 2}));
  }
}

TEST(MpiSrun, ALauncherKnownOnlyByNameIsWarnedAbout) {
  if (kLinked) GTEST_SKIP() << "sanitizer build: the tracing library is not preloaded";
  TempDir dir;
  // An aprun that runs its program once; the program is a script, no MPI in it.
  WriteScript(dir.File("aprun"), "#!/bin/sh\nshift 2\nexec \"$@\"\n");
  WriteScript(dir.File("app"), "#!/bin/sh\necho \"$LD_PRELOAD\"\n");
  RunResult r =
      RunProgram({"/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", dir.path(),
                  BuildPath("src/cli/parallax"), "record", "--", "./aprun", "-n", "2", "./app"},
                 {"PLX_MPI_LIBDIR=" + BuildPath("src/mpi")});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("parallax: warning: './aprun' is a launcher parallax knows only by name"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("parallax: error: cannot tell the MPI flavour: "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("give --mpi openmpi or --mpi mpich"), std::string::npos) << r.output;

  r = RunProgram({"/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", dir.path(),
                  BuildPath("src/cli/parallax"), "record", "--mpi", "openmpi", "--", "./aprun",
                  "-n", "2", "./app"},
                 {"PLX_MPI_LIBDIR=" + BuildPath("src/mpi"), "LD_PRELOAD="});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("libparallax-mpi.so"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace plx::testing
