// JUnit XML for CI dashboards: one <testsuite> per invocation, one <testcase> per run; a FAIL is a
// <failure>, an ERROR an <error>, an INCONCLUSIVE run is <skipped>; each carries its message and the
// trace that led to it. A campaign's suite also names its strategy, seed, run count and shard as
// <property> elements, so that `playtest merge` can check that shards belong together, and says the
// model's slack (strategy/claims.hpp) in the suite's <system-out>.
#pragma once

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "playtest/campaign/campaign.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {

struct JunitInfo {
  std::string suite = "playtest";  // <testsuite name>
  std::string classname = "playtest.run";
  std::string strategy;
};

// One <testcase>: a run.
struct JunitCase {
  std::uint32_t run = 0;  // the run's index (its name is "run N (seed S)")
  std::uint64_t seed = 0;
  double time_s = 0;
  Verdict verdict = Verdict::pass;
  std::string message;  // one line (the failure's message attribute)
  std::string detail;   // the message, the run's coverage and its trace (the element's text)
};

// A <testsuite>, as written and as read back (merge).
struct JunitSuite {
  std::string name, classname;
  std::vector<std::pair<std::string, std::string>> properties;  // in this order
  std::vector<JunitCase> cases;                                 // in run order
  // The suite's <system-out>: the campaign's claims about the system (the model's slack), one
  // sentence a line, as the text and --json say them ("" : none).
  std::string system_out;
};

// The suite of `runs` (their RunResult::run as index, or their position when 0).
JunitSuite junit_suite(const GameGraph& g, std::span<const RunResult> runs, const JunitInfo& info);
// The suite of a campaign: its runs, and the properties strategy, seed, runs and (for a shard) shard.
// On a model explored on the fly: coverage over the part discovered, and property on_the_fly=true.
JunitSuite junit_suite(const GameGraph& g, const CampaignResult& c, const JunitInfo& info);

void write_junit(std::ostream& out, const JunitSuite& suite);
inline void write_junit(std::ostream& out, const GameGraph& g, std::span<const RunResult> runs, const JunitInfo& info) {
  write_junit(out, junit_suite(g, runs, info));
}

// Text escaped for XML 1.0 character data and attribute values (characters XML cannot hold are
// written as \xNN).
std::string xml_escape(std::string_view s);

}  // namespace playtest
