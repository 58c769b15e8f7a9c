// run and simulate explore a model program first when it fits a budget (--max-states, --explore-time),
// so that a small model behaves as its explored graph: the same coverage line, trace steps with edge
// ids and JUnit as `playtest explore -o` followed by a run on the graph; a model that does not fit,
// or --on-the-fly, is played on the fly and every output says so and why (docs/testing.md "Models
// too big to explore"). Also the purposes that fit a big model: --traps model on a model program's
// traps, labels, cover:80%, --goal as a state condition; --max-errors; --trace-dir written live.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli_runner.hpp"
#include "counters_adapter.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

const std::string counters = example("examples/models/counters.ptm");

std::vector<nlohmann::json> jsonl(const std::string& path) {
  std::istringstream in(read_file(path));
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

std::string line_with(const std::string& text, const std::string& start) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(start, 0) == 0) return line;
  return "(no line starting with '" + start + "')";
}

// Times and the model's name are what may differ between a run on the model and one on its graph.
std::string without_times(std::string s, const std::string& model, const std::string& graph) {
  if (!model.empty())
    for (std::size_t at = 0; (at = s.find(model, at)) != std::string::npos; at += graph.size())
      s.replace(at, model.size(), graph);
  s = std::regex_replace(s, std::regex(R"(time="[0-9.e+-]+")"), "time=\"T\"");
  s = std::regex_replace(s, std::regex(R"( +[0-9]+\.[0-9] ms)"), " T ms");
  return s;
}

// The issue's "done means": a model of a few hundred states (counters with N=6: 431 vertices) gives
// the same coverage line, trace fields and JUnit as its explored graph.
TEST(CliExploreFirst, ASmallModelPlaysAsItsExploredGraph) {
  ScratchDir d("explore_first_same");
  const std::string sut = d.write("sut.sh", counters_adapter(false));
  const std::string graph = d.file("g.json");
  CliResult e = run_playtest("explore " + counters + " --param N=6 -o " + graph);
  ASSERT_EQ(e.code, 0) << e.out << e.err;
  ASSERT_NE(e.out.find("431 vertices"), std::string::npos) << e.out;
  const std::string common = " --sut 'sh " + sut + "' --strategy random --runs 3 --steps 300 --seed 4";
  CliResult on_graph =
      run_playtest("run " + graph + common + " --trace " + d.file("g.jsonl") + " --junit " + d.file("g.xml"));
  CliResult on_model = run_playtest("run " + counters + " --param N=6" + common + " --trace " + d.file("m.jsonl") +
                                    " --junit " + d.file("m.xml"));
  ASSERT_EQ(on_graph.code, on_model.code) << on_graph.out << on_model.out << on_model.err;
  const std::string coverage = line_with(on_graph.out, "coverage: ");
  EXPECT_EQ(line_with(on_model.out, "coverage: "), coverage);
  EXPECT_EQ(coverage.find("explored part"), std::string::npos) << coverage;
  EXPECT_NE(coverage.find("/1295 edges"), std::string::npos) << coverage;  // the model's total, known
  for (const std::string run : {"run 1 ", "run 2 ", "run 3 "})
    EXPECT_EQ(without_times(line_with(on_model.out, run), "", ""), without_times(line_with(on_graph.out, run), "", ""));
  // The traces: every step and end line the same (edge ids included), the campaign line but for
  // the exploration it states.
  const auto g = jsonl(d.file("g.jsonl")), m = jsonl(d.file("m.jsonl"));
  ASSERT_EQ(g.size(), m.size());
  nlohmann::json head = m[0];
  EXPECT_EQ(head["exploration"], "whole");
  EXPECT_FALSE(head.contains("on_the_fly"));
  head.erase("exploration");
  EXPECT_EQ(head, g[0]);
  std::size_t steps_with_edges = 0;
  for (std::size_t i = 1; i < g.size(); ++i) {
    if (g[i]["event"] == "begin") continue;  // model and replay command name the file
    nlohmann::json a = g[i], b = m[i];
    a.erase("time_ms"), b.erase("time_ms"), a.erase("elapsed_ms"), b.erase("elapsed_ms");
    EXPECT_EQ(a, b) << i;
    steps_with_edges += b.contains("edge");
  }
  EXPECT_GT(steps_with_edges, 300u);
  // JUnit: the same up to the model's name and the times.
  EXPECT_EQ(without_times(without_times(read_file(d.file("m.xml")), counters + " --param N=6", graph), counters, graph),
            without_times(read_file(d.file("g.xml")), "", ""));
  // The traces of the model program merge as those of a graph do.
  CliResult merged = run_playtest("merge " + d.file("m.jsonl"));
  EXPECT_EQ(merged.code, on_model.code) << merged.out << merged.err;
  EXPECT_EQ(line_with(merged.out, "coverage: "), coverage);
}

