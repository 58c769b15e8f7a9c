// What `playtest run` shows of a campaign: one text rendering for people (a line per run, the
// steps that led to a FAIL or ERROR, what was left of an INCONCLUSIVE run's purpose, coverage and
// verdict) and one JSON rendering for programs (docs/testing.md "Output").
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "playtest/run/campaign.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {

struct RunOutputOptions {
  bool per_run = true;              // a line per run (false: only coverage and verdict, --quiet)
  std::size_t trace_steps = 20;     // the last steps shown for a FAIL or ERROR run
  std::size_t purpose_listed = 10;  // the uncovered purpose edges named for an INCONCLUSIVE run
};

// What the purpose asked for and a run did not do: the purpose edges it left uncovered
// (cover), in id order; empty for reach and none purposes and for runs that met their purpose.
std::vector<EdgeId> purpose_edges_left(const Runner& runner, const RunResult& r);

void write_run_text(std::ostream& out, const Runner& runner, const RunResult& r, std::uint32_t run_index,
                    const RunOutputOptions& options = {});
void write_campaign_text(std::ostream& out, const Runner& runner, const CampaignResult& c,
                         const RunOutputOptions& options = {});

// {"verdict", "strategy", "coverage", "interrupted", "signal", "runs": [{verdict, message, seed, steps, resets,
// elapsed_ms, purpose_met, final_vertex, coverage, failure?, purpose_left?}]}
nlohmann::json campaign_json(const Runner& runner, const CampaignResult& c, std::string_view strategy);

}  // namespace playtest
