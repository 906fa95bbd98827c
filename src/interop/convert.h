// Converting between trace formats: which formats there are, telling them by
// file name, and `parallax convert`'s pipeline (import into .plx, load the
// model, export), each step with progress.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "interop/trace_builder.h"
#include "model/trace.h"

namespace plx::interop {

enum class Format : uint8_t { kPlx, kOtf2, kChromeJson, kPaje, kPicl, kCsv };

struct FormatInfo {
  Format format;
  const char* name;        // as --from/--to take it
  const char* extensions;  // space-separated, as file names end
  const char* title;
  bool can_read;
  bool can_write;
};

/// Every format, in the order the help lists them.
std::span<const FormatInfo> Formats();
const FormatInfo& InfoOf(Format format);

/// The format called `name` ("otf2", "json" or "chrome", "paje", "picl", "csv", "plx").
StatusOr<Format> FormatNamed(std::string_view name);
/// The format a file name says (by extension; a directory holding a Score-P
/// `traces.otf2` is OTF2).
StatusOr<Format> FormatOfPath(const std::string& path);

/// Imports `in` (of format `from`, not .plx) into `builder` (not finished).
Status ImportInto(Format from, const std::string& in, TraceBuilder& builder,
                  const Progress& progress = {});
/// Writes `trace` to `out` as `to` (not .plx).
Status ExportAs(Format to, const model::Trace& trace, const std::string& out,
                const Progress& progress = {});

/// The files that writing `out` as `to` creates: `out` itself; a .csv's three
/// tables; an OTF2 archive's anchor, global definitions and data directory.
std::vector<std::string> OutputPaths(Format to, const std::string& out);

struct ConvertOptions {
  std::optional<Format> from;  // else by the input's name
  std::optional<Format> to;    // else by the output's name
  /// Replace an output that exists (else that is an error naming it).
  bool force = false;
  /// progress(step, done, total): step "reading" counts input bytes,
  /// "loading" records, "writing" events.
  std::function<void(std::string_view step, uint64_t done, uint64_t total)> progress;
};

struct ConvertResult {
  Format from = Format::kPlx;
  Format to = Format::kPlx;
  uint64_t events = 0;  // written to the output (records when it is .plx)
  ImportStats stats;    // the importer's counters of what it skipped or repaired
};

/// Converts `in` to `out`. A .plx input is loaded as it is; any other input is
/// imported into `out` (when that is .plx) or a temporary .plx beside it. An
/// import that fails part-way still finishes a .plx output with what it read,
/// and the error says so. An output that exists is an error unless `force`.
StatusOr<ConvertResult> Convert(const std::string& in, const std::string& out,
                                const ConvertOptions& options = {});

}  // namespace plx::interop
