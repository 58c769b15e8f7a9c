// The HTML report: trace reading, escaping, the SVG check, Graphviz as a subprocess, and the page's
// content (runs, the failing path, coverage, large models, simulate/cover/solve sections).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cli_runner.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "playtest/base/error.hpp"
#include "playtest/campaign/mutation.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/campaign/trace_writer.hpp"
#include "playtest/cover/cover_report.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/report/fallback_svg.hpp"
#include "playtest/report/graphviz.hpp"
#include "playtest/report/html_report.hpp"
#include "playtest/report/run_record.hpp"
#include "playtest/report/svg_plot.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/strategy/random_walk_policy.hpp"

namespace playtest::report {
namespace {

bool have_dot() { return std::system("command -v dot >/dev/null 2>&1") == 0; }

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

const char* const hostile = "</script><img src=x onerror=alert(1)>";

// A model whose names and labels try to break out of the HTML, the SVG and the DOT file.
TestGraph hostile_model() {
  return parse_graph(R"({"playtest": "graph/1", "initial": "</script><img src=x onerror=alert(1)>",
    "vertices": [{"id": "</script><img src=x onerror=alert(1)>", "kind": "active"},
                 {"id": "wait \"q\" & 'café' ✓", "kind": "passive"},
                 {"id": "done", "kind": "active", "goal": true}, {"id": "island", "kind": "active"}],
    "edges": [{"id": "go", "from": "</script><img src=x onerror=alert(1)>", "to": "wait \"q\" & 'café' ✓",
               "label": "<b onmouseover=alert(2)>go</b>"},
              {"id": "ok", "from": "wait \"q\" & 'café' ✓", "to": "done", "label": "ok & done", "prob": 1},
              {"id": "back", "from": "done", "to": "</script><img src=x onerror=alert(1)>", "label": "again"},
              {"id": "never", "from": "island", "to": "done", "label": "idle\\loop"}]})");
}

// The trace of a run played against `sut_graph` by a random walk on `model`, read back.
std::vector<RunRecord> played(const TestGraph& model, const TestGraph& sut_graph, std::uint64_t seed,
                              std::uint64_t steps = 200) {
  RunOptions ro;
  ro.max_steps = steps;
  ro.purpose.kind = TestPurpose::Kind::none;
  Runner runner(model, ro);
  RandomWalkPolicy policy;
  SimulatedSut sut(sut_graph, seed);
  std::ostringstream out;
  JsonlTraceWriter w(out, "random");
  w.set_context("model.json", [](std::uint64_t) { return std::string("playtest run model.json --seed 7 --runs 1"); });
  w.on_run_begin(1, seed);
  runner.run(policy, sut, &w, seed);
  std::istringstream in(out.str());
  return read_trace(in, "trace.jsonl").runs;
}

std::string html_of(const Report& r, ReportOptions o = {}) {
  std::ostringstream out;
  write_html_report(out, r, o);
  if (const char* dump = std::getenv("PLAYTEST_REPORT_DUMP")) std::ofstream(dump) << out.str();
  return out.str();
}

// ---- trace reading ----

TEST(TraceReader, ReadsRunsStepsAndTheFailure) {
  std::istringstream in(
      R"({"event":"begin","run":1,"seed":5,"strategy":"reach","model":"m.json","replay":"playtest run m.json --seed 5"}
{"edge":"e0","event":"step","kind":"stimulus","label":"submit","run":1,"step":1,"time_ms":0.2,"to":"b","vertex":"a"}
{"event":"step","kind":"silence","label":"","run":1,"step":2,"time_ms":1001.5,"vertex":"b"}
{"event":"end","message":"silence at b","resets":0,"run":1,"steps":2,"verdict":"FAIL","elapsed_ms":1002,"failure":{"vertex":"b","allowed":["x","y"],"observed":null}}
{"event":"begin","run":2,"seed":6,"strategy":"reach"}
{"edge":"e0","event":"step","kind":"stimulus","label":"submit","run":2,"step":1,"time_ms":0.1,"to":"b","vertex":"a"}
)");
  auto runs = read_trace(in, "t.jsonl").runs;
  ASSERT_EQ(runs.size(), 2u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.source, "t.jsonl");
  EXPECT_EQ(r.seed, 5u);
  EXPECT_EQ(r.strategy, "reach");
  EXPECT_EQ(r.model, "m.json");
  EXPECT_EQ(r.replay, "playtest run m.json --seed 5");
  EXPECT_TRUE(r.params.empty());
  ASSERT_TRUE(r.verdict.has_value());
  EXPECT_EQ(*r.verdict, Verdict::fail);
  EXPECT_EQ(r.fail_vertex, "b");
  EXPECT_EQ(r.allowed, (std::vector<std::string>{"x", "y"}));
  EXPECT_FALSE(r.observed.has_value());
  EXPECT_DOUBLE_EQ(r.elapsed_ms, 1002);
  ASSERT_EQ(r.trace.size(), 2u);
  EXPECT_EQ(r.trace[0].kind, StepKind::stimulus);
  EXPECT_EQ(r.trace[0].edge, "e0");
  EXPECT_EQ(r.trace[0].to, "b");
  EXPECT_EQ(r.trace[0].line, 2u);
  EXPECT_EQ(r.trace[1].kind, StepKind::silence);
  // The second run has no end: no verdict, and a note saying why.
  EXPECT_FALSE(runs[1].verdict.has_value());
  EXPECT_EQ(runs[1].run, 2u);
  EXPECT_EQ(runs[1].model, "m.json");  // inherited from the run before
  EXPECT_EQ(runs[1].steps, 1u);
  ASSERT_FALSE(runs[1].notes.empty());
  EXPECT_NE(runs[1].notes[0].find("no end"), std::string::npos);
}

TEST(TraceReader, ACutOffLastLineIsDroppedWithANote) {
  std::istringstream in(
      "{\"event\":\"begin\",\"run\":1,\"seed\":1,\"strategy\":\"random\"}\n"
      "{\"edge\":\"e0\",\"event\":\"step\",\"kind\":\"stimulus\",\"label\":\"a\",\"run\":1,\"step\":1,\"time_ms\":0,"
      "\"to\":\"b\",\"vertex\":\"a\"}\n{\"event\":\"step\",\"ki");
  auto runs = read_trace(in, "t.jsonl").runs;
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].trace.size(), 1u);
  ASSERT_GE(runs[0].notes.size(), 1u);
  EXPECT_NE(runs[0].notes[0].find("cut off"), std::string::npos);
}

