// Golden-output tests: the whole text a person sees for errors (message, source line and caret)
// and for the human tables of solve, cover and run, as Spot's parser tests do, so that every
// wording change shows up in review. Set PLAYTEST_UPDATE_GOLDEN=1 to rewrite the .expected files.
#include "golden.hpp"
#include "test_paths.hpp"

using playtest::testing::run_playtest;
using playtest::testing::ScratchDir;
using playtest::testing::golden::cases;

namespace {

// The whole output (exit code, stdout, stderr) against cases/NAME.expected (golden.hpp).
void check_golden(const std::string& name, const std::string& args, int expected_code,
                  const std::string& scratch = "") {
  playtest::testing::golden::check_text(cases + name + ".expected", args, expected_code, scratch);
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
      "cover " + playtest::testing::source_dir() + "/examples/graphs/seed000-figure1.json --sim-runs 200 --seed 1", 0);
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
               "simulate " + playtest::testing::source_dir() +
                   "/examples/sut/workers.json --strategy random,cover --runs 50 --mutants --mutant-count 4 --seed 1",
               0);
}

// Messages that point at the fix (issue 24): one shape for every option and input error
// ("playtest: error: option --x: ..." and notes), "did you mean" for names, and what the first hour
// of a new user meets: the default purpose's INCONCLUSIVE, an ERROR's reason, undefined means.
const std::string pingpong = cases + "pingpong.json";
const std::string pong = " --sut 'sh " + cases + "pong.sh'";

TEST(CliGoldenMessages, OptionValueOutOfRange) {
  check_golden("msg_timeout_zero", "run " + pingpong + pong + " --timeout-ms 0", 2);
  check_golden("msg_jobs_zero", "run " + pingpong + pong + " --jobs 0", 2);
}
TEST(CliGoldenMessages, ALibraryParameterIsNamedByItsFlag) {
  check_golden("msg_goals_missing", "run " + cases + "nogoal.json" + pong + " --strategy reach", 2);
}
TEST(CliGoldenMessages, DidYouMean) {
  check_golden("msg_strategy_typo", "run " + pingpong + pong + " --strategy cvoer", 2);
  check_golden("msg_purpose_typo", "run " + pingpong + pong + " --purpose cvoer", 2);
  check_golden("msg_objective_typo", "solve " + cases + "figure3.json --objective reech", 2);
  check_golden("msg_format_typo", "validate " + pingpong + " --format grpah", 2);
  check_golden("msg_option_typo", "run " + pingpong + pong + " --stratgy random", 2);
  check_golden("msg_command_typo", "rnu " + pingpong, 2);
}
TEST(CliGoldenMessages, MissingOptionAndBadThreshold) {
  check_golden("msg_sut_missing", "run " + pingpong, 2);
  check_golden("msg_threshold_bad", "run " + pingpong + pong + " --purpose cover:0%", 2);
}
TEST(CliGoldenMessages, TheDefaultPurposeSaysWhatItWas) {
  check_golden("msg_default_purpose", "run " + pingpong + pong + " --strategy anti-ant --steps 6", 4);
}
TEST(CliGoldenMessages, AnErrorSaysWhyEvenQuietAndMaxErrorsStops) {
  check_golden(
      "msg_quiet_error",
      "run " + pingpong + " --sut 'sh " + cases + "dead.sh' --sut-stderr discard --runs 5 --max-errors 2 --quiet", 3);
}
TEST(CliGoldenMessages, SimulatePrintsADashForUndefinedMeans) {
  check_golden("msg_simulate_undefined",
               "simulate " + pingpong + " --strategy random,anti-ant --runs 10 --steps 1 --seed 1", 0);
}
TEST(CliGoldenMessages, ValidateWarnsOfGoalsNoRunCanMeet) {
  check_golden("msg_validate_final_never", "validate " + cases + "final_never.ptm", 0);
  check_golden("msg_validate_goal_unreachable", "validate " + cases + "goal_unreachable.json", 0);
}
TEST(CliGoldenMessages, GoalConditionsAndOnTheFly) {
  const std::string queue = "run " + cases + "queue.ptm --sut 'sh " + cases + "queue.sh'";
  check_golden("msg_goal_condition", queue + " --strategy random --goal 'len(q) == 2' --seed 1 --quiet", 0);
  check_golden("msg_goal_condition_error", queue + " --goal 'lenn(q) == 2'", 2);
  check_golden("msg_on_the_fly_refused", queue + " --strategy reach --on-the-fly", 2);
  check_golden("msg_on_the_fly_budget", queue + " --strategy random --max-states 5 --purpose none --steps 20 --quiet",
               0);
  check_golden("msg_traps_model", queue + " --strategy random --traps model --steps 5000 --seed 2 --quiet", 0);
}
TEST(CliGoldenMessages, ReplayShrinkAndLearnSayWhatMatters) {
  ScratchDir d("golden_diag");
  const std::string t = d.file("t.jsonl");
  auto r = run_playtest("run " + pingpong + " --sut 'sh " + cases +
                        "pang.sh' --strategy random --purpose none --trace " + t);
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  const std::string scratch = d.file("");
  check_golden("msg_replay_error", "replay " + t + " --sut 'sh " + cases + "dead.sh' --sut-stderr discard --attempts 2",
               3, scratch);
  check_golden("msg_shrink_replay_line",
               "shrink " + t + " --sut 'sh " + cases + "pang.sh' --attempts 2 -o " + d.file("min.jsonl"), 1, scratch);
  const std::string lt = d.file("learn.jsonl");
  r = run_playtest("run " + cases + "learn.json --sut 'sh " + cases +
                   "learn.sh' --strategy random --purpose none --steps 120 --seed 3 --trace " + lt);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  check_golden("msg_learn_table", "learn " + lt + " --model " + cases + "learn.json", 0, scratch);
}

}  // namespace
