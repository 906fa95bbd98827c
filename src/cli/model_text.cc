// CallsiteText / ProcessText for the commands' tables.
#include "cli/model_text.h"

#include <fmt/core.h>

namespace plx::cli {

std::string CallsiteText(const model::Trace& t, uint32_t callsite, std::string_view unknown) {
  if (callsite >= t.callsites.size()) return std::string(unknown);
  const model::Callsite& c = t.callsites[callsite];
  std::string s = fmt::format("{}:{}", c.file, c.line);
  if (!c.function.empty()) s += " (" + c.function + ")";
  return s;
}

std::string ProcessText(const model::Process& p) {
  return p.rank >= 0 ? fmt::format("rank {}", p.rank) : fmt::format("process {}", p.file_id);
}

std::string RankList(const std::vector<int64_t>& ranks, std::string_view separator) {
  std::string s;
  for (int64_t r : ranks) {
    if (!s.empty()) s += separator;
    s += std::to_string(r);
  }
  return s;
}

std::string ThreadText(const model::Trace& t, uint32_t thread) {
  const model::Thread& th = t.threads[thread];
  std::string s = fmt::format("thread {}", th.file_stream);
  if (!th.name.empty()) s += " (" + th.name + ")";
  if (t.processes.size() > 1) s = ProcessText(t.processes[th.process]) + " " + s;
  return s;
}

}  // namespace plx::cli
