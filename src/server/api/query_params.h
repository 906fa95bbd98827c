// The query string of an API request, parsed once, and typed access to its
// parameters. Every accessor names the parameter in its error, so a 400
// answer tells the client exactly what was wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"

namespace plx::server {

/// The most items one answer lists (every `limit`, `chunk_limit`): it
/// bounds an answer's size; more need a narrower range or paging (`from`).
inline constexpr int64_t kMaxListLimit = 100'000;

/// The most items a number list parameter expands to (ranges included).
inline constexpr uint64_t kMaxIndexListItems = 1 << 20;

/// Decodes %XX escapes and '+' (as a space); false on a bad escape.
bool PercentDecode(std::string_view in, std::string* out);

class QueryParams {
 public:
  /// Parses "a=1&b=x%20y"; InvalidArgument on a bad escape.
  static StatusOr<QueryParams> Parse(std::string_view query);

  bool Has(std::string_view name) const;
  /// The raw (decoded) value; nullopt when absent.
  std::optional<std::string_view> Get(std::string_view name) const;

  /// A string parameter, or `fallback` when absent.
  std::string String(std::string_view name, std::string_view fallback) const;
  /// A required string parameter.
  StatusOr<std::string> RequiredString(std::string_view name) const;
  /// A finite number in [min, max], or `fallback` when absent.
  StatusOr<double> Number(std::string_view name, double fallback, double min, double max) const;
  StatusOr<double> RequiredNumber(std::string_view name, double min, double max) const;
  /// A whole number in [min, max], or `fallback` when absent.
  StatusOr<int64_t> Integer(std::string_view name, int64_t fallback, int64_t min,
                            int64_t max) const;
  StatusOr<int64_t> RequiredInteger(std::string_view name, int64_t min, int64_t max) const;
  /// How many items a list answer may hold: a whole number in [min,
  /// kMaxListLimit], or `fallback` when absent.
  StatusOr<int64_t> Limit(std::string_view name, int64_t fallback, int64_t min = 0) const {
    return Integer(name, fallback, min, kMaxListLimit);
  }
  /// 0/1/true/false, or `fallback` when absent.
  StatusOr<bool> Bool(std::string_view name, bool fallback) const;
  /// A comma-separated list of whole numbers in [0, max], where "a-b" stands
  /// for a, a+1, ..., b; at most kMaxIndexListItems; empty when absent or
  /// empty, unless `required`.
  StatusOr<std::vector<uint32_t>> IndexList(std::string_view name, uint32_t max,
                                            bool required) const;
  /// One of `choices`, or `fallback` when absent.
  StatusOr<std::string> Choice(std::string_view name, std::string_view fallback,
                               const std::vector<std::string_view>& choices) const;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

}  // namespace plx::server
