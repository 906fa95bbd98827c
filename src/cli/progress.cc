// LoadProgress: decides whether to draw, and draws one updating line.
#include "cli/progress.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "base/strings.h"

namespace plx::cli {

LoadProgress::LoadProgress(bool always, std::string_view what, ProgressUnit unit)
    : always_(always),
      terminal_(::isatty(STDERR_FILENO) == 1),
      what_(what),
      unit_(unit),
      start_(std::chrono::steady_clock::now()) {}

LoadProgress::~LoadProgress() {
  if (shown_) fmt::print(stderr, "\n");
}

std::function<void(uint64_t, uint64_t)> LoadProgress::Callback() {
  return [this](uint64_t done, uint64_t total) { Update(done, total); };
}

void LoadProgress::Update(uint64_t done, uint64_t total) {
  if (!always_) {
    if (!terminal_) return;
    // A quick load draws nothing, not even its final 100%.
    if (!shown_ && std::chrono::steady_clock::now() - start_ < std::chrono::milliseconds(500))
      return;
  }
  const double percent = total > 0 ? 100.0 * static_cast<double>(done) / total : 100.0;
  if (unit_ == ProgressUnit::kBytes) {
    fmt::print(stderr, "\rparallax: {} {:3.0f}% ({} of {})", what_, percent, FormatBytes(done),
               FormatBytes(total));
  } else {
    fmt::print(stderr, "\rparallax: {} {:3.0f}% ({} of {} {})", what_, percent, FormatCount(done),
               FormatCount(total), unit_ == ProgressUnit::kEvents ? "events" : "records");
  }
  std::fflush(stderr);
  shown_ = true;
}

StepProgress::StepProgress(bool always, std::string_view what, int steps)
    : always_(always),
      terminal_(::isatty(STDERR_FILENO) == 1),
      what_(what),
      steps_(steps),
      start_(std::chrono::steady_clock::now()) {}

StepProgress::~StepProgress() {
  if (shown_) fmt::print(stderr, "\n");
}

void StepProgress::Step(std::string_view name) {
  ++step_;
  if (!always_) {
    if (!terminal_) return;
    if (!shown_ && std::chrono::steady_clock::now() - start_ < std::chrono::milliseconds(500))
      return;
  }
  const std::string line = fmt::format("parallax: {}: {} ({}/{})", what_, name, step_, steps_);
  fmt::print(stderr, "\r{:<{}}", line, std::max(width_, line.size()));
  std::fflush(stderr);
  width_ = line.size();
  shown_ = true;
}

void PipelineProgress::Update(std::string_view step, uint64_t done, uint64_t total) {
  if (!line_ || step != step_) {
    line_.reset();  // its line ends before the next begins
    step_ = step;
    const bool records = step == "loading" || step == "cutting" || step == "pairing messages";
    const ProgressUnit unit = records             ? ProgressUnit::kRecords
                              : step == "writing" ? ProgressUnit::kEvents
                                                  : ProgressUnit::kBytes;
    line_ = std::make_unique<LoadProgress>(always_, step_, unit);
    draw_ = line_->Callback();
  }
  draw_(done, total);
}

void PipelineProgress::End() {
  line_.reset();
}

}  // namespace plx::cli
