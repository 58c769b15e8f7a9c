// One test per row of the exit-code table (docs/testing.md "Verdicts and exit codes", the table in
// tools/playtest/main.cpp): each runs the binary into that row and checks the exact exit code and
// the whole standard error (scratch paths replaced by TMP/, the source tree by SRC/). The rows no
// input reaches (a bug, kinds the runner always catches) are provoked with the test-only
// PLAYTEST_TEST_THROW.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>

#include "cli_runner.hpp"
#include "ping_system.hpp"
#include "playtest/base/error.hpp"
#include "spawned.hpp"
#include "test_paths.hpp"

using playtest::ErrorKind;
using playtest::testing::CliResult;
using playtest::testing::example;
using playtest::testing::ping_adapter;
using playtest::testing::PingSystem;
using playtest::testing::read_file;
using playtest::testing::run_playtest;
using playtest::testing::ScratchDir;

namespace {

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
    s.replace(at, from.size(), to);
  return s;
}

// Standard error with the scratch directory as TMP/, the source tree as SRC/ and the binary's path
// as playtest.
std::string normalized(const std::string& err, const ScratchDir* d) {
  std::string s = replaced(err, playtest::testing::playtest_binary(), "playtest");
  if (d != nullptr) s = replaced(s, d->file(""), "TMP/");
  return replaced(s, playtest::testing::source_dir() + "/", "SRC/");
}

void expect_exit(const CliResult& r, int code, const std::string& stderr_text, const ScratchDir* d = nullptr) {
  EXPECT_EQ(r.code, code) << r.out << r.err;
  EXPECT_EQ(normalized(r.err, d), stderr_text);
}

// --- 0, 1, 3, 4: the verdicts of run ---

TEST(CliExitCodes, PassIs0) {
  PingSystem s("exit_pass");
  expect_exit(run_playtest(s.run("--runs 2")), 0, "");
}

TEST(CliExitCodes, FailIs1) {
  PingSystem s("exit_fail");
  const std::string wrong = "'sh " + s.d.write("wrong.sh", ping_adapter("echo ack", "echo 'output pang'")) + "'";
  const CliResult r = run_playtest("run " + s.model + " --sut " + wrong + " --steps 4 --seed 1");
  expect_exit(r, 1, "");
  EXPECT_NE(r.out.find("FAIL"), std::string::npos) << r.out;
}

TEST(CliExitCodes, ErrorVerdictIs3) {
  PingSystem s("exit_error");
  const std::string dies = "'sh " + s.d.write("dies.sh", "echo ready\nread cmd arg\nexit 0\n") + "'";
  const CliResult r = run_playtest("run " + s.model + " --sut " + dies + " --steps 4 --seed 1");
  expect_exit(r, 3, "");
  EXPECT_NE(r.out.find("ERROR"), std::string::npos) << r.out;
}

TEST(CliExitCodes, InconclusiveIs4) {
  PingSystem s("exit_inconclusive");
  // The purpose covers both edges; one step covers only ping.
  const CliResult r = run_playtest("run " + s.model + " --sut " + s.sut + " --purpose cover --steps 1 --seed 1");
  expect_exit(r, 4, "");
  EXPECT_NE(r.out.find("INCONCLUSIVE"), std::string::npos) << r.out;
}

// --- 2: usage and input ---

TEST(CliExitCodes, UsageErrorOfTheCommandLineIs2) {
  expect_exit(run_playtest("solve " + example("examples/sut/workers.json") + " --objective reech"), 2,
              "playtest: error: option --objective: 'reech' is not one of reach, win, expected (did you mean "
              "'reach'?)\n  note: playtest solve --help lists the options\n");
}