// The short names the report's pictures give a model program's states (v<index>, the index in the
// explored graph) name vertices on the command line too.
TEST(CliExploreFirst, PictureNamesNameVertices) {
  ScratchDir d("explore_first_short_names");
  const std::string sut = d.write("sut.sh", counters_adapter(false));
  const std::string graph = d.file("g.json");
  ASSERT_EQ(run_playtest("explore " + counters + " --param N=2 -o " + graph).code, 0);
  const std::string v7 = nlohmann::json::parse(read_file(graph))["vertices"][7]["id"];
  CliResult r = run_playtest("run " + counters + " --param N=2 --sut 'sh " + sut +
                             "' --strategy reach --goal v7 --vertex-timeout v7=50 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["runs"][0]["final_vertex"], v7);
  CliResult bad = run_playtest("run " + counters + " --param N=2 --sut 'sh " + sut + "' --strategy reach --goal v999");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("no vertex 'v999' in the graph (given as a goal)"), std::string::npos) << bad.err;
}

// A model with `abstract` replays exactly: run i of a campaign is run i alone with its seed.
TEST(CliExploreFirst, AnAbstractModelReplaysEachRunExactly) {
  ScratchDir d("explore_first_abstract");
  const std::string m = d.write("abs.ptm",
                                "model Abs;\nvar x: 0..5 = 0;\nvar y: 0..5 = 0;\n"
                                "controllable Inc require x < 5 { x := x + 1; y := (y + x) % 6; }\n"
                                "controllable Dec require x > 0 { x := x - 1; y := (y + 1) % 6; }\n"
                                "controllable Jump { y := (y + 2) % 6; }\nabstract x, y % 2;\n");
  const std::string sut = d.write("sut.sh",
                                  "echo ready\nwhile read -r cmd arg; do case \"$cmd\" in stimulus) echo ack ;; "
                                  "reset) echo ready ;; end) exit 0 ;; esac; done\n");
  const std::string common = "run " + m + " --sut 'sh " + sut + "' --strategy anti-ant --purpose none --steps 40";
  CliResult campaign = run_playtest(common + " --runs 3 --seed 10 --trace " + d.file("c.jsonl"));
  ASSERT_EQ(campaign.code, 0) << campaign.out << campaign.err;
  CliResult alone = run_playtest(common + " --runs 1 --seed 12 --trace " + d.file("a.jsonl"));
  ASSERT_EQ(alone.code, 0) << alone.out << alone.err;
  std::vector<std::string> from_campaign, from_alone;
  for (const auto& l : jsonl(d.file("c.jsonl")))
    if (l["event"] == "step" && l["run"] == 3) from_campaign.push_back(l["edge"].get<std::string>());
  for (const auto& l : jsonl(d.file("a.jsonl")))
    if (l["event"] == "step") from_alone.push_back(l["edge"].get<std::string>());
  EXPECT_EQ(from_campaign.size(), 40u);
  EXPECT_EQ(from_campaign, from_alone);
}

