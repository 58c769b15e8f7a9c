// What `playtest run` shows of a campaign: one text rendering for people (a line per run, the
// steps that led to a FAIL or ERROR, what was left of an INCONCLUSIVE run's purpose, coverage and
// verdict) and one JSON rendering for programs (docs/testing.md "Output").
#pragma once

#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "playtest/campaign/campaign.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {

struct RunOutputOptions {
  bool per_run = true;              // a line per run (false: only coverage and verdict, --quiet)
  std::size_t trace_steps = 20;     // the last steps shown for a FAIL or ERROR run
  std::size_t purpose_listed = 10;  // the uncovered purpose edges named for an INCONCLUSIVE run
  // The command that replays the run with this seed alone (campaign_seed): shown for every FAIL
  // and every ERROR that was not an interruption. Empty: none.
  std::function<std::string(std::uint64_t seed)> replay;
  // The purpose in words when the user did not ask for one (the strategy's default, --purpose auto):
  // an INCONCLUSIVE campaign then says which purpose was not met and that purpose none is the
  // smoke test. Empty: the purpose was asked for.
  std::string default_purpose;
};

// options.replay for run `r` ("" when the run needs no replay or there is no command).
std::string replay_command(const RunOutputOptions& options, const RunResult& r);

// What the purpose asked for and a run did not do: the purpose edges it left uncovered
// (cover), in id order; empty for reach and none purposes and for runs that met their purpose.
// On the fly: the edges discovered by the end of the run that it did not take.
std::vector<EdgeId> purpose_edges_left(const Runner& runner, const RunResult& r);

void write_run_text(std::ostream& out, const Runner& runner, const RunResult& r, std::uint32_t run_index,
                    const RunOutputOptions& options = {});
void write_campaign_text(std::ostream& out, const Runner& runner, const CampaignResult& c,
                         const RunOutputOptions& options = {});

// {"verdict", "strategy", "seed", "runs_requested", "runs_in_shard", "shard"?, "coverage", "edge_visits"
//  {edge: visits}, "covered_labels", "interrupted", "signal"?, "failed_fast"?, "runs_not_completed",
//  "runs_not_started", "runs": [{run, verdict, message, seed, steps, resets, elapsed_ms, purpose_met,
//  final_vertex, coverage, interrupted?, failure?, purpose_left?, stopped_by?, untestable_edges?, replay?}],
//  "model_slack": [claim]}
// A claim (strategy/claims.hpp): {kind ("never_at_vertex" | "never_in_histories"), vertex, label, edge,
// visits, histories, rate_ruled_out_above, confidence, declared_prob, text, edges_behind?, memory?,
// seen?, without?, with?}; stopped_by: the claims that made the run stop because continuing was
// futile (RunOptions::stop_when_futile); model_slack: CampaignResult::slack.
// edge_visits and covered_labels (the edges visited and the labels seen, over all runs) let
// `playtest merge` compute the coverage of shards put together. On the fly also "on_the_fly": true
// and "vertices_expanded"; coverage totals are the discovered part's, and the text says "of the
// explored part".
nlohmann::json campaign_json(const Runner& runner, const CampaignResult& c, std::string_view strategy,
                             const RunOutputOptions& options = {});

}  // namespace playtest
