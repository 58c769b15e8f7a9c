// End to end (issue 25): a trace whose campaign line promises more runs than it holds (a job killed
// between runs) is never reported as all passed: the headline says how many are missing and the
// overall verdict is ERROR.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"

namespace playtest::testing {
namespace {

// idle --ping--> wait --pong--> idle.
const char* ping_loop = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}],
  "edges": [{"from": "idle", "to": "wait", "label": "ping"},
            {"from": "wait", "to": "idle", "label": "pong", "prob": 1}]})";

const char* pong_adapter =
    "echo ready\n"
    "while read -r cmd arg; do\n"
    "  case \"$cmd\" in\n"
    "    stimulus) echo ack; echo 'output pong' ;;\n"
    "    end) exit 0 ;;\n"
    "  esac\n"
    "done\n";

// A passing campaign of `runs` runs of 4 steps, its trace in t.jsonl.
std::string passing_trace(const ScratchDir& d, int runs) {
  const std::string model = d.write("pp.json", ping_loop);
  const std::string sut = d.write("ok.sh", pong_adapter);
  CliResult r = run_playtest("run " + model + " --sut 'sh " + sut + "' --purpose none --steps 4 --runs " +
                             std::to_string(runs) + " --trace " + d.file("t.jsonl"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  return d.file("t.jsonl");
}

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
