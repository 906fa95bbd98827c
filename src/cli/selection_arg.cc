#include "cli/selection_arg.h"

#include <charconv>

#include "base/saturating.h"
#include "base/strings.h"
#include "cli/time_arg.h"

namespace plx::cli {

bool ParseNumberList(std::string_view text, std::vector<uint32_t>* out) {
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const size_t dash = item.find('-');
    uint32_t first = 0, last = 0;
    auto number = [](std::string_view s, uint32_t* v) {
      const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), *v);
      return !s.empty() && error == std::errc() && end == s.data() + s.size();
    };
    if (dash == std::string_view::npos) {
      if (!number(item, &first)) return false;
      last = first;
    } else if (!number(item.substr(0, dash), &first) || !number(item.substr(dash + 1), &last) ||
               last < first || last - first > (1u << 24)) {
      return false;
    }
    for (uint64_t p = first; p <= last; ++p)
      out->push_back(static_cast<uint32_t>(p));
  }
  return !out->empty();
}

StatusOr<analysis::StatsSelection> ParseSelection(const model::Trace& trace,
                                                  const SelectionArgs& args,
                                                  std::string_view command) {
  const std::string name(command);
  analysis::StatsSelection s;
  int64_t from = 0, to = 0;
  if (!args.from.empty()) {
    if (!ParseDuration(args.from, &from))
      return InvalidArgument(name + ": --from " + DurationProblem(args.from));
    s.from = SaturatingAdd(trace.begin_ns, from);
  }
  if (!args.to.empty()) {
    if (!ParseDuration(args.to, &to))
      return InvalidArgument(name + ": --to " + DurationProblem(args.to));
    s.to = SaturatingAdd(trace.begin_ns, to);
  }
  if (!args.from.empty() && !args.to.empty() && to < from)
    return InvalidArgument(StrFormat("%s: --to %s is before --from %s", name.c_str(),
                                     args.to.c_str(), args.from.c_str()));
  const auto list = [&](const std::string& text, const char* option, size_t size,
                        const char* what) -> StatusOr<std::vector<uint32_t>> {
    std::vector<uint32_t> numbers;
    if (!ParseNumberList(text, &numbers))
      return InvalidArgument(StrFormat("%s: %s '%s': want numbers and ranges, e.g. 0,2,5-7",
                                       name.c_str(), option, text.c_str()));
    for (uint32_t n : numbers)
      if (n >= size)
        return InvalidArgument(
            StrFormat("%s: %s: no %s %u (the trace has %zu)", name.c_str(), option, what, n, size));
    return numbers;
  };
  if (!args.processes.empty() || !args.rows.empty()) {
    s.threads.assign(trace.threads.size(), 0);
    std::vector<uint8_t> process(trace.processes.size(), args.processes.empty() ? 1 : 0);
    if (!args.processes.empty()) {
      PLX_ASSIGN_OR_RETURN(std::vector<uint32_t> ps,
                           list(args.processes, "--processes", trace.processes.size(), "process"));
      for (uint32_t p : ps)
        process[p] = 1;
    }
    std::vector<uint8_t> thread(trace.threads.size(), args.rows.empty() ? 1 : 0);
    if (!args.rows.empty()) {
      PLX_ASSIGN_OR_RETURN(std::vector<uint32_t> ts,
                           list(args.rows, "--rows", trace.threads.size(), "thread"));
      for (uint32_t t : ts)
        thread[t] = 1;
    }
    for (uint32_t t = 0; t < trace.threads.size(); ++t) {
      const uint32_t p = trace.threads[t].process;
      s.threads[t] = thread[t] && p < process.size() && process[p] ? 1 : 0;
    }
  }
  return s;
}

}  // namespace plx::cli
