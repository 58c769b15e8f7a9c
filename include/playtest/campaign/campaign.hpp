// A test campaign: several runs of one strategy against one system under test, run i with its own
// seed (derived from the campaign's seed and i only, so a run can be replayed alone and the results
// do not depend on how many runs go on at once), with the combined verdict and coverage. The runs
// are played by `jobs` workers in parallel, each with its own policy and its own adapter (its own
// instance of the system under test); a shard plays only its share of the runs (shard.hpp), and
// `playtest merge` puts the shards back together. `playtest run` is a campaign.
//
// Stopping: the runner's StopSignal (RunOptions::stop, raised by SIGINT/SIGTERM) stops every worker
// at once and the runs so far are kept (the interrupted ones with verdict ERROR); with fail_fast, the
// first FAIL stops the runs that come after it (docs/testing.md "Campaigns").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "playtest/campaign/shard.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/run/stop_signal.hpp"

namespace playtest {

// How the campaign's model was played, for its outputs to say (the trace's campaign line, --json,
// the text, JUnit; docs/testing.md "Models too big to explore"): a graph file (nothing to say), a
// model program explored whole before the runs, or one played on the fly and why.
struct ModelPlay {
  bool model_program = false;     // the model is a model program (.ptm)
  std::string on_the_fly_reason;  // played on the fly: why (empty when explored)
};

struct CampaignOptions {
  std::uint32_t runs = 1;  // runs of the whole campaign (all shards)
  std::uint64_t seed = 0;  // run i (1-based) plays with campaign_seed(seed, i)
  std::uint32_t jobs = 1;  // workers playing runs at the same time
  Shard shard;             // play only the runs of this shard
  // At the first FAIL, start no further run and stop the runs in progress that come after it (in
  // run order); the runs before it are played to the end, so they are those of a single job.
  bool fail_fast = false;
  // What else makes the campaign this campaign: the options that change what its runs do, by the
  // caller's names ("--steps" -> "100", "--sut" -> "./adapter"). They are written, with the model's
  // digest (graph_digest), in every output (the trace's campaign line, run --json, the JUnit
  // properties), so that `playtest merge` refuses the shards of different campaigns.
  std::map<std::string, std::string> settings;
  // Learning passes between runs (adaptive strategies, issue 22): run i starts with what the system
  // showed in the runs before it that are at least `jobs` places earlier in the shard's run order
  // (with one job: every earlier run), merged in run order, so that the results depend on the
  // number of jobs but never on thread timing. A worker waits for those runs to end before it
  // starts run i. false: every run starts knowing nothing.
  bool share_evidence = false;
  ModelPlay model_play;  // for the outputs only
  // The claims about the system at the end (CampaignResult::slack): their confidence and floor.
  ClaimOptions claims;
  // Learn what the system's choices depend on over the whole campaign at its end
  // (CampaignResult::history), for the claims per history. false: claims per vertex only.
  bool learn_history = true;
  // Stop after this many runs ended ERROR (not interrupted): a system that cannot be started, a
  // dead server, an adapter that breaks; no further run starts. 0: never.
  std::uint32_t max_errors = 0;
};

// The seed of run `run` (1-based) of a campaign with seed `seed`: `--seed S --runs 1` with S the
// seed of run i replays run i.
inline std::uint64_t campaign_seed(std::uint64_t seed, std::uint32_t run) { return seed + run - 1; }

// What the runs play with. Adapters hold a system under test, so every worker gets its own, made
// in the thread that called run_campaign before any run starts. Policies keep per-run state, so
// every run gets a fresh one: the policy factory is called once per run, by the worker that plays
// it, one call at a time (nothing a policy keeps may depend on which worker played which run).
struct CampaignWorkers {
  PolicyMaker policy;
  // The adapter of worker `job` (1-based, 1..jobs). Its waits must watch `stop` (the worker's stop
  // signal, alive as long as the adapter): the campaign raises it to stop the worker's run.
  std::function<std::unique_ptr<Adapter>(std::uint32_t job, const StopSignal& stop)> adapter;
};

// Sees a campaign as if its runs were played one after another: on_campaign_begin once, then for
// each run in run order on_run_begin, its steps (on_step) and its end (on_end). Calls never overlap
// and the events of one run are never interleaved with another's: with several jobs, the run that
// is first in run order among those not yet reported is reported as it happens, the events of the
// runs after it are held back (in memory) until their turn. Calls may come from any worker thread.
class CampaignObserver : public RunObserver {
 public:
  virtual void on_campaign_begin(const GameGraph& g, const CampaignOptions& options) {
    (void)g;
    (void)options;
  }
  virtual void on_run_begin(std::uint32_t run, std::uint64_t seed) {
    (void)run;
    (void)seed;
  }
  // For writers that must hold nothing back (one trace file per run, so that a SIGKILL loses no run
  // in progress): the observer of run `run` as it is played, told of its steps and its end by the
  // thread that plays it, besides the ordered calls above. With several jobs runs are played at
  // once, so calls for different runs may come at the same time. nullptr (the default): none.
  virtual RunObserver* on_live_run(std::uint32_t run, std::uint64_t seed) {
    (void)run;
    (void)seed;
    return nullptr;
  }
};

struct CampaignResult {
  std::vector<RunResult> runs;             // the runs played, in run order (RunResult::run: the index)
  std::uint32_t runs_requested = 0;        // CampaignOptions::runs (the whole campaign)
  std::uint32_t runs_in_shard = 0;         // how many of them this shard holds
  std::uint64_t seed = 0;                  // CampaignOptions::seed
  Shard shard;                             // CampaignOptions::shard
  std::vector<std::uint32_t> edge_visits;  // per EdgeId, over all runs
  Coverage coverage;                       // of edge_visits
  Verdict verdict = Verdict::pass;         // combine() over the runs
  bool interrupted = false;                // the runner's StopSignal ended the campaign early
  int signal = 0;                          // the signal that did (0: none)
  std::uint32_t failed_fast = 0;           // fail_fast: the failing run that stopped the campaign (0: none)
  // The first run whose model failed (RunResult::model_error; on the fly): no run starts after it.
  std::uint32_t model_failed = 0;
  ModelPlay model_play;  // CampaignOptions::model_play
  // max_errors: the run whose ERROR reached the limit and stopped the campaign (0: none).
  std::uint32_t stopped_by_errors = 0;
  // The campaign's identity (CampaignOptions::settings and fail_fast; the model's graph_digest, ""
  // on the fly, where the whole model is not known).
  std::map<std::string, std::string> settings;
  bool fail_fast = false;
  std::string model_digest;
  // What the system showed over every run, merged in run order (strategy/evidence.hpp), what its
  // choices were learned to depend on (strategy/history_model.hpp), and the model's slack: every
  // outcome the model allows that the system never showed, at a vertex or in some histories
  // (strategy/claims.hpp). A finding about the model, whatever the verdict.
  std::shared_ptr<const Evidence> evidence;
  HistoryModel history;
  std::vector<OutcomeClaim> slack;

