// One error vocabulary and one option vocabulary across commands (issue "No silent wrong answer",
// items 1, 5, 6, 10; "one architectural step", items 2, 4, 7): golden stderr for the messages users
// see, exit codes for every class of bad option, nothing tested is never a PASS, uncertified answers
// never exit 0.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

using playtest::testing::example;
using playtest::testing::read_file;
using playtest::testing::run_playtest;
using playtest::testing::ScratchDir;

namespace {

const char* one_vertex = R"({"playtest": "graph/1", "initial": "a", "vertices": [{"id": "a"}], "edges": []})";

const char* figure3 = R"({"playtest": "graph/1", "initial": "1",
 "vertices": [{"id": "1"}, {"id": "2", "kind": "passive"}, {"id": "0", "goal": true}],
 "edges": [{"from": "1", "to": "2", "label": "a", "cost": 1},
           {"from": "1", "to": "0", "label": "b", "cost": 4},
           {"from": "2", "to": "1", "label": "?x", "cost": 1, "weight": 1},
           {"from": "2", "to": "0", "label": "?y", "cost": 1, "weight": 2}]})";

TEST(CliVocabulary, NothingToTestIsNotAPass) {
  ScratchDir dir("cli_vocab_nothing");
  const auto f = dir.write("one.json", one_vertex);
  for (const std::string& cmd : {"run " + f + " --sut true", "simulate " + f + " --runs 3"}) {
    auto r = run_playtest(cmd);
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
    EXPECT_EQ(r.err, "playtest: error: nothing to test: the model has no edges\n  note: its only vertex is 'a'\n")
        << cmd;
    EXPECT_EQ(r.out.find("PASS"), std::string::npos) << cmd;
  }
  // A purpose to reach a goal from a goal: nothing would be tested.
  const auto g = dir.write("g.json", figure3);
  auto r = run_playtest("run " + g + " --sut true --strategy expected --goal 1");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  // ... and says why the initial vertex is a goal and what would test something (issue 36).
  EXPECT_EQ(r.err,
            "playtest: error: nothing to test: the purpose is to reach a goal, and the initial vertex '1' is one\n"
            "  note: --goal names the initial vertex\n"
            "  note: to cover the model, play a strategy that does not aim at goals (random, cover, anti-ant, "
            "planner), or give goals that are not the initial vertex (--goal)\n");
}

TEST(CliVocabulary, UnknownVertexHasOneWordingInEveryCommand) {
  ScratchDir dir("cli_vocab_vertex");
  const auto g = dir.write("g.json", figure3);
  const std::string expected = "playtest: error: no vertex 'nope' in the graph (given as a goal)\n";
  for (const std::string& cmd :
       {"run " + g + " --sut true --goal nope", "simulate " + g + " --runs 2 --goal nope",
        "solve " + g + " --goal nope", "convert " + g + " --to prism -o " + dir.file("b") + " --goal nope"}) {
    auto r = run_playtest(cmd);
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.err;
    EXPECT_EQ(r.err, expected) << cmd;
  }
  // Close ids are suggested.
  auto r = run_playtest("solve " + g + " --goal 00");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "playtest: error: no vertex '00' in the graph (given as a goal)\n  note: vertices with similar ids: '0', "
            "'1', '2'\n");
}

TEST(CliVocabulary, BadOptionValuesAreUsageErrorsNamingTheOption) {
  ScratchDir dir("cli_vocab_options");
  const auto g = dir.write("g.json", figure3);
  struct Case {
    std::string args, stderr_starts;
  };
  const Case cases[] = {
      {"solve " + g + " --epsilon 0", "--epsilon: must be a positive finite number, got '0'"},
      {"solve " + g + " --epsilon nan", "--epsilon: must be a positive finite number, got 'nan'"},
      {"plan " + example("examples/graphs/seed002-example.json") + " --traps all --c nan",
       "--c: must be a positive finite number, got 'nan'"},
      {"run " + g + " --sut true --runs 0", "--runs: must be a positive integer, got '0'"},
      {"run " + g + " --sut true --time -1",
       "--time: must be 0 (no budget) or a number of seconds from 0.001 to 3e8, got '-1'"},
      {"run " + g + " --sut true --time 0.0004",
       "--time: must be 0 (no budget) or a number of seconds from 0.001 to 3e8, got '0.0004'"},
      {"run " + g + " --sut true --steps -1", "--steps: must be an integer from 0 to 18446744073709551615, got '-1'"},
      {"simulate " + g + " --steps 18446744073709551616",
       "--steps: must be an integer from 0 to 18446744073709551615, got '18446744073709551616'"},
      {"simulate " + g + " --runs 0", "--runs: must be a positive integer, got '0'"},
      {"run " + g + " --sut true --timeout-ms 0", "--timeout-ms: must be a positive integer, got '0'"},
      {"run " + g + " --sut true --ack-timeout-ms -5", "--ack-timeout-ms: must be a positive integer, got '-5'"},
      {"run " + g + " --sut true --seed -3", "--seed: must be an integer from 0 to 18446744073709551615, got '-3'"},
      {"run " + g + " --sut true --strategy bogus",
       "playtest: error: option --strategy: unknown strategy 'bogus'; known strategies: random, anti-ant, reach, win, "
       "expected, cover, planner, pessimistic, torx\n"},
      {"run " + g + " --sut true --sut-stderr /nonexistent-dir/x.log",
       "playtest: error: option --sut-stderr: cannot open '/nonexistent-dir/x.log' for appending"},
      {"run " + g + " --sut true --vertex-timeout 2=abc",
       "playtest: error: option --vertex-timeout: '2=abc': 'abc' is not a number of milliseconds\n"},
      {"run " + g + " --sut true --strategy torx --torx-p 0.5:0.5:0.5",
       "playtest: error: option --torx-p: the stop, input and observe probabilities must sum to 1\n"},
      {"gen random --vertices 3 --goals 3", "playtest: error: option --goals: must be fewer than the vertices\n"},
  };
  for (const Case& c : cases) {
    auto r = run_playtest(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind(c.stderr_starts, 0) == 0 || r.err.find(c.stderr_starts) != std::string::npos, true)
        << c.args << "\ngot: " << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << c.args;
    EXPECT_LT(r.err.size(), 400u) << "no 300-digit ranges: " << r.err;
  }
}