// Beyond the budget the model is played on the fly, and the text, --json, the trace's campaign line
// and JUnit say so and why.
TEST(CliExploreFirst, BeyondTheBudgetTheRunSaysItPlaysOnTheFly) {
  ScratchDir d("explore_first_budget");
  const std::string sut = d.write("sut.sh", counters_adapter(false));
  CliResult text = run_playtest("run " + counters + " --param N=6 --sut 'sh " + sut +
                                "' --strategy random --steps 50 --purpose none --max-states 100 --trace " +
                                d.file("t.jsonl") + " --junit " + d.file("j.xml"));
  ASSERT_EQ(text.code, 0) << text.out << text.err;
  EXPECT_NE(text.out.find("the model was played on the fly: it has more than 100 vertices (the state limit)\n"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("of the explored part"), std::string::npos) << text.out;
  const auto campaign = jsonl(d.file("t.jsonl")).front();
  EXPECT_EQ(campaign["exploration"], "on_the_fly");
  EXPECT_EQ(campaign["on_the_fly"], true);
  EXPECT_EQ(campaign["on_the_fly_reason"], "it has more than 100 vertices (the state limit)");
  EXPECT_NE(read_file(d.file("j.xml")).find("name=\"on_the_fly_reason\" value=\"it has more than 100 vertices"),
            std::string::npos)
      << read_file(d.file("j.xml"));
  // The time budget: counters at its default size (2 * 10^9 states) does not fit 0.2 s.
  CliResult json = run_playtest("run " + counters + " --sut 'sh " + sut +
                                "' --strategy random --steps 50 --purpose none --explore-time 0.2 --json");
  ASSERT_EQ(json.code, 0) << json.out << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["exploration"], "on_the_fly");
  EXPECT_EQ(j["on_the_fly"], true);
  EXPECT_NE(j["on_the_fly_reason"].get<std::string>().find("exploring it did not end within 0.2 s"), std::string::npos)
      << json.out;
  // simulate too.
  CliResult sim = run_playtest("simulate " + counters +
                               " --param N=6 --strategy random --runs 4 --steps 20 "
                               "--threads 1 --max-states 100");
  ASSERT_EQ(sim.code, 0) << sim.out << sim.err;
  EXPECT_NE(sim.out.find("the model was played on the fly: it has more than 100 vertices"), std::string::npos)
      << sim.out;
  CliResult whole = run_playtest("simulate " + counters +
                                 " --param N=3 --strategy random --runs 4 --steps 20 "
                                 "--threads 1 --json");
  ASSERT_EQ(whole.code, 0) << whole.out << whole.err;
  EXPECT_EQ(nlohmann::json::parse(whole.out)["exploration"], "whole");
}

// --on-the-fly plays on the fly whatever the size, and its replay commands keep it; it is refused
// with what needs the whole graph and on a graph file.
TEST(CliExploreFirst, OnTheFlyOnRequest) {
  ScratchDir d("explore_first_request");
  const std::string sut = d.write("sut.sh", counters_adapter(true));
  CliResult r = run_playtest("run " + counters + " --param N=3 --sut 'sh " + sut +
                             "' --strategy anti-ant --steps 300 --seed 1 --on-the-fly");
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("the model was played on the fly: on-the-fly play was asked for"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--seed 1 --runs 1 --on-the-fly\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("--on-the-fly --seed"), std::string::npos) << r.out;  // given once, at the end
  CliResult reach = run_playtest("run " + counters + " --param N=3 --sut true --strategy reach --on-the-fly");
  EXPECT_EQ(reach.code, 2);
  EXPECT_NE(reach.err.find("playtest: error: option --on-the-fly: strategy 'reach' needs the whole graph"),
            std::string::npos)
      << reach.err;
  CliResult graph = run_playtest("run " + example("examples/sut/workers.json") + " --sut true --on-the-fly");
  EXPECT_EQ(graph.code, 2);
  EXPECT_NE(graph.err.find("option --on-the-fly: applies to model programs (.ptm) only"), std::string::npos)
      << graph.err;
}

