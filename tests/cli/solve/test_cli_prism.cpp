// End-to-end PRISM explicit imports as PRISM 4.x writes them (issue 12, item 4): header comments,
// state rewards, several reward structures (--reward), DTMCs, other goal labels (--goal-label),
// hostile headers, and located errors. Each case here printed a wrong answer or a needless error
// before the importer was rewritten.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"

using playtest::testing::run_playtest;
using playtest::testing::ScratchDir;

namespace {

// A two-state MDP: state 0 has one choice "a" to state 1 (the goal), so Rmin from 0 is the reward
// of that one step: the state reward of 0 plus the choice's transition reward.
const char* tra = "2 2 2\n0 0 1 1 a\n1 0 1 1 a\n";
const char* lab = "0=\"init\" 1=\"deadlock\" 2=\"goal\"\n0: 0\n1: 2\n";

double value_at(const std::string& json, const std::string& id, const char* key = "value") {
  const auto j = nlohmann::json::parse(json);
  for (const auto& v : j.at("vertices"))
    if (v.at("id") == id) return v.at(key).get<double>();
  ADD_FAILURE() << "no vertex " << id << " in " << json;
  return -1;
}

TEST(CliPrism, StateRewardsAreCosts) {
  // PRISM 4.x's export of a model whose reward structure has state rewards only: before, the
  // .srew file was ignored and solve printed a certified "expected cost 0" with exit 0.
  ScratchDir dir("cli_prism_srew");
  dir.write("m.tra", tra);
  dir.write("m.lab", lab);
  dir.write("m.srew", "# Reward structure \"time\"\n# State rewards\n2 1\n0 3\n");
  auto r = run_playtest("solve " + dir.file("m.tra") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 3.0);
  // With transition rewards as well (PRISM writes a choice's reward on each of its transitions).
  dir.write("m.trew", "# Reward structure \"time\"\n# Transition rewards\n2 2 2\n0 0 1 4\n1 0 1 4\n");
  r = run_playtest("solve " + dir.file("m.tra") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 7.0);
}

TEST(CliPrism, SeveralRewardStructuresNeedAChoice) {
  // Two reward structures: PRISM writes m1.trew and m2.trew and no m.trew. Before, both were
  // ignored and solve answered "expected cost 0", certified, exit 0.
  ScratchDir dir("cli_prism_multi");
  dir.write("m.tra", tra);
  dir.write("m.lab", lab);
  dir.write("m1.trew", "# Reward structure \"time\"\n# Transition rewards\n2 2 1\n0 0 1 5\n");
  dir.write("m2.trew", "# Reward structure \"energy\"\n# Transition rewards\n2 2 1\n0 0 1 7\n");
  auto r = run_playtest("solve " + dir.file("m.tra"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.err.find("--reward"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2 reward structures"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"energy\""), std::string::npos) << r.err;
  r = run_playtest("solve " + dir.file("m.tra") + " --reward 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 7.0);
  r = run_playtest("solve " + dir.file("m.tra") + " --reward time --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 5.0);
  r = run_playtest("solve " + dir.file("m.tra") + " --reward cost");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no reward structure 'cost'"), std::string::npos) << r.err;
  // validate and convert take the same options.
  r = run_playtest("validate " + dir.file("m.tra"));
  EXPECT_EQ(r.code, 2) << r.out;
  r = run_playtest("validate " + dir.file("m.tra") + " --reward 1");
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_playtest("convert " + dir.file("m.tra") + " --reward energy --to graph");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"cost\": 7"), std::string::npos) << r.out;
}

TEST(CliPrism, NumberedFilesOfAnotherModelAreNotRewards) {
  // m.tra next to the model m1 (m1.tra, m1.lab, m1.trew): m1.trew is m1's, not a reward of m.
  ScratchDir dir("cli_prism_sibling");
  dir.write("m.tra", tra);
  dir.write("m.lab", lab);
  dir.write("m.trew", "2 2 1\n0 0 1 5\n");
  dir.write("m1.tra", tra);
  dir.write("m1.lab", lab);
  dir.write("m1.trew", "2 2 1\n0 0 1 8\n");
  auto r = run_playtest("solve " + dir.file("m.tra") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 5.0);
}

TEST(CliPrism, UnnamedRewardHeaderIsAComment) {
  // "# Reward structure" without a name has three fields, like a header; before, it was taken
  // for the header and the next comment line was an error.
  ScratchDir dir("cli_prism_unnamed");
  dir.write("m.tra", tra);
  dir.write("m.lab", lab);
  dir.write("m.trew", "# Reward structure\n# Transition rewards\n2 2 1\n0 0 1 5\n");
  auto r = run_playtest("solve " + dir.file("m.tra") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 5.0);
}

TEST(CliPrism, GoalLabel) {
  ScratchDir dir("cli_prism_goal");
  dir.write("m.tra", tra);
  dir.write("m.lab", "0=\"init\" 1=\"deadlock\" 2=\"done\"\n0: 0\n1: 2\n");
  dir.write("m.trew", "2 2 1\n0 0 1 5\n");
  auto r = run_playtest("solve " + dir.file("m.tra"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--goal-label"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no label \"goal\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"done\""), std::string::npos) << r.err;
  r = run_playtest("solve " + dir.file("m.tra") + " --goal-label done --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 5.0);
  r = run_playtest("solve " + dir.file("m.tra") + " --goal-label nope");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no label \"nope\""), std::string::npos) << r.err;
  // The option belongs to PRISM inputs only.
  const auto g = dir.write("g.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a"}, {"id": "b", "goal": true}], "edges": [{"from": "a", "to": "b", "label": "x"}]})");
  r = run_playtest("solve " + g + " --goal-label done");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(".tra"), std::string::npos) << r.err;
}