TEST(TraceReader, BadLinesAreLocatedParseErrors) {
  auto error_of = [](const std::string& text) -> std::string {
    std::istringstream in(text);
    try {
      read_trace(in, "t.jsonl");
    } catch (const ParseError& e) {
      return format_diagnostic(e.diagnostic());
    }
    return "no error";
  };
  EXPECT_NE(
      error_of("{\"event\":\"begin\",\"run\":1}\n{\"event\":\"step\",\"kind\":\"jump\",\"step\":1,\"vertex\":\"a\"}\n")
          .find("t.jsonl:2: error: unknown step kind \"jump\""),
      std::string::npos);
  EXPECT_NE(error_of("{\"event\":\"begin\"}\nnot json\n{\"event\":\"begin\"}\n").find("t.jsonl:2:"), std::string::npos);
  EXPECT_NE(error_of("{\"event\":\"end\",\"verdict\":\"MAYBE\"}\n").find("unknown verdict \"MAYBE\""),
            std::string::npos);
  EXPECT_NE(error_of("{\"event\":\"step\",\"kind\":\"reset\",\"step\":-1,\"vertex\":\"a\"}\n").find("(at /step)"),
            std::string::npos);
  EXPECT_NE(error_of("{\"event\":\"begin\",\"params\":\"N=3\"}\n").find("\"params\" must be an array of strings"),
            std::string::npos);
  EXPECT_NE(error_of("{\"event\":\"begin\",\"params\":[3]}\n").find("(at /params)"), std::string::npos);
  EXPECT_NE(error_of("[1,2]\n").find("must be a JSON object"), std::string::npos);
  EXPECT_NE(error_of("").find("the trace has no run"), std::string::npos);
  EXPECT_NE(error_of("\n  \n").find("the trace has no run"), std::string::npos);
}

TEST(TraceReader, RoundTripsTheRunnersTrace) {
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  auto runs = played(g, g, 3);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].verdict, Verdict::pass);
  EXPECT_EQ(runs[0].trace.size(), runs[0].steps);
  EXPECT_EQ(runs[0].replay, "playtest run model.json --seed 7 --runs 1");
  EXPECT_GT(runs[0].steps, 0u);
}

// The model program's parameters a run was played with are in its begin line; a begin line without
// them inherits the run before's, as the model does.
TEST(TraceReader, ReadsTheRecordedModelParameters) {
  std::ostringstream out;
  JsonlTraceWriter w(out, "random");
  w.set_context("m.ptm", {}, {"N=3", "M=2"});
  w.begin_run(1, 4, "random");
  EXPECT_NE(out.str().find("\"params\":[\"N=3\",\"M=2\"]"), std::string::npos) << out.str();
  std::istringstream in(out.str() + "{\"event\":\"begin\",\"run\":2}\n");
  auto runs = read_trace(in, "t.jsonl").runs;
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].model, "m.ptm");
  EXPECT_EQ(runs[0].params, (std::vector<std::string>{"N=3", "M=2"}));
  EXPECT_EQ(runs[1].params, runs[0].params);
}

// ---- escaping ----

