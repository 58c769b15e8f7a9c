// The graph/1 reader: every kind of bad input gets a ParseError/GraphError naming the place
// (line, column, JSON pointer) and the offending id; good input loads exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include "playtest/base/error.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/io/graph_json.hpp"

using namespace playtest;

namespace {

struct Expected {
  std::string message;  // substring of the message
  std::uint32_t line = 0, column = 0;
  std::string pointer;
};

template <class E = Error>
void expect_error(const std::string& text, const Expected& x) {
  try {
    parse_graph(text, "t.json");
    FAIL() << "accepted: " << text;
  } catch (const E& e) {
    const Diagnostic& d = e.diagnostic();
    EXPECT_NE(d.message.find(x.message), std::string::npos) << "message: " << d.message;
    EXPECT_EQ(d.where.file, "t.json");
    if (x.line) {
      EXPECT_EQ(d.where.line, x.line) << d.message;
      EXPECT_EQ(d.where.column, x.column) << d.message;
    }
    EXPECT_EQ(d.where.pointer, x.pointer) << d.message;
  }
}

const std::string head = R"({"playtest": "graph/1", "initial": "a",)";

}  // namespace

TEST(GraphJson, LoadsTheIssueExample) {
  TestGraph g = parse_graph(R"({"playtest": "graph/1",
 "initial": "s1",
 "vertices": [{"id": "s1", "kind": "active"},
              {"id": "cp", "kind": "passive"},
              {"id": "won", "kind": "active", "goal": true}],
 "edges": [{"id": "e1", "from": "s1", "to": "cp", "label": "Hit", "cost": 1},
           {"id": "e2", "from": "cp", "to": "won", "label": "?Card", "cost": 1, "prob": 0.25},
           {"id": "e3", "from": "cp", "to": "s1", "label": "?Card", "cost": 1, "prob": 0.75}]})");
  ASSERT_EQ(g.num_vertices(), 3u);
  ASSERT_EQ(g.num_edges(), 3u);
  VertexId s1 = *g.find_vertex("s1"), cp = *g.find_vertex("cp"), won = *g.find_vertex("won");
  EXPECT_EQ(g.initial(), s1);
  EXPECT_TRUE(g.is_passive(cp));
  EXPECT_TRUE(g.is_active(s1));
  EXPECT_TRUE(g.is_goal(won));
  EXPECT_FALSE(g.is_goal(s1));
  EdgeId e2 = *g.find_edge("e2");
  EXPECT_EQ(g.source(e2), cp);
  EXPECT_EQ(g.target(e2), won);
  EXPECT_EQ(g.label(e2), "?Card");
  EXPECT_DOUBLE_EQ(g.probability(e2), 0.25);
  EXPECT_DOUBLE_EQ(g.probability(*g.find_edge("e1")), 0.0);
  EXPECT_FALSE(g.is_resettable());
}

TEST(GraphJson, DefaultsAndWeights) {
  TestGraph g = parse_graph(head + R"( "reset": {"cost": 2.5}, "meta": {"any": [1, {"deep": null}]},
    "vertices": [{"id": "a"}, {"id": "p", "kind": "passive", "meta": "x"}],
    "edges": [{"from": "a", "to": "p"}, {"from": "p", "to": "a", "weight": 1, "timeout": true},
              {"from": "p", "to": "p", "weight": 3, "label": "?x"}]})");
  EdgeId e0 = *g.find_edge("e0"), e1 = *g.find_edge("e1"), e2 = *g.find_edge("e2");
  EXPECT_EQ(g.cost(e0), 1.0);
  EXPECT_EQ(g.label(e0), "");
  EXPECT_DOUBLE_EQ(g.probability(e1), 0.25);
  EXPECT_DOUBLE_EQ(g.probability(e2), 0.75);
  EXPECT_TRUE(g.is_timeout(e1));
  EXPECT_EQ(g.timeout_edge(*g.find_vertex("p")), e1);
  EXPECT_EQ(g.reset_cost(), 2.5);
  EXPECT_FALSE(g.find_edge("e3").has_value());
  EXPECT_FALSE(g.find_edge("e00").has_value());
}

