// `parallax wrap` and its shortcuts (cc, c++, f90, mpicc): programs built
// with the built parallax, run WITHOUT `parallax record`, must write their
// own trace with their function calls (and MPI calls); built-in
// --functions / --functions-exclude defaults apply unless the environment
// overrides them; under `parallax record` nothing is recorded twice; errors
// are one line, and the compiler's exit status is passed on.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "model/trace.h"
#include "support/test_support.h"
#include "support/trace_loading.h"

namespace plx::testing {
namespace {

// Sanitizer builds: the tracing library is ASan-instrumented, so the programs
// must be too (the sanitizer runtime first in the process), with clang's
// runtime, not gcc's: they are built by `parallax wrap -- clang` with the
// build's sanitizer flags instead of the shortcuts (which run cc = gcc), and
// Fortran (gfortran brings gcc's runtime) is not tested.
#ifdef PLX_SANITIZE_BUILD
constexpr bool kSanitizer = true;
#else
constexpr bool kSanitizer = false;
#endif

const std::vector<std::string> kSanitizerFlags = {"-fsanitize=address,undefined",
                                                  "-fno-sanitize-recover=undefined"};

constexpr char kFibC[] = R"(#include <stdio.h>
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int helper(int x) { return x + 1; }
int main(void) { printf("%d\n", helper(fib(5))); return 0; }
)";

constexpr char kTemplatesCc[] = R"(#include <cstdio>
namespace geo {
template <class T> T Square(T x) { return x * x; }
struct Circle { double r; double Area() const { return 3.0 * Square(r); } };
}
int main() { std::printf("%d %g\n", geo::Square(3), geo::Circle{2.0}.Area()); }
)";

constexpr char kFortran[] = R"(module shapes
contains
  integer function sq(x)
    integer, intent(in) :: x
    sq = x * x
  end function
end module
program main
  use shapes
  print *, sq(3) + sq(4)
end program
)";

constexpr char kMpiC[] = R"(#include <mpi.h>
#include <stdio.h>
int work(int rank) { int s = 0; for (int i = 0; i < 1000; i++) s += i * rank; return s; }
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, v, total;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  v = work(rank);
  MPI_Allreduce(&v, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: %d\n", rank, total);
  MPI_Finalize();
  return 0;
}
)";

constexpr char kThreadC[] = R"(#include <pthread.h>
void* run(void* arg) { return arg; }
int main(void) { pthread_t t; pthread_create(&t, 0, run, 0); pthread_join(t, 0); return 0; }
)";

std::string Parallax() {
  return BuildPath("src/cli/parallax");
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

bool OnPath(const std::string& program) {
  return RunProgram({"/bin/sh", "-c", "command -v " + program}).exit_code == 0;
}

std::vector<std::string> Env() {
  return {"PLX_MPI_LIBDIR=" + BuildPath("src/mpi"),
          "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0"};
}

// `parallax SHORTCUT OPTIONS... ARGS...` (in sanitizer builds `parallax wrap
// OPTIONS... -- clang|clang++ FLAGS... ARGS...`, MPI through OMPI_CC=clang).
RunResult Build(const std::string& shortcut, const std::vector<std::string>& options,
                const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/timeout", "120", Parallax()};
  std::vector<std::string> env = Env();
  if (!kSanitizer) {
    argv.push_back(shortcut);
    argv.insert(argv.end(), options.begin(), options.end());
  } else {
    argv.push_back("wrap");
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back("--");
    if (shortcut == "mpicc") {
      argv.push_back("mpicc");
      env.push_back("OMPI_CC=clang");
    } else {
      argv.push_back(shortcut == "c++" ? "clang++" : "clang");
    }
    argv.insert(argv.end(), kSanitizerFlags.begin(), kSanitizerFlags.end());
    // The library's UBSan parts are the C++ ones.
    if (shortcut != "c++") argv.insert(argv.end(), {"-fsanitize-link-c++-runtime", "-lstdc++"});
  }
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProgram(argv, env);
}

// Runs `command` (a shell command) in `dir` with the extra environment `env`.
RunResult RunIn(const TempDir& dir, const std::string& command, std::vector<std::string> env = {}) {
  env.push_back("ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0");
  return RunProgram(
      {"/usr/bin/timeout", "120", "/bin/sh", "-c", "cd " + dir.path() + " && " + command}, env);
}

// Per process (its rank, or its index when not MPI): how often each state of
// category `category` was entered.
using Counts = std::map<int64_t, std::map<std::string, int>>;

Counts CountStates(const std::string& path, const std::string& category) {
  Counts out;
  const model::Trace trace = LoadTraceFile(path);
  for (size_t i = 0; i < trace.slices.size(); ++i) {
    const model::State& state = trace.states[trace.slices.state[i]];
    if (state.category == model::kNone || trace.categories[state.category].name != category)
      continue;
    const uint32_t process = trace.threads[trace.slices.thread[i]].process;
    const int64_t rank = trace.processes[process].rank;
    ++out[rank >= 0 ? rank : process][state.name];
  }
  return out;
}

const std::map<std::string, int> kFibCalls = {{"main", 1}, {"fib", 15}, {"helper", 1}};

TEST(WrapCmd, CProgramTracesItselfWithoutRecord) {
  TempDir dir;
  Write(dir.File("app.c"), kFibC);
  RunResult b = Build("cc", {}, {"-g", "-O0", "-o", dir.File("app"), dir.File("app.c")});
  ASSERT_EQ(b.exit_code, 0) << b.output;
  RunResult r = RunIn(dir, "./app");  // no parallax, no PLX_* variables: app.plx here
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "6\n");
  EXPECT_EQ(CountStates(dir.File("app.plx"), "functions"), (Counts{{0, kFibCalls}}));
}

