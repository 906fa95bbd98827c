// LoadProgress: the "loading 42%" line on stderr while a trace loads. Shown
// when stderr is a terminal and loading has taken more than half a second, or
// always with --progress; carriage-return updated, ended with a newline.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace plx::cli {

/// What a progress line counts.
enum class ProgressUnit : uint8_t { kRecords, kEvents, kBytes };

class LoadProgress {
 public:
  /// Draws "parallax: WHAT 42% (DONE of TOTAL UNIT)".
  explicit LoadProgress(bool always, std::string_view what = "loading",
                        ProgressUnit unit = ProgressUnit::kRecords);
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
  std::string_view what_;
  ProgressUnit unit_;
  std::chrono::steady_clock::time_point start_;
};

/// Progress of a pipeline of named steps, each counted (convert's
/// "reading", "loading", "writing"; "merging the parts"): a LoadProgress
/// line per step, replaced when the next step begins. "loading", "cutting"
/// and "pairing messages" count records, "writing" events, any other step
/// bytes.
class PipelineProgress {
 public:
  explicit PipelineProgress(bool always) : always_(always) {}
  /// Progress of `step` (the step before it, if another, is ended).
  void Update(std::string_view step, uint64_t done, uint64_t total);
  /// Ends the last step's line.
  void End();

 private:
  bool always_;
  std::string step_;
  std::unique_ptr<LoadProgress> line_;
  std::function<void(uint64_t, uint64_t)> draw_;
};

/// Names the steps of a long computation on stderr, one updating line
/// ("parallax: analysing: wait states (4/7)"), under the rules of
/// LoadProgress: always with --progress, else on a terminal once the
/// computation has run half a second.
class StepProgress {
 public:
  StepProgress(bool always, std::string_view what, int steps);
  ~StepProgress();
  StepProgress(const StepProgress&) = delete;
  StepProgress& operator=(const StepProgress&) = delete;

  /// The next step begins.
  void Step(std::string_view name);

 private:
  bool always_;
  bool terminal_;
  bool shown_ = false;
  std::string_view what_;
  int steps_;
  int step_ = 0;
  size_t width_ = 0;  // of the line drawn last, to blank what a shorter one leaves
  std::chrono::steady_clock::time_point start_;
};

}  // namespace plx::cli
