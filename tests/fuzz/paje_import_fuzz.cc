// libFuzzer target for ImportPaje: the input is a Paje trace file (see
// import_fuzz.h for what every importer's target checks).
#include "import_fuzz.h"
#include "interop/paje/paje.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return plx::fuzz::FuzzImport(data, size, plx::interop::ImportPaje, "paje");
}
