// How `parallax record` sets up a traced run: recognising an MPI launcher and
// its flavour, naming the output after the program, finding the MPI tracing
// library, and the environment that turns tracing on in every process.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace plx::cli {

enum class MpiFlavor { kOpenMpi, kMpich };

/// "Open MPI", "MPICH".
const char* MpiFlavorName(MpiFlavor flavor);
/// The preload library for the flavour: libparallax-mpi.so, libparallax-mpich.so.
const char* MpiLibraryName(MpiFlavor flavor);

/// What starts a job's processes, as `parallax record` sees its command's
/// first word (any directory, any ".suffix": mpiexec.hydra, mpirun.openmpi).
enum class Launcher {
  kNone,     // not a launcher: the command is the program
  kMpirun,   // mpirun, mpiexec, orterun: asked for their flavour
  kSrun,     // Slurm's srun: the flavour is the program's
  kForeign,  // aprun, jsrun, ibrun, prun, ...: launchers parallax knows only by name
};
Launcher LauncherOf(std::string_view word);
/// Any launcher but kNone.
bool IsMpiLauncher(std::string_view word);

/// The flavour of the MPI library a program is linked with, from `ldd`'s
/// lines: libmpich (or MPICH's libmpi.so.12) is MPICH, another libmpi.so
/// Open MPI.
std::optional<MpiFlavor> FlavorFromLibraries(std::string_view ldd_output);

/// The flavour a launcher's `--version` output names: "Open MPI" or "OpenRTE"
/// is Open MPI; "HYDRA", "MPICH" or "Intel(R) MPI" is MPICH.
std::optional<MpiFlavor> FlavorFromVersion(std::string_view text);

/// The name of the traced program, for the default output "<name>.plx". For a
/// plain command it is the first word's file name; after a launcher it is the
/// first later word that does not start with '-' and names an executable file
/// (a path with a '/', or a program on `path_env`), so the values of launcher
/// options are passed over ("mpirun -np 4 ./app" gives "app"). "trace" when
/// there is none.
std::string ProgramName(const std::vector<std::string>& command, std::string_view path_env);
/// That program's path as the command names it (a word with a '/', or the
/// first match on `path_env`); "" when there is none.
std::string ProgramPath(const std::vector<std::string>& command, std::string_view path_env);

/// The library's absolute path: in `libdir` ($PLX_MPI_LIBDIR) when that is not
/// empty, else in ../mpi (build tree) or ../lib (installed; also the
/// configured library folder when the prefix has another) beside the
/// directory of `self_exe`, the running parallax.
StatusOr<std::string> FindMpiLibrary(MpiFlavor flavor, const std::string& libdir,
                                     const std::string& self_exe);

struct TracingSetup {
  std::string output;   // absolute path of the trace
  std::string level;    // PLX_LEVEL, unset when empty
  std::string library;  // absolute path of the preload library
  MpiFlavor flavor = MpiFlavor::kOpenMpi;
  std::string counters;      // PLX_COUNTERS, unset when empty
  std::string sample_ms;     // PLX_SAMPLE_MS, unset when empty
  std::string counter_mode;  // PLX_COUNTER_MODE, unset when empty
  bool sched = false;        // PLX_SCHED=1 when set
  int parts_parent = 0;      // PLX_PARTS when > 0: the pid whose children write the trace itself
  bool merge = true;         // PLX_MERGE=0 when false: MPI ranks leave their parts
};

/// The variables to set, given the current environment `env`: PLX_TRACE,
/// PLX_OUTPUT ('%' doubled, as the runtime expands patterns), PLX_LEVEL and
/// the counter settings when given, PLX_PARTS (processes other than the
/// command's own then write parts in <output>.parts/), PLX_MERGE=0 when
/// the parts are to stay unmerged,
/// LD_PRELOAD with the library in front, and for Open MPI
/// OMPI_MCA_mca_base_env_list extended so mpirun forwards LD_PRELOAD and every
/// PLX_* variable to remote nodes.
std::map<std::string, std::string> TracingVariables(const TracingSetup& setup,
                                                    const std::map<std::string, std::string>& env);

}  // namespace plx::cli