TEST(Escaping, EscapesMarkupAndRepairsUtf8) {
  EXPECT_EQ(escape_html(hostile), "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(escape_html("a & \"b\" 'c'"), "a &amp; &quot;b&quot; &apos;c&apos;");
  EXPECT_EQ(escape_html("café ✓ 𝄞"), "café ✓ 𝄞");
  EXPECT_EQ(clean_text("a\xff"
                       "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(clean_text("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
  EXPECT_EQ(clean_text("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(clean_text("\xE2\x9C"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // cut short
  EXPECT_EQ(clean_text("x\x01y\tz\n"), "x\xEF\xBF\xBDy\tz\n");
}

// ---- the SVG check ----

TEST(CleanSvg, KeepsGraphvizOutputAndRefusesActiveContent) {
  const std::string ok = R"(<?xml version="1.0"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<!-- Generated by graphviz -->
<svg width="62pt" height="44pt" viewBox="0 0 62 44" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
<g id="graph0" class="graph"><title>g</title>
<!-- a&#45;&gt;b -->
<g id="e0" class="edge"><a xlink:title="x"><path fill="none" stroke="black" d="M1,2C3,4 5,6 7,8"/></a>
<text text-anchor="middle" x="1" y="2">&lt;b&gt;</text></g></g>
</svg>
)";
  SvgPicture p = clean_svg(ok);
  ASSERT_TRUE(p.ok) << p.message;
  EXPECT_EQ(p.svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(p.svg.find("<!--"), std::string::npos);
  EXPECT_NE(p.svg.find("&lt;b&gt;"), std::string::npos);
  EXPECT_EQ(p.svg.substr(p.svg.size() - 6), "</svg>");
  for (const char* bad : {R"x(<svg><script>alert(1)</script></svg>)x", R"x(<svg onload="alert(1)"></svg>)x",
                          R"x(<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>)x",
                          R"x(<svg><foreignObject><div></div></foreignObject></svg>)x",
                          R"x(<svg><image href="http://example.invalid/x.png"/></svg>)x",
                          R"x(<svg><g style="background:url(http://example.invalid)"></g></svg>)x", R"x(<svg><g>)x",
                          R"x(<svg><g id='x'></g></svg>)x", "no picture"}) {
    SvgPicture q = clean_svg(bad);
    EXPECT_FALSE(q.ok) << bad;
    EXPECT_TRUE(q.svg.empty()) << bad;
    EXPECT_FALSE(q.message.empty()) << bad;
  }
}

// ---- Graphviz as a subprocess ----

TEST(Graphviz, AMissingProgramIsAMessageNotAnError) {
  SvgPicture p = render_svg("digraph { a -> b }", {.program = "playtest-no-such-dot"});
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.message.find("not installed"), std::string::npos) << p.message;
}

TEST(Graphviz, AFailingOrHangingProgramIsAMessage) {
  testing::ScratchDir dir("graphviz");
  const std::string fails = dir.write("fails.sh", "#!/bin/sh\necho 'syntax error in line 1' >&2\nexit 1\n");
  const std::string hangs = dir.write("hangs.sh", "#!/bin/sh\nexec sleep 30\n");
  std::filesystem::permissions(fails, std::filesystem::perms::owner_all);
  std::filesystem::permissions(hangs, std::filesystem::perms::owner_all);
  SvgPicture f = render_svg("digraph { a -> b }", {.program = fails});
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.message.find("(exit status 1): syntax error in line 1"), std::string::npos) << f.message;
  SvgPicture h = render_svg("digraph { a -> b }", {.program = hangs, .timeout = std::chrono::milliseconds(300)});
  EXPECT_FALSE(h.ok);
  EXPECT_NE(h.message.find("did not finish"), std::string::npos) << h.message;
}

TEST(Graphviz, DrawsAndEscapesHostileNames) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup.sh installs it)";
  std::string big = "digraph { ";
  for (int i = 0; i < 400; ++i) big += "n" + std::to_string(i) + " -> n" + std::to_string(i + 1) + "; ";
  big += "x [label=\"</script><img src=x onerror=alert(1)>\"]; }";
  SvgPicture p = render_svg(big);  // larger than a pipe buffer both ways
  ASSERT_TRUE(p.ok) << p.message;
  EXPECT_EQ(p.svg.find("<img"), std::string::npos);
  EXPECT_NE(p.svg.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_EQ(count(p.svg, "class=\"node\""), 402u);
}

// ---- the page ----

TEST(HtmlReport, HostileNamesStayText) {
  const TestGraph g = hostile_model();
  auto runs = played(g, g, 1, 6);
  ASSERT_EQ(runs.size(), 1u);
  // Make it a failure at the passive vertex with a hostile observation.
  RunRecord& r = runs[0];
  r.verdict = Verdict::fail;
  r.fail_vertex = "wait \"q\" & 'café' ✓";
  r.allowed = {"ok & done"};
  r.observed = "<svg onload=alert(3)>";
  r.message = hostile;
  r.replay = std::string("playtest run '") + hostile + "'";
  StepRecord s;
  s.step = r.trace.size() + 1;
  s.kind = StepKind::unexpected;
  s.vertex = r.fail_vertex;
  s.label = *r.observed;
  r.trace.push_back(s);
  Report rep{.title = hostile, .tool_version = "test", .model = &g, .model_name = hostile, .runs = runs};
  for (bool with_dot : {false, true}) {
    if (with_dot && !have_dot()) continue;
    ReportOptions o;
    if (!with_dot) o.graphviz.program = "playtest-no-such-dot";
    const std::string html = html_of(rep, o);
    SCOPED_TRACE(with_dot ? "with dot" : "without dot");
    // Nothing the model or the trace says becomes markup.
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_EQ(html.find("<b onmouseover"), std::string::npos);
    EXPECT_EQ(html.find("<svg onload"), std::string::npos);
    EXPECT_EQ(count(html, "</script>"), 1u);  // the page's own script
    EXPECT_EQ(count(html, "<script>"), 1u);
    EXPECT_NE(html.find("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
    EXPECT_NE(html.find("&lt;svg onload=alert(3)&gt;"), std::string::npos);
    // UTF-8 passes through as it is.
    EXPECT_NE(html.find("café"), std::string::npos);
    EXPECT_NE(html.find("✓"), std::string::npos);
    EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
    // The never-taken edge is listed by label, source and target.
    EXPECT_NE(html.find("<td class=\"mono\">idle\\loop</td><td class=\"mono\">island</td><td class=\"mono\">done</td>"),
              std::string::npos);
    if (with_dot) {
      EXPECT_NE(html.find("<svg width="), std::string::npos);
    } else {  // drawn by playtest, escaped as carefully
      EXPECT_NE(html.find("Drawn without Graphviz (it is not installed)"), std::string::npos);
      EXPECT_NE(html.find("<svg width="), std::string::npos);
      EXPECT_NE(html.find("class=\"fallback\""), std::string::npos);
    }
  }
}

TEST(HtmlReport, SelfContained) {
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  auto runs = played(g, g, 3);
  const std::string html = html_of({.title = "t", .model = &g, .model_name = "workers.json", .runs = runs});
  // No reference to anything outside the file.
  for (const char* ref : {"src=", "href=\"http", "href=\"//", "@import", "url(", "<link", "<iframe", "<object"})
    EXPECT_EQ(html.find(ref), std::string::npos) << ref;
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"badge pass\">PASS</span> the run passed"), std::string::npos);
}

// A picture gets a budget proportional to its size (issue 24: a 300-vertex model made each picture
// wait Graphviz's 60 s): with a Graphviz that hangs, the report of a small model gives up on the
// picture after about 2 s, with a message, however long GraphvizOptions::timeout allows.
TEST(HtmlReport, GraphvizGetsABudgetProportionalToThePicture) {
  testing::ScratchDir dir("graphviz_budget");
  const std::string hangs = dir.write("hangs.sh", "#!/bin/sh\nexec sleep 30\n");
  std::filesystem::permissions(hangs, std::filesystem::perms::owner_all);
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  ReportOptions o;
  o.graphviz.program = hangs;
  o.graphviz.timeout = std::chrono::milliseconds(60000);
  const auto start = std::chrono::steady_clock::now();
  const std::string html =
      html_of({.title = "t", .model = &g, .model_name = "workers.json", .runs = played(g, g, 3)}, o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(html.find("Drawn without Graphviz (it timed out after 2."), std::string::npos);
  EXPECT_LT(seconds, 10.0);  // one picture, 2 s and its size's share (not 60 s)
}

TEST(FallbackSvg, EscapesNamesAndKeepsTheIdsAndStyles) {
  const TestGraph g = hostile_model();
  DotOptions d;
  d.id_prefix = "x_";
  d.edge_style = [](EdgeId e) {
    DotStyle s;
    if (e.value == 0) {
      s.color = "#cf222e";
      s.css_class = "path";
      s.note = "#1";
    }
    return s;
  };
  d.show_vertex = [&](VertexId v) { return g.name(v) != "island"; };
  const FallbackFailureBox box{.at = *g.find_vertex("done"), .text = "got '<x>'\nnot allowed", .edge_label = "#3"};
  const std::string svg = fallback_svg(g, d, &box);
  EXPECT_TRUE(svg.starts_with("<svg width=\"")) << svg.substr(0, 80);
  EXPECT_EQ(count(svg, "<svg"), 1u);
  EXPECT_EQ(count(svg, "</svg>"), 1u);
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  EXPECT_EQ(svg.find("<b onmouseover"), std::string::npos);
  EXPECT_EQ(svg.find("<x>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;b onmouseover=alert(2)&gt;go&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("wait &quot;q&quot; &amp; &apos;café&apos; ✓"), std::string::npos);
  // The three shown vertices, their three edges (not the island's), the failure box and its arrow.
  EXPECT_EQ(count(svg, "class=\"node"), 4u);
  EXPECT_EQ(count(svg, "<g id=\"x_v"), 3u);
  EXPECT_EQ(count(svg, "<g id=\"x_e"), 3u);
  EXPECT_NE(svg.find("<g id=\"x_e0\" class=\"edge path\">"), std::string::npos);
  EXPECT_NE(svg.find("stroke=\"#cf222e\""), std::string::npos);
  EXPECT_NE(svg.find("id=\"x_failure\""), std::string::npos);
  EXPECT_NE(svg.find("got &apos;&lt;x&gt;&apos;"), std::string::npos);
  EXPECT_NE(svg.find("<polygon"), std::string::npos);  // the passive vertex is a diamond
  EXPECT_EQ(count(svg, "<ellipse"), 3u);               // two active vertices, the goal drawn twice
}

// Short names in the whole model's picture come with a table of every vertex's full state.
TEST(HtmlReport, ShortNamesHaveATableOfFullStates) {
  const TestGraph g = parse_graph(R"json({"playtest": "graph/1", "initial": "(x=0, y=0, busy=false, name=idle)",
    "vertices": [{"id": "(x=0, y=0, busy=false, name=idle)", "kind": "active"},
                 {"id": "(x=1, y=0, busy=true, name=waiting)", "kind": "passive"}],
    "edges": [{"from": "(x=0, y=0, busy=false, name=idle)", "to": "(x=1, y=0, busy=true, name=waiting)", "label": "Up"},
              {"from": "(x=1, y=0, busy=true, name=waiting)", "to": "(x=0, y=0, busy=false, name=idle)",
               "label": "?Ack", "prob": 1}]})json");
  const auto runs = played(g, g, 1, 10);
  ReportOptions o;
  o.graphviz.program = "playtest-no-such-dot";  // the table is there with either picture
  const std::string html = html_of({.title = "t", .model = &g, .model_name = "m.json", .runs = runs}, o);
  EXPECT_NE(html.find("Vertices drawn by number (2)"), std::string::npos);
  EXPECT_NE(html.find("<tr id=\"state-v0\"><td class=\"mono\">v0</td><td class=\"muted\">active</td><td "
                      "class=\"mono\">(x=0, y=0, busy=false, name=idle)</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr id=\"state-v1\"><td class=\"mono\">v1</td><td class=\"muted\">choice point</td>"),
            std::string::npos);
  // Short names need no table.
  const TestGraph w = load_graph(testing::example("examples/sut/workers.json"));
  EXPECT_EQ(html_of({.title = "t", .model = &w, .runs = played(w, w, 1, 10)}, o).find("Vertices drawn by number"),
            std::string::npos);
}

// Issue 36: a step row printed the whole state twice; it names the states by number and shows what
// the step changed (old → new), the whole states on hover and the first above the table.
TEST(HtmlReport, StepRowsShowWhatChanged) {
  const TestGraph g =
      parse_graph(R"json({"playtest": "graph/1", "initial": "(x=0, q=[1, 2], busy=false, name=\"a, b\")",
    "vertices": [{"id": "(x=0, q=[1, 2], busy=false, name=\"a, b\")", "kind": "active"},
                 {"id": "(x=1, q=[2], busy=true, name=\"a, b\")", "kind": "passive"}],
    "edges": [{"from": "(x=0, q=[1, 2], busy=false, name=\"a, b\")", "to": "(x=1, q=[2], busy=true, name=\"a, b\")",
               "label": "Up"},
              {"from": "(x=1, q=[2], busy=true, name=\"a, b\")", "to": "(x=0, q=[1, 2], busy=false, name=\"a, b\")",
               "label": "?Ack", "prob": 1}]})json");
  const auto runs = played(g, g, 1, 4);
  ReportOptions o;
  o.graphviz.program = "playtest-no-such-dot";
  const std::string html = html_of({.title = "t", .model = &g, .model_name = "m.json", .runs = runs}, o);
  EXPECT_NE(html.find("<div class=\"changes\">x: 0 → 1, q: [1, 2] → [2], busy: false → true</div>"), std::string::npos)
      << html.substr(html.find("<table class=\"steps\">"), 3000);
  EXPECT_NE(html.find("<div class=\"changes\">x: 1 → 0, q: [2] → [1, 2], busy: true → false</div>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"v\" title=\"(x=0, q=[1, 2], busy=false, name=&quot;a, b&quot;)\">v0</span>"),
            std::string::npos);
  EXPECT_NE(html.find("the first: <span class=\"mono\">v0 = (x=0, q=[1, 2], busy=false, name=&quot;a, b&quot;)</span>"),
            std::string::npos);
  // Short names (a graph/1 model's ids) stay as they are, without changes.
  const TestGraph w = load_graph(testing::example("examples/sut/workers.json"));
  const std::string plain = html_of({.title = "t", .model = &w, .runs = played(w, w, 1, 10)}, o);
  EXPECT_EQ(plain.find("class=\"changes\""), std::string::npos);
  EXPECT_NE(plain.find("<span class=\"v\">idle0</span>"), std::string::npos);
}

TEST(HtmlReport, TheFailingPathIsOnThePictureAndInTheStepTable) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup.sh installs it)";
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  // The buggy system never says all_done: take last0's output away.
  const TestGraph buggy = parse_graph(R"({"playtest": "graph/1", "initial": "idle0",
    "vertices": [{"id": "idle0", "kind": "active"}, {"id": "both0", "kind": "passive"},
                 {"id": "wait_a0", "kind": "passive"}, {"id": "wait_b0", "kind": "passive"},
                 {"id": "last0", "kind": "passive"}, {"id": "stuck", "kind": "active"}],
    "edges": [{"from": "idle0", "to": "both0", "label": "submit"},
              {"from": "both0", "to": "wait_b0", "label": "done_a", "prob": 0.5},
              {"from": "both0", "to": "wait_a0", "label": "done_b", "prob": 0.5},
              {"from": "wait_b0", "to": "last0", "label": "done_b", "prob": 1},
              {"from": "wait_a0", "to": "last0", "label": "done_a", "prob": 1},
              {"from": "last0", "to": "stuck", "label": "all_gone", "prob": 1}]})");
  auto runs = played(g, buggy, 2);
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].verdict, Verdict::fail);
  const std::string html = html_of({.title = "t", .model = &g, .model_name = "workers.json", .runs = runs});
  // The explanation names the vertex, what was allowed and what came.
  EXPECT_NE(html.find("at vertex &apos;last0&apos; the model allowed {all_done}; the system <span class=\"got\">sent "
                      "&apos;all_gone&apos;</span>"),
            std::string::npos);
  // The picture: the three path edges (submit, one done, the other done) and the failure box.
  const std::regex path_edge(R"re(<g id="f1_e(\d+)" class="edge path">)re");
  std::set<std::string> on_path;
  for (std::sregex_iterator m(html.begin(), html.end(), path_edge), end; m != end; ++m) on_path.insert((*m)[1]);
  EXPECT_EQ(on_path.size(), 3u);
  EXPECT_NE(html.find("id=\"f1_failure\""), std::string::npos);
  EXPECT_NE(html.find("class=\"node failvertex\""), std::string::npos);
  // The step table: the failing row, linked to nothing; the path rows linked to their edges.
  EXPECT_NE(html.find("<tr class=\"failing on-path\"><td class=\"num\">4</td>"), std::string::npos);
  for (const std::string& e : on_path) EXPECT_NE(html.find("data-edge=\"f1_e" + e + "\""), std::string::npos) << e;
  EXPECT_NE(html.find("outputs {all_done}"), std::string::npos);
  // The replay command and the overall verdict.
  EXPECT_NE(html.find("<code class=\"cmd\">playtest run model.json --seed 7 --runs 1</code>"), std::string::npos);
  EXPECT_NE(html.find("<header class=\"top fail\">"), std::string::npos);
  // Coverage: submit once, the model's later edges never.
  EXPECT_NE(html.find("The runs took 3 of 16 edges"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"mono\">shutdown</td><td class=\"mono\">idle1</td><td class=\"mono\">closing</td>"),
            std::string::npos);
  // 13 edges never taken: one of them an outcome of a vertex the run visited, which the system never
  // chose there (model slack, drawn as such), the other 12 never reached.
  EXPECT_EQ(count(html, "class=\"edge uncovered\""), 12u);
  EXPECT_EQ(count(html, "class=\"edge slack\""), 1u);
}

