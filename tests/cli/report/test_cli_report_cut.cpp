// End to end (issue 25): a trace whose campaign line promises more runs than it holds (a job killed
// between runs) is never reported as all passed: the headline says how many are missing and the
// overall verdict is ERROR.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "ping_system.hpp"

namespace playtest::testing {
namespace {

// A trace whose campaign line promises 5 runs but that stops after 3 (a job killed between runs).
TEST(CliReportCut, ACutTraceIsNotAllPassed) {
  ScratchDir d("report_faults_cut");
  const std::string t = passing_trace(d, 5);
  std::istringstream in(read_file(t));
  std::string cut;
  for (std::string l; std::getline(in, l);) {
    cut += l + "\n";
    const auto j = nlohmann::json::parse(l);
    if (j["event"] == "end" && j["run"] == 3) break;
  }
  d.write("cut.jsonl", cut);
  CliResult r = run_playtest("report " + d.file("cut.jsonl") + " -o " + d.file("r.html"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("2 runs that the trace's campaign line promises are missing"), std::string::npos) << r.out;
  const std::string html = read_file(d.file("r.html"));
  EXPECT_EQ(html.find("all 3 runs passed"), std::string::npos);
  EXPECT_NE(html.find("3 runs passed; 2 runs of the campaign missing (the trace was cut short)"), std::string::npos);
  EXPECT_NE(html.find("ERROR"), std::string::npos);
}

}  // namespace
}  // namespace playtest::testing
