// What a campaign writes around itself (docs/testing.md "Reports"): the JSON-lines trace (one file,
// or one per run in a directory), the JUnit file and the HTML report, as one observer that a C++
// test playing a campaign in process (GoogleTest) passes to run_campaign just as `playtest run`
// does. Every output is opened before the first run (an unwritable path fails before any run);
// the JUnit file and the report are written to temporary files renamed into place when complete.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "playtest/campaign/campaign.hpp"
#include "playtest/graph/game_graph.hpp"

namespace playtest {

struct CampaignFileOptions {
  std::string model;                // the model file as the user named it (traces, JUnit, report)
  std::vector<std::string> params;  // its parameters (NAME=VALUE), recorded in the traces
  std::string strategy;             // the strategy's name
  std::string trace;                // the JSON-lines trace of every run, in run order ("" none; "-" stdout)
  std::string trace_dir;            // DIR/run-<i>.jsonl per run instead ("" none)
  std::string report;               // the HTML report ("" none)
  std::string junit;                // the JUnit XML file ("" none)
  std::string tool_version;         // the report's footer
  // The command that replays the run of a seed (the traces' and the report's "reproduce" line;
  // session/replay_command.hpp replay_command); null: none.
  std::function<std::string(std::uint64_t seed)> replay;
  // Called as each run begins with the runs begun before it and the campaign's runs (a progress
  // line); null: nothing.
  std::function<void(std::uint32_t done, std::uint32_t runs)> on_progress;
};

class CampaignFiles {
 public:
  // Opens the outputs; throws playtest::Error for a path that cannot be written.
  CampaignFiles(const CampaignFileOptions& options, std::uint32_t runs);
  ~CampaignFiles();
  CampaignFiles(const CampaignFiles&) = delete;
  CampaignFiles& operator=(const CampaignFiles&) = delete;

  // The observer to give run_campaign (the traces and the progress callback).
  CampaignObserver* observer();
  // After the campaign (also after an interrupted one): closes the traces and writes the JUnit file,
  // the records CI needs, before anything slow.
  void finish(const GameGraph& g, const CampaignResult& c);
  // Last, the HTML report (nothing when not asked for): Graphviz may take minutes per picture;
  // once `stop` is requested the picture in progress is killed and the page is written without the
  // rest. On a model explored on the fly the report has no picture of the model.
  void write_report(const GameGraph& g, const CampaignResult& c, const StopSignal* stop = nullptr);

 private:
  struct State;
  CampaignFileOptions options_;
  std::unique_ptr<State> state_;
};

}  // namespace playtest
