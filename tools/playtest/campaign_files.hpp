// What `playtest run` writes around a campaign: the JSON-lines trace (one file, or one per run in a
// directory) and the progress line while it runs, then the HTML report and the JUnit file. Kept out
// of cmd_run.cpp so the command only registers options, calls the library and renders.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "playtest/graph/game_graph.hpp"
#include "playtest/run/campaign.hpp"

namespace playtest::cli {

struct CampaignFileNames {
  std::string model;                                      // the model file as the user named it
  std::vector<std::string> params;                        // its parameters (--param NAME=VALUE)
  std::string strategy;                                   // the strategy's name
  std::string trace;                                      // --trace ("" none)
  std::string trace_dir;                                  // --trace-dir ("" none)
  std::string report;                                     // --report ("" none)
  std::string junit;                                      // --junit ("" none)
  std::function<std::string(std::uint64_t seed)> replay;  // the command that replays a run
};

// Opens the outputs before the campaign (an unwritable path fails before any run; the JUnit file
// and the report are written to temporary files renamed into place when complete) and passes
// the campaign on to them; shows a progress line over the runs on a terminal. On a model explored
// on the fly (docs/testing.md "Models too big to explore") the report has no picture of the model.
class CampaignFiles {
 public:
  CampaignFiles(const CampaignFileNames& names, std::uint32_t runs);
  ~CampaignFiles();
  CampaignFiles(const CampaignFiles&) = delete;
  CampaignFiles& operator=(const CampaignFiles&) = delete;

  CampaignObserver* observer();
  // After the campaign (also after an interrupted one): ends the progress line, closes the traces
  // and writes the JUnit file, the records CI needs, before anything slow.
  void finish(const GameGraph& g, const CampaignResult& c);
  // Last, the HTML report: Graphviz may take minutes per picture; once `stop` is requested the
  // picture in progress is killed and the page is written without the rest.
  void write_report(const GameGraph& g, const CampaignResult& c, const StopSignal* stop);

 private:
  struct State;
  CampaignFileNames names_;
  std::unique_ptr<State> state_;
};


}  // namespace playtest::cli
