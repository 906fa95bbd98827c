// `parallax record [-o FILE] ... -- COMMAND...`: runs COMMAND (an MPI launch
// or a plain program) with tracing switched on in every process through the
// environment, passes signals sent to parallax on to it, and afterwards merges
// the parts other processes wrote (and those a dying MPI run left behind).
#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/strings.h"
#include "cli/command.h"
#include "cli/launch.h"
#include "cli/output.h"
#include "cli/parts.h"
#include "format/trace_file.h"

extern char** environ;

namespace plx::cli {

namespace {

struct RecordOptions {
  std::string output;
  std::string level;
  std::string mpi = "auto";
  std::string counters;
  std::string sample_ms;
  std::string counter_mode;
  bool sched = false;
  bool keep_parts = false;
  bool no_merge = false;
  std::vector<std::string> command;
  int exit_code = 0;  // the command's, passed on as parallax's
};

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

// The running command, for the signal handler.
std::atomic<pid_t> g_child{0};

void ForwardSignal(int sig, siginfo_t* info, void*) {
  // A terminal sends ^C to its whole foreground process group, the command
  // included; pass on only what was sent to parallax itself.
  if (info != nullptr && info->si_code != SI_USER && info->si_code != SI_QUEUE) return;
  const pid_t child = g_child.load();
  if (child > 0) ::kill(child, sig);
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings)
    out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Runs `argv` with stdout and stderr on a pipe and returns what it printed;
// gives up (and kills it) after `timeout`.
StatusOr<std::string> Capture(std::vector<std::string> argv, std::chrono::milliseconds timeout) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return ErrnoError("pipe", errno);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  std::vector<char*> args = CStrings(argv);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return ErrnoError(argv[0], rc);
  }
  std::string text;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;
    char buf[4096];
    const ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (text.size() < (1 << 20)) text.append(buf, static_cast<size_t>(got));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    return IoError(argv[0] + ": no answer within " + FormatDuration(timeout.count() * 1'000'000));
  return text;
}

// The flavour of the MPI the program is linked with, from `ldd PROGRAM`:
// srun and launchers known only by name run whatever MPI the program has.
StatusOr<MpiFlavor> ProgramFlavor(const RecordOptions& o) {
  const char* path_env = std::getenv("PATH");
  const std::string program = ProgramPath(o.command, path_env ? path_env : "");
  const std::string give = "; give --mpi openmpi or --mpi mpich";
  if (program.empty())
    return InvalidArgument("cannot tell the MPI flavour: no program found after '" + o.command[0] +
                           "'" + give);
  auto text = Capture({"ldd", program}, std::chrono::seconds(10));
  if (!text.ok())
    return InvalidArgument("cannot tell the MPI flavour: 'ldd " + program +
                           "': " + text.status().message() + give);
  if (std::optional<MpiFlavor> f = FlavorFromLibraries(*text)) return *f;
  return InvalidArgument("cannot tell the MPI flavour: " + program +
                         " is linked with no MPI library ldd shows" + give);
}

StatusOr<MpiFlavor> ChooseFlavor(const RecordOptions& o) {
  const Launcher launcher = LauncherOf(o.command[0]);
  if (launcher == Launcher::kForeign)
    Warn("'" + o.command[0] +
         "' is a launcher parallax knows only by name: it must pass the environment "
         "(LD_PRELOAD, PLX_*) on to the ranks");
  if (o.mpi == "openmpi") return MpiFlavor::kOpenMpi;
  if (o.mpi == "mpich") return MpiFlavor::kMpich;
  if (launcher == Launcher::kNone) return MpiFlavor::kOpenMpi;
  if (launcher != Launcher::kMpirun) return ProgramFlavor(o);
  const std::string asked = "'" + o.command[0] + " --version'";
  auto text = Capture({o.command[0], "--version"}, std::chrono::seconds(10));
  if (!text.ok())
    return InvalidArgument("cannot tell the MPI flavour: " + asked + ": " +
                           text.status().message() + "; give --mpi openmpi or --mpi mpich");
  if (std::optional<MpiFlavor> f = FlavorFromVersion(*text)) return *f;
  return InvalidArgument("cannot tell the MPI flavour: " + asked +
                         " names neither Open MPI nor MPICH; give --mpi openmpi or --mpi mpich");
}

std::string SelfExe() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

std::string Absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[4096];
  if (::getcwd(cwd, sizeof cwd) == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

bool Exists(const std::string& path, struct stat* st) {
  return ::stat(path.c_str(), st) == 0;
}

// The same file, unchanged.
bool SameFile(const struct stat& a, const struct stat& b) {
  return a.st_ino == b.st_ino && a.st_mtim.tv_sec == b.st_mtim.tv_sec &&
         a.st_mtim.tv_nsec == b.st_mtim.tv_nsec && a.st_size == b.st_size;
}

// The environment of the command: ours with the tracing variables set.
std::vector<std::string> CommandEnvironment(const TracingSetup& setup) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr) env.emplace(std::string(*e, static_cast<size_t>(eq - *e)), eq + 1);
  }
  for (auto& [name, value] : TracingVariables(setup, env))
    env[name] = value;
  std::vector<std::string> out;
  for (const auto& [name, value] : env)
    out.push_back(name + "=" + value);
  return out;
}

