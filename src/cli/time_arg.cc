// ParseDuration: number + unit, checked strictly.
#include "cli/time_arg.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace plx::cli {

bool ParseDuration(std::string_view text, int64_t* ns) {
  size_t unit_at = text.size();
  while (unit_at > 0 && std::isalpha(static_cast<unsigned char>(text[unit_at - 1])))
    --unit_at;
  const std::string_view number = text.substr(0, unit_at);
  const std::string_view unit = text.substr(unit_at);
  double scale;
  if (unit.empty() || unit == "ns") {
    scale = 1;
  } else if (unit == "us") {
    scale = 1e3;
  } else if (unit == "ms") {
    scale = 1e6;
  } else if (unit == "s") {
    scale = 1e9;
  } else {
    return false;
  }
  if (number.empty()) return false;
  double v = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || end != number.data() + number.size()) return false;
  const double result = std::round(v * scale);
  if (!(result >= 0) || result > 9.2e18) return false;
  *ns = static_cast<int64_t>(result);
  return true;
}

std::string DurationProblem(const std::string& text) {
  int64_t ns = 0;
  return ParseDuration(text, &ns) ? std::string()
                                  : "'" + text + "' is not a time (a number with ns, us, ms or s)";
}

}  // namespace plx::cli
