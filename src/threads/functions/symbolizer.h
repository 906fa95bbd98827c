// Function addresses to names and source positions with elfutils' libdw:
// the symbol tables of the modules loaded in this process (demangled with
// abi::__cxa_demangle) and, where there is debug info, the declaring file:line.
#pragma once

#include <cstdint>
#include <string>

typedef struct Dwfl Dwfl;

namespace plx::functions {

struct FunctionInfo {
  std::string name;    // demangled; "module+0xoffset" when no symbol covers the address
  std::string symbol;  // as in the symbol table ("" when none)
  std::string file;    // "" without debug info
  uint32_t line = 0;
};

/// Not thread-safe: callers serialise (libdw's Dwfl is not thread-safe).
class Symbolizer {
 public:
  Symbolizer() = default;
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  /// Describes the function at `address`; reads /proc/self/maps again when
  /// the address is in no module known yet (a library loaded since).
  FunctionInfo Resolve(uintptr_t address);

 private:
  /// (Re)reads the process's modules; false when libdw cannot.
  bool Report();

  Dwfl* dwfl_ = nullptr;
};

/// The demangled form of a C++ symbol name, or the name itself.
std::string Demangle(const char* symbol);

}  // namespace plx::functions
