// Helpers for tests: a temporary directory per test, paths to built programs,
// and running a program to completion with its output captured.
#pragma once

#include <string>
#include <vector>

namespace plx::testing {

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

/// $PLX_BINARY_DIR/<relative> (the build tree), or relative to the cwd.
std::string BuildPath(const std::string& relative);
/// $PLX_SOURCE_DIR/<relative> (the source tree).
std::string SourcePath(const std::string& relative);

struct RunResult {
  int exit_code = -1;    // when the program exited
  int signal = 0;        // when a signal ended it
  std::string output;    // stdout and stderr, interleaved
};

/// Runs argv[0] with the arguments and extra "NAME=value" environment entries;
/// waits for it. Never throws; a failure to start shows as exit_code 127.
RunResult Run(const std::vector<std::string>& argv, const std::vector<std::string>& env = {});

/// The whole file as a string ("" when it cannot be read).
std::string ReadFile(const std::string& path);

}  // namespace plx::testing
