// End to end: replay, shrink, learn and analyze on the example systems (examples/sut: the workers
// program and its buggy twin; the lock with a planted three-stimulus bug), their JSON, exit codes
// and located errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

const std::string workers = example("examples/sut/workers.json");
const std::string lock = example("examples/sut/lock.json");
const std::string good_sut = playtest::testing::test_path("workers_sut");
const std::string buggy_sut = playtest::testing::test_path("workers_sut_buggy");
const std::string lock_sut = playtest::testing::test_path("lock_sut");

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A FAIL of the buggy workers (silence at last0), recorded with the model named in the trace.
std::string buggy_trace(const ScratchDir& d) {
  const std::string t = d.file("buggy.jsonl");
  CliResult r =
      run_playtest("run " + workers + " --sut '" + buggy_sut +
                   "' --strategy reach --goal off --timeout-ms 10000 --vertex-timeout last0=100 --trace " + t);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  return t;
}

TEST(CliReplay, TheBuggyWorkersFailEveryTime) {
  ScratchDir d("replay_buggy");
  const std::string t = buggy_trace(d);
  CliResult r = run_playtest("replay " + t + " --model " + workers + " --sut '" + buggy_sut +
                             "' --attempts 3 --timeout-ms 10000 --vertex-timeout last0=100");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("(recorded: FAIL at 'last0': allowed {all_done}, observed silence; 1 stimulus), 3 attempts"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(count(r.out, "(same failure)"), 3u) << r.out;
  EXPECT_NE(r.out.find("same failure (symptom match): 3/3 = 100% (95% interval 43.9% to 100%)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("verdict: FAIL"), std::string::npos);
}

TEST(CliReplay, AgainstTheCorrectBuildTheFailureDoesNotComeBack) {
  ScratchDir d("replay_good");
  const std::string t = buggy_trace(d);
  CliResult r = run_playtest("replay " + t + " --model " + workers + " --sut '" + good_sut +
                             "' --attempts 2 --timeout-ms 10000 --json");
  EXPECT_EQ(r.code, 4) << r.out << r.err;  // not reproduced: INCONCLUSIVE, never PASS
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "INCONCLUSIVE");
  EXPECT_EQ(j["verdict_rate"]["successes"], 0);
  EXPECT_EQ(j["verdict_rate"]["trials"], 2);
  EXPECT_EQ(j["recorded"]["failure"]["vertex"], "last0");
  EXPECT_TRUE(j["recorded"]["failure"]["observed"].is_null());
  ASSERT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["runs"][0]["verdict"], "PASS");
  // The correct build says all_done where the recording has silence (step 4), unless its workers
  // already finished in the other order (step 2).
  for (const auto& run : j["runs"]) {
    const auto& div = run["divergence"];
    ASSERT_FALSE(div.is_null());
    if (div["step"] == 4) {
      EXPECT_EQ(div["recorded"], "silence at 'last0'");
      EXPECT_EQ(div["replayed"], "output 'all_done' at 'last0'");
    } else {
      EXPECT_EQ(div["step"], 2);
      EXPECT_EQ(div["recorded"].get<std::string>().substr(0, 13), "output 'done_");
    }
  }
}

// The planted bug of examples/sut/lock.cpp: a random run meets it after dozens of stimuli; shrink
// finds the three that matter, writes their trace and a replay command that reproduces it.
TEST(CliShrink, ThePlantedLockBugShrinksToAtMostFiveStimuli) {
  ScratchDir d("shrink_lock");
  const std::string t = d.file("lock.jsonl"), min = d.file("min.jsonl");
  CliResult r = run_playtest("run " + lock + " --sut " + lock_sut +
                             " --strategy random --purpose none --steps 5000 --seed 1 --trace " + t + " --quiet");
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  std::istringstream lines(read_file(t));
  std::size_t stimuli = 0;
  for (std::string line; std::getline(lines, line);) stimuli += line.find("\"kind\":\"stimulus\"") != std::string::npos;
  EXPECT_GE(stimuli, 10u);  // a long run
  r = run_playtest("shrink " + t + " --model " + lock + " --sut " + lock_sut + " -o " + min + " --attempts 5 --json");
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["original"]["stimuli"], stimuli);
  EXPECT_LE(j["minimal"]["stimuli"].get<int>(), 5);
  EXPECT_EQ(j["minimal"]["sequence"], "knock unlock ping");
  EXPECT_EQ(j["minimal"]["failure_rate"]["successes"], 5);
  EXPECT_EQ(j["failure"]["observed"], "jammed");
  EXPECT_GT(j["unplayable"].get<int>(), 0);
  EXPECT_EQ(j["verdict"], "FAIL");
  // The minimal trace names the model, so the printed command needs nothing else; it reproduces.
  // As run's replay lines: the program as it was started, here the binary's path.
  const std::string cmd = j["replay_command"];
  const std::string program = playtest::testing::playtest_binary() + " ";
  ASSERT_EQ(cmd.rfind(program + "replay ", 0), 0u) << cmd;
  r = run_playtest(cmd.substr(program.size()));
  EXPECT_EQ(r.code, 1) << cmd << "\n" << r.out << r.err;
  EXPECT_NE(r.out.find("3 stimuli), 5 attempts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("same failure (symptom match): 5/5"), std::string::npos) << r.out;
  r = run_playtest("replay " + min + " --sut " + lock_sut + " --attempts 1");  // the model from the trace
  EXPECT_EQ(r.code, 1) << r.out << r.err;
}

TEST(CliShrink, TextAndTheBuggyWorkers) {
  ScratchDir d("shrink_buggy");
  const std::string t = buggy_trace(d), min = d.file("min.jsonl");
  CliResult r = run_playtest("shrink " + t + " --model " + workers + " --sut '" + buggy_sut +
                             "' --timeout-ms 10000 --vertex-timeout last0=100 --attempts 2 -o " + min);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("minimal: 1 stimulus: submit"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL at 'last0': allowed {all_done}, observed silence"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("replay: " + playtest::testing::playtest_binary() + " replay " + min + " --model " + workers +
                       " --sut " + buggy_sut + " --timeout-ms 10000 --vertex-timeout last0=100 --attempts 2"),
            std::string::npos)
      << r.out;
  EXPECT_NE(read_file(min).find("\"model\":\"" + workers + "\""), std::string::npos);
}

TEST(CliShrink, NothingToShrink) {
  ScratchDir d("shrink_none");
  const std::string t = buggy_trace(d), min = d.file("min.jsonl");
  CliResult r = run_playtest("shrink " + t + " --model " + workers + " --sut '" + good_sut +
                             "' --timeout-ms 10000 --attempts 2 -o " + min);
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("the failure did not come back: nothing to shrink"), std::string::npos) << r.out;
  EXPECT_FALSE(std::ifstream(min).good());  // no trace of a failure that did not happen
  // A passing run cannot be shrunk.
  const std::string pass = d.file("pass.jsonl");
  run_playtest("run " + workers + " --sut '" + good_sut + "' --strategy reach --timeout-ms 10000 --trace " + pass);
  r = run_playtest("shrink " + pass + " --model " + workers + " --sut '" + good_sut + "' -o " + min);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("only a failing run can be shrunk; this run's verdict is PASS"), std::string::npos) << r.err;
}

