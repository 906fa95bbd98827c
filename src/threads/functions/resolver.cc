// Resolver: one lock for everything slow. libdw and the runtime are not
// instrumented and the hooks' thread-local guard is held, so nothing here
// comes back into the hooks.
#include "threads/functions/resolver.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "capture/owner_lock.h"
#include "capture/runtime.h"
#include "parallax/parallax.h"
#include "threads/functions/call_stack.h"
#include "threads/functions/filter.h"
#include "threads/functions/symbolizer.h"
#include "threads/process_kind.h"

// The defaults `parallax wrap --functions / --functions-exclude` builds into
// a program (src/cli/wrap_cmd.cc): weak, so null in programs built without
// them. Referencing them here also makes the linker export the program's
// definitions, which this library could not see otherwise.
extern "C" {
extern const char plx_functions_default[] __attribute__((weak));
extern const char plx_functions_exclude_default[] __attribute__((weak));
}

namespace plx::functions {

namespace cap = plx::capture;

std::atomic<int> g_mode{kUnset};
constinit FunctionTable g_table;

namespace {

constexpr const char* kCategory = "functions";

struct Resolver {
  Resolver(std::string_view include, std::string_view exclude) : filter(include, exclude) {}
  FunctionFilter filter;
  Symbolizer symbolizer;
  bool warned_full = false;
};

cap::OwnerLock g_lock;
Resolver* g_resolver = nullptr;  // never destroyed: hooks may run during exit

// An MPI process (started by a launcher, or a program linked with MPI run
// alone): the MPI layer chooses the trace file at MPI_Init, so the hooks must
// not start the runtime before (as the pthread wrappers, process_kind.h).
bool MpiProcess() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"})
    if (std::getenv(v) != nullptr) return true;
  return threads::DecideMode() == threads::Mode::kMpi;
}

// The setting of `variable`: the environment's when it is set (even empty),
// else the program's built-in default when it has one, else `configured`.
PLX_NO_INSTRUMENT std::string Setting(const char* variable, const char* built_in,
                                      const std::string& configured) {
  if (std::getenv(variable) == nullptr && built_in != nullptr) return built_in;
  return configured;
}

PLX_NO_INSTRUMENT int DecideLocked() {
  cap::Runtime& rt = cap::Runtime::Get();
  if (!rt.running() && MpiProcess()) return kWaiting;
  if (!rt.EnsureInit()) return kOff;
  const cap::Config& config = rt.config();
  const std::string include = Setting("PLX_FUNCTIONS", plx_functions_default, config.functions);
  const std::string exclude =
      Setting("PLX_FUNCTIONS_EXCLUDE", plx_functions_exclude_default, config.functions_exclude);
  auto* r = new Resolver(include, exclude);
  if (r->filter.off()) {
    delete r;
    return kOff;
  }
  g_resolver = r;
  if (!include.empty()) rt.registry().Attribute("PLX_FUNCTIONS", include);
  if (!exclude.empty()) rt.registry().Attribute("PLX_FUNCTIONS_EXCLUDE", exclude);
  return kOn;
}

}  // namespace

PLX_NO_INSTRUMENT bool Setup() {
  cap::OwnerLockGuard guard(g_lock);
  int mode = g_mode.load(std::memory_order_relaxed);
  if (mode == kUnset || mode == kWaiting) {
    try {
      mode = DecideLocked();
    } catch (...) {  // bad_alloc: no function tracing
      mode = kOff;
    }
    g_mode.store(mode, std::memory_order_release);
  }
  return mode == kOn;
}

PLX_NO_INSTRUMENT const FunctionEntry* ResolveFirstCall(uintptr_t address) {
  cap::OwnerLockGuard guard(g_lock);
  if (const FunctionEntry* e = g_table.Find(address)) return e;  // another thread was first
  cap::Runtime& rt = cap::Runtime::Get();
  if (g_resolver == nullptr || !rt.running()) return nullptr;
  if (g_table.size() == FunctionTable::kMaxFunctions) {
    if (!g_resolver->warned_full)
      std::fprintf(stderr, "parallax: more than %zu functions called; the others are not traced\n",
                   FunctionTable::kMaxFunctions);
    g_resolver->warned_full = true;
    return nullptr;
  }
  uint32_t handle = 0, callsite = 0;
  try {
    const FunctionInfo f = g_resolver->symbolizer.Resolve(address);
    if (g_resolver->filter.Selects(f.name, f.symbol)) {
      if (f.file.empty()) {
        handle = rt.registry().State(f.name, PLX_COLOR_AUTO, kCategory);
      } else {
        plx_srcloc loc = {f.name.c_str(),
                          f.name.c_str(),
                          f.file.c_str(),
                          f.line,
                          PLX_COLOR_AUTO,
                          kCategory,
                          0,
                          0};
        handle = rt.registry().Srcloc(&loc, false, 0);
        callsite = loc.callsite;
      }
      rt.RefreshMask();
    }
  } catch (...) {  // bad_alloc: try again on the next call
    return nullptr;
  }
  return g_table.Insert(address, handle, callsite);
}

}  // namespace plx::functions
