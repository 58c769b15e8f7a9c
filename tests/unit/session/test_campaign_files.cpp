// A campaign played in process as a C++ test would play it: the model loaded by input/load.hpp,
// the runs against a simulated system, the traces and the JUnit file written by the library's
// observer (session/files.hpp) to a temporary directory; and the replay command line
// (session/replay_command.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "playtest/campaign/mutation.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/diagnose/script.hpp"
#include "playtest/input/load.hpp"
#include "playtest/session/files.hpp"
#include "playtest/session/replay_command.hpp"
#include "playtest/session/shrink_after_run.hpp"
#include "scratch_test.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

class CampaignFilesTest : public playtest::testing::ScratchTest {};

TEST_F(CampaignFilesTest, TheObserverWritesTheTraceAndTheJUnitFileOfACampaign) {
  const std::string model = playtest::testing::source_dir() + "/examples/models/counter.ptm";
  const LoadedInput in = load_input({.path = model, .params = {"N=3"}, .values = true});
  ASSERT_TRUE(in.graph.has_value());
  const TestGraph& g = *in.graph;
  const Runner runner(g, {.max_steps = 20});
  const CampaignWorkers workers{.policy = policy_maker("random", g),
                                .adapter = [&](std::uint32_t, const StopSignal&) -> std::unique_ptr<Adapter> {
                                  return std::make_unique<SimulatedSut>(g, 1);
                                }};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> progress;
  CampaignFiles files(
      {.model = "counter.ptm",
       .params = {"N=3"},
       .strategy = "random",
       .trace = (dir_ / "trace.jsonl").string(),
       .junit = (dir_ / "junit.xml").string(),
       .tool_version = "test",
       .replay = [](std::uint64_t seed) { return "playtest run counter.ptm --seed " + std::to_string(seed); },
       .on_progress = [&](std::uint32_t done, std::uint32_t runs) { progress.emplace_back(done, runs); }},
      3);
  // Opened before the runs: the JUnit file is written whole at the end, not before.
  EXPECT_FALSE(fs::exists(dir_ / "junit.xml"));
  const CampaignResult c = run_campaign(runner, workers, {.runs = 3, .seed = 7}, files.observer());
  files.finish(g, c);
  ASSERT_EQ(c.runs.size(), 3u);
  EXPECT_EQ(progress, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 3}, {1, 3}, {2, 3}}));

  // The trace: a begin line per run with its seed, the model, its parameters and the replay
  // command; an end line per run with its verdict.
  const std::vector<nlohmann::json> lines = json_lines(read_file(dir_ / "trace.jsonl"));
  std::vector<nlohmann::json> begins, ends;
  for (const nlohmann::json& j : lines) {
    if (j.value("event", "") == "begin") begins.push_back(j);
    if (j.value("event", "") == "end") ends.push_back(j);
  }
  ASSERT_EQ(begins.size(), 3u);
  ASSERT_EQ(ends.size(), 3u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(begins[i]["run"], i + 1);
    EXPECT_EQ(begins[i]["seed"], 7 + i);
    EXPECT_EQ(begins[i]["strategy"], "random");
    EXPECT_EQ(begins[i]["model"], "counter.ptm");
    EXPECT_EQ(begins[i]["params"], nlohmann::json::array({"N=3"}));
    EXPECT_EQ(begins[i]["replay"], "playtest run counter.ptm --seed " + std::to_string(7 + i));
  }

  // The JUnit file: one suite named after the model, one test case per run, as many failures as
  // FAIL verdicts.
  const std::string junit = read_file(dir_ / "junit.xml");
  EXPECT_NE(junit.find("<testsuite name=\"playtest run counter.ptm\" tests=\"3\" failures=\"0\" errors=\"0\" "
                       "skipped=\"0\""),
            std::string::npos)
      << junit;
  std::size_t cases = 0;
  for (std::size_t at = junit.find("<testcase"); at != std::string::npos; at = junit.find("<testcase", at + 1)) ++cases;
  EXPECT_EQ(cases, 3u);
  EXPECT_NE(junit.find("classname=\"playtest.random\""), std::string::npos);
  EXPECT_EQ(junit.find("<failure"), std::string::npos);  // the system is the model: nothing fails
  EXPECT_EQ(c.verdict, Verdict::pass);
}

TEST_F(CampaignFilesTest, AnUnwritableOutputFailsBeforeAnyRun) {
  EXPECT_THROW(
      CampaignFiles({.model = "m", .strategy = "random", .junit = (dir_ / "no" / "such" / "j.xml").string()}, 1),
      Error);
}

TEST_F(CampaignFilesTest, TheFirstFailureIsShrunkToATraceWithItsReplayCommand) {
  const TestGraph g = load_test_graph({.path = playtest::testing::source_dir() + "/examples/sut/workers.json"});
  const Runner runner(g, {.max_steps = 200});
  // The system under test: the first mutant of the model that a run of the campaign catches.
  for (const Mutant& m : make_mutants(g, 20, 4)) {
    const CampaignWorkers workers{.policy = policy_maker("random", g),
                                  .adapter = [&](std::uint32_t, const StopSignal&) -> std::unique_ptr<Adapter> {
                                    return std::make_unique<SimulatedSut>(m.graph, 3);
                                  }};
    const CampaignResult c = run_campaign(runner, workers, {.runs = 4, .seed = 1});
    const auto failed =
        std::find_if(c.runs.begin(), c.runs.end(), [](const RunResult& r) { return r.verdict == Verdict::fail; });
    if (failed == c.runs.end()) continue;
    SimulatedSut sut(m.graph, 3);
    const fs::path out = dir_ / "minimal.jsonl";
    const ShrinkDone d = shrink_to_file(g, replay_target(g, *failed), sut, {.max_steps = 200},
                                        {.output = out.string(),
                                         .shrink = {.replay = {.attempts = 5}},
                                         .trace = "campaign.jsonl",
                                         .model = "workers.json",
                                         .replay = [](const std::string& o) { return "playtest replay " + o; }},
                                        failed->seed);
    if (!d.result.witness) {  // not reproduced in 5 attempts: nothing written
      EXPECT_FALSE(fs::exists(out));
      continue;
    }
    EXPECT_EQ(d.context.output, out.string());
    EXPECT_EQ(d.context.replay_command, "playtest replay " + out.string());
    EXPECT_EQ(d.context.trace, "campaign.jsonl");
    const std::vector<nlohmann::json> lines = json_lines(read_file(out));
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines.front()["event"], "begin");
    EXPECT_EQ(lines.front()["model"], "workers.json");
    EXPECT_EQ(lines.front()["seed"], failed->seed);
    EXPECT_EQ(lines.back()["verdict"], "FAIL");
    // The minimal run is no longer than the failing one.
    EXPECT_LE(d.result.witness->result.steps, failed->steps);
    return;
  }
  FAIL() << "no mutant failed and was shrunk";
}

TEST(ReplayCommand, DropsTheOptionsThatChooseRunsAndQuotesWhatNeedsIt) {
  const std::vector<std::string> args{"./playtest", "run",      "m.json", "--sut",      "python3 sut.py", "--seed",
                                      "5",          "--runs=9", "--json", "--strategy", "reach"};
  EXPECT_EQ(replay_command(args, {"--seed", "--runs"}, {"--json"}, {"--seed", "12", "--runs", "1"}),
            "./playtest run m.json --sut 'python3 sut.py' --strategy reach --seed 12 --runs 1");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a/b.json"), "a/b.json");
}

}  // namespace
}  // namespace playtest
