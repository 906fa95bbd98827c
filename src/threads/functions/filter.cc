// FunctionFilter: parsing of the two pattern lists and matching with fnmatch(3).
#include "threads/functions/filter.h"

#include <fnmatch.h>

#include "base/strings.h"

namespace plx::functions {

FunctionFilter::FunctionFilter(std::string_view include, std::string_view exclude) {
  const std::string_view all = TrimBlanks(include);
  if (all == "0" || all == "none" || all == "off") {
    off_ = true;
    return;
  }
  if (all != "1" && all != "all" && all != "on") include_ = Split(all);
  exclude_ = Split(exclude);
}

std::vector<std::string> FunctionFilter::Split(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view token = TrimBlanks(list.substr(0, comma));
    if (!token.empty()) out.emplace_back(token);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return out;
}

bool FunctionFilter::AnyMatches(const std::vector<std::string>& patterns, const std::string& name,
                                const std::string& symbol) {
  for (const std::string& p : patterns) {
    if (::fnmatch(p.c_str(), name.c_str(), 0) == 0) return true;
    if (!symbol.empty() && ::fnmatch(p.c_str(), symbol.c_str(), 0) == 0) return true;
  }
  return false;
}

bool FunctionFilter::Selects(std::string_view name, std::string_view symbol) const {
  if (off_) return false;
  const std::string n(name), s(symbol == name ? std::string_view() : symbol);
  if (!include_.empty() && !AnyMatches(include_, n, s)) return false;
  return !AnyMatches(exclude_, n, s);
}

}  // namespace plx::functions
