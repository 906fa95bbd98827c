// The pthread interposition inside MPI programs: the farm of tests/mpi (no
// threads of its own) traced under real mpirun, Open MPI and MPICH. The MPI
// libraries' own locking must not flood the trace, and the runtime's writer
// thread (started by MPI_Init) must not show as a pthread_create.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "model/load_trace.h"
#include "mpi_launch.h"
#include "support/test_support.h"

namespace plx {
namespace {

using testing::RunProgram;
using testing::RunResult;
using testing::TempDir;

TEST(MpiQuiet, FarmHasNoPthreadFlood) {
  for (const testing::Flavor& flavor : testing::FlavorsFor("farm")) {
    SCOPED_TRACE(flavor.name);
    TempDir dir;
    const std::string trace = dir.File("farm.plx");
    std::vector<std::string> env;
    const std::vector<std::string> launch =
        testing::TracedLaunch(flavor, "farm", 4, {dir.path()}, trace, &env);
    RunResult r = RunProgram(launch, env);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    auto file = format::TraceFile::Open(trace);
    ASSERT_TRUE(file.ok()) << file.status().message();
    auto t = model::LoadTrace(**file);
    ASSERT_TRUE(t.ok()) << t.status().message();
    ASSERT_EQ(t->processes.size(), 4u);
    EXPECT_EQ(t->threads.size(), 4u) << "one thread per rank; the runtime's writer is not one";

    long mpi = 0, sync = 0;
    std::map<std::string, long> by_name;
    for (size_t i = 0; i < t->slices.size(); ++i) {
      const model::State& s = t->states[t->slices.state[i]];
      if (s.name.rfind("MPI_", 0) == 0) ++mpi;
      if (s.category != model::kNone && t->categories[s.category].name == "sync") {
        ++sync;
        ++by_name[s.name];
      }
    }
    EXPECT_GT(mpi, 800);
#ifdef PLX_SANITIZE_BUILD
    // ASan's pthread_create interceptor (in the executable) hands the wrapper
    // its own start routine, hiding the std::thread of the runtime's writer:
    // its creation shows, once per rank (docs/threads.md, limits).
    EXPECT_LE(by_name["pthread_create"], 4);
#else
    EXPECT_EQ(by_name["pthread_create"], 0);
#endif
    // The MPI libraries lock internally; contended locks of theirs may show,
    // but never more than one per hundred MPI calls.
    EXPECT_LE(sync * 100, mpi) << sync << " sync states for " << mpi << " MPI calls";
  }
}

}  // namespace
}  // namespace plx
