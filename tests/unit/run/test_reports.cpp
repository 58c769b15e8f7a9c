// Reports: the JSON-lines trace (one parseable object per step, flushed as it goes) and JUnit XML
// (well-formed, escaped, one test case per run, the failure with its trace).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "playtest/campaign/junit_report.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/campaign/trace_writer.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/random_walk_policy.hpp"

namespace playtest {
namespace {

// A minimal XML 1.0 well-formedness check: balanced tags, quoted attributes, known entities, no raw
// '<' or '&' in text, only allowed control characters. Returns "" when fine, else what is wrong.
std::string xml_problem(const std::string& x) {
  std::vector<std::string> stack;
  std::size_t i = 0;
  auto entity_ok = [&](std::size_t at) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
      if (x.compare(at, std::strlen(e), e) == 0) return true;
    return false;
  };
  if (x.rfind("<?xml", 0) == 0) i = x.find("?>") + 2;
  while (i < x.size()) {
    unsigned char c = static_cast<unsigned char>(x[i]);
    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') return "control character at " + std::to_string(i);
    if (c == '&') {
      if (!entity_ok(i)) return "bad entity at " + std::to_string(i);
      ++i;
      continue;
    }
    if (c != '<') {
      if (c == '>') return "raw '>' in text at " + std::to_string(i);  // allowed by XML, but we escape it
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    char quote = 0;
    for (; end < x.size(); ++end) {
      if (quote) {
        if (x[end] == quote) quote = 0;
        else if (x[end] == '<') return "raw '<' in attribute at " + std::to_string(end);
        else if (x[end] == '&' && !entity_ok(end)) return "bad entity in attribute at " + std::to_string(end);
      } else if (x[end] == '"' || x[end] == '\'') {
        quote = x[end];
      } else if (x[end] == '>') {
        break;
      } else if (x[end] == '<') {
        return "raw '<' inside a tag at " + std::to_string(end);
      }
    }
    if (end >= x.size()) return "unterminated tag";
    std::string tag = x.substr(i + 1, end - i - 1);
    bool closing = !tag.empty() && tag[0] == '/';
    bool empty = !tag.empty() && tag.back() == '/';
    std::string name = tag.substr(closing ? 1 : 0);
    name = name.substr(0, name.find_first_of(" /\n\t"));
    if (closing) {
      if (stack.empty() || stack.back() != name) return "mismatched </" + name + ">";
      stack.pop_back();
    } else if (!empty) {
      stack.push_back(name);
    }
    i = end + 1;
  }
  return stack.empty() ? "" : "unclosed <" + stack.back() + ">";
}

const char* graph_text = R"({"playtest": "graph/1", "initial": "i<&>",
  "vertices": [{"id": "i<&>", "kind": "active"}, {"id": "w", "kind": "passive"}],
  "edges": [{"id": "go", "from": "i<&>", "to": "w", "label": "go \"now\" & <then>"},
            {"id": "ok", "from": "w", "to": "i<&>", "label": "ok", "prob": 1}]})";

struct Weird final : Adapter {
  int n = 0;
  void start() override {}
  AdapterEvent stimulate(std::string_view) override { return {}; }
  AdapterEvent next_event(Clock::time_point deadline) override {
    if (deadline <= Clock::now()) return {};
    return AdapterEvent::output(++n < 3 ? "ok" : "bad ]]> \x01 <x> \xff");
  }
  void reset() override {}
  void finish() noexcept override {}
};

TEST(Reports, JunitIsWellFormedAndCarriesTheFailure) {
  TestGraph g = parse_graph(graph_text);
  RunOptions o;
  o.max_steps = 100;
  Runner runner(g, o);
  RandomWalkPolicy p;
  Weird w;
  std::vector<RunResult> results;
  results.push_back(runner.run(p, w));  // FAIL at the third output
  SimulatedSut sut(g, 1);
  RunOptions short_run = o;
  short_run.max_steps = 4;
  results.push_back(Runner(g, short_run).run(p, sut));  // PASS (no purpose)
  ASSERT_EQ(results[0].verdict, Verdict::fail);
  ASSERT_EQ(results[1].verdict, Verdict::pass);
  std::ostringstream out;
  write_junit(out, g, results, {.suite = "suite <1>", .strategy = "random"});
  std::string x = out.str();
  EXPECT_EQ(xml_problem(x), "") << x;
  EXPECT_NE(x.find("tests=\"2\" failures=\"1\""), std::string::npos);
  EXPECT_NE(x.find("<failure type=\"FAIL\""), std::string::npos);
  EXPECT_NE(x.find("go &quot;now&quot; &amp; &lt;then&gt;"), std::string::npos);  // the trace, escaped
  EXPECT_NE(x.find("\\x01"), std::string::npos);
  EXPECT_NE(x.find("\\xff"), std::string::npos);
  EXPECT_EQ(x.find("\xff"), std::string::npos);
}

TEST(Reports, XmlEscapeKeepsUtf8AndEscapesTheRest) {
  EXPECT_EQ(xml_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
  EXPECT_EQ(xml_escape("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(xml_escape("\x1b[0m"), "\\x1b[0m");
  EXPECT_EQ(xml_escape("\xc3"), "\\xc3");  // truncated sequence
}

TEST(Reports, JsonlTraceHasOneObjectPerStep) {
  TestGraph g = parse_graph(graph_text);
  RunOptions o;
  o.max_steps = 100;
  std::ostringstream out;
  JsonlTraceWriter w(out);
  w.begin_run(1, 42, "random");
  RandomWalkPolicy p;
  Weird a;
  RunResult r = Runner(g, o).run(p, a, &w, 42);
  std::istringstream in(out.str());
  std::string line;
  std::vector<nlohmann::json> lines;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), r.steps + 2);
  EXPECT_EQ(lines.front()["event"], "begin");
  EXPECT_EQ(lines.front()["seed"], 42);
  EXPECT_EQ(lines[1]["kind"], "stimulus");
  EXPECT_EQ(lines[1]["vertex"], "i<&>");
  EXPECT_EQ(lines[1]["label"], "go \"now\" & <then>");
  EXPECT_EQ(lines[1]["edge"], "go");
  EXPECT_EQ(lines[1]["to"], "w");
  EXPECT_EQ(lines[1]["step"], 1);
  const auto& bad = lines[lines.size() - 2];
  EXPECT_EQ(bad["kind"], "unexpected");
  EXPECT_FALSE(bad.contains("to"));
  EXPECT_EQ(lines.back()["event"], "end");
  EXPECT_EQ(lines.back()["verdict"], "FAIL");
  EXPECT_NE(format_trace(g, r).find("not allowed here"), std::string::npos);
}

}  // namespace
}  // namespace playtest
