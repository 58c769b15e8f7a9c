// The run trace as JSON lines (one object per step, written and flushed as it happens, so the trace
// survives the SUT, the adapter or playtest itself dying), and as human-readable text.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "playtest/run/campaign.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {

// Line formats (docs/testing.md):
//   {"event":"begin","run":1,"seed":42,"strategy":"random","model":"m.json","replay":"playtest run ..."}
//                                    (model and replay only when known: set_context)
//   {"event":"step","run":1,"step":1,"time_ms":0.1,"kind":"stimulus","vertex":"idle","label":"submit",
//    "edge":"e0","to":"busy"}          (edge/to absent for unexpected, silence; label absent for reset)
//   {"event":"end","run":1,"verdict":"FAIL","steps":12,"resets":0,"elapsed_ms":3.2,"purpose_met":false,
//    "message":"...","failure":{"vertex":"v","allowed":["a"],"observed":"b"}}
//   (failure for FAIL only, observed null for silence; with "interrupted":true,"signal":"SIGTERM" when
//   a stop request ended the run)
class JsonlTraceWriter final : public CampaignObserver {
 public:
  // `strategy` is written in every begin event of a campaign (on_run_begin).
  explicit JsonlTraceWriter(std::ostream& out, std::string strategy = {}) : out_(out), strategy_(std::move(strategy)) {}
  // What a report needs to show a run on its own: the model file, and the command that replays the
  // run with a given seed (called for every begin event); either may be empty.
  void set_context(std::string model, std::function<std::string(std::uint64_t seed)> replay) {
    model_ = std::move(model);
    replay_ = std::move(replay);
  }
  void begin_run(std::uint32_t run, std::uint64_t seed, std::string_view strategy);
  void on_run_begin(std::uint32_t run, std::uint64_t seed) override { begin_run(run, seed, strategy_); }
  void on_step(const TestGraph& g, const TraceStep& step) override;
  void on_end(const TestGraph& g, const RunResult& result) override;

 private:
  std::ostream& out_;
  std::string strategy_;
  std::string model_;
  std::function<std::string(std::uint64_t)> replay_;
  std::uint32_t run_ = 1;
};

// "  12   3.4 ms  stimulus     idle --submit--> busy"
std::string format_step(const TestGraph& g, const TraceStep& step);
// The last `max_steps` steps of r.trace, one per line (with a "... N earlier steps" line when cut).
std::string format_trace(const TestGraph& g, const RunResult& r, std::size_t max_steps = 100);

}  // namespace playtest