TEST(WrapCmd, CompileAndLinkSeparately) {
  TempDir dir;
  Write(dir.File("app.c"), kFibC);
  RunResult c = Build("cc", {}, {"-c", "-o", dir.File("app.o"), dir.File("app.c")});
  ASSERT_EQ(c.exit_code, 0) << c.output;
  RunResult l = Build("cc", {"--functions", "fib"}, {"-o", dir.File("app"), dir.File("app.o")});
  ASSERT_EQ(l.exit_code, 0) << l.output;
  ASSERT_EQ(RunIn(dir, "./app").exit_code, 0);
  EXPECT_EQ(CountStates(dir.File("app.plx"), "functions"), (Counts{{0, {{"fib", 15}}}}));
}

TEST(WrapCmd, CxxNamesAreDemangled) {
  TempDir dir;
  Write(dir.File("app.cc"), kTemplatesCc);
  RunResult b = Build("c++", {}, {"-g", "-O0", "-o", dir.File("app"), dir.File("app.cc")});
  ASSERT_EQ(b.exit_code, 0) << b.output;
  ASSERT_EQ(RunIn(dir, "./app").exit_code, 0);
  const Counts counts = CountStates(dir.File("app.plx"), "functions");
  ASSERT_EQ(counts.size(), 1u);
  const std::map<std::string, int>& c = counts.begin()->second;
  EXPECT_EQ(c.count("main"), 1u);
  EXPECT_EQ(c.count("int geo::Square<int>(int)"), 1u) << ::testing::PrintToString(c);
  EXPECT_EQ(c.count("double geo::Square<double>(double)"), 1u) << ::testing::PrintToString(c);
  EXPECT_EQ(c.count("geo::Circle::Area() const"), 1u) << ::testing::PrintToString(c);
}

TEST(WrapCmd, FortranProgram) {
  if (kSanitizer || !OnPath("gfortran")) {
    std::printf("note: parallax f90 is not tested: %s\n",
                kSanitizer ? "gfortran's sanitizer runtime cannot join clang's in a sanitizer build"
                           : "gfortran is not installed");
    GTEST_SKIP();
  }
  TempDir dir;
  Write(dir.File("app.f90"), kFortran);
  RunResult b = Build("f90", {}, {"-g", "-o", dir.File("app"), dir.File("app.f90")});
  ASSERT_EQ(b.exit_code, 0) << b.output;
  ASSERT_EQ(RunIn(dir, "./app").exit_code, 0);
  const Counts counts = CountStates(dir.File("app.plx"), "functions");
  ASSERT_EQ(counts.size(), 1u);
  const std::map<std::string, int>& c = counts.begin()->second;
  EXPECT_EQ(c.count("MAIN__"), 1u) << ::testing::PrintToString(c);
  ASSERT_EQ(c.count("__shapes_MOD_sq"), 1u) << ::testing::PrintToString(c);
  EXPECT_EQ(c.at("__shapes_MOD_sq"), 2);
}

TEST(WrapCmd, BuiltInFiltersAndTheEnvironmentOverridingThem) {
  TempDir dir;
  Write(dir.File("app.c"), kFibC);
  const std::vector<std::string> args = {"-O0", "-o", dir.File("app"), dir.File("app.c")};
  ASSERT_EQ(Build("cc", {"--functions", "fib,helper", "--functions-exclude=help*"}, args).exit_code,
            0);
  auto counts = [&](std::vector<std::string> env) {
    EXPECT_EQ(RunIn(dir, "./app", env).exit_code, 0);
    return CountStates(dir.File("app.plx"), "functions");
  };
  EXPECT_EQ(counts({}), (Counts{{0, {{"fib", 15}}}}));
  EXPECT_EQ(counts({"PLX_FUNCTIONS=main"}), (Counts{{0, {{"main", 1}}}}));
  // Set but empty: every function; the built-in exclusion still applies.
  EXPECT_EQ(counts({"PLX_FUNCTIONS="}), (Counts{{0, {{"main", 1}, {"fib", 15}}}}));
  EXPECT_EQ(counts({"PLX_FUNCTIONS_EXCLUDE=fib"}), (Counts{{0, {{"helper", 1}}}}));
  EXPECT_EQ(counts({"PLX_FUNCTIONS=none"}), Counts{});
}

