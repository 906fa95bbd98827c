// BuildThreadSkeleton: the one sequential pass over a thread's chunks that
// makes its skeleton (store/skeleton.h). The loader decodes each chunk into a
// small table that holds only that chunk's rows and the slices still open, so
// memory stays the size of a chunk however long the thread is.
#pragma once

#include "model/undefined_log.h"
#include "store/skeleton.h"
#include "store/thread_source.h"

namespace plx::store {

/// The thread's skeleton. Ids with no definition are noted in `log` (which
/// answers with their placeholders once they are made); the states and call
/// sites of long slices that use one are right only when the log resolves it.
ThreadSkeleton BuildThreadSkeleton(const ThreadSource& source, model::UndefinedLog* log);

}  // namespace plx::store
