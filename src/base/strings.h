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

/// `text` safe to print on a terminal: control characters (ASCII controls,
/// DEL, and U+0080..U+009F encoded in UTF-8) become visible escapes ("\n",
/// "\x1b", "\u009b"); everything else, UTF-8 included, is kept. For text
/// from peers and files.
std::string EscapeControl(std::string_view text);

/// Splits on a separator; empty pieces are kept.
std::string_view NextToken(std::string_view* rest, char separator);

/// Without the spaces and tabs at either end.
std::string_view TrimBlanks(std::string_view s);

/// ASCII letters in lower case; other bytes as they are.
std::string AsciiLower(std::string_view s);

}  // namespace plx
