// `parallax record` and `parallax merge` run for real: the environment a
// command gets, exit statuses passed on, signals forwarded, and the parts a
// run that died left behind merged afterwards. The MPI tracing library is a
// stand-in (fake_mpi_preload.c); real MPI runs are tested in tests/mpi.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "base/strings.h"
#include "format/trace_file.h"
#include "support/test_support.h"
#include "support/trace_script.h"

extern char** environ;

namespace plx::testing {
namespace {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

std::string FakeLibDir() {
  return BuildPath("tests/cli/fake_mpi");
}

// parallax ARGS in `dir`, with stdout and stderr apart. LD_PRELOAD and the
// Open MPI list start empty so what record sets can be compared exactly.
Result Parallax(const TempDir& dir, const std::vector<std::string>& args,
                std::vector<std::string> env = {}) {
  std::vector<std::string> argv = {
      "/bin/sh", "-c",       R"(cd "$1" && shift && exec "$@" 2>.stderr)",
      "sh",      dir.path(), BuildPath("src/cli/parallax")};
  argv.insert(argv.end(), args.begin(), args.end());
  env.insert(env.begin(), {"LD_PRELOAD=", "OMPI_MCA_mca_base_env_list=",
                           "PLX_FAKE_MPI_LOG=" + dir.File(".preload-log"),
                           // A sanitizer build's programs tolerate a preload before their runtime.
                           "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1"});
  if (std::none_of(env.begin(), env.end(),
                   [](const std::string& e) { return e.rfind("PLX_MPI_LIBDIR=", 0) == 0; }))
    env.push_back("PLX_MPI_LIBDIR=" + FakeLibDir());
  RunResult r = RunProgram(argv, env);
  Result result;
  result.exit_code = r.signal ? 128 + r.signal : r.exit_code;
  result.out = r.output;
  result.err = ReadFile(dir.File(".stderr"));
  std::filesystem::remove(dir.File(".stderr"));
  return result;
}

std::string Real(const std::string& path) {
  return std::filesystem::canonical(path).string();
}

void WriteScript(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

void WritePart(const std::string& path, int rank) {
  const std::string r = std::to_string(rank);
  Status s = WriteTraceScript("option chunk=16 zstd=0\nprocess 0 pid=10" + r + " rank=" + r +
                                  "\nthread 0 1 tid=1 name=main\nstate 0 1 work\n"
                                  "enter 0 1 t=0 work\nleave 0 1 t=10 work\n"
                                  "enter 0 1 t=20 work\nleave 0 1 t=30 work\n",
                              path);
  ASSERT_TRUE(s.ok()) << s.message();
}

TEST(Record, SetsTheTracingEnvironment) {
  TempDir dir;
  const std::string show = R"(echo "T=$PLX_TRACE O=$PLX_OUTPUT L=$PLX_LEVEL P=$LD_PRELOAD"; )"
                           R"(echo "E=$OMPI_MCA_mca_base_env_list")";
  Result r =
      Parallax(dir, {"record", "-o", "out.plx", "--level", "comm", "--", "/bin/sh", "-c", show});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string real = Real(dir.path());
  // Every PLX_* variable is forwarded, ours and those the test runs with.
  std::set<std::string> names = {"LD_PRELOAD", "PLX_FAKE_MPI_LOG", "PLX_LEVEL", "PLX_MPI_LIBDIR",
                                 "PLX_OUTPUT", "PLX_PARTS",        "PLX_TRACE"};
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.rfind("PLX_", 0) == 0) names.insert(entry.substr(0, entry.find('=')));
  }
  std::string list;
  for (const std::string& n : names)
    list += (list.empty() ? "" : ";") + n;
  EXPECT_EQ(r.out, "T=1 O=" + real + "/out.plx L=comm P=" + Real(FakeLibDir()) +
                       "/libparallax-mpi.so\nE=" + list + "\n");
  EXPECT_EQ(r.err,
            "parallax: warning: no trace was written to out.plx (does the program use MPI or "
            "libparallax?)\n");
  EXPECT_EQ(ReadFile(dir.File(".preload-log")).substr(0, 7), "loaded\n");

