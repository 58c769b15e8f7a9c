// A test campaign: several runs of one strategy against one system under test, run i with its own
// seed (derived from the campaign's seed and i only, so a run can be replayed alone), with the
// combined verdict and coverage. `playtest run` is a campaign; a StopSignal ends it early and the
// runs so far are kept (the interrupted one with verdict ERROR).
#pragma once

#include <cstdint>
#include <vector>

#include "playtest/run/runner.hpp"

namespace playtest {

struct CampaignOptions {
  std::uint32_t runs = 1;
  std::uint64_t seed = 0;  // run i (1-based) plays with campaign_seed(seed, i)
};

// The seed of run `run` (1-based) of a campaign with seed `seed`.
inline std::uint64_t campaign_seed(std::uint64_t seed, std::uint32_t run) { return seed + run - 1; }

// Sees a campaign as it happens: each run's start, then its steps and end (RunObserver).
class CampaignObserver : public RunObserver {
 public:
  virtual void on_run_begin(std::uint32_t run, std::uint64_t seed) {
    (void)run;
    (void)seed;
  }
};

struct CampaignResult {
  std::vector<RunResult> runs;             // in run order; fewer than asked when interrupted
  std::uint32_t runs_requested = 0;        // CampaignOptions::runs
  std::vector<std::uint32_t> edge_visits;  // per EdgeId, over all runs
  Coverage coverage;                       // of edge_visits
  Verdict verdict = Verdict::pass;         // combine() over the runs
  bool interrupted = false;                // a StopSignal ended the campaign
  int signal = 0;                          // the signal that did (0: none)
};

// Plays options.runs runs of `policy` against `adapter` with `runner`'s options; stops after the
// run in which the runner's StopSignal (RunOptions::stop) was requested.
CampaignResult run_campaign(const Runner& runner, Policy& policy, Adapter& adapter, const CampaignOptions& options,
                            CampaignObserver* observer = nullptr);

}  // namespace playtest