TEST(CliLearn, EstimatesIntervalsAndTheLearnedModel) {
  ScratchDir d("learn");
  const std::string t = d.file("good.jsonl"), out = d.file("learned.json");
  CliResult r = run_playtest(
      "run " + workers + " --sut '" + good_sut +
      "' --strategy random --purpose none --steps 40 --runs 5 --seed 1 --timeout-ms 10000 --trace " + t + " --quiet");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  r = run_playtest("learn " + t + " --model " + workers + " -o " + out + " --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["runs"], 5);
  EXPECT_EQ(j["prior"]["center"], "model");
  EXPECT_EQ(j["significance"], 0.05);
  std::uint64_t both0 = 0;
  for (const auto& v : j["vertices"]) {
    double sum = 0;
    for (const auto& o : v["outcomes"]) {
      sum += o["estimate"].get<double>();
      EXPECT_LE(o["low"].get<double>(), o["estimate"].get<double>());
      EXPECT_GE(o["high"].get<double>(), o["estimate"].get<double>());
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
    if (v["vertex"] == "both0") {
      both0 = v["visits"];
      ASSERT_FALSE(v["fit"].is_null());
      EXPECT_GE(v["fit"]["p_value"].get<double>(), 0.0);
      EXPECT_EQ(v["flagged"], v["fit"]["p_value"].get<double>() < 0.05);
    }
  }
  EXPECT_GT(both0, 0u);
  // The learned model is a valid graph with the counts in its meta.
  r = run_playtest("validate " + out);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const std::string learned = read_file(out);
  EXPECT_NE(learned.find("\"learned\""), std::string::npos);
  EXPECT_NE(learned.find("\"counts\""), std::string::npos);
  // The loop: plan and run again on the learned model.
  r = run_playtest("analyze " + out + " --goal off --no-coverage");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("sure win: yes, worst-case cost 6"), std::string::npos) << r.out;
}

TEST(CliLearn, ATraceOfAnotherModelIsALocatedError) {
  ScratchDir d("learn_wrong");
  const std::string t = d.file("lock.jsonl");
  CliResult r = run_playtest("run " + lock + " --sut " + lock_sut +
                             " --strategy random --purpose none --steps 6 "
                             "--seed 2 --trace " +
                             t + " --quiet");
  r = run_playtest("learn " + t + " --model " + workers);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  // (line 1 describes the campaign, line 2 begins the run; every step is checked, the stimuli too)
  EXPECT_NE(r.err.find(t + ":3:1: error: the trace's vertex 'locked' is not a vertex of the model"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("note: is the model the one the trace was recorded with?"), std::string::npos) << r.err;
  // run names the model in the trace: learn needs no --model then.
  EXPECT_NE(read_file(t).find("\"model\":\"" + lock + "\""), std::string::npos);
  r = run_playtest("learn " + t);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("knocked"), std::string::npos) << r.out;
  const std::string anonymous =
      d.write("anon.jsonl", "{\"event\":\"begin\"}\n{\"event\":\"end\",\"verdict\":\"PASS\"}\n");
  r = run_playtest("learn " + anonymous);  // no model named in the trace, none given
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("option --model: the trace does not name the model it was recorded with"), std::string::npos)
      << r.err;
  const std::string bad = d.write("bad.jsonl", "{\"event\":\"begin\"}\nnot json\n");
  r = run_playtest("replay " + bad + " --model " + lock + " --sut cat");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(bad + ":2:2: error: not a JSON trace event"), std::string::npos) << r.err;
}