TEST(GraphJson, KeysInAnyOrderAndEdgesBeforeVertices) {
  TestGraph g = parse_graph(R"({"edges": [{"to": "b", "from": "a", "id": "x"}], "initial": "a",
    "vertices": [{"goal": true, "id": "b"}, {"id": "a"}], "playtest": "graph/1"})");
  EdgeId x = *g.find_edge("x");
  EXPECT_EQ(g.name(g.source(x)), "a");
  EXPECT_EQ(g.name(g.target(x)), "b");
  EXPECT_EQ(g.name(g.initial()), "a");
}

TEST(GraphJson, RoundTripIsExact) {
  TestGraph g =
      generate_random_graph({.vertices = 300, .passive_fraction = 0.4, .out_degree = 3, .goals = 5, .seed = 11});
  std::string once = graph_to_json(g);
  TestGraph h = parse_graph(once);
  ASSERT_EQ(h.num_vertices(), g.num_vertices());
  ASSERT_EQ(h.num_edges(), g.num_edges());
  for (VertexId v : g.vertices()) {
    EXPECT_EQ(h.name(v), g.name(v));
    EXPECT_EQ(h.kind(v), g.kind(v));
    EXPECT_EQ(h.is_goal(v), g.is_goal(v));
  }
  for (EdgeId e : g.edges()) {
    EXPECT_EQ(h.name(e), g.name(e));
    EXPECT_EQ(h.source(e), g.source(e));
    EXPECT_EQ(h.target(e), g.target(e));
    EXPECT_EQ(h.cost(e), g.cost(e));
    EXPECT_EQ(h.probability(e), g.probability(e));  // bit-exact: shortest round-trip printing
    EXPECT_EQ(h.label(e), g.label(e));
  }
  EXPECT_EQ(graph_to_json(h), once);
}

TEST(GraphJson, RoundTripKeepsExplicitIdsTimeoutsResetAndEscapes) {
  TestGraph g = parse_graph(head + R"( "reset": {"cost": 0},
    "vertices": [{"id": "a"}, {"id": "p \"q\"\n", "kind": "passive"}],
    "edges": [{"id": "go", "from": "a", "to": "p \"q\"\n", "label": "tab\there"},
              {"id": "e0", "from": "p \"q\"\n", "to": "a", "prob": 1, "timeout": true}]})");
  TestGraph h = parse_graph(graph_to_json(g));
  EXPECT_TRUE(h.find_edge("go").has_value());
  EXPECT_TRUE(h.is_timeout(*h.find_edge("e0")));
  EXPECT_EQ(h.label(*h.find_edge("go")), "tab\there");
  EXPECT_TRUE(h.find_vertex("p \"q\"\n").has_value());
  EXPECT_EQ(h.reset_cost(), 0.0);
}

// ---- Bad input: one test per kind, each asserting the message and the place. ----

TEST(GraphJsonErrors, EmptyFile) { expect_error<ParseError>("", {"the file is empty", 1, 1, ""}); }

TEST(GraphJsonErrors, WhitespaceOnly) { expect_error<ParseError>("  \n ", {"the file is empty"}); }

TEST(GraphJsonErrors, MalformedJson) {
  expect_error<ParseError>("{\"playtest\": \"graph/1\",\n \"initial\": 'a'}", {"invalid JSON", 2, 13, ""});
}

TEST(GraphJsonErrors, TruncatedFile) {
  expect_error<ParseError>(head + "\n \"vertices\": [{\"id\": \"a\"}", {"unexpected end of input", 2, 26, ""});
}

TEST(GraphJsonErrors, NotAnObject) {
  expect_error<ParseError>("[1, 2]", {"must be a JSON object, not an array", 1, 1, ""});
  expect_error<ParseError>("42", {"must be a JSON object, got a number", 1, 1, ""});
}

TEST(GraphJsonErrors, MissingFormatKey) {
  expect_error<ParseError>(R"({"initial": "a", "vertices": [{"id": "a"}]})", {"missing \"playtest\"", 1, 1, ""});
}