TEST(WrapCmd, UnderRecordNothingIsRecordedTwice) {
  TempDir dir;
  Write(dir.File("app.c"), kFibC);
  ASSERT_EQ(Build("cc", {}, {"-o", dir.File("app"), dir.File("app.c")}).exit_code, 0);
  std::vector<std::string> env = Env();
  RunResult r = RunProgram({"/usr/bin/timeout", "120", Parallax(), "record", "-o",
                            dir.File("t.plx"), "--", dir.File("app")},
                           env);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(CountStates(dir.File("t.plx"), "functions"), (Counts{{0, kFibCalls}}));
  EXPECT_FALSE(::access(dir.File("app.plx").c_str(), F_OK) == 0) << "a second trace was written";
}

TEST(WrapCmd, NoInstrumentLinksTheRuntimeOnly) {
  TempDir dir;
  Write(dir.File("app.c"), kThreadC);
  RunResult b =
      Build("cc", {"--no-instrument"}, {"-pthread", "-o", dir.File("app"), dir.File("app.c")});
  ASSERT_EQ(b.exit_code, 0) << b.output;
  ASSERT_EQ(RunIn(dir, "./app").exit_code, 0);
  const model::Trace trace = LoadTraceFile(dir.File("app.plx"));  // the thread started the runtime
  EXPECT_EQ(trace.threads.size(), 2u);
  EXPECT_EQ(CountStates(dir.File("app.plx"), "functions"), Counts{});
}

TEST(WrapCmd, ShowCommands) {
  TempDir dir;
  Write(dir.File("app.c"), kFibC);
  RunResult b = Build("cc", {"--show-commands"}, {"-o", dir.File("app"), dir.File("app.c")});
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_NE(b.output.find(" -finstrument-functions "), std::string::npos) << b.output;
  EXPECT_NE(b.output.find(" -lparallax-mpi "), std::string::npos) << b.output;
  EXPECT_NE(b.output.find("-Wl,-rpath,"), std::string::npos) << b.output;
}

// Open MPI's mpirun: as root it needs --allow-run-as-root, and more ranks than cores.
std::vector<std::string> Mpirun() {
  std::vector<std::string> argv = {"mpirun"};
  if (RunProgram({"/bin/sh", "-c", "mpirun --version"}).output.find("Open MPI") !=
      std::string::npos)
    argv.insert(argv.end(),
                {"--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"});
  return argv;
}

TEST(WrapCmd, MpiProgramWithAndWithoutRecord) {
  if (!OnPath("mpicc") || !OnPath("mpirun")) {
    std::printf("note: parallax mpicc is not tested: no mpicc or mpirun here\n");
    GTEST_SKIP();
  }
  TempDir dir;
  Write(dir.File("app.c"), kMpiC);
  RunResult b = Build("mpicc", {}, {"-g", "-o", dir.File("app"), dir.File("app.c")});
  ASSERT_EQ(b.exit_code, 0) << b.output;
  const std::map<std::string, int> functions = {{"work", 1}};
  const std::map<std::string, int> mpi = {
      {"MPI_Init", 1}, {"MPI_Comm_rank", 1}, {"MPI_Allreduce", 1}, {"MPI_Finalize", 1}};

  std::string mpirun;
  for (const std::string& w : Mpirun())
    mpirun += w + " ";
  RunResult r = RunIn(dir, mpirun + "-np 2 ./app");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(CountStates(dir.File("app.plx"), "functions"),
            (Counts{{0, functions}, {1, functions}}));
  EXPECT_EQ(CountStates(dir.File("app.plx"), "comm"), (Counts{{0, mpi}, {1, mpi}}));

  if (kSanitizer) {
    // `record` would preload the instrumented library into mpirun, which is not.
    std::printf("note: parallax record of the mpicc program is not tested in a sanitizer build\n");
  } else {
    std::vector<std::string> argv = {"/usr/bin/timeout", "120", Parallax(), "record", "-o",
                                     dir.File("t.plx"),  "--"};
    for (const std::string& w : Mpirun())
      argv.push_back(w);
    argv.insert(argv.end(), {"-np", "2", dir.File("app")});
    r = RunProgram(argv, Env());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(CountStates(dir.File("t.plx"), "functions"),
              (Counts{{0, functions}, {1, functions}}));
    EXPECT_EQ(CountStates(dir.File("t.plx"), "comm"), (Counts{{0, mpi}, {1, mpi}}));
  }

  // Alone (no mpirun): the program links libmpi, so recording starts at MPI_Init.
  ::unlink(dir.File("app.plx").c_str());
  r = RunIn(dir, "./app");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(CountStates(dir.File("app.plx"), "functions"), (Counts{{0, functions}}));
}

