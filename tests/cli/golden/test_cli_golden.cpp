// Golden-output tests: the whole text a person sees for errors (message, source line and caret)
// and for the human tables of solve, cover and run, as Spot's parser tests do, so that every
// wording change shows up in review. Set PLAYTEST_UPDATE_GOLDEN=1 to rewrite the .expected files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>

#include "cli_runner.hpp"

using playtest::testing::read_file;
using playtest::testing::run_playtest;

namespace {

const std::string cases = std::string(PLAYTEST_SOURCE_DIR) + "/tests/cli/golden/cases/";

// Output with the cases' directory replaced by CASES/, the binary's path (in replay commands) by
// playtest and times by T.
std::string normalized(const std::string& text) {
  std::string s = text;
  for (std::size_t at; (at = s.find(cases)) != std::string::npos;) s.replace(at, cases.size(), "CASES/");
  const std::string binary = PLAYTEST_BINARY;
  for (std::size_t at; (at = s.find(binary)) != std::string::npos;) s.replace(at, binary.size(), "playtest");
  s = std::regex_replace(s, std::regex(R"(solve time: [0-9.]+ s)"), "solve time: T s");
  // Times have varying widths in right-aligned columns: the padding goes with them.
  s = std::regex_replace(s, std::regex(R"( +[0-9]+\.[0-9] ms)"), " T ms");
  return s;
}

void check_golden(const std::string& name, const std::string& args, int expected_code) {
  auto r = run_playtest(args);
  EXPECT_EQ(r.code, expected_code) << args << "\n" << r.out << r.err;
  const std::string got =
      normalized("exit " + std::to_string(r.code) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err);
  const std::string path = cases + name + ".expected";
  if (std::getenv("PLAYTEST_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << got;
    return;
  }
  EXPECT_EQ(got, read_file(path)) << "golden file " << path << " (PLAYTEST_UPDATE_GOLDEN=1 rewrites it)";
}

TEST(CliGolden, LocatedErrorWithCaret) { check_golden("bad_cost", "validate " + cases + "bad_cost.json", 2); }
TEST(CliGolden, JsonSyntaxErrorWithCaret) { check_golden("bad_syntax", "validate " + cases + "bad_syntax.json", 2); }
TEST(CliGolden, ModelErrorWithNoteAndCaret) { check_golden("bad_model", "validate " + cases + "bad_model.ptm", 2); }
TEST(CliGolden, UnknownGoal) { check_golden("unknown_goal", "solve " + cases + "figure3.json --goal 3", 2); }
TEST(CliGolden, SolveExpectedTable) { check_golden("solve_expected", "solve " + cases + "figure3.json", 0); }
TEST(CliGolden, SolveReachTable) {
  check_golden("solve_reach", "solve " + cases + "figure3.json --objective reach --bound 4", 0);
}
TEST(CliGolden, SolveWinTable) { check_golden("solve_win", "solve " + cases + "figure3.json --objective win", 0); }
TEST(CliGolden, SolveUncertified) { check_golden("solve_vi", "solve " + cases + "figure3.json --method vi", 5); }
TEST(CliGolden, CoverSummary) {
  check_golden(
      "cover_figure1",
      "cover " + std::string(PLAYTEST_SOURCE_DIR) + "/examples/graphs/seed000-figure1.json --sim-runs 200 --seed 1", 0);
}

// The human output of run: per-run lines, the trace and the allowed outputs of a FAIL, the purpose
// edges an INCONCLUSIVE run left, coverage and verdict. The adapters are deterministic shell scripts.
TEST(CliGolden, RunPassTable) {
  check_golden("run_pass",
               "run " + cases + "pingpong.json --sut 'sh " + cases +
                   "pong.sh' --strategy anti-ant --edge ping --edge noop --runs 2",
               0);
}
TEST(CliGolden, RunFailTable) {
  check_golden("run_fail",
               "run " + cases + "pingpong.json --sut 'sh " + cases + "pang.sh' --strategy anti-ant --purpose cover", 1);
}
TEST(CliGolden, RunInconclusiveListsWhatIsLeft) {
  check_golden(
      "run_inconclusive",
      "run " + cases + "pingpong.json --sut 'sh " + cases + "pong.sh' --strategy anti-ant --purpose cover --steps 6",
      4);
}
TEST(CliGolden, SimulateTableWithMutants) {
  check_golden("simulate_mutants",
               "simulate " + std::string(PLAYTEST_SOURCE_DIR) +
                   "/examples/sut/workers.json --strategy random,cover --runs 50 --mutants --mutant-count 4 --seed 1",
               0);
}

}  // namespace
