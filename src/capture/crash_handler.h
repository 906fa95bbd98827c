// Signal handlers that write everything recorded so far before the process
// dies: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGQUIT.
#pragma once

namespace plx::capture {

/// Installs the handlers for signals whose action is still the default (a
/// program's own handlers are left alone). Each handler flushes the trace,
/// restores the default action and lets the signal take its course.
void InstallCrashHandlers();

}  // namespace plx::capture
