// libFuzzer target for ImportPicl: the input is a PICL/MPICL trace file (see
// import_fuzz.h for what every importer's target checks).
#include "import_fuzz.h"
#include "interop/picl/picl.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return plx::fuzz::FuzzImport(data, size, plx::interop::ImportPicl, "picl");
}