// --edge LABEL means every edge with that label, as in run (issue 24): one purpose per edge.
TEST(CliAnalyze, AnEdgeLabelIsEveryEdgeWithIt) {
  ScratchDir d("analyze_label");
  const std::string g = d.write("g.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
    "edges": [{"from": "a", "to": "b", "label": "go"}, {"from": "b", "to": "c", "label": "go"},
              {"from": "c", "to": "a", "label": "back"}]})");
  CliResult r = run_playtest("analyze " + g + " --edge go --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["purposes"].size(), 2u) << r.out;
  EXPECT_EQ(j["purposes"][0]["name"], "e0");
  EXPECT_EQ(j["purposes"][0]["worst_case_cost"], 1.0);
  EXPECT_EQ(j["purposes"][1]["name"], "e1");
  EXPECT_EQ(j["purposes"][1]["worst_case_cost"], 2.0);
}

TEST(CliAnalyze, PurposesAndCoverage) {
  CliResult r = run_playtest("analyze " + workers + " --goal off --edge e7 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["purposes"].size(), 2u);
  EXPECT_EQ(j["purposes"][0]["sure_win"], true);
  EXPECT_EQ(j["purposes"][0]["worst_case_cost"], 6.0);
  EXPECT_EQ(j["purposes"][1]["sure_win"], false);
  EXPECT_EQ(j["purposes"][1]["expected_cost"], 10.0);
  EXPECT_GT(j["purposes"][1]["probability"].get<double>(), 0.98);
  EXPECT_EQ(j["coverage"]["tour_cost"], 22.0);
  EXPECT_EQ(j["coverage"]["segments"], 14);
  EXPECT_EQ(j["coverage"]["rounds"], 13);
  EXPECT_EQ(j["coverage"]["iterations"], 182);
  ScratchDir d("analyze");
  const std::string g = d.write("g.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "active"}, {"id": "b", "kind": "active"}, {"id": "z", "kind": "active", "goal": true}],
    "edges": [{"from": "a", "to": "b", "label": "go"}, {"from": "b", "to": "a", "label": "back"}]})");
  r = run_playtest("analyze " + g + " --no-coverage");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("goal 'z': unreachable from 'a'"), std::string::npos) << r.out;
  r = run_playtest("analyze " + g + " --goal nowhere");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no vertex 'nowhere'"), std::string::npos) << r.err;
}

