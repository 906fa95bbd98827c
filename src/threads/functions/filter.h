// Which functions function tracing records: PLX_FUNCTIONS (include) and
// PLX_FUNCTIONS_EXCLUDE, comma lists of fnmatch(3) globs matched against a
// function's demangled name and its symbol name (docs/functions.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace plx::functions {

class FunctionFilter {
 public:
  /// Parses the settings: include "" (or "all", "1", "on") selects every
  /// function, "0", "none" or "off" switches function tracing off; otherwise
  /// a function is traced when a pattern of `include` matches it and none of
  /// `exclude` does. Patterns are trimmed; empty ones are ignored.
  FunctionFilter(std::string_view include, std::string_view exclude);

  /// True when PLX_FUNCTIONS switches function tracing off.
  bool off() const { return off_; }
  /// Whether the function named `name` (demangled) with symbol `symbol` is traced.
  bool Selects(std::string_view name, std::string_view symbol) const;

 private:
  static std::vector<std::string> Split(std::string_view list);
  static bool AnyMatches(const std::vector<std::string>& patterns, const std::string& name,
                         const std::string& symbol);

  bool off_ = false;
  std::vector<std::string> include_;  // empty: every function
  std::vector<std::string> exclude_;
};

}  // namespace plx::functions