const std::string queue = example("tests/cli/golden/cases/queue.ptm");
const std::string queue_sut = " --sut 'sh " + example("tests/cli/golden/cases/queue.sh") + "'";

// A model program's trap declarations are its traps everywhere: `explore -o` keeps them, and
// `run --traps model` makes them the purpose, which a run meets.
TEST(CliPurposes, ModelProgramTrapsAreAPurposeRunMeets) {
  ScratchDir d("purpose_traps");
  CliResult e = run_playtest("explore " + queue + " -o " + d.file("g.json"));
  ASSERT_EQ(e.code, 0) << e.out << e.err;
  const auto g = nlohmann::json::parse(read_file(d.file("g.json")));
  ASSERT_TRUE(g.contains("meta")) << read_file(d.file("g.json"));
  EXPECT_EQ(g["meta"]["traps"].size(), 8u);  // Put(0), Put(1) from each of the four queues of length 2
  for (const std::string& input : {queue, d.file("g.json")})
    for (const std::string strategy : {"random", "anti-ant", "planner", "cover"}) {
      CliResult r = run_playtest("run " + input + queue_sut + " --strategy " + strategy +
                                 " --traps model --steps 5000 --seed 1 --json");
      ASSERT_EQ(r.code, 0) << input << " " << strategy << r.out << r.err;
      const auto j = nlohmann::json::parse(r.out);
      EXPECT_EQ(j["runs"][0]["purpose_met"], true) << strategy;
    }
  CliResult none =
      run_playtest("run " + example("tests/cli/golden/cases/final_never.ptm") + " --sut true --traps model");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("the model declares no traps"), std::string::npos) << none.err;
}

TEST(CliPurposes, LabelsAndThresholds) {
  const std::string run = "run " + queue + queue_sut + " --strategy random --seed 3 --steps 5000 --json --purpose ";
  auto steps_for = [&](const std::string& purpose) {
    CliResult r = run_playtest(run + purpose);
    EXPECT_EQ(r.code, 0) << purpose << r.out << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["runs"][0]["purpose_met"], true) << purpose;
    return std::make_pair(j["runs"][0]["steps"].get<int>(), j["runs"][0]["message"].get<std::string>());
  };
  const auto [all, all_message] = steps_for("cover");
  const auto [labels, labels_message] = steps_for("labels");
  const auto [most, most_message] = steps_for("cover:50%");
  // The same seed plays the same walk: each purpose is met at a prefix of the full cover's.
  EXPECT_LT(labels, all);
  EXPECT_LT(most, all);
  EXPECT_NE(labels_message.find("covered every label of the purpose in"), std::string::npos) << labels_message;
  EXPECT_NE(most_message.find("of the purpose's 42 edges (50% asked for)"), std::string::npos) << most_message;
  CliResult bad = run_playtest(run + "reach:50%");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("option --purpose: 'reach:50%': only cover and labels take a threshold"), std::string::npos)
      << bad.err;
  // On the fly there are no totals to take a share of.
  CliResult fly = run_playtest(run + "labels --on-the-fly");
  EXPECT_EQ(fly.code, 2);
  EXPECT_NE(fly.err.find("option --on-the-fly: --purpose labels needs the whole graph"), std::string::npos) << fly.err;
  // An INCONCLUSIVE run lists the labels it left.
  CliResult left = run_playtest("run " + queue + queue_sut + " --strategy random --seed 3 --steps 2 --purpose labels");
  EXPECT_EQ(left.code, 4) << left.out << left.err;
  EXPECT_NE(left.out.find("purpose labels left uncovered: "), std::string::npos) << left.out;
}

