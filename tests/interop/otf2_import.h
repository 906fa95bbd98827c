// The OTF2 tests' import: an archive into a .plx file, then loaded.
#pragma once

#include <string>

#include "base/status.h"
#include "interop/otf2/otf2.h"
#include "interop/trace_builder.h"
#include "interop_test_trace.h"
#include "model/trace.h"
#include "support/test_support.h"

namespace plx::interop {

// Imports `anchor` into dir/NAME.plx and loads it; the import's status.
inline Status Import(const std::string& anchor, const testing::TempDir& dir, model::Trace* trace,
                     const std::string& name = "imported.plx") {
  auto builder = TraceBuilder::Create(dir.File(name));
  if (!builder.ok()) return builder.status();
  const Status imported = ImportOtf2(anchor, **builder);
  const Status finished = (*builder)->Finish();
  if (!imported.ok()) return imported;
  if (!finished.ok()) return finished;
  testing::LoadPlx(dir.File(name), trace);
  return Status::Ok();
}

}  // namespace plx::interop