// Runs the command to its end with signals passed on; its wait status.
StatusOr<int> RunCommand(std::vector<std::string> argv, std::vector<std::string> env) {
  sigset_t forwarded, old_mask;
  sigemptyset(&forwarded);
  for (int sig : kForwarded)
    sigaddset(&forwarded, sig);
  ::sigprocmask(SIG_BLOCK, &forwarded, &old_mask);
  struct sigaction action = {}, old_actions[std::size(kForwarded)];
  action.sa_sigaction = ForwardSignal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(kForwarded); ++i)
    ::sigaction(kForwarded[i], &action, &old_actions[i]);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setsigmask(&attr, &old_mask);
  posix_spawnattr_setsigdefault(&attr, &forwarded);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args = CStrings(argv), envp = CStrings(env);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], nullptr, &attr, args.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  if (rc == 0) g_child.store(pid);
  ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);  // signals that came meanwhile go on now

  int status = 0;
  if (rc == 0) {
    while (::waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) {
        status = -1;
        break;
      }
    }
  }
  g_child.store(0);
  for (size_t i = 0; i < std::size(kForwarded); ++i)
    ::sigaction(kForwarded[i], &old_actions[i], nullptr);
  if (rc != 0) return ErrnoError("cannot run '" + argv[0] + "'", rc);
  if (status == -1) return Internal("lost track of '" + argv[0] + "'");
  return status;
}

// Merges <FILE>.parts after the run: the parts of the processes other than
// the command's own (and of MPI ranks when the run died before rank 0 merged
// them), after the trace the command's own process wrote, when `with_file`.
Status MergeParts(const RecordOptions& o, const GlobalOptions& global, const std::string& file,
                  bool with_file) {
  const std::string parts = file + ".parts";
  PLX_ASSIGN_OR_RETURN(std::vector<format::MergeInput> inputs, format::ListParts(parts));
  for (const std::string& line : format::MissingRanks(inputs))
    Warn(parts + ": " + line);
  if (with_file) {
    auto trace = format::TraceFile::Open(file);
    if (trace.ok() && (*trace)->processes().size() > 1)
      return InvalidArgument(file + " holds several processes already: merge it and " + parts +
                             " with 'parallax merge'");
    inputs.insert(inputs.begin(), {file, 0});
    for (size_t i = 0; i < inputs.size(); ++i)
      inputs[i].process = static_cast<uint32_t>(i);
  }
  PLX_ASSIGN_OR_RETURN(format::MergeResult result,
                       MergeWithProgress(inputs, file, global.progress));
  std::string what = "kept " + parts;
  if (!o.keep_parts) {
    std::error_code ec;
    for (const format::MergeInput& in : inputs)
      if (in.path != file) std::filesystem::remove(in.path, ec);
    what = std::filesystem::remove(parts, ec) ? "removed " + parts
                                              : "kept " + parts + " (it holds other files)";
  }
  const size_t n = result.problems.size();
  const size_t merged = inputs.size() - (with_file ? 1 : 0);
  fmt::print(stderr, "parallax: the run left {}: merged {} part{} into {} ({} problem{}); {}\n",
             parts, merged, merged == 1 ? "" : "s", file, n == 0 ? "no" : std::to_string(n),
             n == 1 ? "" : "s", what);
  return Status::Ok();
}

