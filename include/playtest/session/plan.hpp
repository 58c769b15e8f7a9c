// The plan of a campaign (issue 33): every decision about the runs, made once in the library from a
// loaded input and what the user asked: the strategy and its purpose, whether the model must be
// explored whole or may be played on the fly, the budgets and timeouts, the adapter's command and
// environment, and whether any run can meet the purpose at all. `playtest run` parses its flags into
// a CampaignRequest, calls plan_campaign and renders what the campaign returns; a C++ test asks the
// same questions in process. A refusal is an exception of the closed error vocabulary
// (base/error.hpp: UsageError, GraphError, with the option or location to change), never a partial
// plan.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "playtest/campaign/campaign.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/input/load.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/run/stop_signal.hpp"
#include "playtest/run/subprocess_adapter.hpp"
#include "playtest/strategy/claims.hpp"
#include "playtest/strategy/strategy_row.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest {

// The strategy and its test purpose as asked (the tool's --strategy, --purpose, --goal, --edge,
// --traps, the rows' own options, --allow-unreachable, --allow-uncertified, --rare-rate).
struct StrategyRequest {
  std::vector<std::string> strategies{"random"};  // (simulate compares several; run plays the first)
  std::string purpose = "auto";
  std::vector<std::string> goals, edges, traps;
  StrategyArgs args;               // the rows' options that were given
  bool allow_unreachable = false;  // run even when no run can meet the purpose
  bool allow_uncertified = false;  // play a solver strategy that could not be certified
  // With adaptation, outcomes never seen and ruled out above this rate (at 99.9%) at their vertex
  // and in every history offered are futile to wait for (strategy/claims.hpp).
  double rare_rate = 0.01;
};

// The system under test as asked: the adapter's command, where its stderr goes, the timeouts.
struct SutRequest {
  std::string sut;         // the adapter's shell command
  std::string sut_stderr;  // "" (inherit), a file, or "discard" (run/subprocess_adapter.hpp set_stderr)
  std::uint32_t timeout_ms = 1000, ack_timeout_ms = 5000, ready_timeout_ms = 5000;
  std::vector<std::string> vertex_timeouts;  // VERTEX=MS
};

// A campaign as asked.
struct CampaignRequest {
  StrategyRequest strategy;
  SutRequest sut;
  std::uint64_t steps = 1000;  // per run; 0: none
  double time_s = 0;           // per run; 0: none
  std::uint64_t seed = 0;
  std::uint32_t runs = 1, jobs = 1, max_errors = 0;
  std::string shard = "1/1";  // K/M
  bool fail_fast = false;
  bool adapt = true;          // learn the system's choices and re-plan (issue 22)
  bool shrink_after = false;  // the first FAIL is shrunk after the campaign (on the whole graph)
  // What identifies the campaign besides its model (CampaignOptions::settings, for merge).
  std::map<std::string, std::string> settings;
};

// Why `r` needs the model's whole graph rather than a model program played on the fly ("strategy
// 'reach'", "--goal", "--traps", "--purpose labels", ...; docs/testing.md "Models too big to
// explore"), or "" when every strategy it names plays on the fly.
std::string whole_graph_reason(const StrategyRequest& r);
// The same for a campaign: also --vertex-timeout, a shrink after the runs, several jobs or shards
// (runs on the fly share one growing graph).
std::string whole_graph_reason(const CampaignRequest& r);

// The strategy `name` (UsageError("strategy") with "did you mean" for an unknown one) with the
// purpose `r` asks for.
StrategySpec strategy_spec(const StrategyRequest& r, const std::string& name);
// The claims' options of the rare rate (strategy/claims.hpp).
ClaimOptions claim_options(const StrategyRequest& r);
// Refuses (GraphError, naming why) a purpose that no run can meet (diagnose/analyze.hpp
// purpose_feasibility), unless allow_unreachable.
void refuse_unreachable(const StrategyRequest& r, const TestGraph& g, const TestPurpose& purpose);
// The strategy of `spec` prepared for `purpose` on `g` (catalog/strategy_table.hpp policy_maker): a
// refusal is a UsageError naming what to change.
PolicyMaker prepare_policy(const StrategyRequest& r, const StrategySpec& spec, const GameGraph& g,
                           const TestPurpose& purpose, Adaptation adapt = Adaptation::off);

// The adapter's options (set_stderr: UsageError("sut_stderr") for an unwritable file).
SubprocessOptions subprocess_options(const SutRequest& r);
// The timeouts into `ro` (vertex_timeouts_from_specs: UsageError("vertex_timeout") when malformed).
void apply_timeouts(const TestGraph& g, const SutRequest& r, RunOptions& ro);

// Every decision about a campaign on `g` (the loaded graph, or `on_the_fly`: a model program
// explored as the runs reach its states; one code path for both).
struct CampaignPlan {
  StrategySpec spec;
  Adaptation adapt = Adaptation::off;
  // Plays one run; its options() are the budgets, the purpose (resolved on the graph), the
  // timeouts, the claims and the values. (It keeps a reference to the graph.)
  Runner runner;
  CampaignOptions campaign;   // runs, seed, jobs, shard, fail-fast, settings, evidence, errors
  SubprocessOptions adapter;  // the command, its timeouts, the model's parameters in its environment
  PolicyMaker policy;         // the strategy prepared for the purpose
};
// The checks come in the order of the messages a user sees: the strategy, the purpose (nothing to
// test), the adapter's options, the purpose's feasibility (whole graphs), the strategy's own refusal.
// The runs stop when `stop` is requested.
CampaignPlan plan_campaign(const LoadedInput& in, const GameGraph& g, const ModelGraph* on_the_fly,
                           const CampaignRequest& r, const ModelPlay& model_play, StopSignal& stop);

}  // namespace playtest
