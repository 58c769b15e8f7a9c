// End to end, issue 26: a graph/1 vertex's "timeout_ms" is the wait whatever --timeout-ms says (and
// --vertex-timeout wins over it); a delay edge is waited, never sent, and recorded as a wait step;
// an output that is no label of the model at all and a stimulus refused on every try are named; the
// model's parameters reach the adapter as PLAYTEST_PARAM_<NAME>.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"

namespace playtest::testing {
namespace {

// An adapter in shell that acknowledges every stimulus, logs it to $LOG and says nothing else.
const char* silent_adapter = R"(echo ready
while read -r cmd arg; do
  case "$cmd" in
    stimulus) echo "$arg" >> "$LOG"; echo ack ;;
    reset) echo ready ;;
    end) exit 0 ;;
  esac
done
)";

const char* timed_graph = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive", "timeout_ms": 100}],
  "edges": [{"from": "idle", "to": "wait", "label": "go"},
            {"from": "wait", "to": "idle", "label": "pong", "prob": 1}]})";

TEST(CliTime, AVertexTimeoutMsIsTheWaitWhateverTimeoutMsSays) {
  ScratchDir d("time_vertex");
  const std::string g = d.write("g.json", timed_graph);
  const std::string a = d.write("a.sh", silent_adapter);
  const auto t0 = std::chrono::steady_clock::now();
  CliResult r = run_playtest("run " + g + " --sut 'LOG=" + d.file("log") + " sh " + a +
                             "' --strategy random --timeout-ms 60000 --seed 1");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("at passive vertex 'wait' the system produced nothing within 100 ms"), std::string::npos)
      << r.out;
  EXPECT_LT(s, 30.0);  // not the 60 s of --timeout-ms
  CliResult v = run_playtest("run " + g + " --sut 'LOG=" + d.file("log") + " sh " + a +
                             "' --strategy random --timeout-ms 60000 --vertex-timeout wait=300 --seed 1");
  EXPECT_EQ(v.code, 1) << v.out << v.err;
  EXPECT_NE(v.out.find("within 300 ms"), std::string::npos) << v.out;
}

TEST(CliTime, ADelayEdgeIsWaitedAndNeverSent) {
  ScratchDir d("time_delay");
  const std::string g = d.write("g.json", R"({"playtest": "graph/1", "initial": "idle",
    "vertices": [{"id": "idle"}, {"id": "later"}, {"id": "end", "goal": true}],
    "edges": [{"from": "idle", "to": "later", "label": "sleep", "delay_ms": 200},
              {"from": "later", "to": "end", "label": "go"}]})");
  const std::string a = d.write("a.sh", silent_adapter);
  CliResult r = run_playtest("run " + g + " --sut 'LOG=" + d.file("log") + " sh " + a +
                             "' --strategy reach --seed 1 --trace " + d.file("t.jsonl"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(read_file(d.file("log")), "go\n");
  std::istringstream in(read_file(d.file("t.jsonl")));
  std::vector<nlohmann::json> steps;
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    if (j["event"] == "step") steps.push_back(j);
  }
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0]["kind"], "wait");
  EXPECT_EQ(steps[0]["label"], "sleep");
  EXPECT_GE(steps[0]["time_ms"].get<double>(), 195.0);
  // graph/1 round trip keeps the timing.
  CliResult c = run_playtest("convert " + g + " --to graph");
  EXPECT_NE(c.out.find("\"delay_ms\": 200"), std::string::npos) << c.out << c.err;
  CliResult t = run_playtest("transform " + d.write("v.json", timed_graph) + " --merge");
  EXPECT_NE(t.out.find("\"timeout_ms\": 100"), std::string::npos) << t.out << t.err;
}

TEST(CliTime, BadTimingInGraphFilesIsLocated) {
  ScratchDir d("time_bad");
  CliResult r = run_playtest("validate " + d.write("g.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "timeout_ms": 100}], "edges": []})"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("active vertex 'a' has a timeout"), std::string::npos) << r.err;
  r = run_playtest("validate " + d.write("h.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "passive", "timeout_ms": 0}], "edges": []})"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("\"timeout_ms\" must be a positive integer number of milliseconds"), std::string::npos) << r.err;
  r = run_playtest("validate " + d.write("i.json", R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "passive"}],
    "edges": [{"from": "a", "to": "a", "label": "x", "prob": 1, "delay_ms": 5}]})"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("edge 'e0' has a delay but is out of passive vertex 'a'"), std::string::npos) << r.err;
}

