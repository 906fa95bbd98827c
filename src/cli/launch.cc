// Launcher and flavour recognition, program naming, library lookup and the
// tracing environment for `parallax record`.
#include "cli/launch.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <set>

#include "base/strings.h"

// The library folder from the program's folder, as installed (set by the
// build from the install layout; see cmake/install.cmake).
#ifndef PLX_LIB_FROM_BIN
#define PLX_LIB_FROM_BIN "../lib"
#endif

namespace plx::cli {

namespace {

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string DirName(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The executable `word` names, on `path_env` when it has no '/'; "" when none.
std::string FindProgram(const std::string& word, std::string_view path_env) {
  if (word.find('/') != std::string::npos) return IsExecutableFile(word) ? word : "";
  std::string_view rest = path_env;
  while (!rest.empty()) {
    std::string dir(NextToken(&rest, ':'));
    if (dir.empty()) dir = ".";
    if (IsExecutableFile(dir + "/" + word)) return dir + "/" + word;
  }
  return "";
}

// The index of the program's word in `command` (past a launcher's options).
size_t ProgramWord(const std::vector<std::string>& command, std::string_view path_env) {
  if (command.empty()) return 0;
  if (!IsMpiLauncher(command[0])) return 0;
  for (size_t i = 1; i < command.size(); ++i) {
    const std::string& w = command[i];
    if (!w.empty() && w[0] != '-' && !FindProgram(w, path_env).empty()) return i;
  }
  return command.size();
}

}  // namespace

const char* MpiFlavorName(MpiFlavor flavor) {
  return flavor == MpiFlavor::kOpenMpi ? "Open MPI" : "MPICH";
}

const char* MpiLibraryName(MpiFlavor flavor) {
  return flavor == MpiFlavor::kOpenMpi ? "libparallax-mpi.so" : "libparallax-mpich.so";
}

Launcher LauncherOf(std::string_view word) {
  std::string_view name = BaseName(word);
  if (const size_t dot = name.find('.'); dot != std::string_view::npos) {
    if (dot + 1 == name.size()) return Launcher::kNone;
    name = name.substr(0, dot);
  }
  if (name == "mpirun" || name == "mpiexec" || name == "orterun") return Launcher::kMpirun;
  if (name == "srun") return Launcher::kSrun;
  for (std::string_view other : {"aprun", "jsrun", "ibrun", "prun", "mpiexec_mpt", "poe"})
    if (name == other) return Launcher::kForeign;
  return Launcher::kNone;
}

bool IsMpiLauncher(std::string_view word) {
  return LauncherOf(word) != Launcher::kNone;
}

std::optional<MpiFlavor> FlavorFromLibraries(std::string_view ldd_output) {
  auto has = [&](std::string_view s) { return ldd_output.find(s) != std::string_view::npos; };
  if (has("libmpich") || has("libmpi.so.12")) return MpiFlavor::kMpich;
  if (has("libmpi.so") || has("libmpi_mpifh.so")) return MpiFlavor::kOpenMpi;
  return std::nullopt;
}

std::optional<MpiFlavor> FlavorFromVersion(std::string_view text) {
  auto has = [&](std::string_view s) { return text.find(s) != std::string_view::npos; };
  if (has("Open MPI") || has("OpenRTE")) return MpiFlavor::kOpenMpi;
  if (has("HYDRA") || has("MPICH") || has("Intel(R) MPI")) return MpiFlavor::kMpich;
  return std::nullopt;
}

std::string ProgramName(const std::vector<std::string>& command, std::string_view path_env) {
  const size_t i = ProgramWord(command, path_env);
  const std::string_view name = i < command.size() ? BaseName(command[i]) : std::string_view();
  return name.empty() || name == "." || name == ".." ? "trace" : std::string(name);
}

std::string ProgramPath(const std::vector<std::string>& command, std::string_view path_env) {
  const size_t i = ProgramWord(command, path_env);
  return i < command.size() ? FindProgram(command[i], path_env) : "";
}

StatusOr<std::string> FindMpiLibrary(MpiFlavor flavor, const std::string& libdir,
                                     const std::string& self_exe) {
  const std::string lib = MpiLibraryName(flavor);
  std::vector<std::string> dirs;
  if (!libdir.empty()) {
    dirs.push_back(libdir);
  } else {
    const std::string bin = DirName(self_exe);
    dirs.push_back(bin + "/../mpi");
    dirs.push_back(bin + "/../lib");
    const std::string installed = bin + "/" PLX_LIB_FROM_BIN;
    if (installed != dirs.back()) dirs.push_back(installed);
  }
  for (const std::string& dir : dirs) {
    const std::string path = dir + "/" + lib;
    if (!IsRegularFile(path)) continue;
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr) return ErrnoError(path, errno);
    return std::string(resolved);
  }
  std::string where = dirs[0];
  for (size_t i = 1; i < dirs.size(); ++i)
    where += (i + 1 == dirs.size() ? " or " : ", ") + dirs[i];
  return NotFound(
      StrFormat("%s (the %s tracing library) is not in %s; build it, or set "
                "PLX_MPI_LIBDIR to its directory",
                lib.c_str(), MpiFlavorName(flavor), where.c_str()));
}

std::map<std::string, std::string> TracingVariables(const TracingSetup& setup,
                                                    const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> vars;
  vars["PLX_TRACE"] = "1";
  std::string output;
  for (char c : setup.output) {
    output += c;
    if (c == '%') output += '%';
  }
  vars["PLX_OUTPUT"] = output;
  if (!setup.level.empty()) vars["PLX_LEVEL"] = setup.level;
  if (!setup.counters.empty()) vars["PLX_COUNTERS"] = setup.counters;
  if (!setup.sample_ms.empty()) vars["PLX_SAMPLE_MS"] = setup.sample_ms;
  if (!setup.counter_mode.empty()) vars["PLX_COUNTER_MODE"] = setup.counter_mode;
  if (setup.sched) vars["PLX_SCHED"] = "1";
  if (setup.parts_parent > 0) vars["PLX_PARTS"] = std::to_string(setup.parts_parent);
  if (!setup.merge) vars["PLX_MERGE"] = "0";
  std::string preload = setup.library;
  if (auto it = env.find("LD_PRELOAD"); it != env.end() && !it->second.empty())
    preload += ":" + it->second;
  vars["LD_PRELOAD"] = preload;

  if (setup.flavor == MpiFlavor::kOpenMpi) {
    // Open MPI 4.1: a ';'-separated list of names (forward the value mpirun
    // has) or NAME=value; mpirun sets them for the processes on every node.
    constexpr const char* kList = "OMPI_MCA_mca_base_env_list";
    std::string list;
    std::set<std::string> listed;
    if (auto it = env.find(kList); it != env.end()) {
      list = it->second;
      std::string_view rest = list;
      while (!rest.empty()) {
        const std::string_view entry = NextToken(&rest, ';');
        listed.emplace(entry.substr(0, entry.find('=')));
      }
    }
    std::set<std::string> names = {"LD_PRELOAD"};
    for (const auto& [name, value] : env)
      if (name.rfind("PLX_", 0) == 0) names.insert(name);
    for (const auto& [name, value] : vars)
      if (name.rfind("PLX_", 0) == 0) names.insert(name);
    for (const std::string& name : names) {
      if (listed.count(name)) continue;
      if (!list.empty() && list.back() != ';') list += ';';
      list += name;
    }
    vars[kList] = list;
  }
  return vars;
}

}  // namespace plx::cli
