#include "interop/convert.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "base/strings.h"
#include "format/trace_file.h"
#include "interop/chrome_json/chrome_json.h"
#include "interop/csv/csv.h"
#include "interop/event_walk.h"
#include "interop/otf2/otf2.h"
#include "interop/paje/paje.h"
#include "interop/picl/picl.h"
#include "model/load_trace.h"

namespace plx::interop {

namespace {

constexpr FormatInfo kFormats[] = {
    {Format::kPlx, "plx", ".plx", "Parallax trace", true, true},
    {Format::kOtf2, "otf2", ".otf2", "OTF2 archive (Score-P, Vampir)", true, true},
    {Format::kChromeJson, "json", ".json .json.gz", "Chrome Trace Event JSON (Perfetto)", true,
     true},
    {Format::kPaje, "paje", ".paje", "Paje (ViTE, PajeNG)", true, true},
    {Format::kPicl, "picl", ".picl .trf", "PICL / ParaGraph ASCII", true, true},
    {Format::kCsv, "csv", ".csv", "CSV tables (states, messages, counters)", false, true},
};

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string Names(bool readable) {
  std::string out;
  for (const FormatInfo& f : kFormats) {
    if (readable ? !f.can_read : !f.can_write) continue;
    out += (out.empty() ? "" : ", ") + std::string(f.name);
  }
  return out;
}

// A Score-P experiment directory stands for its anchor file.
std::string Otf2Anchor(const std::string& path) {
  if (IsDirectory(path)) return path + "/traces.otf2";
  return path;
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// Removes what OutputPaths names for `to`, for --force. An OTF2 data
// directory loses only OTF2's files; anything else in it stays and makes the
// OTF2 writer refuse, naming it.
Status RemoveOutput(Format to, const std::string& out) {
  std::error_code ec;
  for (const std::string& path : OutputPaths(to, out)) {
    if (to == Format::kOtf2 && IsDirectory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
        const std::string ext = entry.path().extension().string();
        if (entry.is_regular_file() && (ext == ".evt" || ext == ".def" || ext == ".snap"))
          std::filesystem::remove(entry.path(), ec);
      }
      std::filesystem::remove(path, ec);  // fails (and is left) when not empty
    } else if (Exists(path) && !IsDirectory(path) && ::unlink(path.c_str()) != 0) {
      return ErrnoError(path, errno);
    }
  }
  return Status::Ok();
}

}  // namespace

std::vector<std::string> OutputPaths(Format to, const std::string& out) {
  switch (to) {
    case Format::kCsv:
      return {CsvTablePath(out, "states"), CsvTablePath(out, "messages"),
              CsvTablePath(out, "counters")};
    case Format::kOtf2: {
      // DIR/NAME.otf2 beside DIR/NAME.def and DIR/NAME/ (the OTF2 writer's layout).
      if (!EndsWith(out, ".otf2") || out.size() == 5 || out[out.size() - 6] == '/') return {out};
      const std::string base = out.substr(0, out.size() - 5);
      return {out, base + ".def", base};
    }
    default:
      return {out};
  }
}

std::span<const FormatInfo> Formats() {
  return kFormats;
}

const FormatInfo& InfoOf(Format format) {
  for (const FormatInfo& f : kFormats) {
    if (f.format == format) return f;
  }
  return kFormats[0];
}

StatusOr<Format> FormatNamed(std::string_view name) {
  const std::string lower = [&] {
    std::string s(name);
    for (char& c : s)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }();
  if (lower == "chrome" || lower == "perfetto") return Format::kChromeJson;
  for (const FormatInfo& f : kFormats) {
    if (lower == f.name) return f.format;
  }
  return InvalidArgument(StrFormat("unknown format \"%.*s\" (one of: %s)",
                                   static_cast<int>(name.size()), name.data(),
                                   Names(false).c_str()));
}

StatusOr<Format> FormatOfPath(const std::string& path) {
  std::string lower = path;
  for (char& c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (lower.size() > 1 && lower.back() == '/')
    lower.pop_back();
  for (const FormatInfo& f : kFormats) {
    std::string_view exts = f.extensions;
    while (!exts.empty()) {
      const size_t space = exts.find(' ');
      if (EndsWith(lower, exts.substr(0, space))) return f.format;
      exts = space == std::string_view::npos ? std::string_view() : exts.substr(space + 1);
    }
  }
  if (IsDirectory(path) && ::access((path + "/traces.otf2").c_str(), F_OK) == 0) {
    return Format::kOtf2;
  }
  return InvalidArgument(path +
                         ": cannot tell its format from the name; give it with --from or "
                         "--to (one of: " +
                         Names(false) + ")");
}

Status ImportInto(Format from, const std::string& in, TraceBuilder& builder,
                  const Progress& progress) {
  switch (from) {
    case Format::kOtf2:
      return ImportOtf2(Otf2Anchor(in), builder, progress);
    case Format::kChromeJson:
      return ImportChromeJson(in, builder, progress);
    case Format::kPaje:
      return ImportPaje(in, builder, progress);
    case Format::kPicl:
      return ImportPicl(in, builder, progress);
    case Format::kPlx:
    case Format::kCsv:
      break;
  }
  return InvalidArgument(std::string("cannot import from ") + InfoOf(from).name);
}

Status ExportAs(Format to, const model::Trace& trace, const std::string& out,
                const Progress& progress) {
  switch (to) {
    case Format::kOtf2:
      return ExportOtf2(trace, out, progress);
    case Format::kChromeJson:
      return ExportChromeJson(trace, out, progress);
    case Format::kPaje:
      return ExportPaje(trace, out, progress);
    case Format::kPicl:
      return ExportPicl(trace, out, progress);
    case Format::kCsv:
      return ExportCsv(trace, out, progress);
    case Format::kPlx:
      break;
  }
  return InvalidArgument(std::string("cannot export to ") + InfoOf(to).name);
}

StatusOr<ConvertResult> Convert(const std::string& in, const std::string& out,
                                const ConvertOptions& options) {
  ConvertResult result;
  if (options.from) {
    result.from = *options.from;
  } else {
    PLX_ASSIGN_OR_RETURN(result.from, FormatOfPath(in));
  }
  if (options.to) {
    result.to = *options.to;
  } else {
    PLX_ASSIGN_OR_RETURN(result.to, FormatOfPath(out));
  }
  if (!InfoOf(result.from).can_read) {
    return InvalidArgument(StrFormat("%s: %s can be written, not read (inputs: %s)", in.c_str(),
                                     InfoOf(result.from).name, Names(true).c_str()));
  }
  if (result.from == Format::kPlx && result.to == Format::kPlx) {
    return InvalidArgument(in + ": input and output are both .plx; nothing to convert");
  }
  for (const std::string& path : OutputPaths(result.to, out)) {
    if (Exists(path) && !options.force)
      return InvalidArgument(path + ": already exists (give --force to overwrite it)");
  }
  if (options.force) PLX_RETURN_IF_ERROR(RemoveOutput(result.to, out));
  auto step = [&](std::string_view name) -> Progress {
    if (!options.progress) return {};
    return [&options, name](uint64_t done, uint64_t total) { options.progress(name, done, total); };
  };

  // The .plx file between import and export.
  std::string plx = in;
  std::string temporary;
  if (result.from != Format::kPlx) {
    if (result.to == Format::kPlx) {
      plx = out;
    } else {
      temporary = StrFormat("%s.tmp-%ld.plx", out.c_str(), static_cast<long>(::getpid()));
      plx = temporary;
    }
    PLX_ASSIGN_OR_RETURN(auto builder, TraceBuilder::Create(plx));
    // The reading step ends at 100 % even when an importer's last report was
    // before its end (two-pass readers, the last block).
    uint64_t read_total = 0, read_done = 0;
    const Progress reading = step("reading");
    Progress counted;
    if (reading) {
      counted = [&](uint64_t done, uint64_t total) {
        read_done = done;
        read_total = total;
        reading(done, total);
      };
    }
    const Status imported = ImportInto(result.from, in, *builder, counted);
    if (imported.ok() && reading && read_done < read_total) reading(read_total, read_total);
    const Status finished = builder->Finish();
    result.stats = builder->stats();
    result.events = builder->events();
    if (!imported.ok()) {
      if (!temporary.empty()) ::unlink(temporary.c_str());
      if (result.to == Format::kPlx && finished.ok()) {
        return Status(
            imported.code(),
            imported.message() + StrFormat(" (%s holds the %s events read before it)", out.c_str(),
                                           FormatCount(result.events).c_str()));
      }
      return imported;
    }
    if (!finished.ok()) {
      if (!temporary.empty()) ::unlink(temporary.c_str());
      return finished;
    }
    if (result.to == Format::kPlx) return result;
  }

  auto file = format::TraceFile::Open(plx);
  if (!file.ok()) {
    if (!temporary.empty()) ::unlink(temporary.c_str());
    return file.status();
  }
  model::LoadOptions load;
  load.progress = step("loading");
  auto trace = model::LoadTrace(**file, load);
  file->reset();
  if (!temporary.empty()) ::unlink(temporary.c_str());
  if (!trace.ok()) return trace.status();
  PLX_RETURN_IF_ERROR(ExportAs(result.to, *trace, out, step("writing")));
  result.events = EventCount(*trace);
  return result;
}

}  // namespace plx::interop