TEST(GraphJsonErrors, WrongFormatVersion) {
  expect_error<ParseError>(R"({"playtest": "graph/2"})", {"unsupported format \"graph/2\"", 1, 14, "/playtest"});
}

TEST(GraphJsonErrors, MissingVertices) {
  expect_error<ParseError>(R"({"playtest": "graph/1", "initial": "a"})", {"missing \"vertices\""});
}

TEST(GraphJsonErrors, NoVertices) {
  expect_error<GraphError>(head + R"( "vertices": []})", {"the graph has no vertices"});
}

TEST(GraphJsonErrors, UnknownTopLevelKey) {
  expect_error<ParseError>(head + R"( "vertexes": [])",
                           {"unknown key \"vertexes\" in the graph object", 1, 41, "/vertexes"});
}

TEST(GraphJsonErrors, UnknownVertexKey) {
  expect_error<ParseError>(head + "\n \"vertices\": [{\"id\": \"a\", \"colour\": 1}]}",
                           {"unknown key \"colour\" in vertex 'a'", 2, 27, "/vertices/0/colour"});
}

TEST(GraphJsonErrors, UnknownEdgeKey) {
  expect_error<ParseError>(
      head + R"( "vertices": [{"id": "a"}], "edges": [{"from": "a", "to": "a", "probability": 1}]})",
      {"unknown key \"probability\" in edge #0", 0, 0, "/edges/0/probability"});
}

TEST(GraphJsonErrors, DuplicateKey) {
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a", "id": "b"}]})",
                           {"duplicate key \"id\" in vertex 'a'", 0, 0, "/vertices/0/id"});
}

TEST(GraphJsonErrors, WrongTypes) {
  expect_error<ParseError>(head + R"( "vertices": [{"id": 7}]})",
                           {"\"id\" must be a string, got a number", 1, 61, "/vertices/0/id"});
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a", "goal": "yes"}]})",
                           {"\"goal\" must be a boolean, got a string", 0, 0, "/vertices/0/goal"});
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a"}], "edges": [{"from": "a", "to": "a", "cost": "1"}]})",
                           {"\"cost\" must be a number, got a string", 0, 0, "/edges/0/cost"});
  expect_error<ParseError>(head + R"( "vertices": {"a": 1}})",
                           {"\"vertices\" must be an array, got an object", 0, 0, "/vertices"});
  expect_error<ParseError>(head + R"( "vertices": [["a"]]})",
                           {"each element of \"vertices\" must be an object", 0, 0, "/vertices"});
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a", "kind": "sleepy"}]})",
                           {"\"kind\" must be \"active\" or \"passive\", got \"sleepy\"", 0, 0, "/vertices/0/kind"});
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a", "kind": null}]})",
                           {"\"kind\" must be a string, got null", 0, 0, "/vertices/0/kind"});
}

TEST(GraphJsonErrors, DuplicateVertexId) {
  expect_error<GraphError>(head + "\n \"vertices\": [{\"id\": \"a\"},\n  {\"id\": \"a\"}]}",
                           {"duplicate vertex id 'a'", 3, 3, "/vertices/1"});
}

TEST(GraphJsonErrors, DuplicateEdgeId) {
  expect_error<GraphError>(
      head +
          R"( "vertices": [{"id": "a"}], "edges": [{"id": "x", "from": "a", "to": "a"}, {"id": "x", "from": "a", "to": "a"}]})",
      {"duplicate edge id 'x'", 0, 0, "/edges/1"});
}

TEST(GraphJsonErrors, ExplicitIdCollidesWithDefaultId) {
  expect_error<GraphError>(
      head +
          R"( "vertices": [{"id": "a"}], "edges": [{"from": "a", "to": "a"}, {"id": "e0", "from": "a", "to": "a"}]})",
      {"duplicate edge id 'e0'", 0, 0, "/edges/0"});
}

