// Symbolizer: libdw's Dwfl over this process (dwfl_linux_proc_report), symbol
// names from dwfl_module_addrinfo, declarations from the DWARF scopes.
#include "threads/functions/symbolizer.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace plx::functions {

namespace {

char* g_debuginfo_path = nullptr;  // libdw's default search path
const Dwfl_Callbacks kCallbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr,
                                   &g_debuginfo_path};

// The compilation unit holding `address`. Without .debug_aranges (clang emits
// none by default) libdw cannot look it up: then each unit's ranges are tried.
Dwarf_Die* FindUnit(Dwfl_Module* module, uintptr_t address, Dwarf_Addr* bias) {
  if (Dwarf_Die* cu = dwfl_module_addrdie(module, address, bias)) return cu;
  Dwarf_Die* cu = nullptr;
  while ((cu = dwfl_module_nextcu(module, cu, bias)) != nullptr)
    if (dwarf_haspc(cu, address - *bias) == 1) return cu;
  return nullptr;
}

// DW_AT_decl_file of `die`. DWARF 5 numbers files from 0, which
// dwarf_decl_file (elfutils 0.188) takes for "no file": look that one up here.
const char* DeclFile(Dwarf_Die* cu, Dwarf_Die* die) {
  if (const char* file = dwarf_decl_file(die)) return file;
  Dwarf_Attribute attr;
  Dwarf_Word index = 0;
  Dwarf_Half version = 0;
  Dwarf_Die unit;
  if (dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_file, &attr), &index) != 0 ||
      index != 0 ||
      dwarf_cu_die(cu->cu, &unit, &version, nullptr, nullptr, nullptr, nullptr, nullptr) ==
          nullptr ||
      version < 5)
    return nullptr;
  Dwarf_Files* files = nullptr;
  size_t count = 0;
  if (dwarf_getsrcfiles(cu, &files, &count) != 0 || count == 0) return nullptr;
  return dwarf_filesrc(files, 0, nullptr, nullptr);
}

// The declaration of the function whose code starts at `address`, from the
// subprogram among the DWARF scopes there (else the line table's entry).
void FindDeclaration(Dwfl_Module* module, uintptr_t address, FunctionInfo* info) {
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = FindUnit(module, address, &bias);
  if (cu == nullptr) return;
  Dwarf_Die* scopes = nullptr;
  const int n = dwarf_getscopes(cu, address - bias, &scopes);
  for (int i = 0; i < n; ++i) {
    if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram) continue;
    int line = 0;
    const char* file = DeclFile(cu, &scopes[i]);
    if (file != nullptr && dwarf_decl_line(&scopes[i], &line) == 0 && line > 0) {
      info->file = file;
      info->line = static_cast<uint32_t>(line);
    }
    break;
  }
  std::free(scopes);
  if (info->file.empty()) {
    Dwarf_Line* l = dwarf_getsrc_die(cu, address - bias);
    int line = 0;
    const char* file =
        l != nullptr && dwarf_lineno(l, &line) == 0 ? dwarf_linesrc(l, nullptr, nullptr) : nullptr;
    if (file == nullptr || line <= 0) return;
    info->file = file;
    info->line = static_cast<uint32_t>(line);
  }
  if (info->file[0] != '/') {  // relative to the compilation directory
    Dwarf_Attribute attr;
    const char* dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
    if (dir != nullptr && *dir != 0) info->file = std::string(dir) + "/" + info->file;
  }
}

}  // namespace

std::string Demangle(const char* symbol) {
  if (symbol == nullptr) return "";
  if (std::strncmp(symbol, "_Z", 2) != 0) return symbol;
  int status = 0;
  char* out = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  if (out == nullptr || status != 0) {
    std::free(out);
    return symbol;
  }
  std::string name(out);
  std::free(out);
  return name;
}

Symbolizer::~Symbolizer() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

bool Symbolizer::Report() {
  if (dwfl_ == nullptr && (dwfl_ = dwfl_begin(&kCallbacks)) == nullptr) return false;
  dwfl_report_begin(dwfl_);
  const int r = dwfl_linux_proc_report(dwfl_, ::getpid());
  return dwfl_report_end(dwfl_, nullptr, nullptr) == 0 && r == 0;
}

FunctionInfo Symbolizer::Resolve(uintptr_t address) {
  FunctionInfo info;
  Dwfl_Module* module = nullptr;
  if (dwfl_ != nullptr) module = dwfl_addrmodule(dwfl_, address);
  if (module == nullptr && Report()) module = dwfl_addrmodule(dwfl_, address);
  char hex[32];
  if (module == nullptr) {
    std::snprintf(hex, sizeof hex, "0x%" PRIxPTR, address);
    info.name = hex;
    return info;
  }
  GElf_Off offset = 0;
  GElf_Sym sym;
  const char* symbol =
      dwfl_module_addrinfo(module, address, &offset, &sym, nullptr, nullptr, nullptr);
  if (symbol != nullptr && *symbol != 0) {
    info.symbol = symbol;
    info.name = Demangle(symbol);
    if (offset != 0) {  // inside a symbol, not at its start: say where
      std::snprintf(hex, sizeof hex, "+0x%" PRIx64, static_cast<uint64_t>(offset));
      info.name += hex;
    }
  } else {
    Dwarf_Addr start = 0;
    const char* path =
        dwfl_module_info(module, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    const char* slash = path ? std::strrchr(path, '/') : nullptr;
    std::snprintf(hex, sizeof hex, "+0x%" PRIx64, static_cast<uint64_t>(address - start));
    info.name = std::string(slash ? slash + 1 : (path ? path : "?")) + hex;
  }
  FindDeclaration(module, address, &info);
  return info;
}

}  // namespace plx::functions