// A library UsageError names the flag of the command that sets its parameter (convert's -o).
TEST(CliExitCodes, UsageErrorOfTheLibraryNamesTheFlag) {
  expect_exit(run_playtest("convert " + example("examples/graphs/seed000-figure1.json") + " --to prism"), 2,
              "playtest: error: option --output: --to prism writes three files: give -o BASE (it writes BASE.tra, "
              "BASE.lab, BASE.trew)\n");
  ScratchDir d("exit_usage_to");
  expect_exit(run_playtest("convert " + example("examples/graphs/seed000-figure1.json") + " -o " + d.file("g.txt")), 2,
              "playtest: error: option --to: not given, and the output 'TMP/g.txt' does not tell the format: give "
              "--to graph, dot or prism\n",
              &d);
}

TEST(CliExitCodes, InputErrorIs2) {
  expect_exit(run_playtest("validate " + example("tests/cli/golden/cases/bad_cost.json")), 2,
              "playtest: SRC/tests/cli/golden/cases/bad_cost.json:3:59: error: edge #0: \"cost\" must be finite and "
              ">= 0, got -1 (at /edges/0/cost)\n"
              "   \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"label\": \"x\", \"cost\": -1}]}\n"
              "                                                            ^\n");
}

// --- 5: an answer not certified ---

TEST(CliExitCodes, UncertifiedIs5) {
  const CliResult r = run_playtest("solve " + example("examples/sut/workers.json") + " --method vi");
  expect_exit(r, 5, "");
  EXPECT_NE(r.out.find("NOT CERTIFIED"), std::string::npos) << r.out;
}

// --- 6: playtest's environment ---

TEST(CliExitCodes, TraceDirUnderAFileIs6) {
  PingSystem s("exit_env_tracedir");
  const std::string file = s.d.write("plain", "a file, not a directory\n");
  expect_exit(run_playtest(s.run("--trace-dir " + file + "/traces")), 6,
              "playtest: TMP/plain/traces: error: cannot create the trace directory: Not a directory\n", &s.d);
}

TEST(CliExitCodes, OutputFileInAMissingDirectoryIs6) {
  ScratchDir d("exit_env_output");
  expect_exit(
      run_playtest("convert " + example("examples/graphs/seed000-figure1.json") + " -o " + d.file("missing/g.json")), 6,
      "playtest: TMP/missing/g.json: error: cannot open for writing: No such file or directory\n", &d);
}

TEST(CliExitCodes, UnwritableStandardOutputIs6) {
  ScratchDir d("exit_env_stdout");
  const std::string cmd = playtest::testing::playtest_binary() + " info " +
                          example("examples/graphs/seed000-figure1.json") + " >/dev/full 2>" + d.file("err.txt");
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 6);
  EXPECT_EQ(read_file(d.file("err.txt")),
            "playtest: error: could not write to standard output: No space left on device\n");
}

// A verdict keeps its own code when its output is lost (the message says so): FAIL stays 1. (The
// JSON was written, and failed, before the final check, which then has no errno to quote.)
TEST(CliExitCodes, UnwritableStandardOutputKeepsTheVerdict) {
  PingSystem s("exit_env_stdout_fail");
  const std::string wrong = "'sh " + s.d.write("wrong.sh", ping_adapter("echo ack", "echo 'output pang'")) + "'";
  const std::string cmd = playtest::testing::playtest_binary() + " run " + s.model + " --sut " + wrong +
                          " --steps 4 --seed 1 --json >/dev/full 2>" + s.d.file("err.txt");
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_EQ(read_file(s.d.file("err.txt")), "playtest: error: could not write to standard output\n");
}

// --- 7: a bug in playtest ---

// PLAYTEST_TEST_THROW=kind for the child processes started in its lifetime.
class ThrowScope {
 public:
  explicit ThrowScope(const std::string& kind) { ::setenv("PLAYTEST_TEST_THROW", kind.c_str(), 1); }
  ~ThrowScope() { ::unsetenv("PLAYTEST_TEST_THROW"); }
  ThrowScope(const ThrowScope&) = delete;
  ThrowScope& operator=(const ThrowScope&) = delete;
};

