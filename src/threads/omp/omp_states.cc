// The OpenMP tool's states and events (omp_states.h): structure in "user",
// waiting in "sync".
#include "threads/omp/omp_states.h"

namespace plx::omp {

Def g_parallel{"omp parallel", "user", 0x2ca02c, false, {}};
Def g_implicit{"omp implicit task", "user", 0x98df8a, false, {}};
Def g_thread_num{"omp thread num", "user", 0, true, {}};
Def g_loop{"omp for", "user", 0x1f77b4, false, {}};
Def g_sections{"omp sections", "user", 0xaec7e8, false, {}};
Def g_single{"omp single", "user", 0x9467bd, false, {}};
Def g_workshare{"omp workshare", "user", 0xc5b0d5, false, {}};
Def g_distribute{"omp distribute", "user", 0x8c564b, false, {}};
Def g_taskloop{"omp taskloop", "user", 0xc49c94, false, {}};
Def g_scope{"omp scope", "user", 0xe377c2, false, {}};
Def g_chunk{"omp chunk", "user", 0xaec7e8, false, {}};
Def g_chunk_first{"omp chunk first", "user", 0, true, {}};
Def g_chunk_last{"omp chunk last", "user", 0, true, {}};
Def g_task{"omp task", "user", 0xbcbd22, false, {}};
Def g_task_create{"omp task create", "user", 0, true, {}};
Def g_task_begin{"omp task begin", "user", 0, true, {}};
Def g_barrier{"omp barrier", "sync", 0xd62728, false, {}};
Def g_implicit_barrier{"omp implicit barrier", "sync", 0xff9896, false, {}};
Def g_taskwait{"omp taskwait", "sync", 0xff7f0e, false, {}};
Def g_taskgroup{"omp taskgroup", "sync", 0xffbb78, false, {}};
Def g_reduction{"omp reduction", "sync", 0xf7b6d2, false, {}};
Def g_critical{"omp critical", "sync", 0xe7ba52, false, {}};
Def g_lock{"omp_set_lock", "sync", 0xad494a, false, {}};
Def g_ordered{"omp ordered", "sync", 0x843c39, false, {}};
Def g_mutex{"omp mutex", "sync", 0x7f7f7f, false, {}};

void Chunk(int64_t first, int64_t last) {
  Instant(g_chunk_first, first);
  Instant(g_chunk_last, last);
}

}  // namespace plx::omp
