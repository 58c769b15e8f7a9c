// The smallest system the CLI fault tests play against: a model in which the tester pings and the
// system pongs, and shell adapters for it. Shared by the tests of campaigns, reports and diagnosis
// under faults (issue 25).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace playtest::testing {

// idle --ping--> wait --pong--> idle, and nothing else: every run plays ping after ping.
inline const char* const ping_loop = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}],
  "edges": [{"from": "idle", "to": "wait", "label": "ping"},
            {"from": "wait", "to": "idle", "label": "pong", "prob": 1}]})";

// An adapter (a /bin/sh script) that answers the stimulus ping with `answer` after `ack` (shell
// commands).
inline std::string ping_adapter(const std::string& ack = "echo ack", const std::string& answer = "echo 'output pong'") {
  return "echo ready\n"
         "while read -r cmd arg; do\n"
         "  case \"$cmd\" in\n"
         "    stimulus) " +
         ack + "; [ \"$arg\" = ping ] && " + answer +
         " ;;\n"
         "    reset) echo ready ;;\n"
         "    end) exit 0 ;;\n"
         "  esac\n"
         "done\n";
}

// The ping loop and its well-behaved adapter in a scratch directory.
struct PingSystem {
  ScratchDir d;
  std::string model, sut;
  explicit PingSystem(const std::string& tag) : d(tag) {
    model = d.write("pp.json", ping_loop);
    sut = "'sh " + d.write("ok.sh", ping_adapter()) + "'";
  }
  // A campaign of PASS runs (random walk, no purpose: each run passes after its steps).
  std::string run(const std::string& extra) const {
    return "run " + model + " --sut " + sut + " --strategy random --purpose none --steps 4 --seed 1 " + extra;
  }
};

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// A passing campaign of `runs` runs of 4 steps in `d`, its trace in t.jsonl; returns the trace's path.
inline std::string passing_trace(const ScratchDir& d, int runs) {
  const std::string model = d.write("pp.json", ping_loop);
  const std::string sut = d.write("ok.sh", ping_adapter());
  CliResult r = run_playtest("run " + model + " --sut 'sh " + sut + "' --purpose none --steps 4 --runs " +
                             std::to_string(runs) + " --trace " + d.file("t.jsonl"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  return d.file("t.jsonl");
}

}  // namespace playtest::testing
