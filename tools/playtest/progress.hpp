// A progress line on standard error for long work (explore, solve, simulate, run campaigns): what is
// done, the rate and, when the total is known, the time left. Shown only when standard error is a
// terminal (nothing in pipes, files, CI logs), at most ten times a second, and erased when the work
// ends so that the results print on a clean line.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace playtest::cli {

class ProgressLine {
 public:
  // `what`: the work ("explore", "simulate reach"); `unit`: what is counted ("states", "runs").
  ProgressLine(std::string what, std::string unit);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // `total` 0: unknown. Cheap when nothing is shown or the last line is recent.
  void update(std::uint64_t done, std::uint64_t total = 0);
  // Erases the line (also done by the destructor).
  void finish();
  bool shown() const { return enabled_; }

  // "1,234,567"
  static std::string grouped(std::uint64_t n);
  // The line for these numbers (used by update; tested on its own).
  static std::string text(std::string_view what, std::string_view unit, std::uint64_t done, std::uint64_t total,
                          double seconds);

 private:
  using Clock = std::chrono::steady_clock;
  std::string what_, unit_;
  bool enabled_ = false;
  bool drawn_ = false;
  Clock::time_point start_, last_;
};

}  // namespace playtest::cli
