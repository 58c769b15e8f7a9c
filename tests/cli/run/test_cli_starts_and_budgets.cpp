// End to end (issue 25): {job} and PLAYTEST_JOB reach every adapter playtest starts (replay, shrink,
// run --shrink: job 1); a model on standard input works with every strategy and is not named "-"
// in the trace; budgets hold while the system is slow to answer (run --time, shrink --budget).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "ping_system.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

// idle --ping--> wait --pong--> idle; idle --off--> done (a goal) --on--> idle.
const char* ping_pong = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}, {"id": "done", "goal": true}],
  "edges": [{"from": "idle", "to": "wait", "label": "ping"},
            {"from": "wait", "to": "idle", "label": "pong", "prob": 1},
            {"from": "idle", "to": "done", "label": "off"},
            {"from": "done", "to": "idle", "label": "on"}]})";

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(CliStartsAndBudgets, ShrinkReplayAndRunShrinkStartTheSystemAsJobOne) {
  ScratchDir d("faults_job");
  const std::string model = d.write("pp.json", ping_loop);
  // The bug shows only in the instance started as job 1 both ways ({job} as $1, PLAYTEST_JOB).
  const std::string script =
      d.write("job.sh", ping_adapter("echo ack",
                                "{ if [ \"$1\" = 1 ] && [ \"$PLAYTEST_JOB\" = 1 ]; then echo 'output bang'; "
                                "else echo 'output pong'; fi; }"));
  const std::string sut = "'sh " + script + " {job}'";
  CliResult r = run_playtest("run " + model + " --sut " + sut +
                             " --strategy random --purpose none --steps 6 --seed 1 --trace " + d.file("t.jsonl"));
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  CliResult rep = run_playtest("replay " + d.file("t.jsonl") + " --sut " + sut + " --attempts 2");
  EXPECT_EQ(rep.code, 1) << rep.out << rep.err;
  EXPECT_NE(rep.out.find("FAIL came back: 2/2"), std::string::npos) << rep.out;
  CliResult sh =
      run_playtest("shrink " + d.file("t.jsonl") + " --sut " + sut + " --attempts 2 -o " + d.file("m.jsonl"));
  EXPECT_EQ(sh.code, 1) << sh.out << sh.err;
  EXPECT_NE(sh.out.find("minimal: 1 stimulus: ping"), std::string::npos) << sh.out;
  // The printed command reproduces it as printed.
  // (shrink's replay line has run's form: "replay: " and the binary's path, issue 24)
  const std::string head = "replay: " + playtest::testing::playtest_binary() + " ";
  const auto at = sh.out.find(head);
  ASSERT_NE(at, std::string::npos) << sh.out;
  const std::string again = sh.out.substr(at + head.size(), sh.out.find('\n', at) - at - head.size());
  CliResult re = run_playtest(again);
  EXPECT_EQ(re.code, 1) << again << "\n" << re.out << re.err;
  CliResult rs =
      run_playtest("run " + model + " --sut " + sut + " --strategy random --purpose none --steps 6 --seed 1 " +
                   "--shrink " + d.file("rs.jsonl") + " --shrink-attempts 2");
  EXPECT_EQ(rs.code, 1) << rs.out << rs.err;
  EXPECT_NE(rs.out.find("minimal: 1 stimulus: ping"), std::string::npos) << rs.out;
}

TEST(CliStartsAndBudgets, ModelOnStandardInputForEveryStrategy) {
  PingSystem s("faults_stdin");  // (its adapter; the model with a goal comes on standard input)
  for (const char* strategy : {"random", "anti-ant", "pessimistic", "reach", "win", "expected", "cover", "planner"}) {
    CliResult r = run_playtest(
        "run - --sut " + s.sut + " --strategy " + strategy + " --steps 20 --seed 1 --trace " + s.d.file("t.jsonl"),
        ping_pong);
    EXPECT_TRUE(r.code == 0 || r.code == 4) << strategy << "\n" << r.out << r.err;
    EXPECT_EQ(r.err.find("empty"), std::string::npos) << strategy << "\n" << r.err;
    // The begin line names no model: "-" is no file to read it from again.
    for (const std::string& l : lines_of(read_file(s.d.file("t.jsonl")))) {
      const auto j = nlohmann::json::parse(l);
      if (j["event"] == "begin") {
        EXPECT_FALSE(j.contains("model")) << strategy << ": " << l;
      }
    }
    CliResult sim = run_playtest(std::string("simulate - --strategy ") + strategy + " --runs 3 --steps 20", ping_pong);
    EXPECT_EQ(sim.code, 0) << strategy << "\n" << sim.out << sim.err;
  }
}

TEST(CliStartsAndBudgets, TimeBudgetCutsASlowAcknowledgement) {
  ScratchDir d("faults_slow_ack");
  const std::string model = d.write("pp.json", ping_pong);
  const std::string slow = d.write("slow.sh", ping_adapter("sleep 2; echo ack"));
  CliResult r;
  const double s = seconds_of([&] {
    r = run_playtest("run " + model + " --sut 'sh " + slow + "' --strategy random --purpose none --time 0.5 --seed 1");
  });
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: INCONCLUSIVE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("time budget of 500 ms spent"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("acknowledgement"), std::string::npos) << r.out;
  EXPECT_LT(s, 1.8) << "the budget of 0.5 s did not hold";
}

TEST(CliStartsAndBudgets, ShrinkBudgetHoldsAgainstASlowSystem) {
  ScratchDir d("faults_slow_shrink");
  const std::string model = d.write("pp.json", ping_loop);
  const std::string slow = d.write("slow.sh", ping_adapter("sleep 0.5; echo ack", "echo 'output bang'"));
  CliResult r = run_playtest("run " + model + " --sut 'sh " + slow +
                             "' --strategy random --purpose none --steps 4 --seed 1 --trace " + d.file("t.jsonl"));
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  CliResult sh;
  const double s = seconds_of([&] {
    sh = run_playtest("shrink " + d.file("t.jsonl") + " --sut 'sh " + slow + "' --budget 1 -o " + d.file("m.jsonl"));
  });
  EXPECT_TRUE(sh.code == 1 || sh.code == 4) << sh.out << sh.err;
  EXPECT_LT(s, 3.0) << "shrink --budget 1 took " << s << " s\n" << sh.out;
  EXPECT_NE(sh.out.find("budget ran out"), std::string::npos) << sh.out;
}

}  // namespace
}  // namespace playtest::testing
