// End to end, diagnosis under hostile input and faults (issue 25): a trace's "model" is checked
// before anything reads it; bytes from the system never reach the terminal raw; an interrupted
// shrink says how often its best script failed; a replay of a run that ended on its step budget
// stops there too; options whose 0 used to mean "the default" and bounds whose tables cannot fit
// are refused; learn's prior weight is checked; a trace given twice is not counted twice.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "ping_system.hpp"
#include "spawned.hpp"

namespace playtest::testing {
namespace {

std::string adapter(const std::string& answer) {
  return "echo ready\n"
         "while read -r cmd arg; do\n"
         "  case \"$cmd\" in\n"
         "    stimulus) echo ack; " +
         answer +
         " ;;\n"
         "    reset) echo ready ;;\n"
         "    end) exit 0 ;;\n"
         "  esac\n"
         "done\n";
}

// A FAIL trace of ping_loop whose begin line names `model` as the model.
std::string trace_naming(const ScratchDir& d, const std::string& name, const std::string& model) {
  return d.write(name, "{\"event\":\"begin\",\"run\":1,\"seed\":1,\"strategy\":\"random\",\"model\":" +
                           nlohmann::json(model).dump() +
                           "}\n"
                           "{\"event\":\"step\",\"run\":1,\"step\":1,\"kind\":\"stimulus\",\"vertex\":\"idle\","
                           "\"label\":\"ping\",\"edge\":\"e0\",\"to\":\"wait\"}\n"
                           "{\"event\":\"step\",\"run\":1,\"step\":2,\"kind\":\"unexpected\",\"vertex\":\"wait\","
                           "\"label\":\"bang\"}\n"
                           "{\"event\":\"end\",\"run\":1,\"verdict\":\"FAIL\",\"steps\":2,\"message\":\"m\"}\n");
}

// --- 7. hostile traces and outputs ----------------------------------------------------------------

TEST(CliDiagnoseFaults, ATracesModelIsCheckedBeforeItIsRead) {
  ScratchDir d("diag_hostile_model");
  const std::string secret = d.write("secret.json", "{\"token\": \"SECRET-TOKEN\",\n broken\n");
  const std::string unnamed = d.write("notes.txt", "SECRET-NOTE\n");
  const std::pair<std::string, std::string> cases[] = {{"/etc/passwd", "is not a model file"},
                                                       {"/dev/zero", "is not a regular file"},
                                                       {d.file("nothing.json"), "does not exist"},
                                                       {secret, "does not look like a model of that kind"},
                                                       {unnamed, "is not a model file"}};
  for (const auto& [model, says] : cases) {
    const std::string t = trace_naming(d, "t.jsonl", model);
    for (const std::string& cmd : {"replay " + t + " --sut cat --attempts 1",
                                   "shrink " + t + " --sut cat -o " + d.file("m.jsonl"), "learn " + t}) {
      const auto t0 = std::chrono::steady_clock::now();
      CliResult r = run_playtest(cmd);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
      EXPECT_NE(r.err.find(says), std::string::npos) << cmd << "\n" << r.err;
      EXPECT_NE(r.err.find("t.jsonl:1:1"), std::string::npos) << cmd << "\n" << r.err;
      EXPECT_NE(r.err.find("--model"), std::string::npos) << cmd << "\n" << r.err;
      for (const char* leaked : {"root:", "SECRET"}) EXPECT_EQ(r.err.find(leaked), std::string::npos) << r.err;
      EXPECT_LT(s, 5.0) << cmd;
    }
  }
  // The same paths given with --model are the user's word: read as asked (and refused as models).
  const std::string t = trace_naming(d, "t.jsonl", "/nonexistent.json");
  CliResult r = run_playtest("learn " + t + " --model " + d.write("pp.json", ping_loop));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
}

TEST(CliDiagnoseFaults, EscapeSequencesFromTheSystemAreEscapedInTheTextOutput) {
  ScratchDir d("diag_escapes");
  const std::string model = d.write("pp.json", ping_loop);
  // The system answers with a label holding ESC [2J (clear screen), a bell and a C1 CSI.
  const std::string sut = d.write("esc.sh", adapter("printf 'output \\033[2J\\007x\\302\\233y\\n'"));
  CliResult r = run_playtest("run " + model + " --sut 'sh " + sut + "' --steps 4 --trace " + d.file("t.jsonl"));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  for (const char raw : {'\x1b', '\x07'}) EXPECT_EQ(r.out.find(raw), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\u001b[2J\\u0007x\\u009by"), std::string::npos) << r.out;
  // Also what replay and merge print from the trace.
  CliResult rep = run_playtest("replay " + d.file("t.jsonl") + " --sut 'sh " + sut + "' --attempts 1");
  EXPECT_EQ(rep.code, 1) << rep.out << rep.err;
  EXPECT_EQ(rep.out.find('\x1b'), std::string::npos) << rep.out;
  CliResult m = run_playtest("merge " + d.file("t.jsonl"));
  EXPECT_EQ(m.code, 1) << m.out << m.err;
  EXPECT_EQ(m.out.find('\x1b'), std::string::npos) << m.out;
}

// --- 9. diagnosis says what happened --------------------------------------------------------------

// A run that ended on its step budget: its replay stops there too (the recording says nothing of
// the steps after it), so no attempt "diverges" at the step after the budget.
TEST(CliDiagnoseFaults, ReplayStopsAtTheRecordedStepBudget) {
  ScratchDir d("diag_replay_budget");
  const std::string model = d.write("pp.json", ping_loop);
  const std::string sut = d.write("ok.sh", adapter("echo 'output pong'"));
  CliResult r =
      run_playtest("run " + model + " --sut 'sh " + sut + "' --purpose none --steps 5 --trace " + d.file("t.jsonl"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  CliResult rep = run_playtest("replay " + d.file("t.jsonl") + " --sut 'sh " + sut + "' --attempts 3 --json");
  EXPECT_EQ(rep.code, 0) << rep.out << rep.err;
  const auto j = nlohmann::json::parse(rep.out);
  EXPECT_EQ(j["diverged"], 0) << rep.out;
  EXPECT_EQ(j["verdict_rate"]["successes"], 3) << rep.out;
}

TEST(CliDiagnoseFaults, ZeroIsNotTheDefault) {
  ScratchDir d("diag_zero");
  const std::string model = d.write("pp.json", ping_loop);
  const std::string t = trace_naming(d, "t.jsonl", model);
  const std::pair<std::string, std::string> cases[] = {
      {"shrink " + t + " --sut cat --threshold 0 -o " + d.file("m.jsonl"), "--threshold: must be a fraction above 0"},
      {"run " + model + " --sut cat --shrink " + d.file("m.jsonl") + " --shrink-threshold 0",
       "--shrink-threshold: must be a fraction above 0"},
      {"analyze " + model + " --bound 0", "--bound: must be a positive integer"},
      {"run " + model + " --sut cat --strategy reach --bound 0", "--bound: must be a positive integer"}};
  for (const auto& [cmd, says] : cases) {
    CliResult r = run_playtest(cmd);
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << cmd << "\n" << r.err;
  }
}

// learn's prior weight: tiny weights give the intervals of the counts alone (they cancelled to a
// Beta parameter of 0: "'a': Beta parameters must be positive"), weights above 1e12 (whose
// intervals came out as points, or [0, 0] around 0.5) are refused naming the option.
TEST(CliDiagnoseFaults, LearnPriorWeightExtremes) {
  ScratchDir d("diag_prior");
  const std::string model = d.write("ab.json", R"({"playtest": "graph/1", "initial": "idle",
    "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}],
    "edges": [{"from": "idle", "to": "wait", "label": "ping"},
              {"from": "wait", "to": "idle", "label": "a", "prob": 0.5},
              {"from": "wait", "to": "idle", "label": "b", "prob": 0.5}]})");
  const std::string sut = d.write("a.sh", adapter("echo 'output a'"));  // always a: b never seen
  CliResult r =
      run_playtest("run " + model + " --sut 'sh " + sut + "' --purpose none --steps 20 --trace " + d.file("t.jsonl"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  for (const char* w : {"1e-300", "1e-30", "1e-6"}) {
    CliResult l = run_playtest("learn " + d.file("t.jsonl") + " --prior-weight " + w + " --json");
    ASSERT_EQ(l.code, 0) << w << "\n" << l.err;
    const auto j = nlohmann::json::parse(l.out);
    for (const auto& v : j["vertices"])
      for (const auto& o : v["outcomes"]) {
        // (With so skewed a posterior its mean may lie outside the central interval.)
        const double low = o["low"], high = o["high"], est = o["estimate"];
        EXPECT_LE(0.0, low) << w << " " << o;
        EXPECT_LE(low, high) << w << " " << o;
        EXPECT_LE(high, 1.0) << w << " " << o;
        EXPECT_NEAR(est, o["count"] == 0 ? 0.0 : 1.0, 1e-6) << w << " " << o;
        EXPECT_NEAR(high, o["count"] == 0 ? 0.0 : 1.0, 1e-6) << w << " " << o;
      }
  }
  CliResult big = run_playtest("learn " + d.file("t.jsonl") + " --prior-weight 1e13");
  EXPECT_EQ(big.code, 2) << big.out << big.err;
  EXPECT_NE(big.err.find("option --prior-weight: the prior's weight must be above 0 and at most 1e12"),
            std::string::npos)
      << big.err;
  CliResult ok = run_playtest("learn " + d.file("t.jsonl") + " --prior-weight 1e12 --json");
  ASSERT_EQ(ok.code, 0) << ok.err;
  const auto doc = nlohmann::json::parse(ok.out);  // (a temporary's member would die before the loop)
  for (const auto& v : doc["vertices"])
    for (const auto& o : v["outcomes"]) {
      const double low = o["low"], high = o["high"];
      EXPECT_LT(low, 0.5) << o;  // the prior (0.5 each) outweighs 10 visits: an interval around 0.5
      EXPECT_GT(high, 0.5) << o;
    }
}

// --- report, learn and replay check a trace alike ------------------------------------------------

// Traces edited by hand: an observation whose edge id is gone and whose label the model does not
// allow there; an output the model allows called unexpected. report used to draw both, learn to
// count the second.
TEST(CliDiagnoseFaults, ReportLearnAndReplayRefuseTheSameTraces) {
  ScratchDir d("diag_same_checks");
  const std::string model = d.write("pp.json", ping_loop);
  const std::string sut = d.write("ok.sh", adapter("echo 'output pong'"));
  CliResult r =
      run_playtest("run " + model + " --sut 'sh " + sut + "' --purpose none --steps 4 --trace " + d.file("t.jsonl"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  auto edited = [&](const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
    std::istringstream in(read_file(d.file("t.jsonl")));
    std::string out;
    bool done = false;
    for (std::string l; std::getline(in, l);) {
      nlohmann::json j = nlohmann::json::parse(l);
      if (!done && j["event"] == "step" && j["kind"] == "observation") {
        edit(j);
        done = true;
      }
      out += j.dump() + "\n";
    }
    return d.write(name, out);
  };
  const std::pair<std::string, std::string> cases[] = {
      {edited("noedge.jsonl",
              [](nlohmann::json& j) {
                j.erase("edge");
                j["label"] = "zzz";
              }),
       ":4:1: error: the model has no output 'zzz' at passive vertex 'wait'"},
      {edited("unexpected.jsonl",
              [](nlohmann::json& j) {
                j.erase("edge");
                j.erase("to");
                j["kind"] = "unexpected";
              }),
       ":4:1: error: the trace calls the output 'pong' at vertex 'wait' unexpected, but the model allows it there"}};
  for (const auto& [trace, says] : cases)
    for (const std::string& cmd :
         {"report " + trace + " --model " + model + " -o " + d.file("r.html"), "learn " + trace + " --model " + model,
          "replay " + trace + " --model " + model + " --sut 'sh " + sut + "' --attempts 1"}) {
      CliResult c = run_playtest(cmd);
      EXPECT_EQ(c.code, 2) << cmd << "\n" << c.out << c.err;
      EXPECT_NE(c.err.find(says), std::string::npos) << cmd << "\n" << c.err;
    }
}

// --- learn and report count what they are given once ----------------------------------------------

TEST(CliDiagnoseFaults, ATraceGivenTwiceIsRefused) {
  ScratchDir d("diag_twice");
  const std::string model = d.write("pp.json", ping_loop);
  const std::string sut = d.write("ok.sh", adapter("echo 'output pong'"));
  CliResult r = run_playtest("run " + model + " --sut 'sh " + sut + "' --purpose none --steps 6 --runs 2 --trace " +
                             d.file("t.jsonl"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  std::filesystem::copy_file(d.file("t.jsonl"), d.file("copy.jsonl"));
  for (const std::string& second : {d.file("t.jsonl"), d.file("") + "/./t.jsonl", d.file("copy.jsonl")})
    for (const std::string& cmd : {"learn " + d.file("t.jsonl") + " " + second,
                                   "report " + d.file("t.jsonl") + " " + second + " -o " + d.file("r.html")}) {
      CliResult c = run_playtest(cmd);
      EXPECT_EQ(c.code, 2) << cmd << "\n" << c.out << c.err;
      EXPECT_NE(c.err.find("would count twice"), std::string::npos) << cmd << "\n" << c.err;
    }
  // Two executions of the same command are two campaigns' worth of runs: both count.
  r = run_playtest("run " + model + " --sut 'sh " + sut + "' --purpose none --steps 6 --runs 2 --trace " +
                   d.file("t2.jsonl"));
  ASSERT_EQ(r.code, 0);
  CliResult both = run_playtest("learn " + d.file("t.jsonl") + " " + d.file("t2.jsonl") + " --json");
  EXPECT_EQ(both.code, 0) << both.err;
  EXPECT_EQ(nlohmann::json::parse(both.out)["runs"], 4);
}

}  // namespace
}  // namespace playtest::testing
