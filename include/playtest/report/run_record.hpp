// A test run as a report shows it: verdict, seed, replay command and the steps, by the names the
// model gives its vertices and edges. Read back from a JSON-lines trace (docs/testing.md, "Reports")
// or made from a RunResult right after the run.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/campaign/trace_reader.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/run/runner.hpp"

namespace playtest::report {

// The records are the trace reader's (campaign/trace_reader.hpp): a report shows runs read back from
// traces and runs that just ended alike.
using playtest::RunRecord;
using playtest::StepRecord;

// What the trace writer records beside the steps (JsonlTraceWriter::begin_run).
struct RunContext {
  std::string strategy;
  std::string model;   // the model file as the user gave it
  std::string replay;  // a shell command that replays the run
};

// The record of a run that just ended.
// On a model explored on the fly its steps have no edge ids (discovery order is not the explored
// graph's), as in traces.
RunRecord run_record(const GameGraph& g, const RunResult& r, std::uint32_t run, const RunContext& context);

}  // namespace playtest::report
