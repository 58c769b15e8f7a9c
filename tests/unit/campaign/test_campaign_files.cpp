// A campaign played in process as a C++ test would play it: the model loaded by input/load.hpp,
// the runs against a simulated system, the traces and the JUnit file written by the library's
// observer (campaign/files.hpp) to a temporary directory; and the replay command line
// (campaign/replay.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "playtest/campaign/files.hpp"
#include "playtest/campaign/replay.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/input/load.hpp"
#include "playtest/run/simulated_sut.hpp"

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

class CampaignFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("playtest_campaign_files_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(CampaignFilesTest, TheObserverWritesTheTraceAndTheJUnitFileOfACampaign) {
  const std::string model = std::string(PLAYTEST_SOURCE_DIR) + "/examples/models/counter.ptm";
  const LoadedInput in = load_input({.path = model, .params = {"N=3"}, .values = true});
  ASSERT_TRUE(in.graph.has_value());
  const TestGraph& g = *in.graph;
  const Runner runner(g, {.max_steps = 20});
  const CampaignWorkers workers{.policy = policy_maker("random", g),
                                .adapter = [&](std::uint32_t, const StopSignal&) -> std::unique_ptr<Adapter> {
                                  return std::make_unique<SimulatedSut>(g, 1);
                                }};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> progress;
  CampaignFiles files({.model = "counter.ptm",
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
  EXPECT_NE(junit.find("<testsuite name=\"playtest run counter.ptm\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("tests=\"3\""), std::string::npos) << junit;
  std::size_t cases = 0;
  for (std::size_t at = junit.find("<testcase"); at != std::string::npos; at = junit.find("<testcase", at + 1)) ++cases;
  EXPECT_EQ(cases, 3u);
  EXPECT_NE(junit.find("classname=\"playtest.random\""), std::string::npos);
  EXPECT_EQ(junit.find("<failure"), std::string::npos);  // the system is the model: nothing fails
  EXPECT_EQ(c.verdict, Verdict::pass);
}

TEST_F(CampaignFilesTest, AnUnwritableOutputFailsBeforeAnyRun) {
  EXPECT_THROW(CampaignFiles({.model = "m", .strategy = "random", .junit = (dir_ / "no" / "such" / "j.xml").string()}, 1),
               Error);
}

TEST(ReplayCommand, DropsTheOptionsThatChooseRunsAndQuotesWhatNeedsIt) {
  const std::vector<std::string> args{"./playtest", "run", "m.json", "--sut", "python3 sut.py", "--seed", "5",
                                      "--runs=9",   "--json", "--strategy", "reach"};
  EXPECT_EQ(replay_command(args, {"--seed", "--runs"}, {"--json"}, {"--seed", "12", "--runs", "1"}),
            "./playtest run m.json --sut 'python3 sut.py' --strategy reach --seed 12 --runs 1");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a/b.json"), "a/b.json");
}

}  // namespace
}  // namespace playtest
