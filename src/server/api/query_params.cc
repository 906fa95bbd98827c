// Query-string parsing for the API (see query_params.h).
#include "server/api/query_params.h"

#include <charconv>
#include <cmath>

namespace plx::server {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Status Bad(std::string_view name, std::string_view value, std::string_view expected) {
  return InvalidArgument("parameter '" + std::string(name) + "': '" + std::string(value) +
                         "' is not " + std::string(expected));
}

Status Missing(std::string_view name) {
  return InvalidArgument("parameter '" + std::string(name) + "' is required");
}

std::string Range(double min, double max) {
  auto text = [](double v) {
    if (std::fabs(v) >= 1e15) return std::string(v < 0 ? "-inf" : "inf");
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  };
  return "a number in [" + text(min) + ", " + text(max) + "]";
}

}  // namespace

bool PercentDecode(std::string_view in, std::string* out) {
  out->clear();
  out->reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '+') {
      out->push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = HexDigit(in[i + 1]);
      const int lo = HexDigit(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out->push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out->push_back(c);
    }
  }
  return true;
}

StatusOr<QueryParams> QueryParams::Parse(std::string_view query) {
  QueryParams params;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    std::string name, value;
    if (!PercentDecode(pair.substr(0, eq), &name) ||
        (eq != std::string_view::npos && !PercentDecode(pair.substr(eq + 1), &value)))
      return InvalidArgument("query: bad %-escape in '" + std::string(pair) + "'");
    params.values_.emplace_back(std::move(name), std::move(value));
  }
  return params;
}

bool QueryParams::Has(std::string_view name) const {
  return Get(name).has_value();
}

std::optional<std::string_view> QueryParams::Get(std::string_view name) const {
  for (const auto& [n, v] : values_)
    if (n == name) return std::string_view(v);
  return std::nullopt;
}

std::string QueryParams::String(std::string_view name, std::string_view fallback) const {
  return std::string(Get(name).value_or(fallback));
}

StatusOr<std::string> QueryParams::RequiredString(std::string_view name) const {
  const auto value = Get(name);
  if (!value) return Missing(name);
  return std::string(*value);
}

StatusOr<double> QueryParams::RequiredNumber(std::string_view name, double min, double max) const {
  const auto value = Get(name);
  if (!value) return Missing(name);
  double v = 0;
  const char* end = value->data() + value->size();
  const auto [ptr, ec] = std::from_chars(value->data(), end, v);
  if (value->empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < min || v > max)
    return Bad(name, *value, Range(min, max));
  return v;
}

StatusOr<double> QueryParams::Number(std::string_view name, double fallback, double min,
                                     double max) const {
  if (!Has(name)) return fallback;
  return RequiredNumber(name, min, max);
}

StatusOr<int64_t> QueryParams::RequiredInteger(std::string_view name, int64_t min,
                                               int64_t max) const {
  const auto value = Get(name);
  if (!value) return Missing(name);
  int64_t v = 0;
  const char* end = value->data() + value->size();
  const auto [ptr, ec] = std::from_chars(value->data(), end, v);
  if (value->empty() || ec != std::errc() || ptr != end || v < min || v > max)
    return Bad(name, *value,
               "a whole number in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

StatusOr<int64_t> QueryParams::Integer(std::string_view name, int64_t fallback, int64_t min,
                                       int64_t max) const {
  if (!Has(name)) return fallback;
  return RequiredInteger(name, min, max);
}

StatusOr<bool> QueryParams::Bool(std::string_view name, bool fallback) const {
  const auto value = Get(name);
  if (!value) return fallback;
  if (*value == "1" || *value == "true") return true;
  if (*value == "0" || *value == "false") return false;
  return Bad(name, *value, "0, 1, true or false");
}

StatusOr<std::vector<uint32_t>> QueryParams::IndexList(std::string_view name, uint32_t max,
                                                       bool required) const {
  const auto value = Get(name);
  if (!value) {
    if (required) return Missing(name);
    return std::vector<uint32_t>();
  }
  auto index = [max](std::string_view text, uint32_t* v) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *v);
    return !text.empty() && ec == std::errc() && ptr == text.data() + text.size() && *v <= max;
  };
  const std::string expected =
      "an index in [0, " + std::to_string(max) + "] or a range a-b of them";
  std::vector<uint32_t> list;
  std::string_view rest = *value;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t dash = item.find('-');
    uint32_t first = 0, last = 0;
    if (dash == std::string_view::npos) {
      if (!index(item, &first)) return Bad(name, item, expected);
      last = first;
    } else if (!index(item.substr(0, dash), &first) || !index(item.substr(dash + 1), &last) ||
               last < first) {
      return Bad(name, item, expected);
    }
    if (list.size() + (uint64_t{last} - first) >= kMaxIndexListItems)
      return InvalidArgument("parameter '" + std::string(name) + "': more than " +
                             std::to_string(kMaxIndexListItems) + " items");
    for (uint64_t v = first; v <= last; ++v)
      list.push_back(static_cast<uint32_t>(v));
  }
  if (list.empty() && required) return Missing(name);
  return list;
}

StatusOr<std::string> QueryParams::Choice(std::string_view name, std::string_view fallback,
                                          const std::vector<std::string_view>& choices) const {
  const std::string_view value = Get(name).value_or(fallback);
  for (std::string_view c : choices)
    if (c == value) return std::string(value);
  std::string expected = "one of";
  for (std::string_view c : choices)
    expected += " " + std::string(c);
  return Bad(name, value, expected);
}

}  // namespace plx::server
