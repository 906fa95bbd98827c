// `parallax wrap [OPTIONS] -- COMPILER ARGS...` and its shortcuts (`parallax
// cc|c++|f90|mpicc|mpicxx|mpif90 ARGS...`): runs the compiler with
// -finstrument-functions and, when it links, with the tracing library that
// `parallax record` preloads, so the program records itself when run.
#include <fcntl.h>
#include <fmt/core.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/launch.h"
#include "cli/output.h"

extern char** environ;

namespace plx::cli {

namespace {

// The shortcuts and the compiler each runs.
struct Shortcut {
  const char* name;
  const char* compiler;
  const char* what;
  const char* example;  // a source file name for the help's example
};
constexpr Shortcut kShortcuts[] = {
    {"cc", "cc", "the C compiler", "app.c"},
    {"c++", "c++", "the C++ compiler", "app.cc"},
    {"f90", "gfortran", "the Fortran compiler", "app.f90"},
    {"mpicc", "mpicc", "MPI's C compiler", "app.c"},
    {"mpicxx", "mpicxx", "MPI's C++ compiler", "app.cc"},
    {"mpif90", "mpif90", "MPI's Fortran compiler", "app.f90"},
};

// The options of wrap (AddWrapLike), read only before the compiler's
// arguments: SeparateCompilerArguments puts a -- after them.
struct OptionSpec {
  const char* name;
  bool takes_value;
};
constexpr OptionSpec kOptions[] = {
    {"-h", false},
    {"--help", false},
    {"--functions", true},
    {"--functions-exclude", true},
    {"--no-instrument", false},
    {"--show-commands", false},
    {"--mpi", true},
};

// Compilers known to take -finstrument-functions (gcc and clang drivers, and
// the MPI wrappers around them), by name without directory, target prefix
// (x86_64-linux-gnu-gcc) or version suffix (gcc-12, clang++-17, mpicc.mpich).
constexpr std::string_view kCompilers[] = {
    "cc",      "c++", "gcc",   "g++",    "clang",  "clang++",  "gfortran", "f77",
    "f90",     "f95", "mpicc", "mpicxx", "mpic++", "mpiCC",    "mpif77",   "mpif90",
    "mpifort", "icx", "icpx",  "ifx",    "flang",  "flang-new"};
// Run before the compiler word: the compiler is the next word.
constexpr std::string_view kCompilerLaunchers[] = {"ccache", "sccache", "distcc"};

struct WrapOptions {
  std::string compiler;  // the shortcut's, "" for wrap
  std::string functions, functions_exclude;
  std::string mpi = "auto";
  bool no_instrument = false;
  bool show_commands = false;
  std::vector<std::string> args;
  int exit_code = 0;  // the compiler's, passed on
};

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool KnownCompiler(std::string name) {
  if (const size_t dot = name.find('.'); dot != std::string::npos) name.resize(dot);  // .mpich
  for (;;) {  // version suffixes: gcc-12, clang-17, g++-12
    const size_t dash = name.rfind('-');
    if (dash == std::string::npos || dash + 1 == name.size() ||
        name.find_first_not_of("0123456789", dash + 1) != std::string::npos)
      break;
    name.resize(dash);
  }
  for (std::string_view c : kCompilers) {
    if (name == c) return true;
    // A target prefix: x86_64-linux-gnu-gcc.
    if (name.size() > c.size() + 1 && name.ends_with(c) && name[name.size() - c.size() - 1] == '-')
      return true;
  }
  return false;
}

// The index of the compiler's word in `command` (past ccache and the like).
size_t CompilerWord(const std::vector<std::string>& command) {
  size_t i = 0;
  while (i + 1 < command.size()) {
    const std::string name = BaseName(command[i]);
    bool launcher = false;
    for (std::string_view l : kCompilerLaunchers)
      launcher |= name == l;
    if (!launcher) break;
    ++i;
  }
  return i;
}

// Options of gcc and clang whose value is the next word.
constexpr std::string_view kTakesValue[] = {
    "-o",       "-x",       "-I",       "-L",       "-D",          "-U",
    "-include", "-imacros", "-isystem", "-iquote",  "-idirafter",  "-isysroot",
    "-MF",      "-MT",      "-MQ",      "-Xlinker", "-Xassembler", "-Xpreprocessor",
    "-u",       "-T",       "-z"};

// Whether the compiler's arguments `args` link: no -c, -S, -E, -M or -MM,
// and an input (a word that is neither an option nor an option's value).
bool Links(const std::vector<std::string>& args) {
  bool input = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-c" || a == "-S" || a == "-E" || a == "-M" || a == "-MM") return false;
    bool value_next = false;
    for (std::string_view v : kTakesValue)
      value_next |= a == v;
    if (value_next)
      ++i;
    else if (!a.empty() && a[0] != '-')
      input = true;
  }
  return input;
}

std::string Quoted(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_-+=/.,:@%") == std::string::npos)
    return word;
  std::string out = "'";
  for (char c : word)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `argv` (stdout on `output` when given, else ours); its exit code.
StatusOr<int> Run(const std::vector<std::string>& argv, bool show, std::string* output = nullptr) {
  if (show) {
    std::string line;
    for (const std::string& w : argv)
      line += (line.empty() ? "" : " ") + Quoted(w);
    fmt::print(stderr, "{}\n", line);
  }
  int fds[2] = {-1, -1};
  if (output != nullptr && ::pipe2(fds, O_CLOEXEC) != 0) return ErrnoError("pipe", errno);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (output != nullptr) {
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  }
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (output != nullptr) {
    ::close(fds[1]);
    char buf[4096];
    ssize_t got;
    while (rc == 0 && ((got = ::read(fds[0], buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR)))
      if (got > 0) output->append(buf, static_cast<size_t>(got));
    ::close(fds[0]);
  }
  if (rc != 0) return ErrnoError("cannot run '" + argv[0] + "'", rc);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return ErrnoError("waiting for '" + argv[0] + "'", errno);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The MPI flavour of the library to link: asked, else the compiler's (an MPI
// wrapper shows the MPI library it links with -show), else Open MPI's.
MpiFlavor ChooseFlavor(const WrapOptions& o, const std::string& compiler) {
  if (o.mpi != "auto") return o.mpi == "mpich" ? MpiFlavor::kMpich : MpiFlavor::kOpenMpi;
  const std::string name = BaseName(compiler);
  if (name.find("mpich") != std::string::npos) return MpiFlavor::kMpich;
  if (name.starts_with("mpi")) {
    std::string shown;
    auto rc = Run({compiler, "-show"}, false, &shown);
    if (rc.ok() && *rc == 0 && shown.find("mpich") != std::string::npos) return MpiFlavor::kMpich;
  }
  return MpiFlavor::kOpenMpi;
}

std::string SelfExe() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// The tracing library to link: its directory and its -l name.
struct Library {
  std::string dir, name;
};

// Found as `parallax record` finds the library it preloads.
StatusOr<Library> FindLibrary(const WrapOptions& o, const std::string& compiler) {
  const char* libdir_env = std::getenv("PLX_MPI_LIBDIR");
  const std::string libdir = libdir_env ? libdir_env : "";
  MpiFlavor flavor = ChooseFlavor(o, compiler);
  StatusOr<std::string> lib = FindMpiLibrary(flavor, libdir, SelfExe());
  // A program without MPI links either; MPICH's is the one built where Open MPI is not.
  if (!lib.ok() && o.mpi == "auto" && !BaseName(compiler).starts_with("mpi")) {
    if (auto other = FindMpiLibrary(MpiFlavor::kMpich, libdir, SelfExe()); other.ok()) {
      flavor = MpiFlavor::kMpich;
      lib = std::move(other);
    }
  }
  if (!lib.ok()) return lib.status();
  const std::string file = MpiLibraryName(flavor);  // lib<name>.so
  return Library{std::filesystem::path(*lib).parent_path().string(),
                 file.substr(3, file.size() - 6)};
}

// A C string literal of `text`.
std::string CLiteral(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      out += fmt::format("\\{}", static_cast<char>(c));
    else if (c < ' ' || c >= 0x7f)
      out += fmt::format("\\{:03o}", c);
    else
      out += static_cast<char>(c);
  }
  return out + "\"";
}

// A temporary directory, removed with what is in it.
struct ScratchDir {
  std::string path;
  ~ScratchDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

// Compiles the object that holds the built-in PLX_FUNCTIONS and
// PLX_FUNCTIONS_EXCLUDE (read by src/threads/functions/resolver.cc).
StatusOr<std::string> DefaultsObject(const WrapOptions& o, const std::string& compiler,
                                     const CLI::App& app, ScratchDir* dir) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/parallax-wrap-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) return ErrnoError(pattern, errno);
  dir->path = pattern;
  const std::string source = dir->path + "/plx_defaults.c", object = dir->path + "/plx_defaults.o";
  {
    std::ofstream out(source);
    out << "/* Built in by parallax wrap: function tracing defaults (docs/functions.md). */\n";
    auto define = [&](const char* symbol, const std::string& value) {
      out << "extern const char " << symbol << "[];\n"
          << "__attribute__((used, visibility(\"default\"))) const char " << symbol
          << "[] = " << CLiteral(value) << ";\n";
    };
    if (app.count("--functions")) define("plx_functions_default", o.functions);
    if (app.count("--functions-exclude"))
      define("plx_functions_exclude_default", o.functions_exclude);
    if (!out) return IoError(source + ": cannot write");
  }
  PLX_ASSIGN_OR_RETURN(
      int rc, Run({compiler, "-c", "-x", "c", "-fPIC", "-o", object, source}, o.show_commands));
  if (rc != 0) return Internal("cannot compile the defaults of --functions with " + compiler);
  return object;
}

Status RunWrap(WrapOptions& o, const CLI::App& app) {
  std::vector<std::string> command = o.args;
  if (!o.compiler.empty()) command.insert(command.begin(), o.compiler);
  if (command.empty())
    return InvalidArgument("no compiler given: parallax wrap -- COMPILER ARGS...");
  const size_t word = CompilerWord(command);
  const std::string& compiler = command[word];
  if (!KnownCompiler(BaseName(compiler)))
    return InvalidArgument("'" + compiler +
                           "' is not a compiler parallax wrap knows (gcc, clang, gfortran, cc, "
                           "c++, MPI wrappers like mpicc, ...)");
  const char* path_env = std::getenv("PATH");
  if (ProgramPath({command[0]}, path_env ? path_env : "").empty())
    return NotFound("'" + command[0] + "' not found" +
                    (command[0].find('/') == std::string::npos ? " on PATH" : ""));

  std::vector<std::string> added;
  if (!o.no_instrument) added.push_back("-finstrument-functions");
  ScratchDir scratch;
  if (Links({command.begin() + static_cast<long>(word) + 1, command.end()})) {
    PLX_ASSIGN_OR_RETURN(Library lib, FindLibrary(o, compiler));
    if (app.count("--functions") || app.count("--functions-exclude")) {
      PLX_ASSIGN_OR_RETURN(std::string object, DefaultsObject(o, compiler, app, &scratch));
      added.push_back(object);
    }
    // First, so its MPI entry points come before any MPI library's. Without
    // --as-needed from here on: the library defines the MPI functions a
    // program calls, and the linker would otherwise drop the MPI libraries
    // (and this one from programs calling none of its functions).
    added.insert(added.end(),
                 {"-L" + lib.dir, "-Wl,-rpath," + lib.dir, "-Wl,--no-as-needed", "-l" + lib.name});
  } else if (app.count("--functions") || app.count("--functions-exclude")) {
    Warn(
        "--functions and --functions-exclude are built in where the program is linked; this "
        "command does not link");
  }
  command.insert(command.begin() + static_cast<long>(word) + 1, added.begin(), added.end());
  PLX_ASSIGN_OR_RETURN(o.exit_code, Run(command, o.show_commands));
  return Status::Ok();
}

// Options and help shared by wrap and the shortcuts.
Command AddWrapLike(CLI::App& parent, const std::string& name, const Shortcut* shortcut) {
  auto o = std::make_shared<WrapOptions>();
  CLI::App* app;
  if (shortcut == nullptr) {
    app = parent.add_subcommand(
        name, "Compile and link with tracing built in: the program traces its own calls");
    app->footer(
        "Runs COMPILER ARGS... with -finstrument-functions added. When the command links\n"
        "(no -c, -S, -E, -M), it also links the tracing library 'parallax record' preloads\n"
        "(-lparallax-mpi, found the same way: $PLX_MPI_LIBDIR, else beside parallax; its\n"
        "directory goes into the program's RUNPATH), so the program writes <program>.plx\n"
        "whenever it runs: alone, under mpirun, or under 'parallax record' (once).\n"
        "--functions and --functions-exclude are built in where the program is linked;\n"
        "PLX_FUNCTIONS and PLX_FUNCTIONS_EXCLUDE override them when set. Options go\n"
        "before COMPILER (-- may separate them). Exit status: the compiler's.\n"
        "Shortcuts: parallax cc|c++|f90|mpicc|mpicxx|mpif90 [OPTIONS] ARGS... run the\n"
        "compiler cc, c++, gfortran, mpicc, mpicxx or mpif90 this way.\n"
        "\n"
        "Examples:\n"
        "  parallax wrap -- gcc -O2 -g -o app app.c      then ./app writes app.plx\n"
        "  parallax mpicc --functions 'solver_*' -o solver solver.c\n"
        "  parallax c++ --functions-exclude 'std::*' -o app main.o part.o");
  } else {
    o->compiler = shortcut->compiler;
    app = parent.add_subcommand(name, fmt::format("Compile and link with {} ({}), tracing built in",
                                                  shortcut->compiler, shortcut->what));
    app->group("Compiler shortcuts");
    app->footer(fmt::format(
        "Runs {} ARGS... with -finstrument-functions, and the tracing library when it links\n"
        "('parallax wrap --help' says more). The options go before ARGS.\n"
        "\n"
        "Example:\n"
        "  parallax {} -O2 -g -o app {}      then ./app writes app.plx",
        shortcut->compiler, name, shortcut->example));
  }
  app->add_option("--functions", o->functions,
                  "PLX_FUNCTIONS built into the program: the functions to trace (globs, e.g. "
                  "solver_*,main) unless the environment sets it")
      ->type_name("PATTERNS");
  app->add_option("--functions-exclude", o->functions_exclude,
                  "PLX_FUNCTIONS_EXCLUDE built into the program: functions not to trace")
      ->type_name("PATTERNS");
  app->add_flag("--no-instrument", o->no_instrument,
                "Only link the tracing library (MPI, threads, OpenMP): no -finstrument-functions");
  app->add_flag("--show-commands", o->show_commands, "Print each command it runs on stderr");
  app->add_option("--mpi", o->mpi,
                  "The tracing library's MPI flavour: auto (the compiler's), openmpi or mpich")
      ->check(CLI::IsMember({"auto", "openmpi", "mpich"}));
  auto* args = app->add_option(
      shortcut ? "ARGS" : "COMPILER", o->args,
      shortcut ? "The compiler's arguments" : "The compiler and its arguments, after --");
  if (!shortcut) args->required();
  return {app, [o, app] { return RunWrap(*o, *app); }, [o] { return o->exit_code; }};
}

}  // namespace

bool IsWrapCommand(std::string_view word) {
  if (word == "wrap") return true;
  for (const Shortcut& s : kShortcuts)
    if (word == s.name) return true;
  return false;
}

void SeparateCompilerArguments(std::vector<std::string>* args) {
  if (args->size() < 2 || !IsWrapCommand((*args)[1])) return;
  size_t i = 2;
  while (i < args->size()) {
    const std::string& a = (*args)[i];
    if (a == "--") return;
    bool ours = false;
    for (const OptionSpec& spec : kOptions) {
      const std::string_view name = spec.name;
      if (a == name) {
        ours = true;
        i += spec.takes_value ? 2 : 1;
      } else if (spec.takes_value && a.size() > name.size() && a.starts_with(name) &&
                 a[name.size()] == '=') {
        ours = true;
        ++i;
      }
      if (ours) break;
    }
    if (!ours) break;
  }
  if (i <= args->size()) args->insert(args->begin() + static_cast<long>(i), "--");
}

std::vector<Command> AddWrapCommands(CLI::App& parent, const GlobalOptions&) {
  std::vector<Command> out = {AddWrapLike(parent, "wrap", nullptr)};
  for (const Shortcut& s : kShortcuts)
    out.push_back(AddWrapLike(parent, s.name, &s));
  return out;
}

}  // namespace plx::cli