TEST(CliLabels, AnOutputThatIsNoLabelOfTheModelIsNamedWithTheNearest) {
  ScratchDir d("labels_foreign");
  const std::string m = d.write("m.ptm", R"(
    type Client = 0..0;
    var asked: set<Client> = {};
    controllable Reserve(c: Client) require not (c in asked) { asked := asked + {c}; }
    observable Reserved(c: Client, body: {"a", "b"}) require c in asked { asked := asked - {c}; }
  )");
  const std::string a = d.write("a.sh", R"(echo ready
while read -r cmd arg; do
  case "$cmd" in
    stimulus) echo ack; echo 'output ?Reserved(0,"a")' ;;
    end) exit 0 ;;
  esac
done
)");
  CliResult r = run_playtest("run " + m + " --sut 'sh " + a + "' --strategy random --seed 1");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("'?Reserved(0,\"a\")' is not a label of the model at all (adapter and model disagree?); the "
                       "nearest labels of the model are '?Reserved(0, \"a\")'"),
            std::string::npos)
      << r.out;
}

TEST(CliLabels, AStimulusRefusedOnEveryTryIsNamed) {
  ScratchDir d("labels_refused");
  const std::string a = d.write("a.sh", R"(echo ready
while read -r cmd arg; do
  case "$cmd" in
    stimulus) echo refused ;;
    reset) echo ready ;;
    end) exit 0 ;;
  esac
done
)");
  CliResult r = run_playtest("run " + example("examples/sut/workers.json") + " --sut 'sh " + a +
                             "' --strategy random --runs 3 --seed 1 --json");
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["never_accepted"], nlohmann::json::array({"submit"}));
  CliResult t = run_playtest("run " + example("examples/sut/workers.json") + " --sut 'sh " + a +
                             "' --strategy random --runs 3 --seed 1");
  EXPECT_NE(t.out.find("note: the system refused the stimulus 'submit' every time it was sent (3 times) and never "
                       "accepted it"),
            std::string::npos)
      << t.out;
}

TEST(CliParams, TheModelsParametersReachTheAdapter) {
  ScratchDir d("params_env");
  const std::string m = d.write("m.ptm", R"(
    param N: 1..9 = 2;
    param FAST: bool = false;
    var x: 0..9 = 0;
    controllable Inc require x < N { x := x + 1; }
    final x == N;
  )");
  const std::string a = d.write("a.sh", R"(env | grep '^PLAYTEST_PARAM_' | sort > "$OUT"
echo ready
while read -r cmd arg; do
  case "$cmd" in
    stimulus) echo ack ;;
    end) exit 0 ;;
  esac
done
)");
  for (const std::string strategy : {"random", "reach"}) {  // on the fly and explored
    CliResult r = run_playtest("run " + m + " --param N=5 --sut 'OUT=" + d.file("env") + " sh " + a + "' --strategy " +
                               strategy + " --seed 1");
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(read_file(d.file("env")), "PLAYTEST_PARAM_FAST=false\nPLAYTEST_PARAM_N=5\n") << strategy;
  }
}

}  // namespace
}  // namespace playtest::testing

namespace playtest::testing {
namespace {

TEST(CliTime, ThePlannersCountADelaysCost) {
  // Wait reaches the goal at once but costs C; two Steps cost 2.
  ScratchDir d("time_cost");
  const std::string m = d.write("m.ptm", R"(
    param C: 0..100 = 20;
    var at: 0..2 = 0;
    controllable Wait delay 1000 cost C require at == 0 { at := 2; }
    controllable Step require at < 2 { at := at + 1; }
    final at == 2;
  )");
  CliResult r = run_playtest("solve " + m + " --objective expected");
  EXPECT_NE(r.out.find("expected cost from (at=0): 2\n"), std::string::npos) << r.out << r.err;
  r = run_playtest("solve " + m + " --param C=1 --objective expected");
  EXPECT_NE(r.out.find("expected cost from (at=0): 1\n"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("Wait -> (at=2)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace playtest::testing
