// The helpers behind `parallax record` and `parallax merge`: launcher and
// flavour recognition, the program name rule, the library lookup, the tracing
// environment, parts directories and the numbering of plain files.
#include "cli/launch.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "cli/parts.h"
#include "support/test_support.h"
#include "support/trace_script.h"

namespace plx::cli {
namespace {

using plx::testing::TempDir;

void Touch(const std::string& path, bool executable) {
  std::ofstream(path) << "#!/bin/sh\n";
  ::chmod(path.c_str(), executable ? 0755 : 0644);
}

TEST(Launch, RecognisesLaunchers) {
  for (const char* w : {"mpirun", "mpiexec", "orterun", "/usr/bin/mpirun", "mpiexec.hydra",
                        "mpirun.openmpi", "./mpiexec.mpich"}) {
    EXPECT_TRUE(IsMpiLauncher(w)) << w;
    EXPECT_EQ(LauncherOf(w), Launcher::kMpirun) << w;
  }
  EXPECT_EQ(LauncherOf("srun"), Launcher::kSrun);
  EXPECT_EQ(LauncherOf("/usr/bin/srun"), Launcher::kSrun);
  for (const char* w : {"aprun", "jsrun", "/opt/cray/bin/aprun", "ibrun"})
    EXPECT_EQ(LauncherOf(w), Launcher::kForeign) << w;
  for (const char* w : {"", "mpi", "mpirunner", "sruns", "./app", "mpirun.", "/opt/mpirun/app"}) {
    EXPECT_FALSE(IsMpiLauncher(w)) << w;
    EXPECT_EQ(LauncherOf(w), Launcher::kNone) << w;
  }
}

TEST(Launch, TellsTheFlavourFromTheProgramsLibraries) {
  EXPECT_EQ(FlavorFromLibraries("\tlibmpi.so.40 => /lib/x86_64-linux-gnu/libmpi.so.40 (0x1)\n"),
            MpiFlavor::kOpenMpi);
  EXPECT_EQ(FlavorFromLibraries("\tlibmpich.so.12 => /lib/x86_64-linux-gnu/libmpich.so.12\n"),
            MpiFlavor::kMpich);
  EXPECT_EQ(FlavorFromLibraries("\tlibmpi.so.12 => /opt/intel/mpi/lib/libmpi.so.12\n"),
            MpiFlavor::kMpich);
  EXPECT_EQ(FlavorFromLibraries("\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6\n"), std::nullopt);
}

TEST(Launch, TellsTheFlavourFromTheVersionText) {
  EXPECT_EQ(FlavorFromVersion("mpirun (Open MPI) 4.1.2\n\nReport bugs to "
                              "http://www.open-mpi.org/community/help/\n"),
            MpiFlavor::kOpenMpi);
  EXPECT_EQ(FlavorFromVersion("orterun (OpenRTE) 3.1.6\n"), MpiFlavor::kOpenMpi);
  EXPECT_EQ(FlavorFromVersion("HYDRA build details:\n    Version:  4.0\n"), MpiFlavor::kMpich);
  EXPECT_EQ(FlavorFromVersion("Intel(R) MPI Library for Linux* OS, Version 2021.6\n"),
            MpiFlavor::kMpich);
  EXPECT_EQ(FlavorFromVersion("mpirun: unrecognized option '--version'\n"), std::nullopt);
  EXPECT_STREQ(MpiLibraryName(MpiFlavor::kOpenMpi), "libparallax-mpi.so");
  EXPECT_STREQ(MpiLibraryName(MpiFlavor::kMpich), "libparallax-mpich.so");
}

TEST(Launch, NamesTheOutputAfterTheProgram) {
  TempDir dir;
  Touch(dir.File("app"), true);
  Touch(dir.File("hosts"), false);
  Touch(dir.File("tool"), true);
  const std::string path = "/nonexistent:" + dir.path();
  EXPECT_EQ(ProgramName({"./solver", "-n", "3"}, path), "solver");
  EXPECT_EQ(ProgramName({"python3", "x.py"}, path), "python3");
  EXPECT_EQ(ProgramName({"mpirun", "-np", "4", dir.File("app"), "in.dat"}, path), "app");
  // Option values are passed over: "4" and "hosts" are no executables.
  EXPECT_EQ(
      ProgramName({"mpiexec", "-n", "4", "--hostfile", dir.File("hosts"), dir.File("app")}, path),
      "app");
  // Found on PATH.
  EXPECT_EQ(ProgramName({"mpirun", "-np", "2", "tool", "app"}, path), "tool");
  EXPECT_EQ(ProgramName({"mpirun", "-np", "2", "./missing"}, path), "trace");
  EXPECT_EQ(ProgramName({}, path), "trace");
  // After srun, as after mpirun; its path as found.
  EXPECT_EQ(ProgramName({"srun", "-n", "4", "--ntasks-per-node=2", "tool"}, path), "tool");
  EXPECT_EQ(ProgramPath({"srun", "-n", "4", "tool"}, path), dir.File("tool"));
  EXPECT_EQ(ProgramPath({"srun", "-n", "4", "./missing"}, path), "");
  EXPECT_EQ(ProgramPath({dir.File("app")}, path), dir.File("app"));
}

TEST(Launch, FindsTheLibrary) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("build/src/cli"));
  std::filesystem::create_directories(dir.File("build/src/mpi"));
  std::filesystem::create_directories(dir.File("prefix/bin"));
  std::filesystem::create_directories(dir.File("prefix/lib"));
  std::filesystem::create_directories(dir.File("own"));
  Touch(dir.File("build/src/mpi/libparallax-mpi.so"), false);
  Touch(dir.File("prefix/lib/libparallax-mpich.so"), false);
  Touch(dir.File("own/libparallax-mpi.so"), false);
  const std::string real = std::filesystem::canonical(dir.path()).string();

