// LoadProgress: the "loading 42%" line on stderr while a trace loads. Shown
// when stderr is a terminal and loading has taken more than half a second, or
// always with --progress; carriage-return updated, ended with a newline.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace plx::cli {

class LoadProgress {
 public:
  explicit LoadProgress(bool always);
  ~LoadProgress();
  LoadProgress(const LoadProgress&) = delete;
  LoadProgress& operator=(const LoadProgress&) = delete;

  /// For model::LoadOptions::progress; valid while this object lives.
  std::function<void(uint64_t, uint64_t)> Callback();

 private:
  void Update(uint64_t done, uint64_t total);

  bool always_;
  bool terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace plx::cli
