// End to end: `playtest report` of traces written by `playtest run` (the example system's correct and
// buggy builds), `run/simulate/cover --report`, the replay command a report shows, a report without
// Graphviz, and bad input (exit 2, located).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

const std::string model = example("examples/sut/workers.json");
const std::string good_sut = playtest::testing::test_path("workers_sut");
const std::string buggy_sut = playtest::testing::test_path("workers_sut_buggy");

bool have_dot() { return std::system("command -v dot >/dev/null 2>&1") == 0; }

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

std::string run_args(const std::string& sut, const std::string& extra) {
  return "run " + model + " --sut '" + sut + "' --strategy expected --goal off --steps 3000 --timeout-ms 10000 " +
         extra;
}

// The "replay" of the first begin event of a trace.
std::string replay_of(const std::string& trace) {
  std::istringstream in(read_file(trace));
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    if (j["event"] == "begin") return j.value("replay", "");
  }
  return "";
}

TEST(CliReport, PassAndFailRunsInOneReport) {
  ScratchDir d("report_pass_fail");
  const CliResult pass = run_playtest(run_args(good_sut, "--runs 2 --seed 4 --trace " + d.file("pass.jsonl")));
  ASSERT_EQ(pass.code, 0) << pass.out << pass.err;
  const CliResult fail = run_playtest(
      run_args(buggy_sut, "--vertex-timeout last0=100 --seed 1 --trace " + d.file("fail.jsonl") + " --json"));
  ASSERT_EQ(fail.code, 1) << fail.out << fail.err;
  const CliResult r = run_playtest("report " + d.file("pass.jsonl") + " " + d.file("fail.jsonl") + " --model " + model +
                                   " -o " + d.file("r.html"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("report: " + d.file("r.html") + " (3 runs, "), std::string::npos) << r.out;
  const std::string html = read_file(d.file("r.html"));
  EXPECT_NE(html.find("<span class=\"badge fail\">FAIL</span> 3 runs: 1 failed, 2 passed"), std::string::npos);
  EXPECT_NE(html.find("at vertex &apos;last0&apos; the model allowed {all_done}; the system <span class=\"got\">stayed "
                      "silent</span>"),
            std::string::npos);
  // Every run's replay command, recorded by run in its trace, with that run's seed.
  EXPECT_EQ(count(html, "<code class=\"cmd\">"), 4u);  // three runs, and the failure section
  for (const char* seed : {"--seed 4 --runs 1</code>", "--seed 5 --runs 1</code>", "--seed 1 --runs 1</code>"})
    EXPECT_NE(html.find(seed), std::string::npos) << seed;
  EXPECT_EQ(html.find("--trace"), std::string::npos);
  if (have_dot()) {
    EXPECT_EQ(count(html, "<svg width="), 2u);  // the failure's path and the model with coverage
    EXPECT_NE(html.find("class=\"edge path\""), std::string::npos);
  }
}

TEST(CliReport, TheReplayCommandReplaysTheFailure) {
  ScratchDir d("report_replay");
  const CliResult fail = run_playtest(
      run_args(buggy_sut, "--vertex-timeout last0=100 --seed 7 --runs 3 --trace " + d.file("t.jsonl") + " --quiet"));
  ASSERT_EQ(fail.code, 1) << fail.out << fail.err;
  const std::string replay = replay_of(d.file("t.jsonl"));
  ASSERT_NE(replay.find(" --seed 7 --runs 1"), std::string::npos) << replay;
  EXPECT_EQ(replay.find("--quiet"), std::string::npos) << replay;
  EXPECT_EQ(replay.find("t.jsonl"), std::string::npos) << replay;
  // The recorded command is a shell command line; run it as it is.
  const std::string out = d.file("replay.out");
  const int status = std::system((replay + " >" + out + " 2>&1").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1) << read_file(out);
  EXPECT_NE(read_file(out).find("run 1 (seed 7): FAIL"), std::string::npos) << read_file(out);
}

TEST(CliReport, RunWritesTheReportItself) {
  ScratchDir d("report_run");
  const CliResult r =
      run_playtest(run_args(buggy_sut, "--vertex-timeout last0=100 --seed 2 --report " + d.file("r.html")));
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::string html = read_file(d.file("r.html"));
  EXPECT_NE(html.find("<title>playtest run " + model + "</title>"), std::string::npos);
  EXPECT_NE(html.find("--seed 2 --runs 1</code>"), std::string::npos);
  EXPECT_EQ(html.find("--report"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"failing on-path\">"), std::string::npos);
}

TEST(CliReport, SimulateAndCoverReports) {
  ScratchDir d("report_sections");
  const CliResult s = run_playtest("simulate " + model +
                                   " --strategy random,reach --runs 30 --mutants --mutant-count 4 "
                                   "--mutant-runs 2 --seed 1 --report " +
                                   d.file("s.html"));
  ASSERT_EQ(s.code, 0) << s.out << s.err;
  const std::string sim = read_file(d.file("s.html"));
  EXPECT_NE(sim.find("<td><b>reach</b></td><td>reach goal &apos;off&apos;</td>"), std::string::npos);
  EXPECT_NE(sim.find("<td><b>random</b></td><td>cover all 16 edges</td>"), std::string::npos);
  EXPECT_EQ(count(sim, "class=\"num killed\"") + count(sim, "class=\"num survived\""), 8u);  // 4 mutants, 2 strategies
  EXPECT_NE(sim.find("2 strategies compared on simulated runs and 4 mutants"), std::string::npos);
  const CliResult c = run_playtest("cover " + example("examples/graphs/seed000-figure1.json") +
                                   " --sim-runs 100 --max-visits 6 --report " + d.file("c.html"));
  ASSERT_EQ(c.code, 0) << c.out << c.err;
  const std::string cov = read_file(d.file("c.html"));
  EXPECT_NE(cov.find("p = min p_i,v = 0.75"), std::string::npos);
  EXPECT_EQ(count(cov, "<circle "), 6u);
}

TEST(CliReport, WithoutGraphvizTheReportSaysSo) {
  ScratchDir d("report_nodot");
  const CliResult fail =
      run_playtest(run_args(buggy_sut, "--vertex-timeout last0=100 --seed 1 --quiet --trace " + d.file("t.jsonl")));
  ASSERT_EQ(fail.code, 1);
  // An empty PATH: no dot to be found.
  const std::string cmd = "env PATH= " + playtest::testing::playtest_binary() + " report " + d.file("t.jsonl") + " --model " +
                          model + " -o " + d.file("r.html") + " >" + d.file("out.txt") + " 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << read_file(d.file("out.txt"));
  // The pictures are drawn by playtest, and the note and the captions say why.
  EXPECT_NE(read_file(d.file("out.txt")).find("(1 run, 2 pictures)"), std::string::npos)
      << read_file(d.file("out.txt"));
  EXPECT_NE(read_file(d.file("out.txt"))
                .find("note: Graphviz ('dot') is not installed or not on PATH (the graphviz package; scripts/setup.sh "
                      "installs it); the pictures were drawn without it"),
            std::string::npos)
      << read_file(d.file("out.txt"));
  const std::string html = read_file(d.file("r.html"));
  EXPECT_NE(html.find("<figcaption>Drawn without Graphviz (it is not installed): vertices stand in rows"),
            std::string::npos);
  EXPECT_NE(html.find("class=\"fallback\""), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"failing on-path\">"), std::string::npos);
}

