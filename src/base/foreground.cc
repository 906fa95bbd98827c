// Foreground and GiveWayPoint: a count of the requests running, read with
// one relaxed load by background threads at every point; they sleep on a
// condition variable only when it is not zero.
#include "base/foreground.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace plx {

namespace {

std::atomic<int> g_running{0};
std::mutex g_mu;
std::condition_variable g_none;
thread_local bool t_background = false;

}  // namespace

Foreground::Foreground() : was_background_(t_background) {
  t_background = false;
  g_running.fetch_add(1, std::memory_order_relaxed);
}

Foreground::~Foreground() {
  t_background = was_background_;
  if (g_running.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  // Under the lock: a waiter between its check and its wait still sees it.
  std::lock_guard<std::mutex> lock(g_mu);
  g_none.notify_all();
}

void MarkBackground(bool background) {
  t_background = background;
}

bool IsBackground() {
  return t_background;
}

void GiveWayPoint() {
  if (!t_background || g_running.load(std::memory_order_relaxed) == 0) return;
  std::unique_lock<std::mutex> lock(g_mu);
  g_none.wait_for(lock, std::chrono::milliseconds(100),
                  [] { return g_running.load(std::memory_order_acquire) == 0; });
}

int ForegroundsRunning() {
  return g_running.load(std::memory_order_relaxed);
}

}  // namespace plx
