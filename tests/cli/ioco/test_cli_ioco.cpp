// End-to-end runs of `playtest ioco ...` and of .aut models through the common loader, with the
// exact messages of errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test_paths.hpp"

namespace {

struct Result {
  int code = -1;
  std::string out;  // stdout and stderr
};

Result run(const std::string& args) {
  const std::string cmd = playtest::testing::playtest_binary() + " " + args + " 2>&1";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  for (std::size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string ex(const std::string& name) { return playtest::testing::source_dir() + "/examples/ioco/" + name; }

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(CliIoco, CheckConformingImplementation) {
  const Result r = run("ioco check " + ex("candy_spec.aut") + " " + ex("candy_correct.aut"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS: "), std::string::npos) << r.out;
}

TEST(CliIoco, CheckFaultyImplementationGivesCounterexample) {
  const Result r = run("ioco check " + ex("candy_spec.aut") + " " + ex("candy_faulty_silent.aut"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("counterexample: but but delta"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the specification allows only: choc liq"), std::string::npos) << r.out;
  const Result j = run("ioco check --json " + ex("candy_spec.aut") + " " + ex("candy_faulty_choc.aut"));
  EXPECT_EQ(j.code, 1);
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["conforms"], false);
  EXPECT_EQ(doc["counterexample"], (std::vector<std::string>{"but", "choc"}));
}

TEST(CliIoco, BadAutFileIsReportedWithLineColumnAndCaret) {
  const std::string bad = temp_file("bad_state.aut", "des (0, 2, 3)\n(0, \"?a\", 1)\n(1, \"!b\", 9)\n");
  const Result r = run("ioco check " + bad + " " + bad);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(bad + ":3:11: error: state 9 is out of range: the header declares 3 states (0..2)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("(1, \"!b\", 9)\n            ^"), std::string::npos) << r.out;
}

TEST(CliIoco, LabelListsOnTheCommandLine) {
  const std::string plain = temp_file("plain.aut", "des (0, 2, 2)\n(0, \"coin\", 1)\n(1, \"tea\", 0)\n");
  Result r = run("ioco check " + plain + " " + plain);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(":2:5: error: cannot tell whether label 'coin' is an input or an output"), std::string::npos)
      << r.out;
  r = run("ioco check --inputs coin " + plain + " " + plain);
  EXPECT_EQ(r.code, 0) << r.out;
  r = run("info --inputs coin --outputs tea " + plain);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("vertices:    3 (1 active, 2 passive)"), std::string::npos) << r.out;
}

TEST(CliIoco, TorxProbabilitiesOfTheCandyExperiment) {
  const Result r = run("ioco torx-prob --json " + ex("candy_spec.aut") + " --impl " + ex("candy_chaos.aut") +
                       " --max-length 3 --torx-ratio 1:2 --sequence 'but null liq' --fail-traces --simulate 20000 --seed 3");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_NEAR(doc["p_input"].get<double>(), 1.0 / 3, 1e-12);
  EXPECT_NEAR(doc["traces"][0]["probability"].get<double>(), 1.0 / 3 * 2.0 / 9 * 2.0 / 9, 1e-12);
  const double fail = doc["exact"]["fail"].get<double>();
  EXPECT_NEAR(fail, doc["fail_traces_sum"].get<double>(), 1e-12);
  EXPECT_EQ(doc["fail_traces"].size(), 13u);
  EXPECT_NEAR(doc["simulation"]["fail_rate"].get<double>(), fail, 0.02);
  const Result old = run("ioco torx-prob " + ex("candy_spec.aut") + " --impl " + ex("candy_chaos.aut") +
                         " --max-length 3 --torx-p 0:0.5:0.5");
  EXPECT_NE(old.out.find("P(FAIL in one run) = 0.592593"), std::string::npos) << old.out;
  const Result bad = run("ioco torx-prob " + ex("candy_spec.aut") + " --torx-p 0.5:0.5");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("option --torx-p: expected 3 numbers separated by ':'"), std::string::npos) << bad.out;
}

TEST(CliIoco, AutModelsLoadAsTestGraphs) {
  const Result r = run("info " + ex("candy_spec.aut"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("vertices:    14 (7 active, 7 passive)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("5 timeout edges"), std::string::npos) << r.out;
  const Result j = run("info " + ex("candy_spec.lts.json"));
  EXPECT_EQ(j.code, 0) << j.out;
  EXPECT_NE(j.out.find("vertices:    14 (7 active, 7 passive)"), std::string::npos) << j.out;
  const std::string out = ::testing::TempDir() + "candy_graph.json";
  const Result c = run("convert " + ex("candy_spec.aut") + " --to graph -o " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  const Result v = run("validate " + out);
  EXPECT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("14 vertices, 23 edges"), std::string::npos) << v.out;
}

namespace {

// A candy machine adapter (docs/adapter-protocol.md) that answers the n-th "but" with chocolate.
std::string candy_adapter(const std::string& name, int choc_at) {
  return temp_file(name + std::to_string(::getpid()) + ".sh",
                   "echo ready; n=0\nwhile read cmd arg; do case \"$cmd\" in\n"
                   "  stimulus) n=$((n+1)); echo ack; if [ $n = " + std::to_string(choc_at) +
                       " ]; then echo 'output choc'; fi;;\n"
                   "  reset) n=0; echo ready;;\n  end) exit 0;;\nesac; done\n");
}

TEST(CliIoco, ConvertTellsTheFormatFromTheOutputName) {
  const std::string out = ::testing::TempDir() + "candy_conv" + std::to_string(::getpid()) + ".json";
  const Result c = run("convert " + ex("candy_spec.aut") + " -o " + out);
  ASSERT_EQ(c.code, 0) << c.out;
  const Result v = run("validate " + out);
  EXPECT_NE(v.out.find("14 vertices, 23 edges"), std::string::npos) << v.out;
  const Result bad = run("convert " + ex("candy_spec.aut") + " -o " + out + ".xyz");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("give --to graph, dot or prism"), std::string::npos) << bad.out;
}

TEST(CliIoco, TorxRunsALiveSystemWithIocoVerdicts) {
  // Chocolate after the second push is what the specification allows (after "but but" or "but
  // delta but"); after the first push it is not. Outputs come right after the ack, so they race
  // the tester's next input: the runner judges them through the observe edge, never as a false FAIL.
  const std::string args = " --strategy torx --torx-ratio 1:2 --max-length 6 --timeout-ms 100 --runs 8 --json";
  const Result good = run("run " + ex("candy_spec.aut") + " --sut 'sh " + candy_adapter("candy_good", 2) + "'" + args);
  EXPECT_EQ(good.code, 0) << good.out;
  const auto j = nlohmann::json::parse(good.out);
  EXPECT_EQ(j["verdict"], "PASS");
  EXPECT_EQ(j["runs"].size(), 8u);
  const Result bad = run("run " + ex("candy_spec.aut") + " --sut 'sh " + candy_adapter("candy_bad", 1) + "'" + args);
  EXPECT_EQ(bad.code, 1) << bad.out;
  const auto jb = nlohmann::json::parse(bad.out);
  EXPECT_EQ(jb["verdict"], "FAIL");
  bool choc_failure = false;
  for (const auto& r : jb["runs"])
    if (r["verdict"] == "FAIL") choc_failure = choc_failure || r["failure"]["observed"] == "choc";
  EXPECT_TRUE(choc_failure) << bad.out;
}

TEST(CliIoco, SimulateAgainstAFaultyImplementation) {
  const Result r = run("simulate " + ex("candy_spec.aut") + " --impl " + ex("candy_faulty_choc.aut") +
                       " --strategy torx --max-length 3 --runs 20000 --seed 3 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const auto& s = j["strategies"][0];
  EXPECT_EQ(s["purpose"], "none");
  const double rate = s["failed"].get<double>() / s["runs"].get<double>();
  EXPECT_NEAR(rate, 0.375, 5 * std::sqrt(0.375 * 0.625 / 20000));  // torx_exact, docs/experiments.md
  const Result self = run("simulate " + ex("candy_spec.aut") + " --impl " + ex("candy_correct.aut") +
                          " --strategy torx --max-length 3 --runs 2000 --json");
  EXPECT_EQ(nlohmann::json::parse(self.out)["strategies"][0]["failed"], 0);
  const Result bad = run("simulate " + ex("candy_spec.aut") + " --strategy torx --torx-p 0.5:0.5");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--torx-p"), std::string::npos) << bad.out;
}

}  // namespace
