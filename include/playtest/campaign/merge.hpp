// Putting the shards of a campaign back together (`playtest merge`): a CI matrix of M jobs runs
// `playtest run --shard K/M` (or `simulate --shard K/M`), and their outputs are combined into what one
// unsharded campaign would have produced: the same per-run results in run order, the same combined
// verdict and coverage, the same JUnit file and trace (up to the times measured). Each input is read
// from its content: a run trace (JSON lines), a JUnit file written by `playtest run`, `run --json` or
// `simulate --json` output. Inputs are checked to belong together (same strategy, seed, run count
// and shard count, the same model (its digest) and settings; every shard present once; no run
// twice), else InputError. Runs missing from the inputs for no stated reason (a job killed by
// SIGKILL, a file cut or edited) make the merged campaign incomplete: never a PASS.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/campaign/junit_report.hpp"
#include "playtest/campaign/shard.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {

enum class CampaignPartKind : std::uint8_t { trace, junit, run_json, simulate_json };
std::string_view to_string(CampaignPartKind k);  // "trace", "JUnit", "run --json", "simulate --json"

// One run as a trace holds it: its lines (begin, steps, end) as written.
struct TraceRun {
  std::uint32_t run = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> lines;
  nlohmann::json end;               // the end event (null when the trace stops before it)
  std::vector<std::string> edges;   // the edges its steps followed (names, in step order)
  std::vector<std::string> labels;  // their labels
};

// One input of a merge: which campaign (and shard) it belongs to, and what it holds.
struct CampaignPart {
  std::string source;  // its name, for messages
  CampaignPartKind kind = CampaignPartKind::trace;
  std::string strategy;  // simulate: the strategies, comma-separated
  std::uint64_t seed = 0;
  std::uint32_t runs = 0;  // of the whole campaign
  Shard shard;
  // The campaign's identity (CampaignOptions::settings): "" / null when the part does not say.
  std::string model_digest;
  nlohmann::json settings;
  bool fail_fast = false;
  nlohmann::json document;           // run/simulate --json: the output; trace: its campaign event
  JunitSuite junit;                  // JUnit
  std::vector<TraceRun> trace_runs;  // trace
};

// Reads one input; `source` names it in messages. Throws ParseError (located) when the text is not
// one of the four kinds or not as playtest writes it.
CampaignPart read_campaign_part(std::string_view text, std::string source);

struct MergedCampaign {
  bool simulate = false;  // simulate --json parts: `comparison` holds the result
  std::optional<StrategyComparison> comparison;
  // run parts: what `run --json` prints for the whole campaign (without "exit_code"), built from the
  // run --json parts when there are any, else from the traces, else from the JUnit files (which
  // hold no coverage).
  nlohmann::json summary;
  Verdict verdict = Verdict::pass;
  // Runs missing with no reason given (runs_missing, shard.hpp): they count as ERROR, so an
  // incomplete campaign is never a PASS. summary["runs_missing"] and ["missing"] say which.
  MissingRuns missing;
  bool interrupted = false;                       // a shard was stopped by a signal
  int signal = 0;                                 // its signal number (0: none or unknown)
  std::optional<JunitSuite> junit;                // when JUnit files were given
  std::optional<std::vector<std::string>> trace;  // the merged trace's lines, when traces were given
};

// Merges the parts of one campaign (all of run's kinds, or all simulate --json). Throws InputError
// when they do not belong together or do not cover every shard.
MergedCampaign merge_campaign(std::vector<CampaignPart> parts);

// A merged campaign for people: a line per run, the failed runs with their replay commands,
// coverage and verdict (or the strategy table of a simulation).
void write_merged_text(std::ostream& out, const MergedCampaign& m);

}  // namespace playtest
