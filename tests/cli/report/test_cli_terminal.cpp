// Terminal output that names what matters (issue 15 item 2) and progress lines (item 3): a long
// cover tour is cut on the terminal and written whole to --tour-out, edges with generated ids are
// named by label (cover, solve); progress shows on a terminal (a pseudo-terminal made by script(1))
// and nowhere else. (INCONCLUSIVE purpose edges and simulate's purposes: tests/cli/run.)
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

const std::string model = example("examples/sut/workers.json");

std::size_t lines_of(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(CliTerminal, LongToursGoToAFileAndGeneratedIdsBecomeLabels) {
  ScratchDir d("cover_long");
  CliResult g =
      run_playtest("gen random --vertices 40 --out-degree 3 --passive-fraction 0 --strongly-connected --seed 2 -o " +
                   d.file("g.json"));
  ASSERT_EQ(g.code, 0) << g.err;
  const CliResult r = run_playtest("cover " + d.file("g.json") + " --sim-runs 0 --tour-out " + d.file("tour.txt"));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  std::istringstream in(r.out);
  std::string first;
  std::getline(in, first);
  // "tour: N steps from 'v0': v0 -a1-> v7 -a0-> ... (M more)": labels, not e12, and cut.
  EXPECT_NE(first.find("steps from 'v0': v0 -a"), std::string::npos) << first;
  EXPECT_NE(first.find(" more)"), std::string::npos) << first;
  EXPECT_EQ(first.find(" e1"), std::string::npos) << first;
  EXPECT_NE(r.out.find("(every step is in " + d.file("tour.txt") + ")"), std::string::npos) << r.out;
  const std::size_t steps = std::stoul(first.substr(first.find(':') + 1));
  EXPECT_GE(steps, 120u);  // at least every edge once
  EXPECT_EQ(lines_of(read_file(d.file("tour.txt"))), steps);
}

TEST(CliTerminal, SolveNamesGeneratedEdgesByLabel) {
  const CliResult r = run_playtest("solve " + model + " --objective expected");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("submit -> both0"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("e0 ("), std::string::npos) << r.out;
}

// Runs `playtest ARGS` with standard error (and output) on a pseudo-terminal; returns what it printed.
std::string on_a_terminal(const std::string& args, const ScratchDir& d) {
  const std::string log = d.file("typescript");
  const std::string cmd =
      "script -qefc \"" + playtest::testing::playtest_binary() + " " + args + "\" " + log + " >/dev/null 2>&1 </dev/null";
  EXPECT_EQ(std::system(cmd.c_str()) == -1, false);
  return read_file(log);
}

TEST(CliTerminal, ProgressOnATerminalOnly) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "script(1) is missing (util-linux)";
  ScratchDir d("progress");
  // A model too large to finish: the exploration runs its whole time budget, long enough for the
  // progress line to show (after half a second).
  const std::string args = "explore " + example("examples/models/counter.ptm") + " --param N=5000 --time 1.5";
  const std::string tty = on_a_terminal(args, d);
  EXPECT_NE(tty.find("\rexplore: "), std::string::npos) << tty;
  EXPECT_NE(tty.find(" states expanded, "), std::string::npos) << tty;
  EXPECT_NE(tty.find("/s, "), std::string::npos) << tty;
  EXPECT_NE(tty.find("\r\x1b[K"), std::string::npos) << tty;  // erased before the results
  EXPECT_NE(tty.find("time limit"), std::string::npos) << tty;
  const CliResult piped = run_playtest(args);
  EXPECT_EQ(piped.code, 0) << piped.err;
  EXPECT_EQ(piped.err.find("explore: "), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos);
  EXPECT_EQ(piped.out.find('\r'), std::string::npos);
}

}  // namespace
}  // namespace playtest::testing