  auto lib = FindMpiLibrary(MpiFlavor::kOpenMpi, "", dir.File("build/src/cli/parallax"));
  ASSERT_TRUE(lib.ok()) << lib.status().message();
  EXPECT_EQ(*lib, real + "/build/src/mpi/libparallax-mpi.so");
  lib = FindMpiLibrary(MpiFlavor::kMpich, "", dir.File("prefix/bin/parallax"));
  ASSERT_TRUE(lib.ok()) << lib.status().message();
  EXPECT_EQ(*lib, real + "/prefix/lib/libparallax-mpich.so");
  lib = FindMpiLibrary(MpiFlavor::kOpenMpi, dir.File("own"), dir.File("prefix/bin/parallax"));
  ASSERT_TRUE(lib.ok()) << lib.status().message();
  EXPECT_EQ(*lib, real + "/own/libparallax-mpi.so");

  lib = FindMpiLibrary(MpiFlavor::kMpich, "", dir.File("build/src/cli/parallax"));
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.status().message(), "libparallax-mpich.so (the MPICH tracing library) is not in " +
                                        dir.File("build/src/cli/../mpi") + " or " +
                                        dir.File("build/src/cli/../lib") +
                                        "; build it, or set PLX_MPI_LIBDIR to its directory");
  lib = FindMpiLibrary(MpiFlavor::kMpich, dir.File("own"), dir.File("prefix/bin/parallax"));
  ASSERT_FALSE(lib.ok());
  EXPECT_NE(lib.status().message().find("is not in " + dir.File("own") + ";"), std::string::npos);
}

TEST(Launch, SetsTheTracingEnvironment) {
  TracingSetup setup;
  setup.output = "/runs/100%/app.plx";
  setup.level = "comm";
  setup.library = "/lib/libparallax-mpi.so";
  std::map<std::string, std::string> vars = TracingVariables(setup, {{"HOME", "/root"}});
  EXPECT_EQ(vars, (std::map<std::string, std::string>{
                      {"PLX_TRACE", "1"},
                      {"PLX_OUTPUT", "/runs/100%%/app.plx"},
                      {"PLX_LEVEL", "comm"},
                      {"LD_PRELOAD", "/lib/libparallax-mpi.so"},
                      {"OMPI_MCA_mca_base_env_list", "LD_PRELOAD;PLX_LEVEL;PLX_OUTPUT;PLX_TRACE"},
                  }));

  // What was set already is kept: the user's preloads after ours, their list
  // extended, their PLX_* variables forwarded too.
  setup.level.clear();
  vars = TracingVariables(setup, {{"LD_PRELOAD", "libfoo.so"},
                                  {"OMPI_MCA_mca_base_env_list", "FOO=1;PLX_TRACE"},
                                  {"PLX_BUFFER", "8M"}});
  EXPECT_EQ(vars["LD_PRELOAD"], "/lib/libparallax-mpi.so:libfoo.so");
  EXPECT_EQ(vars["OMPI_MCA_mca_base_env_list"], "FOO=1;PLX_TRACE;LD_PRELOAD;PLX_BUFFER;PLX_OUTPUT");
  EXPECT_EQ(vars.count("PLX_LEVEL"), 0u);

  // The counter options become their variables, forwarded like the others.
  setup.counters = "cycles,page-faults";
  setup.sample_ms = "5";
  setup.counter_mode = "period";
  setup.sched = true;
  vars = TracingVariables(setup, {});
  EXPECT_EQ(vars["PLX_COUNTERS"], "cycles,page-faults");
  EXPECT_EQ(vars["PLX_SAMPLE_MS"], "5");
  EXPECT_EQ(vars["PLX_COUNTER_MODE"], "period");
  EXPECT_EQ(vars["PLX_SCHED"], "1");
  EXPECT_EQ(
      vars["OMPI_MCA_mca_base_env_list"],
      "LD_PRELOAD;PLX_COUNTERS;PLX_COUNTER_MODE;PLX_OUTPUT;PLX_SAMPLE_MS;PLX_SCHED;PLX_TRACE");

  // The pid whose children write the trace itself; the others write parts.
  setup.parts_parent = 4242;
  vars = TracingVariables(setup, {});
  EXPECT_EQ(vars["PLX_PARTS"], "4242");
  EXPECT_NE(vars["OMPI_MCA_mca_base_env_list"].find("PLX_PARTS;"), std::string::npos);

  setup.flavor = MpiFlavor::kMpich;
  setup.library = "/lib/libparallax-mpich.so";
  vars = TracingVariables(setup, {});
  EXPECT_EQ(vars.count("OMPI_MCA_mca_base_env_list"), 0u);
  EXPECT_EQ(vars["LD_PRELOAD"], "/lib/libparallax-mpich.so");
}