TEST(GraphJsonErrors, DanglingEdgeEnd) {
  expect_error<GraphError>(
      head + "\n \"vertices\": [{\"id\": \"a\"}],\n \"edges\": [{\"id\": \"x\", \"from\": \"a\", \"to\": \"zz\"}]}",
      {"edge 'x' goes to unknown vertex 'zz'", 3, 12, "/edges/0"});
  expect_error<GraphError>(head + R"( "vertices": [{"id": "a"}], "edges": [{"from": "q", "to": "a"}]})",
                           {"edge 'e0' starts at unknown vertex 'q'", 0, 0, "/edges/0"});
}

TEST(GraphJsonErrors, EdgeWithoutEnds) {
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a"}], "edges": [{"to": "a"}]})",
                           {"edge #0 has no \"from\"", 0, 0, "/edges/0"});
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a"}], "edges": [{"id": "k", "from": "a"}]})",
                           {"edge 'k' has no \"to\"", 0, 0, "/edges/0"});
}

TEST(GraphJsonErrors, VertexWithoutId) {
  expect_error<ParseError>(head + R"( "vertices": [{"kind": "active"}]})",
                           {"vertex #0 has no \"id\"", 1, 54, "/vertices/0"});
}

TEST(GraphJsonErrors, ProbabilityOutOfRange) {
  const std::string v =
      head + R"( "vertices": [{"id": "a", "kind": "passive"}], "edges": [{"from": "a", "to": "a", "prob": )";
  expect_error<ParseError>(v + "0}]}", {"\"prob\" must lie in (0, 1], got 0", 0, 0, "/edges/0/prob"});
  expect_error<ParseError>(v + "1.5}]}", {"\"prob\" must lie in (0, 1], got 1.5", 0, 0, "/edges/0/prob"});
  expect_error<ParseError>(v + "-0.5}]}", {"\"prob\" must lie in (0, 1]", 0, 0, "/edges/0/prob"});
}

TEST(GraphJsonErrors, ProbabilitiesNotSummingToOne) {
  expect_error<GraphError>(head +
                               "\n \"vertices\": [{\"id\": \"a\"}, {\"id\": \"p\", \"kind\": \"passive\"}],\n"
                               " \"edges\": [{\"from\": \"p\", \"to\": \"a\", \"prob\": 0.5}, {\"from\": \"p\", "
                               "\"to\": \"p\", \"prob\": 0.4}]}",
                           {"passive vertex 'p' sum to 0.9, not 1", 2, 28, "/vertices/1"});
}

TEST(GraphJsonErrors, SumWithinToleranceIsAccepted) {
  TestGraph g = parse_graph(head + R"( "vertices": [{"id": "a", "kind": "passive"}], "edges": [
      {"from": "a", "to": "a", "prob": 0.1}, {"from": "a", "to": "a", "prob": 0.2}, {"from": "a", "to": "a", "prob": 0.7000000000001}]})");
  EXPECT_EQ(g.num_edges(), 3u);
}

TEST(GraphJsonErrors, ProbabilityOnActiveEdge) {
  expect_error<GraphError>(
      head + R"( "vertices": [{"id": "a"}], "edges": [{"id": "x", "from": "a", "to": "a", "prob": 1}]})",
      {"edge 'x' leaves active vertex 'a' and must not have a probability", 0, 0, "/edges/0"});
}

TEST(GraphJsonErrors, MissingProbabilityOnPassiveEdge) {
  expect_error<GraphError>(
      head + R"( "vertices": [{"id": "a", "kind": "passive"}], "edges": [{"id": "x", "from": "a", "to": "a"}]})",
      {"edge 'x' leaves passive vertex 'a' and needs a probability", 0, 0, "/edges/0"});
}

TEST(GraphJsonErrors, MixedProbAndWeight) {
  expect_error<GraphError>(
      head +
          R"( "vertices": [{"id": "a", "kind": "passive"}], "edges": [{"from": "a", "to": "a", "prob": 0.5}, {"from": "a", "to": "a", "weight": 1}]})",
      {"mixes \"prob\" and \"weight\"", 0, 0, "/vertices/0"});
  expect_error<ParseError>(
      head +
          R"( "vertices": [{"id": "a", "kind": "passive"}], "edges": [{"from": "a", "to": "a", "prob": 1, "weight": 1}]})",
      {"has both \"prob\" and \"weight\"", 0, 0, "/edges/0"});
}