TEST(CliVocabulary, UncertifiedAnswersDoNotExitZero) {
  ScratchDir dir("cli_vocab_uncertified");
  const auto g = dir.write("g.json", figure3);
  auto r = run_playtest("solve " + g + " --method vi");
  EXPECT_EQ(r.code, 5) << r.err;
  EXPECT_NE(r.out.find("NOT CERTIFIED: method vi gives no certificate"), std::string::npos) << r.out;
  r = run_playtest("solve " + g + " --method vi --json");
  EXPECT_EQ(r.code, 5);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("summary").at("certified"), false);
  EXPECT_TRUE(j.at("summary").contains("not_certified"));
  r = run_playtest("solve " + g);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("certified optimal"), std::string::npos);
}

TEST(CliVocabulary, RenamedOptionsWarnAndStillWork) {
  ScratchDir dir("cli_vocab_renamed");
  const auto g = dir.write("g.json", figure3);
  auto r = run_playtest("transform " + g + " --compress --traps keep -o " + dir.file("out.json"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "playtest transform: warning: --traps is deprecated; use --trap-vertices\n");
  auto fresh = run_playtest("transform " + g + " --compress --trap-vertices keep -o " + dir.file("out2.json"));
  EXPECT_EQ(fresh.code, 0) << fresh.err;
  EXPECT_EQ(fresh.err, "");
  EXPECT_EQ(read_file(dir.file("out.json")), read_file(dir.file("out2.json")));
  auto help = run_playtest("transform --help");
  EXPECT_EQ(help.out.find("--traps"), std::string::npos) << "the old spelling is hidden";
}

TEST(CliVocabulary, AnEdgeLabelledObserveIsAnOrdinaryStimulus) {
  // "observe" is an edge flag of ioco graphs, not a reserved label: a user's edge labelled observe is
  // sent to the system like any other stimulus.
  ScratchDir dir("cli_vocab_observe");
  const auto g = dir.write("g.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a"}, {"id": "p", "kind": "passive"}, {"id": "b", "goal": true}],
    "edges": [{"from": "a", "to": "p", "label": "observe"}, {"from": "p", "to": "b", "label": "done", "prob": 1}]})");
  const auto adapter = dir.write("adapter.sh", R"(#!/bin/sh
echo ready
while read -r line; do
  case "$line" in
    "stimulus observe") echo ack; echo "output done" ;;
    reset) echo ready ;;
    *) echo ack ;;
  esac
done
)");
  auto r = run_playtest("run " + g + " --sut 'sh " + adapter + "' --strategy random --goal b --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("verdict"), "PASS");
}

TEST(CliVocabulary, ModelTrapsComeFromTheGraphsMeta) {
  // plan/run/simulate read meta.traps from the loaded graph; the meta object survives a round trip.
  ScratchDir dir("cli_vocab_meta");
  const std::string ex = example("examples/graphs/seed002-example.json");
  auto r = run_playtest("convert " + ex + " --to graph -o " + dir.file("copy.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  auto gains = [](const std::string& out) {
    auto j = nlohmann::json::parse(out);
    j.erase("model");  // the input's path
    return j;
  };
  auto a = run_playtest("plan " + ex + " --traps model --json");
  auto b = run_playtest("plan " + dir.file("copy.json") + " --traps model --json");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(gains(a.out), gains(b.out));
  EXPECT_EQ(gains(a.out).at("traps").size(), 8u);
  auto piped = run_playtest("plan - --traps model --json", read_file(ex));
  ASSERT_EQ(piped.code, 0) << piped.err;
  EXPECT_EQ(gains(a.out), gains(piped.out));
}

// What a command prints must reach standard output: a full disk is an environment error (exit 6,
// said on stderr), not a success whose answer was lost.
TEST(CliVocabulary, UnwritableStandardOutputIsAnError) {
  ScratchDir d("cli_full_stdout");
  for (const std::string& args : {"info " + example("examples/graphs/seed000-figure1.json"),
                                  "solve " + example("examples/sut/workers.json") + " --objective expected --json"}) {
    const std::string cmd = playtest::testing::playtest_binary() + " " + args + " >/dev/full 2>" + d.file("err.txt");
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << args;
    EXPECT_EQ(WEXITSTATUS(status), 6) << args;
    EXPECT_NE(read_file(d.file("err.txt")).find("could not write to standard output"), std::string::npos) << args;
  }
}

}  // namespace