// --goal takes a condition on the state in the model language, on the explored graph and on the fly.
TEST(CliPurposes, GoalAsAStateCondition) {
  for (const std::string fly : {"", " --on-the-fly"}) {
    CliResult r = run_playtest("run " + queue + queue_sut +
                               " --strategy random --seed 1 --goal 'len(q) == 2 and "
                               "q[0] == 1' --json" +
                               fly);
    ASSERT_EQ(r.code, 0) << fly << r.out << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_NE(j["runs"][0]["message"].get<std::string>().find("reached goal '(q=[1, "), std::string::npos) << r.out;
  }
  CliResult reach = run_playtest("run " + queue + queue_sut + " --strategy reach --goal 'len(q) == 1' --json");
  ASSERT_EQ(reach.code, 0) << reach.out << reach.err;
  EXPECT_EQ(nlohmann::json::parse(reach.out)["runs"][0]["steps"], 2);  // Put, then its ?Ack
  CliResult bad = run_playtest("run " + queue + queue_sut + " --goal 'len(qq) == 2'");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--goal:1:5: error: undefined name 'qq'"), std::string::npos) << bad.err;
  CliResult mixed = run_playtest("run " + queue + queue_sut + " --goal 'len(q) == 2' --goal '(q=[], acked=true)'");
  EXPECT_EQ(mixed.code, 2);
  EXPECT_NE(mixed.err.find("option --goal: vertex '(q=[], acked=true)' and the condition"), std::string::npos)
      << mixed.err;
}

// A dead server: --max-errors stops the campaign, and the reason of each ERROR is printed, --quiet too.
TEST(CliCampaignLimits, MaxErrorsStopsAgainstADeadServer) {
  ScratchDir d("max_errors");
  const std::string dead = d.write("dead.sh", "echo 'connection refused' >&2\nexit 1\n");
  CliResult r = run_playtest("run " + queue + " --sut 'sh " + dead +
                             "' --sut-stderr discard --runs 50 --max-errors 3 --quiet --json");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["runs"].size(), 3u);
  EXPECT_EQ(j["stopped_by_errors"], 3);
  EXPECT_EQ(j["runs_not_started"], 47);
  CliResult text = run_playtest("run " + queue + " --sut 'sh " + dead +
                                "' --sut-stderr discard --runs 50 --jobs 2 --max-errors 3 --quiet");
  EXPECT_EQ(text.code, 3) << text.out << text.err;
  EXPECT_NE(text.out.find("ERROR (adapter"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("runs ended ERROR, the limit (max-errors)"), std::string::npos) << text.out;
}

// --trace-dir writes each run's file while the run is played: killed by SIGKILL in the middle of
// two runs played at once, both files hold their steps so far (with --trace, the second run's steps
// would still be held in memory).
TEST(CliCampaignLimits, TraceDirLosesNoRunInProgressToSigkill) {
  ScratchDir d("trace_dir_live");
  // Answers the first stimulus, then ignores every line (the run waits for an ack that never comes).
  const std::string stuck = d.write("stuck.sh",
                                    "echo ready\nread -r cmd arg\necho ack\ncase \"$arg\" in Put*) echo 'output "
                                    "?Ack' ;; esac\nwhile read -r line; do :; done\n");
  const std::string cmd = "timeout -s KILL 3 " + playtest::testing::playtest_binary() + " run " + queue + " --sut 'sh " +
                          stuck +
                          "' --strategy random --purpose none --runs 2 --jobs 2 --ack-timeout-ms 60000 "
                          "--timeout-ms 60000 --trace-dir " +
                          d.file("traces") + " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 137) << status;
  for (const std::string f : {"run-1.jsonl", "run-2.jsonl"}) {
    const auto lines = jsonl(d.file("traces/" + f));
    ASSERT_GE(lines.size(), 3u) << f;
    EXPECT_EQ(lines[0]["event"], "campaign");
    EXPECT_EQ(lines[1]["event"], "begin");
    EXPECT_EQ(lines[2]["event"], "step");
    EXPECT_NE(lines.back()["event"], "end");  // cut: no end line
  }
}

}  // namespace
}  // namespace playtest::testing