TEST(HtmlReport, ATraceFromAnotherModelIsALocatedError) {
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  std::istringstream in(
      "{\"event\":\"begin\",\"run\":1,\"seed\":1,\"strategy\":\"random\"}\n"
      "{\"edge\":\"e99\",\"event\":\"step\",\"kind\":\"stimulus\",\"label\":\"a\",\"run\":1,\"step\":1,\"time_ms\":0,"
      "\"to\":\"idle0\",\"vertex\":\"idle0\"}\n");
  Report rep{.model = &g, .model_name = "workers.json", .runs = read_trace(in, "other.jsonl").runs};
  try {
    html_of(rep);
    FAIL() << "no error";
  } catch (const GraphError& e) {
    EXPECT_NE(format_diagnostic(e.diagnostic())
                  .find("other.jsonl:2:1: error: the trace's edge 'e99' is not an edge of the model"),
              std::string::npos)
        << format_diagnostic(e.diagnostic());
  }
}

TEST(HtmlReport, WithoutAModelTheRunsAndStepsAreStillThere) {
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  auto runs = played(g, g, 4);
  const std::string html = html_of({.title = "t", .runs = runs});
  EXPECT_NE(html.find("No model was given"), std::string::npos);
  EXPECT_NE(html.find("<table class=\"steps\">"), std::string::npos);
  EXPECT_EQ(html.find("<svg width="), std::string::npos);
}