CliResult with_throw(const std::string& kind) {
  const ThrowScope scope(kind);
  return run_playtest("info " + example("examples/graphs/seed000-figure1.json"));
}

TEST(CliExitCodes, InternalErrorIs7) {
  expect_exit(with_throw("InternalError"), 7,
              "playtest: internal error (a bug in playtest, please report it): thrown on request "
              "(PLAYTEST_TEST_THROW=InternalError)\n");
}

TEST(CliExitCodes, AnyOtherExceptionIs7) {
  expect_exit(with_throw("std::exception"), 7,
              "playtest: internal error (a bug in playtest, please report it): thrown on request "
              "(PLAYTEST_TEST_THROW=std::exception)\n");
  expect_exit(with_throw("unknown"), 7,
              "playtest: internal error (a bug in playtest, please report it): an exception that is not a "
              "std::exception\n");
}

TEST(CliExitCodes, OutOfMemoryIs6) { expect_exit(with_throw("std::bad_alloc"), 6, "playtest: error: out of memory\n"); }

// Every kind of Error reaches its own row, with the code docs/testing.md documents for it, and is
// reported as itself, never as the catch-all's "internal error". (main.cpp's static_assert checks
// that the table names each kind exactly once.)
TEST(CliExitCodes, EveryErrorKindHasItsRow) {
  const std::map<ErrorKind, int> documented = {
      {ErrorKind::input, 2},
      {ErrorKind::usage, 2},
      {ErrorKind::adapter, 3},
      {ErrorKind::environment, 6},
      {ErrorKind::stop_requested, 128 + SIGTERM},  // the trigger's StopRequested carries SIGTERM
      {ErrorKind::budget_spent, 4},
  };
  EXPECT_EQ(documented.size(), std::size(playtest::all_error_kinds));
  for (ErrorKind k : playtest::all_error_kinds) {
    const std::string name = playtest::error_kind_name(k);
    ASSERT_TRUE(documented.contains(k)) << name;
    const CliResult r = with_throw(name);
    EXPECT_EQ(r.code, documented.at(k)) << name << "\n" << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << name << "\n" << r.err;
    EXPECT_NE(r.err.find("thrown on request (PLAYTEST_TEST_THROW=" + name + ")"), std::string::npos) << r.err;
  }
  // A name no row knows is refused, not run.
  expect_exit(with_throw("NoSuchError"), 2,
              "playtest: error: PLAYTEST_TEST_THROW=NoSuchError names no kind the exit-code table knows\n");
}

// --- 128 + N: interrupted ---

// playtest run against an adapter that acknowledges the first stimulus and then hangs; SIGTERM once
// it hangs: the run is ERROR, playtest exits 143.
TEST(CliExitCodes, InterruptedIs128PlusTheSignal) {
  PingSystem s("exit_interrupted");
  const std::string hang = s.d.write("hang.sh", "echo ready\nread cmd arg\necho ack\nexec sleep 600\n");
  const pid_t pid =
      playtest::testing::spawn_shell(playtest::testing::playtest_binary() + " run " + s.model + " --sut 'sh " + hang +
                                     "' --steps 100 --timeout-ms 600000 --seed 1 --trace " + s.d.file("t.jsonl") +
                                     " >" + s.d.file("out.txt") + " 2>" + s.d.file("err.txt"));
  ASSERT_GT(pid, 0);
  for (int i = 0; i < 1000 && read_file(s.d.file("t.jsonl")).find("\"stimulus\"") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ::kill(pid, SIGTERM);
  EXPECT_EQ(playtest::testing::wait_exit(pid, std::chrono::milliseconds(10000)), 143);
  EXPECT_EQ(normalized(read_file(s.d.file("err.txt")), &s.d), "");
  EXPECT_NE(read_file(s.d.file("out.txt")).find("interrupted by SIGTERM"), std::string::npos)
      << read_file(s.d.file("out.txt"));
}

}  // namespace
