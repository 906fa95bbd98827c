// Runtime and fork(): the locks held across it, the reset of a child whose
// parent was recording, and the file each process writes (its own part when
// another process would write the same name).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "capture/fast_path.h"
#include "capture/runtime.h"

namespace plx::capture {

std::string Runtime::OutputPath(const char* exe_name, const char* host, int64_t start_s) const {
  const int pid = ::getpid();
  const std::string path = ExpandOutput(config_.output, exe_name, pid, host, start_s);
  if (!config_.writes_file()) return path;
  // Under `parallax record` every process but the one it started writes a
  // part; so does a forked child whose name does not tell it from its parent.
  const bool part = config_.parts_parent > 0
                        ? ::getppid() != config_.parts_parent
                        : forked_child_ && ExpandOutput(config_.output, exe_name, ::getppid(), host,
                                                        start_s) == path;
  if (!part) return path;
  const std::string dir = path + ".parts";
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    std::fprintf(stderr, "parallax: cannot create %s: %s\n", dir.c_str(), std::strerror(errno));
  return dir + "/pid-" + std::to_string(pid) + ".plx";
}

void Runtime::BeforeFork() {
  Runtime& r = Get();
  r.init_mutex_.lock();
  r.fork_locked_ = r.state_.load() == kRunning;
  if (!r.fork_locked_) return;
  r.registry_.lock().Lock();
  r.output_.LockForFork();
  r.pool_lock_.Lock();
}

void Runtime::AfterForkInParent() {
  Runtime& r = Get();
  if (r.fork_locked_) {
    r.pool_lock_.Unlock();
    r.output_.UnlockAfterFork();
    r.registry_.lock().Unlock();
  }
  r.init_mutex_.unlock();
}

void Runtime::AfterForkInChild() {
  ForgetTidAfterFork();
  Runtime& r = Get();
  r.forked_child_ = true;
  if (r.fork_locked_) {
    r.ResetInChild();
    r.pool_lock_.Unlock();
    r.registry_.lock().Unlock();
  }
  r.init_mutex_.unlock();
}

void Runtime::ResetInChild() {
  // Only the forking thread lives on here: no writer, no other threads, no
  // live connection of our own. The file is the parent's: close our copy
  // and start afresh at the next record, as a process of its own.
  g_mask.store(0, std::memory_order_relaxed);
  state_.store(kUninit, std::memory_order_release);
  inherited_defs_ = true;
  // The writer and the live sender are the parent's: their threads are not
  // here and their mutexes may be held. Never used again, never destroyed.
  left_behind_.push_back(writer_.release());
  left_behind_.push_back(sync_.release());
  sync_ = std::make_unique<WriterSync>();
  left_behind_.push_back(live_.release());  // the child does not stream
  live_ = std::make_unique<LiveSender>();
  output_.ResetAfterFork();
  pool_ = contexts_;  // the threads that held some are gone
  config_.live_host.clear();
  config_.counters.clear();  // perf counters stay with the parent's threads
  config_.sched = false;
  sample_bits_ = 0;
  const uint32_t count = std::min(stream_count_.load(), kMaxStreams);
  for (uint32_t i = 0; i < count; ++i) {
    ThreadStream* s = streams_[i].load();
    if (s == nullptr) continue;
    if (!s->retired.load()) std::free(s->ring);
    delete s;
  }
  stream_count_.store(0);
  ForgetCallingThread();
}

}  // namespace plx::capture

// fork() is watched from the start: a child may record before its parent does.
__attribute__((constructor)) static void PlxWatchFork() {
  ::pthread_atfork(&plx::capture::Runtime::BeforeFork, &plx::capture::Runtime::AfterForkInParent,
                   &plx::capture::Runtime::AfterForkInChild);
}