TEST(GraphJsonErrors, BadWeight) {
  const std::string v =
      head + R"( "vertices": [{"id": "a", "kind": "passive"}], "edges": [{"from": "a", "to": "a", "weight": )";
  expect_error<ParseError>(v + "0}]}", {"\"weight\" must be a positive integer, got 0", 0, 0, "/edges/0/weight"});
  expect_error<ParseError>(v + "1.5}]}", {"\"weight\" must be a positive integer, got 1.5", 0, 0, "/edges/0/weight"});
}

TEST(GraphJsonErrors, NegativeNanInfiniteCosts) {
  const std::string v = head + R"( "vertices": [{"id": "a"}], "edges": [{"from": "a", "to": "a", "cost": )";
  expect_error<ParseError>(v + "-1}]}", {"edge #0: \"cost\" must be finite and >= 0, got -1", 1, 111, "/edges/0/cost"});
  // JSON has no NaN or Infinity literals; 1e999 overflows a double.
  expect_error<ParseError>(v + "1e999}]}", {"number out of range: '1e999'", 1, 111, "/edges/0/cost"});
  expect_error<ParseError>(v + "NaN}]}", {"invalid JSON"});
}

TEST(GraphJsonErrors, PassiveVertexWithoutEdges) {
  expect_error<GraphError>(head + R"( "vertices": [{"id": "a"}, {"id": "p", "kind": "passive"}]})",
                           {"passive vertex 'p' has no outgoing edges", 0, 0, "/vertices/1"});
}

TEST(GraphJsonErrors, MissingInitial) {
  expect_error<GraphError>(R"({"playtest": "graph/1", "vertices": [{"id": "a"}]})", {"no initial vertex is given"});
}

TEST(GraphJsonErrors, UnknownInitial) {
  expect_error<GraphError>(R"({"playtest": "graph/1", "initial": "nowhere", "vertices": [{"id": "a"}]})",
                           {"the initial vertex 'nowhere' is not a declared vertex", 1, 36, "/initial"});
}

TEST(GraphJsonErrors, TimeoutEdges) {
  expect_error<GraphError>(
      head + R"( "vertices": [{"id": "a"}], "edges": [{"id": "t", "from": "a", "to": "a", "timeout": true}]})",
      {"edge 't' is a timeout edge but leaves active vertex 'a'", 0, 0, "/edges/0"});
  expect_error<GraphError>(
      head +
          R"( "vertices": [{"id": "a", "kind": "passive"}], "edges": [{"from": "a", "to": "a", "prob": 0.5, "timeout": true}, {"from": "a", "to": "a", "prob": 0.5, "timeout": true}]})",
      {"second timeout edge 'e1'", 0, 0, "/edges/1"});
}

TEST(GraphJsonErrors, BadResetCost) {
  expect_error<ParseError>(head + R"( "reset": {"cost": -3}, "vertices": [{"id": "a"}]})",
                           {"reset cost must be finite and >= 0", 0, 0, "/reset/cost"});
  expect_error<ParseError>(head + R"( "reset": {"costs": 3}, "vertices": [{"id": "a"}]})",
                           {"unknown key \"costs\" in \"reset\"", 0, 0, "/reset/costs"});
}

TEST(GraphJsonErrors, EmptyIds) {
  expect_error<ParseError>(head + R"( "vertices": [{"id": ""}]})",
                           {"a vertex id must not be empty", 0, 0, "/vertices/0/id"});
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a"}], "edges": [{"id": "", "from": "a", "to": "a"}]})",
                           {"an edge id must not be empty", 0, 0, "/edges/0/id"});
}

