#include "cli/selection_arg.h"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <limits>
#include <utility>

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

StatusOr<std::optional<analysis::Selection>> ParseSelection(const model::Trace& trace,
                                                            const SelectionArgs& args,
                                                            std::string_view command) {
  if (!args.any()) return std::optional<analysis::Selection>();
  const std::string name(command);
  analysis::Selection s;
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
  return std::optional<analysis::Selection>(std::move(s));
}

namespace {

// The selection's window since the trace begin, and how many threads it keeps.
struct SelectionSpan {
  int64_t from_ns, to_ns;
  size_t threads;
};

SelectionSpan SpanOf(const model::Trace& t, const analysis::Selection& s) {
  const int64_t end = t.end_ns - t.begin_ns;
  const auto since = [&](int64_t ns) { return std::clamp(ns - t.begin_ns, int64_t{0}, end); };
  size_t threads = 0;
  for (uint32_t i = 0; i < t.threads.size(); ++i)
    threads += s.Has(i) ? 1 : 0;
  // The ends not given are the trace's (from and to are then the extremes).
  return {s.from == std::numeric_limits<int64_t>::min() ? 0 : since(s.from),
          s.to == std::numeric_limits<int64_t>::max() ? end : since(s.to), threads};
}

}  // namespace

std::string SelectionText(const model::Trace& t, const analysis::Selection& s) {
  const SelectionSpan span = SpanOf(t, s);
  return fmt::format("selection: {} to {} after the trace begin; {} of {} threads",
                     FormatDuration(span.from_ns), FormatDuration(span.to_ns), span.threads,
                     t.threads.size());
}

nlohmann::ordered_json SelectionJson(const model::Trace& t, const analysis::Selection& s) {
  const SelectionSpan span = SpanOf(t, s);
  return {{"from_ns", span.from_ns}, {"to_ns", span.to_ns}, {"threads", span.threads}};
}

void AddSelectionOptions(CLI::App* app, SelectionArgs* args) {
  app->add_option("--from", args->from, "Only from this long after the trace begin (ns/us/ms/s)")
      ->check(DurationProblem);
  app->add_option("--to", args->to, "Only up to this time after the trace begin (inclusive)")
      ->check(DurationProblem);
  app->add_option("--processes", args->processes,
                  "Only these processes, by number as in `info` (e.g. 0,2,5-7)");
  app->add_option("--rows", args->rows,
                  "Only these threads, by row (the viewer's rows, as stats --by thread lists "
                  "them; e.g. 0,3-5)");
}

}  // namespace plx::cli
