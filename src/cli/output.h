// Output helpers shared by the subcommands: warnings, colours, times, JSON
// strings. Human output goes to stdout; warnings and errors to stderr.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace plx::cli {

/// "parallax: warning: <line>" on stderr.
void Warn(std::string_view line);
/// The program Warn names from now on ("parallax-mpi"); `name` must outlive
/// the warnings.
void SetWarningProgram(const char* name);
/// Warnings are dropped from now on (the processes of `parallax-mpi` but
/// the first, which prints the warnings they all meet).
void DropWarnings();

/// "#rrggbb" for a 0x1000000 | 0xRRGGBB colour, "auto" for 0.
std::string FormatColor(uint32_t color);

/// A percentage with one decimal: "12.5%".
std::string FormatShare(double share);

/// The text as a JSON string literal, quotes included (bad UTF-8 replaced).
std::string JsonString(std::string_view text);

}  // namespace plx::cli
