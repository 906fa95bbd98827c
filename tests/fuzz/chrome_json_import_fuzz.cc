// libFuzzer target for the Chrome Trace Event JSON importer: the input is a
// file's bytes, imported into a .plx file. Whatever the bytes, the import must
// end with a status (an error is fine) and the builder must finish.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "interop/chrome_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char json[] = "/tmp/plx-chrome-fuzz-XXXXXX";
  const int fd = ::mkstemp(json);
  if (fd < 0) std::abort();
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) std::abort();
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  char plx[] = "/tmp/plx-chrome-fuzz-XXXXXX";
  const int plx_fd = ::mkstemp(plx);
  if (plx_fd < 0) std::abort();
  ::close(plx_fd);
  {
    // Small chunks: the writer's buffers, not the import, would else cost
    // most of each run.
    plx::format::WriterOptions options;
    options.chunk_raw_size = 16 << 10;
    auto builder = plx::interop::TraceBuilder::Create(plx, options);
    if (!builder.ok()) std::abort();
    const plx::Status imported = plx::interop::ImportChromeJson(json, **builder);
    if (!imported.ok() && imported.message().find('\n') != std::string::npos) std::abort();
    (void)(*builder)->Finish();
  }
  std::remove(json);
  std::remove(plx);
  return 0;
}
