// The OpenMP tool's states and events (omp_states.h): structure in "user",
// waiting in "sync".
#include "threads/omp/omp_states.h"

namespace plx::omp {

Def g_parallel{"omp parallel", "user", false, {}};
Def g_implicit{"omp implicit task", "user", false, {}};
Def g_thread_num{"omp thread num", "user", true, {}};
Def g_loop{"omp for", "user", false, {}};
Def g_sections{"omp sections", "user", false, {}};
Def g_single{"omp single", "user", false, {}};
Def g_workshare{"omp workshare", "user", false, {}};
Def g_distribute{"omp distribute", "user", false, {}};
Def g_taskloop{"omp taskloop", "user", false, {}};
Def g_scope{"omp scope", "user", false, {}};
Def g_chunk{"omp chunk", "user", false, {}};
Def g_chunk_first{"omp chunk first", "user", true, {}};
Def g_chunk_last{"omp chunk last", "user", true, {}};
Def g_task{"omp task", "user", false, {}};
Def g_task_create{"omp task create", "user", true, {}};
Def g_task_begin{"omp task begin", "user", true, {}};
Def g_barrier{"omp barrier", "sync", false, {}};
Def g_implicit_barrier{"omp implicit barrier", "sync", false, {}};
Def g_taskwait{"omp taskwait", "sync", false, {}};
Def g_taskgroup{"omp taskgroup", "sync", false, {}};
Def g_reduction{"omp reduction", "sync", false, {}};
Def g_critical{"omp critical", "sync", false, {}};
Def g_lock{"omp_set_lock", "sync", false, {}};
Def g_ordered{"omp ordered", "sync", false, {}};
Def g_mutex{"omp mutex", "sync", false, {}};

void Chunk(int64_t first, int64_t last) {
  Instant(g_chunk_first, first);
  Instant(g_chunk_last, last);
}

}  // namespace plx::omp