  r = Parallax(dir, {"record", "--mpi", "mpich", "--", "/bin/sh", "-c", show});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "T=1 O=" + real + "/sh.plx L= P=" + Real(FakeLibDir()) + "/libparallax-mpich.so\nE=\n");
}

TEST(Record, AsksTheLauncherForTheFlavourAndNamesTheOutputAfterTheProgram) {
  TempDir dir;
  // A launcher of the MPICH kind that runs its program once.
  WriteScript(dir.File("mpiexec.hydra"),
              "#!/bin/sh\n"
              "if [ \"$1\" = --version ]; then echo 'HYDRA build details:'; exit 0; fi\n"
              "shift 2\nexec \"$@\"\n");
  WriteScript(dir.File("solver"), "#!/bin/sh\necho \"$PLX_OUTPUT $LD_PRELOAD\"\n");
  Result r = Parallax(dir, {"record", "--", "./mpiexec.hydra", "-n", "2", "./solver"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            Real(dir.path()) + "/solver.plx " + Real(FakeLibDir()) + "/libparallax-mpich.so\n");

  WriteScript(dir.File("mpirun"), "#!/bin/sh\necho 'mpirun 1.0'\ntouch ran\n");
  r = Parallax(dir, {"record", "--", "./mpirun", "-n", "2", "./solver"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "parallax: error: cannot tell the MPI flavour: './mpirun --version' names neither "
            "Open MPI nor MPICH; give --mpi openmpi or --mpi mpich\n");
  std::filesystem::remove(dir.File("ran"));  // the --version run
  r = Parallax(dir, {"record", "--mpi", "openmpi", "--", "./mpirun", "-n", "2", "./solver"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.File("ran")));
}

TEST(Record, PassesOnTheExitStatus) {
  TempDir dir;
  Result r = Parallax(dir, {"record", "-o", "x.plx", "--", "/bin/sh", "-c", "exit 3"});
  EXPECT_EQ(r.exit_code, 3);
  r = Parallax(dir, {"record", "-o", "x.plx", "--", "/bin/sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(r.exit_code, 128 + SIGTERM);
  r = Parallax(dir, {"record", "-o", "x.plx", "--", "./no-such-program"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "parallax: error: cannot run './no-such-program': No such file or directory\n");
}

TEST(Record, RefusesToRunWithoutTheLibraryOrOverOldParts) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("empty"));
  Result r = Parallax(dir, {"record", "--", "/bin/sh", "-c", "touch ran"},
                      {"PLX_MPI_LIBDIR=" + dir.File("empty")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "parallax: error: libparallax-mpi.so (the Open MPI tracing library) is not in " +
                       dir.File("empty") + "; build it, or set PLX_MPI_LIBDIR to its directory\n");
  EXPECT_FALSE(std::filesystem::exists(dir.File("ran")));

  std::filesystem::create_directories(dir.File("old.plx.parts"));
  r = Parallax(dir, {"record", "-o", "old.plx", "--", "/bin/sh", "-c", "touch ran"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "parallax: error: old.plx.parts exists (left by an earlier run?); merge it with "
            "'parallax merge old.plx.parts' or remove it first\n");
  EXPECT_FALSE(std::filesystem::exists(dir.File("ran")));

  r = Parallax(dir, {"record", "-o", "x.plx"});
  EXPECT_EQ(r.exit_code, 2);
  r = Parallax(dir, {"record", "/bin/sh", "-c", "touch ran"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "parallax: error: The following argument was not expected: -c; put -- before COMMAND "
            "(see 'parallax record --help')\n");
  r = Parallax(dir, {"record", "--mpi", "lam", "--", "true"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Record, TracesAProgramLinkedWithLibparallax) {
  TempDir dir;
  Result r = Parallax(dir, {"record", "-o", "farm.plx", "--", BuildPath("examples/thread_farm"),
                            "--workers", "2", "--jobs", "20", "--work-us", "10"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(dir.File("farm.plx"))) << r.err;
  EXPECT_EQ(r.err.rfind("parallax: trace farm.plx: 1 process, ", 0), 0u) << r.err;
  auto file = format::TraceFile::Open(dir.File("farm.plx"));
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_GE((*file)->streams().size(), 3u);
}

TEST(Record, MergesThePartsARunThatDiedLeft) {
  TempDir dir;
  WritePart(dir.File("a.plx"), 0);
  WritePart(dir.File("b.plx"), 1);
  // The "MPI job" writes parts as the tracing library would, then dies.
  const std::string die =
      "mkdir out.plx.parts && cp a.plx out.plx.parts/rank-0.plx && "
      "cp b.plx out.plx.parts/rank-1.plx && kill -KILL $$";
  Result r = Parallax(dir, {"record", "-o", "out.plx", "--", "/bin/sh", "-c", die});
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
  std::string size = FormatBytes(std::filesystem::file_size(dir.File("out.plx")));
  EXPECT_EQ(r.err,
            "parallax: the run left out.plx.parts: merged 2 parts into out.plx (no problems); "
            "removed out.plx.parts\n"
            "parallax: trace out.plx: 2 processes, " +
                size + "\n");
  EXPECT_FALSE(std::filesystem::exists(dir.File("out.plx.parts")));
  auto file = format::TraceFile::Open(dir.File("out.plx"));
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ((*file)->processes().size(), 2u);
  EXPECT_EQ((*file)->processes().begin()->first, 0u);
  EXPECT_EQ((*file)->processes().rbegin()->first, 1u);
  EXPECT_EQ((*file)->total_records(), 8u);

  // A part cut short: its whole chunks, a warning; --keep-parts keeps them.
  std::filesystem::remove(dir.File("out.plx"));
  std::filesystem::resize_file(dir.File("b.plx"),
                               std::filesystem::file_size(dir.File("b.plx")) - 30);
  r = Parallax(dir, {"record", "-o", "out.plx", "--keep-parts", "--", "/bin/sh", "-c", die});
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
  size = FormatBytes(std::filesystem::file_size(dir.File("out.plx")));
  EXPECT_NE(r.err.find("parallax: warning: out.plx.parts/rank-1.plx: offset "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("parallax: the run left out.plx.parts: merged 2 parts into out.plx (1 "
                       "problem); kept out.plx.parts\n"
                       "parallax: trace out.plx: 2 processes, " +
                       size + "\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.File("out.plx.parts/rank-1.plx")));

  // `parallax merge DIR` does the same by hand, and keeps the parts.
  std::filesystem::remove(dir.File("out.plx"));
  r = Parallax(dir, {"merge", "out.plx.parts"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  size = FormatBytes(std::filesystem::file_size(dir.File("out.plx")));
  EXPECT_NE(r.out.find("merged 2 processes into out.plx: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(", " + size + ", 1 problem\n"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir.File("out.plx.parts/rank-0.plx")));
}

// Replaces every `from` in `text` with `to`.
std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

TEST(Record, NoMergeLeavesThePartsThatEveryCommandOpens) {
  TempDir dir;
  WritePart(dir.File("a.plx"), 0);
  WritePart(dir.File("b.plx"), 1);
  // The "MPI job" writes its parts as the tracing library would with PLX_MERGE=0.
  const std::string job =
      "echo \"M=$PLX_MERGE\"; mkdir out.plx.parts && cp a.plx out.plx.parts/rank-0.plx && "
      "cp b.plx out.plx.parts/rank-1.plx";
  Result r = Parallax(dir, {"record", "-o", "out.plx", "--no-merge", "--", "/bin/sh", "-c", job});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "M=0\n");
  EXPECT_EQ(r.err,
            "parallax: the parts are in out.plx.parts (--no-merge); every command opens the "
            "directory as the trace\n");
  EXPECT_FALSE(std::filesystem::exists(dir.File("out.plx")));
  ASSERT_EQ(Parallax(dir, {"merge", "out.plx.parts", "-o", "merged.plx"}).exit_code, 0);

  // The directory answers as its merged file does; its copy is kept in the cache.
  const std::vector<std::string> cache = {"XDG_CACHE_HOME=" + dir.File("cache")};
  for (const char* command : {"info", "stats", "report", "check", "waits", "critical-path",
                              "anomalies", "matrix", "dump"}) {
    Result parts = Parallax(dir, {command, "--json", "out.plx.parts"}, cache);
    Result merged = Parallax(dir, {command, "--json", "merged.plx"}, cache);
    EXPECT_EQ(parts.exit_code, 0) << command << ": " << parts.err;
    EXPECT_EQ(ReplaceAll(parts.out, "out.plx.parts", "merged.plx"), merged.out) << command;
  }
  std::vector<std::filesystem::path> kept;
  for (const auto& entry : std::filesystem::directory_iterator(dir.File("cache/parallax")))
    if (entry.path().string().ends_with("out.plx.parts.plx")) kept.push_back(entry.path());
  ASSERT_EQ(kept.size(), 1u);
  const auto merged_at = std::filesystem::last_write_time(kept[0]);
  EXPECT_EQ(Parallax(dir, {"stats", "out.plx.parts"}, cache).exit_code, 0);
  EXPECT_EQ(std::filesystem::last_write_time(kept[0]), merged_at);  // reused, not merged again

  // A part that changes is merged again; its problem is told at every open.
  std::filesystem::resize_file(dir.File("out.plx.parts/rank-1.plx"),
                               std::filesystem::file_size(dir.File("b.plx")) - 30);
  for (int open = 0; open < 2; ++open) {
    r = Parallax(dir, {"stats", "out.plx.parts"}, cache);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("parallax: warning: out.plx.parts: out.plx.parts/rank-1.plx: offset "),
              std::string::npos)
        << r.err;
  }
  EXPECT_NE(std::filesystem::last_write_time(kept[0]), merged_at);

  // No parts in it, or nowhere to keep the copy: the error says so.
  std::filesystem::create_directories(dir.File("empty.parts"));
  r = Parallax(dir, {"stats", "empty.parts"}, cache);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "parallax: error: empty.parts: no rank-<R>.plx or pid-<PID>.plx files in it\n");
  r = Parallax(dir, {"stats", "out.plx.parts"}, {"XDG_CACHE_HOME=", "HOME="});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "parallax: error: out.plx.parts: no directory to keep the trace made from it in "
            "(give --index-dir)\n");
}

TEST(Record, ForwardsSignalsSentToIt) {
  TempDir dir;
  ChildProcess child(
      {BuildPath("src/cli/parallax"), "record", "-o", dir.File("x.plx"), "--", "/bin/sh", "-c",
       "trap 'echo got TERM; exit 7' TERM; echo ready; while :; do sleep 0.05; done"},
      {"PLX_MPI_LIBDIR=" + FakeLibDir(), "LD_PRELOAD="});
  ASSERT_TRUE(child.started());
  std::string line;
  ASSERT_TRUE(child.ReadLine(&line, 10000));
  EXPECT_EQ(line, "ready");
  child.Signal(SIGTERM);
  RunResult r = child.Wait();
  EXPECT_EQ(r.exit_code, 7) << r.output;
  EXPECT_NE(r.output.find("got TERM\n"), std::string::npos) << r.output;
}

TEST(Merge, MergesAPartsDirectory) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("run.plx.parts"));
  WritePart(dir.File("run.plx.parts/rank-0.plx"), 0);
  WritePart(dir.File("run.plx.parts/rank-3.plx"), 3);
  std::ofstream(dir.File("run.plx.parts/notes.txt")) << "not a part";
  Result r = Parallax(dir, {"merge", "run.plx.parts/", "--progress"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto file = format::TraceFile::Open(dir.File("run.plx"));
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(r.out, "merged 2 processes into run.plx: " + FormatCount((*file)->report().chunks) +
                       " chunks, " + FormatBytes((*file)->size()) + ", no problems\n");
  EXPECT_NE(r.err.find("parallax: merging 100% ("), std::string::npos) << r.err;
  ASSERT_EQ((*file)->processes().size(), 2u);
  EXPECT_EQ((*file)->processes().rbegin()->first, 3u);

  r = Parallax(dir, {"merge", "-o", "other.plx", "run.plx.parts"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.File("other.plx")));

  std::filesystem::create_directories(dir.File("misc"));
  r = Parallax(dir, {"merge", "misc"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "parallax: error: give -o OUT: the directory name does not end in .parts (see "
            "'parallax merge --help')\n");
  r = Parallax(dir, {"merge", "-o", "m.plx", "misc"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "parallax: error: misc: no rank-<R>.plx or pid-<PID>.plx files in it\n");
  r = Parallax(dir, {"merge", "-o", "m.plx", "run.plx.parts", "run.plx"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace plx::testing