TEST(Parts, ListsTheRankFiles) {
  TempDir dir;
  const std::string parts = dir.File("run.plx.parts");
  std::filesystem::create_directories(parts);
  for (const char* name : {"rank-10.plx", "rank-2.plx", "rank-0.plx", "notes.txt", "rank-x.plx",
                           "rank-.plx", "rank-3.plx.tmp", "rank-99999999999.plx"})
    std::ofstream(parts + "/" + name) << "x";
  auto inputs = format::ListParts(parts);
  ASSERT_TRUE(inputs.ok()) << inputs.status().message();
  ASSERT_EQ(inputs->size(), 3u);
  EXPECT_EQ((*inputs)[0].path, parts + "/rank-0.plx");
  EXPECT_EQ((*inputs)[0].process, 0u);
  EXPECT_EQ((*inputs)[1].process, 2u);
  EXPECT_EQ((*inputs)[2].process, 10u);
  EXPECT_EQ((*inputs)[2].path, parts + "/rank-10.plx");

  // Parts of processes that are not ranks come after the ranks, by pid.
  for (const char* name : {"pid-900.plx", "pid-31.plx", "pid-.plx", "pid-7.txt"})
    std::ofstream(parts + "/" + name) << "x";
  inputs = format::ListParts(parts);
  ASSERT_TRUE(inputs.ok()) << inputs.status().message();
  ASSERT_EQ(inputs->size(), 5u);
  EXPECT_EQ((*inputs)[3].path, parts + "/pid-31.plx");
  EXPECT_EQ((*inputs)[3].process, 11u);
  EXPECT_EQ((*inputs)[4].path, parts + "/pid-900.plx");
  EXPECT_EQ((*inputs)[4].process, 12u);

  std::filesystem::create_directories(dir.File("empty.parts"));
  inputs = format::ListParts(dir.File("empty.parts"));
  ASSERT_FALSE(inputs.ok());
  EXPECT_EQ(inputs.status().message(),
            dir.File("empty.parts") + ": no rank-<R>.plx or pid-<PID>.plx files in it");
  EXPECT_FALSE(format::ListParts(dir.File("missing.parts")).ok());

  EXPECT_EQ(format::TracePathOfParts("run.plx.parts"), "run.plx");
  EXPECT_EQ(format::TracePathOfParts("/x/run.plx.parts//"), "/x/run.plx");
  EXPECT_EQ(format::TracePathOfParts("run.plx"), "");
  EXPECT_EQ(format::TracePathOfParts(".parts"), "");
  EXPECT_EQ(format::TracePathOfParts("x/.parts"), "");
}

TEST(Parts, NumbersFilesByRankWhenTheRanksAreDistinct) {
  TempDir dir;
  auto write = [&](const std::string& name, const std::string& script) {
    ASSERT_TRUE(plx::testing::WriteTraceScript(script, dir.File(name)).ok());
  };
  write("r5.plx", "process 0 rank=5\n");
  write("r2.plx", "process 3 rank=2\n");
  write("r2b.plx", "process 0 rank=2\n");
  write("none.plx", "process 0 rank=-1\n");
  write("two.plx", "process 0 rank=7\nprocess 1 rank=8\n");

  auto numbers = [&](const std::vector<std::string>& names) {
    std::vector<std::string> paths;
    for (const std::string& n : names)
      paths.push_back(dir.File(n));
    std::vector<uint32_t> out;
    for (const format::MergeInput& in : NumberFiles(paths))
      out.push_back(in.process);
    return out;
  };
  EXPECT_EQ(numbers({"r5.plx", "r2.plx"}), (std::vector<uint32_t>{5, 2}));
  EXPECT_EQ(numbers({"r5.plx", "r2.plx", "r2b.plx"}), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(numbers({"r5.plx", "none.plx"}), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(numbers({"r5.plx", "two.plx"}), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(numbers({"r5.plx", "missing.plx"}), (std::vector<uint32_t>{0, 1}));
}

}  // namespace
}  // namespace plx::cli
