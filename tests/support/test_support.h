// Helpers for tests: whether the build is sanitized, a temporary directory per
// test, paths to built programs, and running a program to completion with its
// output captured.
#pragma once

#include <string>
#include <vector>

namespace plx::testing {

/// Built with AddressSanitizer: its shadow memory and quarantine make
/// resident memory say nothing, and its runtime needs descriptors of its own.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

/// A fresh directory, removed with everything in it when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// <build tree>/<relative> ($PLX_BINARY_DIR overrides the configured build tree).
std::string BuildPath(const std::string& relative);
/// <source tree>/<relative> ($PLX_SOURCE_DIR overrides).
std::string SourcePath(const std::string& relative);

struct RunResult {
  int exit_code = -1;  // when the program exited
  int signal = 0;      // when a signal ended it
  std::string output;  // stdout and stderr, interleaved
};

/// Runs argv[0] with the arguments and extra "NAME=value" environment entries;
/// waits for it. Never throws; a failure to start shows as exit_code 127.
RunResult RunProgram(const std::vector<std::string>& argv,
                     const std::vector<std::string>& env = {});

/// Runs argv[0] with the arguments, its stderr thrown away: stdout alone
/// (a command's JSON without the warnings damaged traces give).
RunResult RunProgramStdout(const std::vector<std::string>& argv);

/// A child program with its stdout (and stderr) on a pipe, for tests that
/// must talk to it or signal it while it runs.
class ChildProcess {
 public:
  /// Starts argv[0]; `env` entries are added to this process's environment.
  ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  bool started() const { return pid_ > 0; }
  int pid() const { return pid_; }
  /// Reads one line (without the newline); false at end of output or after timeout_ms.
  bool ReadLine(std::string* line, int timeout_ms);
  void Signal(int sig);
  /// Whether the child has not exited yet (it stays waitable either way).
  bool Running() const;
  /// Waits for the child to end; the output not yet read is in the result.
  RunResult Wait();

 private:
  int pid_ = -1;
  int fd_ = -1;
  std::string buffered_;
};

/// The whole file as a string ("" when it cannot be read).
std::string ReadFile(const std::string& path);

}  // namespace plx::testing
