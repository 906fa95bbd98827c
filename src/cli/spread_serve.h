// `parallax-mpi serve`: the viewer's server over the processes of an MPI
// job. Process 0 runs the HTTP server and answers the API; each process
// loads the traces (in memory, or from the file above --memory) and draws
// the tiles' rows it owns (distributed::ShareThreads), which process 0
// merges into the tile `parallax serve` draws (docs/distributed.md).
#pragma once

#include "base/status.h"
#include "cli/command.h"
#include "cli/serve_setup.h"

namespace plx::cli {

Status RunSpreadServe(const ServeOptions& o, const GlobalOptions& global);

}  // namespace plx::cli
