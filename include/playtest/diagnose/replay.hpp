// Replay: play a recorded run's stimuli again against the system, K times, and count how often the
// same verdict (the same failure) comes back: a nondeterministic failure's reproduction rate, with a
// Wilson confidence interval. Where the system chooses differently than in the recording the run
// follows the model (the runner judges every output against it) and the first divergence is
// reported; where the model then no longer offers the next stimulus the attempt stops there.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "playtest/diagnose/script.hpp"
#include "playtest/strategy/statistics.hpp"
#include "playtest/run/adapter.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {

struct ReplayOptions {
  // Timeouts and budgets of every attempt; the purpose should normally be none (the script decides
  // what is played; a run without failure is then a PASS). keep_trace is always on.
  RunOptions run;
  std::uint32_t attempts = 10;  // K
  double confidence = 0.95;     // of the reproduction rate's interval
  FailureMatch match = FailureMatch::symptom;
  // After the last stimulus, how long the runner's poll at the next active vertex waits for an
  // output (an output at an active vertex is a failure the runner finds only by polling). nullopt:
  // the run's timeout when the recorded failure was an output at an active vertex, else 0.
  std::optional<std::chrono::milliseconds> linger;
  std::uint64_t seed = 0;  // the runner's seed (a script makes no random choice)
};

struct Divergence {
  std::uint64_t step = 0;  // the first step (1-based) where the replay differs from the recording
  std::string recorded;    // what the recording has there ("" when the recording ended before)
  std::string replayed;    // what the replay did ("" when the replay ended before)
};

struct ReplayAttempt {
  RunResult result;
  FailureSignature failure;
  std::size_t played = 0;  // script steps played
  std::string stopped;     // why the script stopped early ("" when it did not)
  std::optional<Divergence> divergence;
  bool same_verdict = false;  // the recorded verdict came back
  bool same_failure = false;  // for a recorded FAIL: the same failure (ReplayOptions::match)
};

struct ReplayResult {
  Verdict recorded = Verdict::inconclusive;
  FailureSignature recorded_failure;
  FailureMatch match = FailureMatch::symptom;
  std::size_t script_steps = 0, stimuli = 0;
  std::vector<ReplayAttempt> attempts;
  RateEstimate verdict_rate;   // attempts with the recorded verdict
  RateEstimate failure_rate;   // attempts with the same failure (a recorded FAIL), else = verdict_rate
  std::uint32_t diverged = 0;  // attempts that differ from the recording somewhere
  // A stop request (RunOptions::stop) ended the replay: the interrupted attempt is not counted.
  bool interrupted = false;

  // The verdict a replay stands for: the recorded one when it came back at least once; otherwise
  // the worst of the attempts, where an attempt that merely passed counts as INCONCLUSIVE (the
  // recorded verdict was not seen again, which proves nothing).
  Verdict outcome() const;
};

// One attempt of `target`'s script (adapter.start() ... finish() as Runner::run does).
ReplayAttempt replay_once(const TestGraph& g, const ReplayTarget& target, Adapter& adapter,
                          const ReplayOptions& options, RunObserver* observer = nullptr);

// K attempts (fewer when RunOptions::stop is requested). Throws UsageError("attempts") for K = 0,
// and what Runner's constructor throws.
ReplayResult replay(const TestGraph& g, const ReplayTarget& target, Adapter& adapter, const ReplayOptions& options);

// The first place where `replayed` differs from `recorded`, or nullopt.
std::optional<Divergence> first_divergence(const TestGraph& g, const std::vector<StepKey>& recorded,
                                           const RunResult& replayed);

}  // namespace playtest