TEST(GraphJsonErrors, DeeplyNestedMeta) {
  std::string deep =
      head + R"( "vertices": [{"id": "a"}], "meta": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
  expect_error<ParseError>(deep, {"nesting deeper than 256 levels", 0, 0, "/meta"});
}

TEST(GraphJsonErrors, DeeplyNestedGarbageDoesNotOverflowTheStack) {
  std::string deep = std::string(1000000, '[');
  expect_error<ParseError>(deep, {"must be a JSON object, not an array"});
}

TEST(GraphJsonErrors, HugeString) {
  expect_error<ParseError>(head + R"( "vertices": [{"id": ")" + std::string(70000, 'x') + R"("}]})",
                           {"a vertex id is 70000 bytes long; the limit is 65536", 0, 0, "/vertices/0/id"});
}

TEST(GraphJsonErrors, HugeNumberIsNotACrash) {
  expect_error<ParseError>(
      head + R"( "vertices": [{"id": "a", "kind": "passive"}], "edges": [{"from": "a", "to": "a", "weight": 1e400}]})",
      {"number out of range: '1e400'", 0, 0, "/edges/0/weight"});
}

TEST(GraphJsonErrors, InvalidUtf8) {
  expect_error<ParseError>(head + " \"vertices\": [{\"id\": \"\xff\"}]}", {"invalid JSON"});
}

TEST(GraphJsonErrors, TrailingGarbage) {
  expect_error<ParseError>(head + R"( "vertices": [{"id": "a"}]} x)", {"invalid JSON"});
}

