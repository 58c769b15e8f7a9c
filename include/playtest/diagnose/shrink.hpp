// Shrink: a shorter stimulus sequence that still fails (delta debugging, Zeller and Hildebrandt's
// ddmin, over the script's steps). Only candidates the model can play are tried (is_playable);
// each is tried up to K times, because the system is nondeterministic, and kept when its failure
// rate (the same failure, FailureMatch) is at least a threshold; the result is 1-minimal in that
// sense: removing any one step of it makes it unplayable or fail less often than the threshold.
// Since the model may only allow steps to go together (open, close), windows of up to 16
// consecutive steps are tried too, alternating with ddmin until neither shortens the script.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "playtest/diagnose/replay.hpp"

namespace playtest {

struct ShrinkOptions {
  ReplayOptions replay;  // K (attempts), timeouts, the failure match, the confidence level
  // Keep a candidate when at least this fraction of its K attempts fail the same way; 0: half the
  // original's measured rate.
  double threshold = 0;
  // Wall clock for the whole shrink (0: none): measuring the original, the search and measuring the
  // result; every wait is cut at it (each attempt runs with the time left as its time budget). The
  // best so far is kept.
  std::chrono::milliseconds budget{0};
};

struct ShrinkResult {
  bool reproduced = false;  // the original failed at least once in K attempts (else nothing is shrunk)
  Script original, minimal;
  // K fresh attempts each; the minimal script's is the rate it was kept with in the search (early-
  // stopped attempts) when the budget or a stop request ended the shrink first (minimal_measured).
  RateEstimate original_rate, minimal_rate;
  bool minimal_measured = false;  // minimal_rate is from fresh attempts (or is the original's)
  double threshold = 0;           // the fraction used
  std::uint32_t candidates = 0;   // sequences the search considered
  std::uint32_t unplayable = 0;   // ... of which the model cannot play (not run)
  std::uint32_t attempts = 0;     // runs against the system, in all
  bool budget_spent = false;      // the search stopped at the budget (the result may not be minimal)
  bool interrupted = false;       // a stop request (RunOptions::stop) ended it: the best so far
  double elapsed_ms = 0;
  std::optional<ReplayAttempt> witness;  // a failing attempt of the minimal script
};

// Throws UsageError("threshold") for a threshold outside [0, 1], UsageError("attempts") for K = 0,
// UsageError("verdict") when the target is not a FAIL.
ShrinkResult shrink(const TestGraph& g, const ReplayTarget& target, Adapter& adapter, const ShrinkOptions& options);

}  // namespace playtest