TEST(CliRunShrink, AFailShrunkRightAway) {
  ScratchDir d("run_shrink");
  const std::string t = d.file("t.jsonl"), min = d.file("min.jsonl");
  CliResult r = run_playtest("run " + lock + " --sut " + lock_sut +
                             " --strategy random --purpose none --steps 5000 "
                             "--seed 4 --trace " +
                             t + " --shrink " + min + " --shrink-attempts 3 --json");
  EXPECT_EQ(r.code, 1) << r.out << r.err;  // the campaign's verdict
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "FAIL");
  EXPECT_EQ(j["shrink"]["minimal"]["sequence"], "knock unlock ping");
  EXPECT_EQ(j["shrink"]["minimal"]["failure_rate"]["successes"], 3);
  EXPECT_EQ(j["shrink"]["output"], min);
  EXPECT_NE(read_file(min).find("\"label\":\"jammed\""), std::string::npos);
  // The trace of run names the model.
  const std::string trace_text = read_file(t);
  const std::string begin_line = trace_text.substr(trace_text.find('\n') + 1);
  EXPECT_EQ(begin_line.rfind("{\"event\":\"begin\",\"model\":\"" + lock + "\"", 0), 0u) << trace_text;
  // Its replay command plays the run again, without shrinking or writing files.
  EXPECT_EQ(begin_line.substr(0, begin_line.find('\n')).find("--shrink"), std::string::npos) << begin_line;
  // No failure, nothing shrunk, no file.
  r = run_playtest("run " + workers + " --sut '" + good_sut + "' --goal off --timeout-ms 10000 --shrink " +
                   d.file("none.jsonl"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("shrinking"), std::string::npos);
  EXPECT_FALSE(std::ifstream(d.file("none.jsonl")).good());
}

TEST(CliRefuseUnreachable, RunAndSimulateNameIt) {
  ScratchDir d("unreachable");
  const std::string g = d.write("g.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "active"}, {"id": "b", "kind": "active"}, {"id": "z", "kind": "active", "goal": true},
                 {"id": "y", "kind": "active"}],
    "edges": [{"from": "a", "to": "b", "label": "go"}, {"from": "b", "to": "a", "label": "back"},
              {"id": "zy", "from": "z", "to": "y", "label": "lost"}]})");
  const std::string message =
      "playtest: error: the test purpose cannot be met: no goal is reachable from the initial vertex 'a': 'z' is "
      "unreachable\n  note: every run would end INCONCLUSIVE; --allow-unreachable runs it anyway\n";
  CliResult r = run_playtest("run " + g + " --sut cat --strategy reach");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, message);
  r = run_playtest("simulate " + g + " --strategy random --goal z --runs 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, message);
  r = run_playtest("simulate " + g + " --strategy random --edge lost --runs 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("1 of the 1 edges to cover can never be taken, their source being unreachable from the "
                       "initial vertex 'a': 'zy' (z -> y)"),
            std::string::npos)
      << r.err;
  r = run_playtest("simulate " + g + " --strategy random --goal z --runs 2 --allow-unreachable --json");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["strategies"][0]["inconclusive"], 2);
}

TEST(CliDiagnose, HelpForEveryCommand) {
  for (const char* c : {"replay", "shrink", "learn", "analyze"}) {
    CliResult r = run_playtest(std::string(c) + " --help");
    EXPECT_EQ(r.code, 0) << c;
    EXPECT_NE(r.out.find("--json"), std::string::npos) << c;
  }
}

}  // namespace
}  // namespace playtest::testing
