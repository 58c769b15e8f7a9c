// JUnit XML for CI dashboards: one <testsuite> per invocation, one <testcase> per run; a FAIL is a
// <failure>, an ERROR an <error>, an INCONCLUSIVE run is <skipped>; each carries its message and the
// trace that led to it.
#pragma once

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

#include "playtest/run/runner.hpp"

namespace playtest {

struct JunitInfo {
  std::string suite = "playtest";  // <testsuite name>
  std::string classname = "playtest.run";
  std::string strategy;
};

void write_junit(std::ostream& out, const TestGraph& g, std::span<const RunResult> runs, const JunitInfo& info);

// Text escaped for XML 1.0 character data and attribute values (characters XML cannot hold are
// written as \xNN).
std::string xml_escape(std::string_view s);

}  // namespace playtest
