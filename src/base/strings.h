// Small string helpers that the runtime may use too (no fmt, no iostreams).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace plx {

/// printf into a std::string.
std::string StrFormat(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// "1.234 ms", "56 ns", "2.000 s": a duration for people.
std::string FormatDuration(int64_t ns);

/// "12.3 MiB", "512 B".
std::string FormatBytes(uint64_t bytes);

/// "1,234,567".
std::string FormatCount(uint64_t n);

/// Splits on a separator; empty pieces are kept.
std::string_view NextToken(std::string_view* rest, char separator);

/// ASCII letters in lower case; other bytes as they are.
std::string AsciiLower(std::string_view s);

}  // namespace plx
