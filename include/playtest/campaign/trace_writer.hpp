// The run trace as JSON lines (one object per step, written and flushed as it happens, so the trace
// survives the SUT, the adapter or playtest itself dying), and as human-readable text.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "playtest/campaign/campaign.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {

// Line formats (docs/testing.md):
//   {"edges":16,"event":"campaign","labels":6,"model_digest":"9a0c...","runs":40,"seed":1,
//    "settings":{"--steps":"100",...},"strategy":"random"}
//          (first; "shard":"2/4" in a shard, "fail_fast":true with --fail-fast; edges and labels:
//          the model's, for coverage; on a model explored on the fly they are null, unknown,
//          "on_the_fly":true and there is no digest; model_digest and settings identify the
//          campaign, CampaignOptions::settings)
//          A model program has "exploration": "whole" or "on_the_fly", with "on_the_fly_reason" then.
//   {"event":"begin","run":1,"seed":42,"strategy":"random","model":"m.json","replay":"playtest run ..."}
//                                    (model, params (a model program's NAME=VALUE) and replay
//                                    only when known: set_context)
//   {"event":"step","run":1,"step":1,"time_ms":0.1,"kind":"stimulus","vertex":"idle","label":"submit",
//    "edge":"e0","to":"busy"}          (edge/to absent for unexpected, silence; label absent for reset;
//                                       edge absent on a model explored on the fly)
//   {"event":"end","run":1,"verdict":"FAIL","steps":12,"resets":0,"elapsed_ms":3.2,"purpose_met":false,
//    "message":"...","failure":{"vertex":"v","allowed":["a"],"observed":"b"}}
//   (failure for FAIL only, observed null for silence; with "interrupted":true,"signal":"SIGTERM" when
//   a stop request ended the run)
// Writes campaigns on a TestGraph and on a model explored on the fly alike.
class JsonlTraceWriter final : public CampaignObserver {
 public:
  // `strategy` is written in every begin event of a campaign (on_run_begin).
  explicit JsonlTraceWriter(std::ostream& out, std::string strategy = {}) : out_(out), strategy_(std::move(strategy)) {}
  // What a report needs to show a run on its own: the model file and its parameters (a model
  // program's NAME=VALUE, written as "params" in the begin line when not empty), and the command
  // that replays the run with a given seed (called for every begin event); any may be empty.
  void set_context(std::string model, std::function<std::string(std::uint64_t seed)> replay,
                   std::vector<std::string> params = {}) {
    model_ = std::move(model);
    replay_ = std::move(replay);
    params_ = std::move(params);
  }
  void begin_run(std::uint32_t run, std::uint64_t seed, std::string_view strategy);
  void on_campaign_begin(const GameGraph& g, const CampaignOptions& options) override;
  void on_run_begin(std::uint32_t run, std::uint64_t seed) override { begin_run(run, seed, strategy_); }
  void on_step(const GameGraph& g, const TraceStep& step) override;
  void on_end(const GameGraph& g, const RunResult& result) override;
  // The campaign line with the model's totals (nullopt: unknown, on the fly) and digest ("": none).
  void write_campaign(std::optional<Coverage> totals, const CampaignOptions& options,
                      const std::string& model_digest = {});

 private:
  std::ostream& out_;
  std::string strategy_;
  std::string model_;
  std::vector<std::string> params_;
  std::function<std::string(std::uint64_t)> replay_;
  std::uint32_t run_ = 1;
};

// A campaign's trace as one file per run, DIR/run-<index>.jsonl (the index zero-padded to the width
// of the campaign's run count), each in JsonlTraceWriter's format with its own campaign line, so
// that every file can be read (and merged) on its own. A run's file is written while the run is
// played (CampaignObserver::on_live_run: with several jobs too, nothing is held back), flushed
// step by step, so that a SIGKILL loses no run in progress: the runs that were cut lack their end.
class JsonlTraceDirWriter final : public CampaignObserver {
 public:
  // Creates `dir` when it does not exist; throws Error when it cannot.
  JsonlTraceDirWriter(std::string dir, std::string strategy);
  ~JsonlTraceDirWriter() override;
  // As JsonlTraceWriter::set_context, for every run's file.
  void set_context(std::string model, std::function<std::string(std::uint64_t seed)> replay,
                   std::vector<std::string> params = {}) {
    model_ = std::move(model);
    replay_ = std::move(replay);
    params_ = std::move(params);
  }
  void on_campaign_begin(const GameGraph& g, const CampaignOptions& options) override;
  RunObserver* on_live_run(std::uint32_t run, std::uint64_t seed) override;
  // Throws Error when a file could not be written.
  void close();

 private:
  class RunFile;
  void run_done(std::uint32_t run, const std::string& path, bool ok, int err);  // err: errno when !ok

  std::string dir_, strategy_;
  std::optional<Coverage> totals_;  // the model's, for every file's campaign line (none on the fly)
  std::string digest_;              // the model's graph_digest ("" on the fly)
  CampaignOptions options_;
  std::mutex m_;                                            // guards the members below
  std::map<std::uint32_t, std::unique_ptr<RunFile>> open_;  // the runs being played
  std::string failed_;                                      // the first file that could not be written
  int failed_errno_ = 0;                                    // and the errno its failure left (0: none)
  std::string model_;
  std::vector<std::string> params_;
  std::function<std::string(std::uint64_t)> replay_;
};

// "  12   3.4 ms  stimulus     idle --submit--> busy"
std::string format_step(const GameGraph& g, const TraceStep& step);
// The last `max_steps` steps of r.trace, one per line (with a "... N earlier steps" line when cut).
std::string format_trace(const GameGraph& g, const RunResult& r, std::size_t max_steps = 100);

// The header of a single run written by write_trace.
struct TraceHeader {
  std::uint32_t run = 1;
  std::uint64_t seed = 0;
  std::string strategy = "replay";
  std::string model;                // written as "model" in the begin line when not empty
  std::vector<std::string> params;  // written as "params" when not empty
};
// Writes one run (r.trace must be kept) as a JSON-lines trace that read_trace
// (campaign/trace_reader.hpp) reads back.
void write_trace(std::ostream& out, const GameGraph& g, const RunResult& r, const TraceHeader& header);

}  // namespace playtest
