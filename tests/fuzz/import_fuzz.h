// What the fuzz targets of the file importers share: the input becomes a
// temporary file, imported into a temporary .plx file through a TraceBuilder.
// Whatever the bytes, the import must end with a status (an error is fine, but
// it must be one line) and the builder must finish: no crash, leak or hang.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "interop/trace_builder.h"

namespace plx::fuzz {

using Importer = Status (*)(const std::string& path, interop::TraceBuilder& out,
                            const interop::Progress& progress);

inline std::string TempFile(const char* name) {
  std::string path = std::string("/tmp/plx-") + name + "-fuzz-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) std::abort();
  ::close(fd);
  return path;
}

inline int FuzzImport(const uint8_t* data, size_t size, Importer import, const char* name) {
  const std::string in = TempFile(name);
  FILE* f = std::fopen(in.c_str(), "wb");
  if (f == nullptr || std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  const std::string out = TempFile(name);
  {
    // Small chunks: the writer's buffers, not the import, would else cost
    // most of each run.
    format::WriterOptions options;
    options.chunk_raw_size = 16 << 10;
    auto builder = interop::TraceBuilder::Create(out, options);
    if (!builder.ok()) std::abort();
    const Status imported = import(in, **builder, {});
    if (!imported.ok() && imported.message().find('\n') != std::string::npos) std::abort();
    (void)(*builder)->Finish();
  }
  std::remove(in.c_str());
  std::remove(out.c_str());
  return 0;
}

}  // namespace plx::fuzz