Status RunRecord(RecordOptions& o, const GlobalOptions& global) {
  PLX_ASSIGN_OR_RETURN(MpiFlavor flavor, ChooseFlavor(o));
  const char* libdir = std::getenv("PLX_MPI_LIBDIR");
  PLX_ASSIGN_OR_RETURN(std::string library,
                       FindMpiLibrary(flavor, libdir ? libdir : "", SelfExe()));
  const char* path_env = std::getenv("PATH");
  const std::string shown =
      !o.output.empty() ? o.output : ProgramName(o.command, path_env ? path_env : "") + ".plx";
  const std::string file = Absolute(shown);
  struct stat before = {}, st;
  const size_t slash = file.rfind('/');
  const std::string dir = slash == 0 ? "/" : file.substr(0, slash);
  if (!Exists(dir, &st) || !S_ISDIR(st.st_mode))
    return NotFound(shown + ": no directory " + dir + " to write the trace in");
  if (Exists(file + ".parts", &st))
    return InvalidArgument(shown +
                           ".parts exists (left by an earlier run?); merge it with "
                           "'parallax merge " +
                           shown + ".parts' or remove it first");
  const bool existed = Exists(file, &before);

  TracingSetup setup{file,        o.level,        library, flavor,     o.counters,
                     o.sample_ms, o.counter_mode, o.sched, ::getpid(), !o.no_merge};
  PLX_ASSIGN_OR_RETURN(int status, RunCommand(o.command, CommandEnvironment(setup)));
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

  if (o.no_merge && Exists(file + ".parts", &st) && S_ISDIR(st.st_mode)) {
    struct stat now;
    if (Exists(file, &now) && !(existed && SameFile(before, now)))
      Warn(shown + " holds the process record started; " + shown +
           ".parts the others ('parallax merge' joins them)");
    fmt::print(stderr,
               "parallax: the parts are in {}.parts (--no-merge); every command opens the "
               "directory as the trace\n",
               shown);
    return Status::Ok();
  }
  if (Exists(file + ".parts", &st) && S_ISDIR(st.st_mode)) {
    struct stat now;
    const bool wrote = Exists(file, &now) && !(existed && SameFile(before, now));
    // Paths as the user gave them in messages; parallax itself never changes directory.
    Status merged = MergeParts(o, global, shown, wrote);
    if (!merged.ok()) {
      if (o.exit_code == 0) return merged;
      Warn("cannot merge " + shown + ".parts: " + merged.message());
    }
  }
  if (!Exists(file, &st)) {
    Warn("no trace was written to " + shown + " (does the program use MPI or libparallax?)");
    return Status::Ok();
  }
  if (existed && SameFile(before, st)) {
    Warn(shown + " is the one from before: this run did not write a trace");
    return Status::Ok();
  }
  auto trace = format::TraceFile::Open(file);
  if (!trace.ok()) {
    Warn(trace.status().message());
    return Status::Ok();
  }
  const size_t processes = (*trace)->processes().size();
  const size_t problems = (*trace)->report().problems.size();
  std::string line = fmt::format("parallax: trace {}: {} process{}, {}", shown, processes,
                                 processes == 1 ? "" : "es", FormatBytes((*trace)->size()));
  if (problems > 0)
    line += fmt::format(", {} problem{} (parallax info {} lists them)", problems,
                        problems == 1 ? "" : "s", shown);
  fmt::print(stderr, "{}\n", line);
  return Status::Ok();
}

}  // namespace

Command AddRecordCommand(CLI::App& parent, const GlobalOptions& global) {
  auto o = std::make_shared<RecordOptions>();
  CLI::App* app = parent.add_subcommand("record", "Run a program or MPI job with tracing on");
  app->footer(
      "Runs COMMAND with PLX_TRACE=1, PLX_OUTPUT=FILE (absolute), PLX_LEVEL and the MPI\n"
      "tracing library (libparallax-mpi.so for Open MPI, libparallax-mpich.so for MPICH)\n"
      "in LD_PRELOAD, so every process of the job is traced. Put -- before COMMAND.\n"
      "FILE defaults to <program>.plx here: the first word of COMMAND, or after mpirun /\n"
      "mpiexec / orterun the first word that is not an option and names an executable.\n"
      "--mpi auto asks the launcher (mpirun --version); after srun (Slurm) or another\n"
      "launcher (aprun, jsrun, ...) it asks the program's libraries (ldd); without a\n"
      "launcher it means openmpi.\n"
      "The library is looked for in $PLX_MPI_LIBDIR, else in ../mpi and ../lib beside\n"
      "parallax. Every other process the command starts (a shell's jobs, fork, exec)\n"
      "writes its own part in FILE.parts/ (PLX_PARTS); so do MPI ranks. Parts left\n"
      "there are merged into FILE afterwards, each process with its pid, parent pid\n"
      "and command line. Exit status: the command's (128+N if signal N ended it).\n"
      "\n"
      "Examples:\n"
      "  parallax record -- mpirun -np 4 ./solver input.dat     writes solver.plx\n"
      "  parallax record -o run.plx --level comm -- mpiexec -n 8 ./app\n"
      "  parallax record --counters default --sched -- ./threaded_app");
  app->add_option("-o,--output", o->output, "The trace file (default: <program>.plx)");
  app->add_option("--level", o->level, "PLX_LEVEL: the categories to record (e.g. all, comm)");
  app->add_option("--mpi", o->mpi, "The MPI flavour: auto, openmpi or mpich")
      ->check(CLI::IsMember({"auto", "openmpi", "mpich"}));
  app->add_option("--counters", o->counters,
                  "PLX_COUNTERS: perf events per thread, e.g. default or "
                  "cycles,instructions,page-faults (docs/counters.md)");
  app->add_option("--sample-ms", o->sample_ms,
                  "PLX_SAMPLE_MS: also sample counters every MS ms of a thread's CPU time "
                  "(0 = only at state changes; default 10)")
      ->check(CLI::Range(0, 60000));
  app->add_option("--counter-mode", o->counter_mode,
                  "PLX_COUNTER_MODE: changes (totals at state changes and periods) or period "
                  "(counts per period only)")
      ->check(CLI::IsMember({"changes", "period"}));
  app->add_flag("--sched", o->sched, "PLX_SCHED=1: record the CPU each thread runs on");
  app->add_flag("--keep-parts", o->keep_parts,
                "Keep FILE.parts/ after merging what a run that died left there");
  app->add_flag("--no-merge", o->no_merge,
                "PLX_MERGE=0: leave each process's part in FILE.parts/ unmerged (every "
                "command opens the directory as the trace)");
  app->add_option("COMMAND", o->command, "The command to run, after --")->required();
  return {app, [o, &global] { return RunRecord(*o, global); }, [o] { return o->exit_code; }};
}

}  // namespace plx::cli