TEST(CliReport, BadInputIsExit2) {
  ScratchDir d("report_bad");
  CliResult r = run_playtest("report " + d.file("missing.jsonl") + " -o " + d.file("r.html"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("missing.jsonl: error: cannot open the trace for reading"), std::string::npos) << r.err;
  const std::string bad =
      d.write("bad.jsonl", "{\"event\":\"begin\",\"run\":1}\n{\"event\":\"step\",\"kind\":\"fly\"}\n");
  r = run_playtest("report " + bad + " -o " + d.file("r.html"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.jsonl:2: error: "), std::string::npos) << r.err;
  const std::string other =
      d.write("other.jsonl",
              "{\"event\":\"begin\",\"run\":1}\n{\"event\":\"step\",\"kind\":\"stimulus\",\"step\":1,"
              "\"vertex\":\"nowhere\",\"label\":\"x\",\"edge\":\"e0\",\"to\":\"idle0\"}\n");
  r = run_playtest("report " + other + " --model " + model + " -o " + d.file("r.html"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("other.jsonl:2:1: error: the trace's vertex 'nowhere' is not a vertex of the model"),
            std::string::npos)
      << r.err;
  r = run_playtest("report " + other);
  EXPECT_EQ(r.code, 2);  // -o is required
  r = run_playtest("report - -o -", "{\"event\":\"begin\",\"run\":1,\"seed\":3}\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("<!DOCTYPE html>"), std::string::npos);
}

TEST(CliReport, Help) {
  CliResult r = run_playtest("report --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("TRACE"), std::string::npos);
  EXPECT_NE(r.out.find("--model"), std::string::npos);
}

}  // namespace
}  // namespace playtest::testing
