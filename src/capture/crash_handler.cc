// Crash handlers: flush once, then re-deliver the signal with its default action.
#include "capture/crash_handler.h"

#include <signal.h>

#include <atomic>
#include <cerrno>

#include "capture/runtime.h"

namespace plx::capture {

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
                            SIGTERM, SIGINT, SIGHUP, SIGQUIT};

std::atomic<int> g_entered{0};

bool IsFault(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
}

void OnSignal(int sig, siginfo_t* info, void*) {
  const int saved_errno = errno;
  // Only the first signal flushes; one that arrives during the flush (or is
  // caused by it) goes straight to the default action.
  if (g_entered.fetch_add(1) == 0) Runtime::Get().CrashFlush(sig);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  // A fault raised by the kernel repeats when we return and now kills the
  // process (with a core dump, where enabled); anything else is sent again and
  // delivered once this handler returns.
  if (!(IsFault(sig) && info != nullptr && info->si_code > 0)) ::raise(sig);
  errno = saved_errno;
}

}  // namespace

void InstallCrashHandlers() {
  for (int sig : kSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_sigaction = OnSignal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace plx::capture