TEST(GraphJsonFiles, MissingFileAndDirectory) {
  try {
    load_graph("/nonexistent/graph.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.diagnostic().where.file, "/nonexistent/graph.json");
    EXPECT_NE(e.diagnostic().message.find("cannot open"), std::string::npos);
  }
  EXPECT_THROW(load_graph("/tmp"), Error);
}

TEST(GraphJsonFiles, ErrorsInFilesAreLocatedByASecondPass) {
  const std::string path = ::testing::TempDir() + "/playtest_bad_graph.json";
  {
    std::ofstream out(path);
    out << head << "\n \"vertices\": [{\"id\": \"a\"},\n   {\"id\": \"p\", \"kind\": \"passive\"}]}";
  }
  try {
    load_graph(path);
    FAIL();
  } catch (const GraphError& e) {
    EXPECT_EQ(e.diagnostic().where.file, path);
    EXPECT_EQ(e.diagnostic().where.line, 3u);
    EXPECT_EQ(e.diagnostic().where.column, 4u);
    EXPECT_EQ(e.diagnostic().where.pointer, "/vertices/1");
  }
}

TEST(Diagnostics, FormatWithCaret) {
  Diagnostic d;
  d.where.file = "f.json";
  d.where.line = 2;
  d.where.column = 5;
  d.where.pointer = "/x";
  d.message = "bad thing";
  d.notes.push_back("a note");
  EXPECT_EQ(format_diagnostic(d), "f.json:2:5: error: bad thing (at /x)\n  note: a note");
  EXPECT_EQ(format_diagnostic(d, "line one\nabcdefg\n"),
            "f.json:2:5: error: bad thing (at /x)\n  note: a note\n  abcdefg\n      ^");
}

// The reader's fast pass (RapidJSON) decides the inputs it accepts; everything else goes to the
// position-tracking pass (nlohmann). Both must give the same verdict and, when they accept, the
// same graph; where the two libraries differ (unpaired surrogates, invalid UTF-8, numbers out of
// double's range), the fast pass must step aside.
namespace {

struct Outcome {
  std::optional<std::string> graph;  // graph_to_json of the result
  std::string message;
  std::uint32_t line = 0, column = 0;
};

template <class Read>
Outcome outcome(Read read) {
  Outcome o;
  try {
    o.graph = graph_to_json(read());
  } catch (const Error& e) {
    o.message = e.diagnostic().message;
    o.line = e.diagnostic().where.line;
    o.column = e.diagnostic().where.column;
  }
  return o;
}

void expect_passes_agree(const std::string& text, bool accepted) {
  Outcome fast = outcome([&] { return parse_graph(text, "t.json"); });
  Outcome tracking = outcome([&] { return detail::parse_graph_tracking_only(text, "t.json"); });
  EXPECT_EQ(fast.graph.has_value(), accepted) << text << "\n" << fast.message;
  EXPECT_EQ(fast.graph, tracking.graph) << text;
  EXPECT_EQ(fast.message, tracking.message) << text;
  EXPECT_EQ(fast.line, tracking.line) << text;
  EXPECT_EQ(fast.column, tracking.column) << text;
}

std::string one_edge(const std::string& edge_fields) {
  return head + R"( "vertices": [{"id": "a"}], "edges": [{"from": "a", "to": "a", )" + edge_fields + "}]}";
}

}  // namespace

TEST(GraphJsonPasses, AgreeOnStringsAndEscapes) {
  expect_passes_agree(one_edge(R"("label": "Gr\u00fc\u00dfe \u2192 \ud83d\ude00")"), true);
  expect_passes_agree(one_edge("\"label\": \"Gr\xc3\xbc\xc3\x9f"
                               "e \xe2\x86\x92 \xf0\x9f\x98\x80\""),
                      true);
  expect_passes_agree(one_edge(R"("label": "tab\t quote\" slash\/ nul\u0000")"), true);
  expect_passes_agree(one_edge(R"("label": "\udc00")"), false);  // unpaired low surrogate
  expect_passes_agree(one_edge(R"("label": "\ud800")"), false);  // unpaired high surrogate
  expect_passes_agree(one_edge(R"("label": "\ud800\u0041")"), false);
  expect_passes_agree(one_edge("\"label\": \"\xed\xa0\x80\""), false);      // a surrogate encoded raw
  expect_passes_agree(one_edge("\"label\": \"\xc0\xaf\""), false);          // overlong
  expect_passes_agree(one_edge("\"label\": \"\xf4\x90\x80\x80\""), false);  // above U+10FFFF
  expect_passes_agree(one_edge("\"label\": \"\xe2\x86\""), false);          // truncated sequence
  expect_passes_agree(one_edge("\"label\": \"\xff\""), false);
  expect_passes_agree(one_edge("\"label\": \"a\x01\""), false);  // raw control character
}

TEST(GraphJsonPasses, AgreeOnNumbers) {
  for (const char* cost : {"0", "-0", "7", "2.5", "1e2", "1E-3", "0.1", "123456789012345678901234567890",
                           "18446744073709551615", "18446744073709551616", "1e-400", "4.9e-324"})
    expect_passes_agree(one_edge(std::string("\"cost\": ") + cost), true);
  for (const char* cost : {"-1", "1e400", "-1e400", "01", "1.", ".5", "+1", "NaN", "Infinity", "0x10", "-"})
    expect_passes_agree(one_edge(std::string("\"cost\": ") + cost), false);
  const std::string passive = head + R"( "vertices": [{"id": "a"}, {"id": "p", "kind": "passive"}],
    "edges": [{"from": "a", "to": "p"}, {"from": "p", "to": "a", "weight": W1}, {"from": "p", "to": "a", "weight": W2}]})";
  auto with = [&](const std::string& w1, const std::string& w2) {
    std::string s = passive;
    s.replace(s.find("W1"), 2, w1);
    s.replace(s.find("W2"), 2, w2);
    return s;
  };
  expect_passes_agree(with("1", "3"), true);
  expect_passes_agree(with("1.0", "3e0"), true);
  expect_passes_agree(with("1.5", "3"), false);
  expect_passes_agree(with("-2", "3"), false);
}

TEST(GraphJsonPasses, AgreeOnStructureErrors) {
  for (const std::string& text :
       {std::string(""), std::string("{"), std::string("[]"), head + "}", head + R"( "vertices": [], "x": 1})",
        head + R"( "vertices": [{"id": "a"}]} trailing)", head + R"( "vertices": [{"id": "a",}]})",
        head + R"( "vertices": [{"id": "a", "id": "b"}]})",
        head + R"( "vertices": [{"id": "a"}], "edges": [{"from": "a"}]})",
        head + R"( "vertices": [{"id": "a"}], "meta": {"deep": [[[[{"x": [1, 2, {"y": null}]}]]]]}})"})
    expect_passes_agree(text, text.find("meta") != std::string::npos);
}

