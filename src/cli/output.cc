// Output helpers: warnings, colours, shares, JSON string literals.
#include "cli/output.h"

#include <fmt/core.h>

#include <atomic>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace plx::cli {

namespace {
std::atomic<bool> drop_warnings{false};
std::atomic<const char*> program_name{"parallax"};
}  // namespace

void Warn(std::string_view line) {
  if (drop_warnings.load(std::memory_order_relaxed)) return;
  fmt::print(stderr, "{}: warning: {}\n", program_name.load(std::memory_order_relaxed), line);
}

void SetWarningProgram(const char* name) {
  program_name.store(name, std::memory_order_relaxed);
}

void DropWarnings() {
  drop_warnings.store(true, std::memory_order_relaxed);
}

std::string FormatColor(uint32_t color) {
  if (color == 0) return "auto";
  return fmt::format("#{:06x}", color & 0xffffff);
}

std::string FormatShare(double share) {
  return fmt::format("{:.1f}%", share * 100.0);
}

std::string JsonString(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace plx::cli