// A run walking `g` from its initial vertex for `steps` steps, then failing with an unexpected output.
RunRecord walk_and_fail(const TestGraph& g, std::uint32_t steps) {
  RunRecord r;
  r.source = "big.jsonl";
  r.verdict = Verdict::fail;
  r.seed = 9;
  VertexId v = g.initial();
  for (std::uint32_t i = 1; i <= steps && g.out_degree(v) > 0; ++i) {
    const EdgeId e = *g.out_edges(v).begin();
    r.trace.push_back({.step = i,
                       .kind = g.is_passive(v) ? StepKind::observation : StepKind::stimulus,
                       .vertex = std::string(g.name(v)),
                       .label = std::string(g.label(e)),
                       .edge = std::string(g.name(e)),
                       .to = std::string(g.name(g.target(e)))});
    v = g.target(e);
  }
  r.trace.push_back(
      {.step = r.trace.size() + 1, .kind = StepKind::unexpected, .vertex = std::string(g.name(v)), .label = "boom"});
  r.steps = r.trace.size();
  r.fail_vertex = std::string(g.name(v));
  r.observed = "boom";
  return r;
}

TEST(HtmlReport, LargeModelsGetASummaryAndTheFailuresNeighbourhood) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup.sh installs it)";
  const TestGraph g = generate_random_graph({.vertices = 20000, .out_degree = 3, .seed = 3});
  const RunRecord r = walk_and_fail(g, 40);
  ReportOptions o;
  std::ostringstream out;
  const ReportSummary s =
      write_html_report(out, {.title = "big", .model = &g, .model_name = "big.json", .runs = {r}}, o);
  const std::string html = out.str();
  EXPECT_EQ(s.pictures, 1u);  // the neighbourhood only
  EXPECT_NE(html.find("The model has 20000 vertices and 60000 edges: pictures of the whole model are drawn up to"),
            std::string::npos);
  const std::size_t nodes = count(html, "class=\"node");
  EXPECT_GT(nodes, 5u);
  EXPECT_LE(nodes, o.max_neighbourhood + 1u);  // + the start marker when the initial vertex is near
  EXPECT_NE(html.find("id=\"f1_failure\""), std::string::npos);
  // The uncovered list is cut, the page stays small.
  EXPECT_NE(html.find("… and "), std::string::npos);
  EXPECT_LT(html.size(), 600u * 1024);
}

