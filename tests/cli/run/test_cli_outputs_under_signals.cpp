// End to end (issue 25): the JUnit file, the trace and the JSON are complete before the report's
// pictures are drawn; a signal while they are drawn stops Graphviz (its whole process group) and
// leaves every file complete; a second signal loses no file either; running out of file
// descriptors is named as such, never "a bug in playtest".
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "cli_runner.hpp"
#include "ping_system.hpp"
#include "spawned.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

// `s` single-quoted for /bin/sh.
std::string shell_word(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Drawing {
  ScratchDir d;
  std::string model, sut, bin;
  pid_t pid = -1, dot = -1, dot_child = -1;
  explicit Drawing(const std::string& tag) : d(tag) {
    model = d.write("pp.json", ping_loop);
    sut = "'sh " + d.write("ok.sh", ping_adapter()) + "'";
    bin = hanging_dot(d);
  }
  // Starts `playtest ARGS` with the hanging dot first on PATH and waits until dot runs.
  void start(const std::string& args) {
    pid = spawn_shell("env PATH=" + bin + ":$PATH " + playtest::testing::playtest_binary() + " " + args + " >" +
                      d.file("out.txt") + " 2>" + d.file("err.txt"));
    ASSERT_GT(pid, 0);
    dot = read_pid(d.file("dot.pid"));
    dot_child = read_pid(d.file("dotchild.pid"));
    ASSERT_GT(dot, 0) << "Graphviz was never started: " << read_file(d.file("err.txt"));
    ASSERT_GT(dot_child, 0);
  }
  void expect_no_process_left() const {
    EXPECT_TRUE(process_gone(dot)) << "Graphviz outlived playtest";
    EXPECT_TRUE(process_gone(dot_child)) << "Graphviz's child outlived playtest";
  }
  // No temporary file of an output is left beside it.
  void expect_no_temporary_file() const {
    for (const auto& e : std::filesystem::directory_iterator(d.file("")))
      EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }
};

TEST(CliOutputsUnderSignals, JunitTraceAndJsonAreWrittenBeforeThePicturesAndSigtermStopsTheDrawing) {
  Drawing w("faults_report_sigterm");
  w.start("run " + w.model + " --sut " + w.sut +
          " --strategy random --purpose none --steps 4 --runs 2 --json --junit " + w.d.file("j.xml") + " --trace " +
          w.d.file("t.jsonl") + " --report " + w.d.file("r.html"));
  if (::testing::Test::HasFatalFailure()) return;
  // While Graphviz draws: the JUnit file, the trace and the JSON are complete.
  const std::string junit = read_file(w.d.file("j.xml"));
  EXPECT_NE(junit.find("</testsuite>"), std::string::npos) << "no complete JUnit file while the report is drawn";
  EXPECT_EQ(lines_of(read_file(w.d.file("t.jsonl"))).size(), 1u + 2 * 6);
  EXPECT_NE(read_file(w.d.file("out.txt")).find("\"verdict\": \"PASS\""), std::string::npos);
  ::kill(w.pid, SIGTERM);
  const int code = wait_exit(w.pid, std::chrono::milliseconds(10000));
  EXPECT_EQ(code, 143) << read_file(w.d.file("err.txt"));
  const std::string html = read_file(w.d.file("r.html"));
  EXPECT_NE(html.find("</html>"), std::string::npos) << "the report is not complete";
  EXPECT_NE(html.find("interrupted"), std::string::npos);
  EXPECT_NE(read_file(w.d.file("err.txt")).find("interrupted by SIGTERM after the runs"), std::string::npos);
  w.expect_no_process_left();
  w.expect_no_temporary_file();
}

// A second signal ends playtest at once: whatever it was doing, the JUnit file is complete, the
// report is the complete old one or a complete new one (never cut or empty), no temporary file and
// no Graphviz process is left.
TEST(CliOutputsUnderSignals, SecondSignalWhileDrawingLosesNoFile) {
  Drawing w("faults_report_two_signals");
  w.d.write("r.html", "OLD REPORT");
  w.start("run " + w.model + " --sut " + w.sut + " --strategy random --purpose none --steps 4 --runs 2 --junit " +
          w.d.file("j.xml") + " --report " + w.d.file("r.html"));
  if (::testing::Test::HasFatalFailure()) return;
  ::kill(w.pid, SIGTERM);
  ::kill(w.pid, SIGINT);
  // 128 + the signal; or, when the first signal ended the drawing (and playtest's handlers) before
  // the second came, death by the second.
  const int code = wait_exit(w.pid, std::chrono::milliseconds(10000));
  EXPECT_TRUE(code == 130 || code == 143 || code == -SIGINT || code == -SIGTERM) << code;
  EXPECT_NE(read_file(w.d.file("j.xml")).find("</testsuite>"), std::string::npos);
  const std::string html = read_file(w.d.file("r.html"));
  EXPECT_TRUE(html == "OLD REPORT" || html.find("</html>") != std::string::npos) << html.substr(0, 200);
  w.expect_no_process_left();
  w.expect_no_temporary_file();
}

// Out of file descriptors under --jobs 8: never "internal error (a bug in playtest)"; the message
// names the limit and what to do. At 16 playtest itself runs out (a job's pipe, exit 6: its
// environment); at 30 the jobs start but adapters cannot (their runs are ERROR, exit 3).
TEST(CliOutputsUnderSignals, OutOfFileDescriptorsIsNamed) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // The sanitizers' runtimes open files of their own (UBSan's type checks read the process's maps):
  // at 16 open files they report false errors and exit 1. The Release build runs this test.
  GTEST_SKIP() << "a sanitizer runtime needs file descriptors of its own";
#endif
  PingSystem s("faults_fds");
  // Issue 36: one exit code for running out of file descriptors as the runs start: their adapters
  // cannot start, and the runs are ERROR (3), in the trace and JUnit (at 16 this was exit 6 with an
  // empty trace).
  for (const auto& [limit, code] : {std::pair{"16", 3}, std::pair{"30", 3}}) {
    ScratchDir d(std::string("faults_fds_") + limit);
    const std::string cmd = "ulimit -n " + std::string(limit) + "; " + playtest::testing::playtest_binary() + " " +
                            s.run("--runs 16 --jobs 8 --trace " + d.file("t.jsonl")) + " >" + d.file("out.txt") +
                            " 2>" + d.file("err.txt");
    const int status = std::system(("sh -c " + shell_word(cmd)).c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), code) << limit;
    const std::string all = read_file(d.file("out.txt")) + read_file(d.file("err.txt"));
    EXPECT_EQ(all.find("internal error"), std::string::npos) << limit << "\n" << all;
    EXPECT_NE(all.find("limit of open files (" + std::string(limit) + ")"), std::string::npos) << limit << "\n" << all;
    EXPECT_NE(all.find("ulimit -n"), std::string::npos) << limit << "\n" << all;
  }
}

}  // namespace
}  // namespace playtest::testing