TEST(GraphJsonPasses, AgreeOnLargeGraphsInMemoryAndInFiles) {
  // Big enough that a file crosses many of the fast pass's read buffers.
  TestGraph g =
      generate_random_graph({.vertices = 3000, .passive_fraction = 0.3, .out_degree = 4, .goals = 7, .seed = 5});
  const std::string text = graph_to_json(g);
  ASSERT_GT(text.size(), 4u << 17);
  expect_passes_agree(text, true);
  const std::string path = ::testing::TempDir() + "/playtest_large_graph.json";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  // Big inputs are read with the builder on a second thread: errors found while it works, and a
  // builder call ("initial") between batches, must come out as in one thread.
  std::string truncated = text.substr(0, text.size() - 40);
  expect_passes_agree(truncated, false);
  std::string bad_cost = text;
  const std::size_t cost_at = bad_cost.find("\"cost\": ", bad_cost.size() * 3 / 4);
  ASSERT_NE(cost_at, std::string::npos);
  bad_cost.insert(cost_at + 8, "-");
  expect_passes_agree(bad_cost, false);
  std::string dangling = text;
  const std::size_t to_at = dangling.find("\"to\": \"", dangling.size() / 2);
  ASSERT_NE(to_at, std::string::npos);
  dangling.insert(to_at + 7, "nowhere");
  expect_passes_agree(dangling, false);
  std::string initial_last = text;
  const std::size_t initial_at = initial_last.find("\"initial\"");
  const std::size_t initial_end = initial_last.find(',', initial_at);
  const std::string initial_member = initial_last.substr(initial_at, initial_end - initial_at);
  initial_last.erase(initial_at, initial_end - initial_at + 1);
  initial_last.insert(initial_last.rfind(']') + 1, ", " + initial_member);
  expect_passes_agree(initial_last, true);
  EXPECT_EQ(graph_to_json(parse_graph(initial_last)), text);
  TestGraph loaded = load_graph(path);
  EXPECT_EQ(graph_to_json(loaded), text);
  // The fast pass reserves room for the most edges the input could hold; none of it may stay in
  // the graph.
  EXPECT_LE(loaded.memory_bytes(), detail::parse_graph_tracking_only(text, "t.json").memory_bytes() * 11 / 10);
}

TEST(GraphJson, EdgeIdsEqualToTheDefaultAreKept) {
  // Generated files name every edge "e<index>"; the builder does not index such names, and
  // must still find them and report repeats.
  TestGraph g = parse_graph(head + R"( "vertices": [{"id": "a"}, {"id": "b"}],
    "edges": [{"id": "e0", "from": "a", "to": "b"}, {"id": "x", "from": "b", "to": "a"}, {"id": "e2", "from": "a", "to": "a"}]})");
  ASSERT_EQ(g.num_edges(), 3u);
  EXPECT_TRUE(g.find_edge("e0").has_value());
  EXPECT_TRUE(g.find_edge("x").has_value());
  EXPECT_EQ(g.name(*g.find_edge("e2")), "e2");
  EXPECT_EQ(g.target(*g.find_edge("e0")), *g.find_vertex("b"));
  expect_error<GraphError>(head + R"( "vertices": [{"id": "a"}], "edges": [{"id": "e0", "from": "a", "to": "a"},
    {"from": "a", "to": "a"}, {"id": "e0", "from": "a", "to": "a"}]})",
                           {"duplicate edge id 'e0'", 0, 0, "/edges/2"});
  expect_error<GraphError>(head + R"( "vertices": [{"id": "a"}], "edges": [{"id": "e1", "from": "a", "to": "a"},
    {"id": "e1", "from": "a", "to": "a"}]})",
                           {"duplicate edge id 'e1'", 0, 0, "/edges/1"});
}