TEST(HtmlReport, LongRunsShowTheirLastSteps) {
  const TestGraph g = generate_random_graph({.vertices = 50, .out_degree = 2, .strongly_connected = true, .seed = 5});
  const RunRecord r = walk_and_fail(g, 2000);
  ReportOptions o;
  o.graphviz.program = "playtest-no-such-dot";
  const std::string html = html_of({.title = "long", .model = &g, .runs = {r}}, o);
  EXPECT_NE(html.find("… 1601 earlier steps are not shown"), std::string::npos);
  EXPECT_EQ(count(html, "<span class=\"kind k-"), 400u);
}

// ---- typed sections ----

TEST(HtmlReport, StrategiesSideBySideWithMutantsNamed) {
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  SimulationOptions so;
  so.run.purpose.kind = TestPurpose::Kind::reach;
  so.run.purpose.goals = g.goals();
  so.run.max_steps = 300;
  so.runs = 40;
  so.mutant_runs = 3;
  so.seed = 1;
  RandomWalkPolicy random;
  StrategyComparison sc{.seed = 1, .max_steps = 300};
  std::vector<Mutant> mutants = make_mutants(g, 4, 1);
  mutants[0].description = hostile;
  for (const Mutant& m : mutants) sc.mutants.push_back({std::string(to_string(m.kind)), m.description});
  sc.rows.push_back({"random", so.run.purpose, simulate(g, random, so, mutants)});
  sc.rows.push_back({"second", so.run.purpose, simulate(g, random, so, mutants)});
  const SimulationStats& first = sc.rows[0].stats;
  ASSERT_EQ(first.steps_to_purpose.size(), static_cast<std::size_t>(std::llround(first.success_rate * so.runs)));
  ASSERT_EQ(first.mutant_detected.size(), sc.mutants.size());
  const std::string html = html_of({.title = "sim", .model = &g, .simulation = &sc});
  EXPECT_NE(html.find("measured on the purpose <b>reach goal &apos;off&apos;</b>"), std::string::npos);
  EXPECT_NE(html.find("<td><b>random</b></td><td>reach goal &apos;off&apos;</td>"), std::string::npos);
  EXPECT_NE(html.find("<td><b>second</b></td>"), std::string::npos);
  EXPECT_NE(html.find("class=\"row-name\" text-anchor=\"end\">second</text>"), std::string::npos);
  EXPECT_EQ(count(html, "class=\"mean\""), 2u);
  EXPECT_NE(html.find("<td>&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</td>"), std::string::npos);
  for (std::size_t m = 1; m < sc.mutants.size(); ++m)
    EXPECT_NE(html.find(escape_html(sc.mutants[m].description)), std::string::npos);
  // One cell per mutant and strategy, killed exactly where the simulation detected it.
  std::size_t killed = 0;
  for (const auto& row : sc.rows)
    for (std::uint8_t d : row.stats.mutant_detected) killed += d;
  EXPECT_EQ(count(html, "class=\"num killed\""), killed);
  EXPECT_EQ(count(html, "class=\"num killed\"") + count(html, "class=\"num survived\""), 2 * sc.mutants.size());
}

