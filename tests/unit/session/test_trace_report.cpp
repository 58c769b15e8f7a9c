// The report of recorded runs (session/trace_report.hpp), in process: a campaign's trace read back
// with the model it names (found beside the trace, read with the parameters the runs recorded), a
// model that is not there said in a note, a trace given twice refused, the title's choice.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "playtest/base/error.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/input/load.hpp"
#include "playtest/session/files.hpp"
#include "playtest/session/trace_report.hpp"
#include "scratch_test.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

namespace fs = std::filesystem;

class TraceReportTest : public playtest::testing::ScratchTest {
 protected:
  // Three runs of counter.ptm with N=3 (9 states) against the model itself, recorded as naming the
  // model "counter.ptm" (a path relative to where the run was started); returns the trace's path.
  std::string record_campaign() const {
    const std::string model = playtest::testing::source_dir() + "/examples/models/counter.ptm";
    const LoadedInput in = load_input({.path = model, .params = {"N=3"}, .values = true});
    const TestGraph& g = *in.graph;
    const Runner runner(g, {.max_steps = 20});
    const CampaignWorkers workers{.policy = policy_maker("random", g),
                                  .adapter = [&](std::uint32_t, const StopSignal&) -> std::unique_ptr<Adapter> {
                                    return std::make_unique<SimulatedSut>(g, 1);
                                  }};
    const std::string trace = (dir_ / "trace.jsonl").string();
    CampaignFiles files({.model = "counter.ptm", .params = {"N=3"}, .strategy = "random", .trace = trace}, 3);
    files.finish(g, run_campaign(runner, workers, {.runs = 3, .seed = 7}, files.observer()));
    return trace;
  }
};

TEST_F(TraceReportTest, TheModelTheRunsNameIsReadBesideTheTraceWithTheirParameters) {
  const std::string trace = record_campaign();
  fs::copy_file(playtest::testing::source_dir() + "/examples/models/counter.ptm", dir_ / "counter.ptm");
  const TraceReport r = load_trace_report({trace}, {});
  ASSERT_EQ(r.report.runs.size(), 3u);
  EXPECT_EQ(r.report.runs_missing, 0u);
  ASSERT_NE(r.graph, nullptr);
  EXPECT_EQ(r.report.model, r.graph.get());
  EXPECT_EQ(r.graph->num_vertices(), 9u);  // N=3 as recorded, not the model's default
  EXPECT_EQ(r.model, (dir_ / "counter.ptm").string());
  EXPECT_EQ(r.report.title, r.model);
  EXPECT_TRUE(r.notes.empty());
  EXPECT_TRUE(r.report.model_part.empty());
  for (std::uint32_t i = 0; i < 3; ++i) EXPECT_EQ(r.report.runs[i].seed, 7 + i);
}

TEST_F(TraceReportTest, GivenParametersAndATitleWinOverTheRecordedOnes) {
  const std::string trace = record_campaign();
  fs::copy_file(playtest::testing::source_dir() + "/examples/models/counter.ptm", dir_ / "counter.ptm");
  TraceReportOptions o;
  o.model.params = {"N=4"};
  o.title = "nightly";
  const TraceReport r = load_trace_report({trace}, o);
  ASSERT_NE(r.graph, nullptr);
  EXPECT_EQ(r.graph->num_vertices(), 16u);
  EXPECT_EQ(r.report.title, "nightly");
}

TEST_F(TraceReportTest, AModelThatIsNotThereIsANoteAndTheRunsAreStillReported) {
  const std::string trace = record_campaign();  // counter.ptm is neither here nor beside the trace
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  const TraceReport r = load_trace_report({trace}, {});
  fs::current_path(cwd);
  EXPECT_EQ(r.report.runs.size(), 3u);
  EXPECT_EQ(r.graph, nullptr);
  EXPECT_EQ(r.report.model, nullptr);
  EXPECT_TRUE(r.model.empty());
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("counter.ptm"), std::string::npos) << r.notes[0];
  EXPECT_NE(r.notes[0].find("give --model to draw it"), std::string::npos) << r.notes[0];
  EXPECT_EQ(r.report.title, trace);  // no model: the first trace
}

TEST_F(TraceReportTest, ATraceGivenTwiceIsRefusedAndAMissingOneIsAnInputError) {
  const std::string trace = record_campaign();
  EXPECT_THROW(load_trace_report({trace, trace}, {}), InputError);
  EXPECT_THROW(load_trace_report({(dir_ / "none.jsonl").string()}, {}), InputError);
}

}  // namespace
}  // namespace playtest
