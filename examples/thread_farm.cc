// A multithreaded farm: a master hands jobs to workers through a shared queue
// and collects the results. Traced with Parallax: states compute / wait / lock /
// produce / collect, every hand-off as a message carrying a Lamport clock, the
// queue length as a counter and each job as an annotation.
//
//   thread_farm [--workers N] [--jobs N] [--work-us N] [--slow-worker K]
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <parallax/parallax.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Job {
  int id;
  int size;        // units of work
  uint64_t clock;  // Lamport clock carried by the hand-off
  uint32_t from;   // trace thread id of the sender
};

struct Options {
  int workers = 4;
  int jobs = 400;
  int work_us = 200;     // mean time per job
  int slow_worker = -1;  // this worker runs 3x slower (load imbalance to find)
};

// A queue whose waits and lock acquisitions show up in the trace.
class TracedQueue {
 public:
  void Push(Job job) {
    {
      PLX_SCOPE_IN("lock", 0xd62728, "sync");
      std::lock_guard<std::mutex> guard(mutex_);
      jobs_.push_back(job);
      plx_counter_int(length_, static_cast<int64_t>(jobs_.size()));
    }
    ready_.notify_one();
  }

  bool Pop(Job* job) {
    PLX_SCOPE_IN("lock", 0xd62728, "sync");
    std::unique_lock<std::mutex> lock(mutex_);
    if (jobs_.empty() && !closed_) {
      PLX_SCOPE_IN("wait", 0x7f7f7f, "sync");
      ready_.wait(lock, [this] { return !jobs_.empty() || closed_; });
    }
    if (jobs_.empty()) return false;
    *job = jobs_.front();
    jobs_.pop_front();
    plx_counter_int(length_, static_cast<int64_t>(jobs_.size()));
    return true;
  }

  void Close() {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      closed_ = true;
    }
    ready_.notify_all();
  }

  void SetCounter(plx_counter_t c) { length_ = c; }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Job> jobs_;
  bool closed_ = false;
  plx_counter_t length_ = 0;
};

// Busy work for about `us` microseconds (a sleep would not look like computing).
double Compute(int us) {
  auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  double x = 1.0;
  while (std::chrono::steady_clock::now() < until) {
    for (int i = 0; i < 200; ++i)
      x = x * 1.0000001 + 1e-9;
  }
  return x;
}

void Worker(int index, const Options& opt, TracedQueue& jobs, TracedQueue& results) {
  std::string name = "worker " + std::to_string(index);
  plx_thread_name(name.c_str());
  Job job;
  while (jobs.Pop(&job)) {
    plx_msg_recv(PLX_COMM_THREADS, static_cast<int32_t>(job.from), job.id, job.size * 8u,
                 job.clock);
    {
      PLX_SCOPE_COLOR("compute", 0x2ca02c);
      int us = job.size * opt.work_us / 10;
      if (index == opt.slow_worker) us *= 3;
      Compute(us);
    }
    Job result{job.id, job.size, 0, plx_thread_id()};
    result.clock = plx_msg_send(PLX_COMM_THREADS, static_cast<int32_t>(job.from), job.id, 64);
    results.Push(result);
  }
}

bool ParseInt(const char* s, int* out) {
  char* end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (end == s || *end != 0 || v < 0 || v > 1000000) return false;
  *out = static_cast<int>(v);
  return true;
}

int Usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--workers N] [--jobs N] [--work-us N] [--slow-worker K]\n"
               "A master/worker farm over a shared queue, traced with Parallax.\n"
               "Set PLX_OUTPUT=farm.plx to choose the trace file.\n",
               argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    int* target = nullptr;
    if (std::strcmp(argv[i], "--workers") == 0)
      target = &opt.workers;
    else if (std::strcmp(argv[i], "--jobs") == 0)
      target = &opt.jobs;
    else if (std::strcmp(argv[i], "--work-us") == 0)
      target = &opt.work_us;
    else if (std::strcmp(argv[i], "--slow-worker") == 0)
      target = &opt.slow_worker;
    else
      return Usage(argv[0]);
    if (i + 1 >= argc || !ParseInt(argv[++i], target)) return Usage(argv[0]);
  }
  if (opt.workers < 1) return Usage(argv[0]);

  plx_thread_name("master");
  TracedQueue jobs, results;
  jobs.SetCounter(plx_counter_define("queue length", "jobs", PLX_INT));
  results.SetCounter(plx_counter_define("results waiting", "jobs", PLX_INT));

  std::vector<std::thread> workers;
  for (int w = 0; w < opt.workers; ++w)
    workers.emplace_back(Worker, w, std::cref(opt), std::ref(jobs), std::ref(results));

  std::mt19937 rng(42);
  std::uniform_int_distribution<int> size(1, 19);  // mean 10 units = work_us
  const uint32_t master = plx_thread_id();
  {
    PLX_SCOPE_COLOR("produce", 0x1f77b4);
    for (int j = 0; j < opt.jobs; ++j) {
      Job job{j, size(rng), 0, master};
      PLX_ANNOTATE("job %d: %d units", job.id, job.size);
      job.clock = plx_msg_send(PLX_COMM_THREADS, PLX_ANY_PEER, job.id, job.size * 8u);
      jobs.Push(job);
    }
  }
  double total = 0;
  {
    PLX_SCOPE_COLOR("collect", 0x9467bd);
    for (int j = 0; j < opt.jobs; ++j) {
      Job result;
      if (!results.Pop(&result)) break;
      plx_msg_recv(PLX_COMM_THREADS, static_cast<int32_t>(result.from), result.id, 64,
                   result.clock);
      total += result.size;
    }
  }
  jobs.Close();
  results.Close();
  for (std::thread& t : workers)
    t.join();
  std::printf("farm: %d jobs, %.0f units on %d workers\n", opt.jobs, total, opt.workers);
  return 0;
}
