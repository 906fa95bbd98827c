// libFuzzer target for ImportPaje: the input is a Paje trace file, written
// to a temporary file and imported into a .plx file through a TraceBuilder.
// Whatever the input, the import must end with a status (an error is fine):
// no crash, leak or hang.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "interop/paje.h"
#include "interop/trace_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char in[] = "/tmp/plx-paje-fuzz-XXXXXX";
  const int fd = ::mkstemp(in);
  if (fd < 0) std::abort();
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n <= 0) std::abort();
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  const std::string out = std::string(in) + ".plx";
  {
    auto builder = plx::interop::TraceBuilder::Create(out);
    if (builder.ok()) {
      const plx::Status s = plx::interop::ImportPaje(in, **builder);
      const plx::Status finished = (*builder)->Finish();
      (void)s;
      (void)finished;
    }
  }
  std::remove(in);
  std::remove(out.c_str());
  return 0;
}