TEST(CliPrism, DtmcExport) {
  // A DTMC: 0 -> 1 or 2 with probability 1/2 each, 2 -> 1; state rewards 2 at 0 and 4 at 2, so
  // R=? [F "goal"] from 0 is 2 + 0.5 * 4 = 4; P=? [F<=1 "goal"] is 0.5, one move per step.
  ScratchDir dir("cli_prism_dtmc");
  dir.write("m.tra", "3 4\n0 1 0.5\n0 2 0.5\n1 1 1\n2 1 1\n");
  dir.write("m.lab", lab);
  dir.write("m.srew", "# Reward structure \"r\"\n# State rewards\n3 2\n0 2\n2 4\n");
  auto r = run_playtest("solve " + dir.file("m.tra") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 4.0);
  r = run_playtest("solve " + dir.file("m.tra") + " --objective reach --bound 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0", "prob"), 0.5);
  // DTMC transition rewards: "s t r".
  dir.write("m.trew", "3 1\n0 2 10\n");
  r = run_playtest("solve " + dir.file("m.tra") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0"), 9.0);  // 2 + 0.5 * 10 + 0.5 * 4
}

TEST(CliPrism, MdpBoundCountsTwoMovesPerStep) {
  // 0 -> 1 -> 2 (goal), one choice each: Pmax=? [F<=2 "goal"] = 1 is reach --bound 4.
  ScratchDir dir("cli_prism_bound");
  dir.write("m.tra", "3 3 3\n0 0 1 1\n1 0 2 1\n2 0 2 1\n");
  dir.write("m.lab", "0=\"init\" 1=\"goal\"\n0: 0\n2: 1\n");
  auto r = run_playtest("solve " + dir.file("m.tra") + " --objective reach --bound 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0", "prob"), 0.0);
  r = run_playtest("solve " + dir.file("m.tra") + " --objective reach --bound 4 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_DOUBLE_EQ(value_at(r.out, "0", "prob"), 1.0);
}

TEST(CliPrism, ConvertHelpStatesTheMapping) {
  const auto r = run_playtest("convert --help");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* s : {"--reward", "--goal-label", "TWO moves", "--bound 2n = Pmax=? [ F<=n", "R{\"r\"}min=? [ F \"goal\" ]"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(CliPrism, HostileHeaderIsRefusedBeforeAllocating) {
  ScratchDir dir("cli_prism_hostile");
  dir.write("m.tra", "1000000000 1 1\n0 0 0 1\n");
  dir.write("m.lab", lab);
  auto r = run_playtest("validate " + dir.file("m.tra"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("m.tra:1:1:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1000000000 states"), std::string::npos) << r.err;
  dir.write("m.tra", "2 1000000000 1000000000\n0 0 1 1\n");
  r = run_playtest("validate " + dir.file("m.tra"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("m.tra:1:14:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("holds at most"), std::string::npos) << r.err;
}

TEST(CliPrism, ErrorsAreLocated) {
  ScratchDir dir("cli_prism_errors");
  dir.write("m.lab", lab);
  struct Case {
    const char* file;
    const char* text;
    const char* where;
    const char* what;
  };
  const Case cases[] = {
      {"m.tra", "2 2 2\n0 0 1 1\n1 0 1 1.5\n", "m.tra:3:7:", "not in (0, 1]"},
      {"m.tra", "2 2 2\n0 0 1 1\n1 0 9 1\n", "m.tra:3:5:", "out of range"},
      {"m.tra", "2 2 2\n0 0 1 1\n1 x 1 1\n", "m.tra:3:3:", "expected a choice"},
      {"m.tra", "2 2 2\n0 0 1 1\n1 0 1 1 a b\n", "m.tra:3:11:", "expected 'state choice"},
      {"m.tra", "2 2 2 2\n", "m.tra:1:1:", "POMDP"},
      {"m.tra", "", "m.tra:1:", "empty"},
      {"m.trew", "2 2 1\n0 0 0 5\n", "m.trew:2:5:", "no transition to state 0"},
      {"m.trew", "2 2 1\n0 0 1 -5\n", "m.trew:2:7:", "negative"},
      {"m.trew", "3 2 1\n0 0 1 5\n", "m.trew:1:1:", "declares 3 states"},
      {"m.srew", "2 1\n5 1\n", "m.srew:2:1:", "out of range"},
      {"m.srew", "2 2\n0 1\n0 2\n", "m.srew:3:1:", "second reward"},
      {"m.lab", "0=\"init\" 1=\"goal\"\n0: 0\n1: x\n", "m.lab:3:4:", "label index"},
      {"m.lab", "0=\"init\" 1=\"goal\"\n0: 0\n1: 0 1\n", "m.lab:3:4:", "both labelled"},
      {"m.lab", "init goal\n", "m.lab:1:1:", "label declarations"},
  };
  for (const Case& c : cases) {
    dir.write("m.tra", "2 2 2\n0 0 1 1\n1 0 1 1\n");
    dir.write("m.lab", lab);
    std::remove(dir.file("m.trew").c_str());
    std::remove(dir.file("m.srew").c_str());
    dir.write(c.file, c.text);
    auto r = run_playtest("validate " + dir.file("m.tra"));
    EXPECT_EQ(r.code, 2) << c.text;
    EXPECT_NE(r.err.find(c.where), std::string::npos) << c.text << "\n" << r.err;
    EXPECT_NE(r.err.find(c.what), std::string::npos) << c.text << "\n" << r.err;
  }
}

}  // namespace
