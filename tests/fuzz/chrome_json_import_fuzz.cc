// libFuzzer target for ImportChromeJson: the input is a JSON trace file (see
// import_fuzz.h for what every importer's target checks).
#include "import_fuzz.h"
#include "interop/chrome_json/chrome_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return plx::fuzz::FuzzImport(data, size, plx::interop::ImportChromeJson, "chrome");
}