  // Runs that were stopped before they ended (RunResult::interrupted).
  std::uint32_t runs_not_completed() const;
  // Runs of the shard that never started (stopped campaign).
  std::uint32_t runs_not_started() const { return runs_in_shard - static_cast<std::uint32_t>(runs.size()); }
};

// Plays the runs of options.shard with options.jobs workers (each its own adapter from `workers`,
// its own thread, a fresh policy for each run). Runs are handed out in run order to whichever worker is free, so
// which worker plays a run depends on timing, but nothing else does: run i's result depends only
// on the seed of run i. Throws UsageError("runs" / "jobs" / "shard") for zero runs or jobs and for
// a shard without runs; exceptions other than adapter failures (which make a run ERROR) stop every
// worker and are rethrown.
//
// On a model explored on the fly the runs share the runner's ModelGraph (a run expands what it
// reaches; later runs find it expanded), so there is one job (UsageError("jobs") otherwise: a
// ModelGraph is not thread-safe and edge ids follow the order of discovery) and no shard
// (UsageError("shard"): another shard's runs would discover, hence number, the edges differently,
// and `playtest merge` adds coverage up by edge id). Coverage is over the edges discovered.
CampaignResult run_campaign(const Runner& runner, const CampaignWorkers& workers, const CampaignOptions& options,
                            CampaignObserver* observer = nullptr);

// One job with the caller's policy and adapter (options.jobs must be 1, else UsageError("jobs")):
// the adapter watches whatever StopSignal it was given, normally the runner's (RunOptions::stop).
CampaignResult run_campaign(const Runner& runner, Policy& policy, Adapter& adapter, const CampaignOptions& options,
                            CampaignObserver* observer = nullptr);

}  // namespace playtest