// What a stand-in compiler `name` (first on PATH) was given by `parallax ARGS...`.
std::string ArgumentsGiven(const TempDir& dir, const std::string& name,
                           const std::vector<std::string>& args) {
  Write(dir.File(name), "#!/bin/sh\necho \"$@\" > " + dir.File("args") + "\n");
  ::chmod(dir.File(name).c_str(), 0755);
  std::vector<std::string> argv = {Parallax()};
  argv.insert(argv.end(), args.begin(), args.end());
  const char* path = std::getenv("PATH");
  RunResult r = RunProgram(argv, {"PATH=" + dir.path() + ":" + (path ? path : "/usr/bin:/bin"),
                                  "PLX_MPI_LIBDIR=" + BuildPath("src/mpi")});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return ReadFile(dir.File("args"));
}

TEST(WrapCmd, CompilerArgumentsPassUnchanged) {
  TempDir dir;
  // wrap's options only before the compiler's arguments.
  EXPECT_EQ(
      ArgumentsGiven(dir, "cc", {"cc", "--show-commands", "-O2", "--functions", "x", "-c", "a.c"}),
      "-finstrument-functions -O2 --functions x -c a.c\n");
  EXPECT_EQ(ArgumentsGiven(dir, "cc", {"cc", "--no-instrument", "--", "-c", "a.c"}), "-c a.c\n");
  // Linking: the library before the arguments (and before their -lmpi).
  std::string libdir = BuildPath("src/mpi");
  char resolved[PATH_MAX];
  if (::realpath(libdir.c_str(), resolved) != nullptr) libdir = resolved;
  EXPECT_EQ(ArgumentsGiven(dir, "gcc", {"wrap", "--", "gcc", "-o", "app", "a.o", "-lmpi"}),
            "-finstrument-functions -L" + libdir + " -Wl,-rpath," + libdir +
                " -Wl,--no-as-needed -lparallax-mpi -o app a.o -lmpi\n");
}

// One line on stderr, exit status 1.
void ExpectOneLineError(const RunResult& r, const std::string& part) {
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.rfind("parallax: error: ", 0), 0u) << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  EXPECT_NE(r.output.find(part), std::string::npos) << r.output;
}

TEST(WrapCmd, Errors) {
  TempDir dir;
  Write(dir.File("app.c"), kFibC);
  ExpectOneLineError(RunProgram({Parallax(), "wrap", "--", "notacompiler", dir.File("app.c")}),
                     "'notacompiler' is not a compiler");
  ExpectOneLineError(RunProgram({Parallax(), "wrap", "--", "gcc-999", dir.File("app.c")}),
                     "'gcc-999' not found");

  // The compiler's status, whatever it is: a stand-in "gcc" that fails with 42.
  Write(dir.File("gcc"), "#!/bin/sh\necho \"$@\" > " + dir.File("args") + "\nexit 42\n");
  ::chmod(dir.File("gcc").c_str(), 0755);
  RunResult r = RunProgram({Parallax(), "wrap", "--", dir.File("gcc"), "-c", "x.c"});
  EXPECT_EQ(r.exit_code, 42) << r.output;
  EXPECT_EQ(ReadFile(dir.File("args")), "-finstrument-functions -c x.c\n");

  // A name wrap knows (target prefix, version suffix), only not installed.
  ExpectOneLineError(
      RunProgram({Parallax(), "wrap", "--", "x86_64-linux-gnu-gcc-999", dir.File("app.c")}),
      "'x86_64-linux-gnu-gcc-999' not found");

  Write(dir.File("bad.c"), "int main(void) { return undeclared; }\n");
  RunResult bad = Build("cc", {}, {"-o", dir.File("bad"), dir.File("bad.c")});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_EQ(bad.exit_code,
            RunProgram({"/bin/sh", "-c", "cc -o " + dir.File("bad") + " " + dir.File("bad.c")})
                .exit_code);
  EXPECT_NE(bad.output.find("undeclared"), std::string::npos) << bad.output;
}

}  // namespace
}  // namespace plx::testing
