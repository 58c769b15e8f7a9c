// Shrinking after a campaign (docs/diagnosis.md): the first failing run of a campaign shrunk to a
// shortest failing stimulus sequence (diagnose/shrink.hpp) against an adapter of its own, and the
// minimal run written as a trace with the command that replays it. `playtest run --shrink` and
// `playtest shrink` are these calls; a C++ test does the same after run_campaign.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "playtest/campaign/campaign.hpp"
#include "playtest/diagnose/render.hpp"
#include "playtest/diagnose/replay.hpp"
#include "playtest/diagnose/shrink.hpp"
#include "playtest/run/subprocess_adapter.hpp"

namespace playtest {

struct ShrinkToFileOptions {
  std::string output;               // where the minimal failing trace goes (required)
  ShrinkOptions shrink;             // K, threshold, budget, match (its run options are the caller's `run`)
  std::string trace;                // the failing trace as the user named it, for the outputs
  std::string model;                // the model as the user named it (the written trace's begin line)
  std::vector<std::string> params;  // the model program's NAME=VALUE (the written trace's begin line)
  // The command that replays the written trace (ShrinkContext::replay_command); null: none.
  std::function<std::string(const std::string& output)> replay;
};

struct ShrinkDone {
  ShrinkResult result;
  ShrinkContext context;  // what write_shrink_text and shrink_json say about it
};

// Shrinks `target` on `adapter` with the timeouts and stop signal of `run` (its purpose is replaced
// by none), writes a failing run of the minimal script to o.output (opened first: a bad path fails
// before the search; a previous file is kept when nothing failed) with `seed` on its begin line.
ShrinkDone shrink_to_file(const TestGraph& g, const ReplayTarget& target, Adapter& adapter, const RunOptions& run,
                          const ShrinkToFileOptions& o, std::uint64_t seed);

// The first failing run of `c` shrunk as shrink_to_file, against a subprocess adapter of its own
// started with `adapter` (job 1, as in the campaign); nullopt when o.output is empty, nothing
// failed or the campaign was interrupted. o.trace "" is said as "the failing run".
std::optional<ShrinkDone> shrink_first_failure(const TestGraph& g, const CampaignResult& c, const RunOptions& run,
                                               SubprocessOptions adapter, ShrinkToFileOptions o);

}  // namespace playtest
