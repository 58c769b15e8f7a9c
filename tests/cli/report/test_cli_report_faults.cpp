// End to end, `playtest report` under faults (issue 25): a signal while the pictures are drawn
// keeps the previous report and leaves no Graphviz behind; the HTML and --json are never mixed on
// standard output.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "ping_system.hpp"
#include "spawned.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

TEST(CliReportFaults, SigtermWhileDrawingKeepsThePreviousReport) {
  ScratchDir d("report_faults_sigterm");
  const std::string t = passing_trace(d, 2);
  const std::string bin = hanging_dot(d);
  d.write("r.html", "OLD REPORT");
  const pid_t pid =
      spawn_shell("env PATH=" + bin + ":$PATH " + playtest::testing::playtest_binary() + " report " + t + " --model " +
                  d.file("pp.json") + " -o " + d.file("r.html") + " >" + d.file("out.txt") + " 2>" + d.file("err.txt"));
  ASSERT_GT(pid, 0);
  const pid_t dot = read_pid(d.file("dot.pid")), child = read_pid(d.file("dotchild.pid"));
  ASSERT_GT(dot, 0) << read_file(d.file("err.txt"));
  ASSERT_GT(child, 0);
  ::kill(pid, SIGTERM);
  EXPECT_EQ(wait_exit(pid, std::chrono::milliseconds(10000)), 143);
  EXPECT_EQ(read_file(d.file("r.html")), "OLD REPORT");
  EXPECT_NE(read_file(d.file("err.txt")).find("interrupted by SIGTERM: the report was not written"), std::string::npos)
      << read_file(d.file("err.txt"));
  EXPECT_TRUE(process_gone(dot)) << "Graphviz outlived playtest";
  EXPECT_TRUE(process_gone(child)) << "Graphviz's child outlived playtest";
  for (const auto& e : std::filesystem::directory_iterator(d.file("")))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST(CliReportFaults, HtmlAndJsonOnStandardOutputAreRefused) {
  ScratchDir d("report_faults_stdout");
  const std::string t = passing_trace(d, 1);
  CliResult r = run_playtest("report " + t + " -o - --json");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("option --json"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

}  // namespace
}  // namespace playtest::testing