TEST(HtmlReport, CoverConvergenceAgainstTheBound) {
  const TestGraph g = load_graph(testing::example("examples/graphs/seed000-figure1.json"));
  const CoverReport cs = analyze_cover(g, {.sim_runs = 200, .max_visits = 8, .seed = 1});
  const std::string html = html_of({.title = "cover", .model = &g, .cover = &cs});
  EXPECT_NE(html.find("with n = 2 segments and p = min p_i,v = 0.75"), std::string::npos);
  EXPECT_NE(html.find("at least 0.99 from m = 4"), std::string::npos);
  EXPECT_NE(html.find("bound 1 − n (1 − p)^m (Proposition 2)"), std::string::npos);
  EXPECT_NE(html.find("simulated (200 runs, 95% interval)"), std::string::npos);
  EXPECT_EQ(count(html, "<circle "), 8u);  // one marker per k
  EXPECT_NE(html.find("e1 e5 e7 e9 e4 e3 e6 e7 e8 e2"), std::string::npos);
  if (have_dot()) {
    EXPECT_EQ(count(html, "class=\"edge repeated\""), 1u);  // e7, twice
  }
}

TEST(HtmlReport, SolvedStrategyDrawnWithValues) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup.sh installs it)";
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  const auto goals = g.goals();
  const ExpectedCostResult r = solve_expected_cost(g, goals);
  const std::string html = html_of({.title = "solve", .model = &g, .solve = solve_section(g, r)});
  EXPECT_NE(html.find("<h2>Strategy (expected)</h2>"), std::string::npos);
  EXPECT_NE(html.find("E=0"), std::string::npos);  // the goal
  std::uint32_t choices = 0;
  for (EdgeId e : r.strategy) choices += !e.is_none();
  EXPECT_EQ(count(html, "class=\"edge strategy\""), choices);
  EXPECT_GT(choices, 0u);
}

