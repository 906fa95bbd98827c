// DecideMode and FindOwnCode: the loader's view of this process (the program
// headers and dynamic section of loaded objects, via dl_iterate_phdr).
#include "threads/process_kind.h"

#include <link.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "capture/runtime.h"

namespace plx::threads {

namespace {

// Launchers and daemons of Open MPI, MPICH (Hydra) and PRRTE: multithreaded
// but not the program, and their trace would land on the program's path.
bool IsLauncher() {
  char exe[4096] = {0};
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return false;
  const char* slash = std::strrchr(exe, '/');
  const std::string_view name = slash ? slash + 1 : exe;
  for (std::string_view l :
       {"mpirun", "mpiexec", "orterun", "orted", "hydra_pmi_proxy", "prterun", "prted", "prte"})
    if (name == l || (name.starts_with(l) && name[l.size()] == '.')) return true;
  return false;
}

// Set by the launchers for each rank (Open MPI, PMIx, MPICH/Hydra).
bool LaunchedAsRank() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

// Whether the main program (the first object dl_iterate_phdr reports) names
// an MPI library in its DT_NEEDED entries: a singleton MPI run.
int NeedsMpi(struct dl_phdr_info* info, size_t, void* data) {
  const ElfW(Dyn)* dyn = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (dyn != nullptr) {
    uintptr_t strtab = 0;
    for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d)
      if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
    // The loader relocates d_ptr in place on most targets; not where the dynamic section is
    // read-only.
    if (strtab != 0 && strtab < info->dlpi_addr) strtab += info->dlpi_addr;
    for (const ElfW(Dyn)* d = dyn; strtab != 0 && d->d_tag != DT_NULL; ++d) {
      if (d->d_tag != DT_NEEDED) continue;
      const std::string_view lib(reinterpret_cast<const char*>(strtab + d->d_un.d_val));
      if (lib.starts_with("libmpi.") || lib.starts_with("libmpich.") || lib.starts_with("libmpi_"))
        *static_cast<bool*>(data) = true;
    }
  }
  return 1;  // the main program only
}

struct OwnCode {
  uintptr_t probe, begin, end;
};

int FindCode(struct dl_phdr_info* info, size_t, void* data) {
  auto* own = static_cast<OwnCode*>(data);
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    const uintptr_t b = info->dlpi_addr + ph.p_vaddr, e = b + ph.p_memsz;
    if (own->probe >= b && own->probe < e) mine = true;
    if (b < lo) lo = b;
    if (e > hi) hi = e;
  }
  if (!mine) return 0;
  own->begin = lo;
  own->end = hi;
  return 1;
}

}  // namespace

void FindOwnCode(uintptr_t* begin, uintptr_t* end) {
  OwnCode own{reinterpret_cast<uintptr_t>(&FindOwnCode), 0, 0};
  ::dl_iterate_phdr(FindCode, &own);
  *begin = own.begin;
  *end = own.end;
}

Mode DecideMode() {
  capture::Runtime& rt = capture::Runtime::Get();
  if (!rt.ChooseClock() || !rt.config().threads || IsLauncher()) return Mode::kOff;
  bool mpi = LaunchedAsRank();
  if (!mpi) ::dl_iterate_phdr(NeedsMpi, &mpi);
  return mpi ? Mode::kMpi : Mode::kAuto;
}

}  // namespace plx::threads