// Every section a report holds is linked from the table of contents, whether or not its picture
// could be drawn (a model too large to draw: the cover and solve sections say why instead).
TEST(HtmlReport, EverySectionIsInTheTableOfContents) {
  const TestGraph g = load_graph(testing::example("examples/graphs/seed000-figure1.json"));
  const CoverReport cs = analyze_cover(g, {.sim_runs = 20, .max_visits = 4, .seed = 1});
  const ExpectedCostResult r = solve_expected_cost(g, g.goals());
  for (std::uint32_t max_drawn : {0u, 1000u}) {
    SCOPED_TRACE(max_drawn);
    ReportOptions o;
    o.max_drawn_vertices = max_drawn;
    const std::string html = html_of({.title = "both", .model = &g, .cover = &cs, .solve = solve_section(g, r)}, o);
    EXPECT_NE(html.find("<a href=\"#cover\">cover convergence</a>"), std::string::npos);
    EXPECT_NE(html.find("<a href=\"#solve\">strategy</a>"), std::string::npos);
    EXPECT_NE(html.find("<section id=\"cover\">"), std::string::npos);
    EXPECT_NE(html.find("<section id=\"solve\">"), std::string::npos);
    const bool small = max_drawn > 0;
    EXPECT_EQ(html.find("the tour is drawn up to 0 vertices") != std::string::npos, !small);
    EXPECT_EQ(html.find("the strategy is drawn up to 0 vertices") != std::string::npos, !small);
  }
}

TEST(SvgPlot, NumbersAndEscaping) {
  EXPECT_EQ(short_number(3), "3");
  EXPECT_EQ(short_number(0.125), "0.125");
  EXPECT_EQ(short_number(1e7), "1e+07");
  LinePlot p{.title = "<t>", .x_label = "x & y"};
  p.series.push_back(
      {.name = "a\"b", .x = {1, 2, 3}, .y = {0.1, 0.5, 0.9}, .low = {0, 0.4, 0.8}, .high = {0.2, 0.6, 1}});
  const std::string svg = svg_line_plot(p);
  EXPECT_NE(svg.find("&lt;t&gt;"), std::string::npos);
  EXPECT_NE(svg.find("x &amp; y"), std::string::npos);
  EXPECT_NE(svg.find("a&quot;b"), std::string::npos);
  EXPECT_EQ(count(svg, "<polygon"), 1u);
  EXPECT_EQ(count(svg, "<circle"), 3u);
  Histograms h{.x_label = "steps"};
  h.rows.push_back({.name = "none"});
  h.rows.push_back({.name = "some", .values = {1, 2, 2, 3, 10}});
  const std::string hs = svg_histograms(h);
  EXPECT_NE(hs.find("no run met the purpose"), std::string::npos);
  EXPECT_NE(hs.find("<title>2 runs in"), std::string::npos);
}

// When Graphviz hangs, fails or is missing the report still shows every picture, drawn by playtest
// (fallback_svg) and captioned so; a Graphviz that timed out is not asked again, so a report with
// two pictures waits for one budget only.
TEST(HtmlReport, WithoutAWorkingGraphvizThePicturesAreDrawnWithoutIt) {
  testing::ScratchDir dir("graphviz_fallback");
  const std::string hangs = dir.write("hangs.sh", "#!/bin/sh\nexec sleep 30\n");
  const std::string fails = dir.write("fails.sh", "#!/bin/sh\necho 'Error: syntax error in line 1' >&2\nexit 1\n");
  for (const std::string& p : {hangs, fails}) std::filesystem::permissions(p, std::filesystem::perms::owner_all);
  const TestGraph g = load_graph(testing::example("examples/sut/workers.json"));
  const RunRecord failing = walk_and_fail(g, 6);
  struct Case {
    std::string program, reason;
  };
  for (const Case& c : {Case{hangs, "it timed out after"}, Case{fails, "it failed with exit status 1"},
                        Case{"playtest-no-such-dot", "it is not installed"}}) {
    SCOPED_TRACE(c.program);
    ReportOptions o;
    o.graphviz.program = c.program;
    std::ostringstream out;
    const auto start = std::chrono::steady_clock::now();
    const ReportSummary sum =
        write_html_report(out, {.title = "t", .model = &g, .model_name = "workers.json", .runs = {failing}}, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string html = out.str();
    // Both pictures (the failure's and the model's), each drawn without Graphviz and captioned so.
    EXPECT_EQ(count(html, "<svg width="), 2u);
    EXPECT_EQ(count(html, "class=\"fallback\""), 2u);
    EXPECT_EQ(sum.pictures, 2u);
    EXPECT_NE(html.find("Drawn without Graphviz (" + c.reason), std::string::npos);
    // Every vertex and edge of the model is in the model's picture, with the ids the page's script
    // uses; the failure's path is red and ends in the box of what the system did.
    EXPECT_EQ(count(html, "<g id=\"m_v"), g.num_vertices());
    EXPECT_EQ(count(html, "<g id=\"m_e"), g.num_edges());
    EXPECT_NE(html.find("id=\"f1_failure\""), std::string::npos);
    EXPECT_NE(html.find("class=\"edge path\""), std::string::npos);
    EXPECT_NE(html.find("got &apos;boom&apos;"), std::string::npos);
    EXPECT_NE(html.find("data-edge=\"f1_e"), std::string::npos);  // steps point at edges of the picture
    ASSERT_FALSE(sum.messages.empty());
    EXPECT_NE(sum.messages.front().find("the pictures were drawn without it"), std::string::npos)
        << sum.messages.front();
    if (c.program == hangs) {
      EXPECT_NE(html.find("on an earlier picture"), std::string::npos);  // the second picture did not wait
      EXPECT_LT(seconds, 8.0);  // one budget of about 2 s, not one per picture (and not 60 s)
    }
  }
}

}  // namespace
}  // namespace playtest::report
