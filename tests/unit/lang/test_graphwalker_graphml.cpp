// GraphWalker's GraphML (yEd) models (io/graphwalker.hpp parse_graphwalker_graphml): labels read in
// GraphWalker's grammar into the document the JSON reader makes (checked field by field on a
// hand-written file), the same model as door.json walks and explores the same, and every malformed
// label, dangling edge and missing start is located at file:line:column.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "diagnostic_message.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/input/load.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/lang/graphwalker_model.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

const std::string source_dir = playtest::testing::source_dir();

using playtest::testing::message_of;

// A GraphML file with the given nodes and edges (one per line, each line as written).
std::string graphml(const std::vector<std::string>& elements) {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:y=\"http://www.yworks.com/xml/graphml\">\n"
      "<graph id=\"G\" edgedefault=\"directed\">\n";  // lines 1-3; elements from line 4
  for (const std::string& e : elements) out += e + "\n";
  return out + "</graph>\n</graphml>\n";
}
// <node id="ID"><y:NodeLabel>LABEL</y:NodeLabel></node>: the label's text starts at column 26 + |ID|.
std::string node(const std::string& id, const std::string& label) {
  return "<node id=\"" + id + "\"><y:NodeLabel>" + label + "</y:NodeLabel></node>";
}
// <edge id="ID" source="S" target="T"><y:EdgeLabel>LABEL</y:EdgeLabel></edge>
std::string edge(const std::string& id, const std::string& s, const std::string& t, const std::string& label) {
  return "<edge id=\"" + id + "\" source=\"" + s + "\" target=\"" + t + "\"><y:EdgeLabel>" + label +
         "</y:EdgeLabel></edge>";
}

TEST(GraphWalkerGraphml, LabelsAreReadInGraphWalkersGrammar) {
  const std::string text = graphml({
      node("s", "Start"),
      node("a", "v_A\nSHARED: HOME\nINIT: n = 0; ok = true;\nREQTAG: R-1, R 2 "),
      node("b", "v_B // a comment\nBLOCKED"),
      node("c", "  v_C  "),
      "<node id=\"g\"><y:NodeLabel>Group</y:NodeLabel><graph id=\"g:\">",
      node("g::x", "v_Inner"),
      "</graph></node>",
      edge("e0", "s", "a", "e_Init"),
      edge("e1", "a", "c", "e_Go [n &lt; 3 &amp;&amp; ok] / n++;\nweight = .25 dependency=80 REQTAG=R-3"),
      edge("e2", "a", "b", "e_ToBlocked"),
      edge("e3", "c", "a", "e_Back BLOCKED"),
      edge("e4", "c", "g::x", "/* unnamed */ / ok = false;"),
  });
  const GwDocument doc = parse_graphwalker(text, "dir/My.Model.graphml");  // dispatched on '<'
  ASSERT_EQ(doc.models.size(), 1u);
  const GwModel& m = doc.models[0];
  EXPECT_EQ(m.name, "My_Model");  // the file's base name, '.' made '_'
  // b is BLOCKED (left out with its edge e2), the group g is no vertex, its member is.
  ASSERT_EQ(m.vertices.size(), 3u);
  EXPECT_EQ(m.vertices[0].id, "a");
  EXPECT_EQ(m.vertices[0].name, "v_A");
  EXPECT_EQ(m.vertices[0].shared_state, "HOME");
  EXPECT_EQ(m.vertices[0].requirements, (std::vector<std::string>{"R-1", "R 2"}));
  EXPECT_EQ(m.vertices[1].name, "v_C");
  EXPECT_EQ(m.vertices[2].id, "g::x");
  // INIT: is the model's action (run before the first step), located at its first character:
  // line 5 holds "v_A", 6 "SHARED: HOME", 7 "INIT: n = 0; ok = true;": the action from column 7.
  ASSERT_EQ(m.actions.size(), 1u);
  EXPECT_EQ(m.actions[0].text, "n = 0; ok = true;");
  EXPECT_EQ(m.actions[0].where.line, 7u);
  EXPECT_EQ(m.actions[0].where.column, 7u);
  // e2 (to a BLOCKED vertex) and e3 (BLOCKED) are left out.
  ASSERT_EQ(m.edges.size(), 3u);
  EXPECT_EQ(m.start_kind, GwModel::StartKind::edge);
  EXPECT_EQ(m.start, 0u);
  EXPECT_EQ(m.edges[0].name, "e_Init");
  EXPECT_FALSE(m.edges[0].source.has_value());  // the edge from Start is the start edge
  const GwEdge& go = m.edges[1];
  EXPECT_EQ(go.name, "e_Go");
  EXPECT_EQ(go.source, 0u);
  EXPECT_EQ(go.target, 1u);
  ASSERT_TRUE(go.guard.has_value());
  EXPECT_EQ(go.guard->text, "n < 3 && ok");  // entities decoded
  ASSERT_EQ(go.actions.size(), 1u);
  EXPECT_EQ(go.actions[0].text, " n++;");
  EXPECT_EQ(go.weight, 0.25);
  EXPECT_EQ(go.dependency, 80);
  EXPECT_EQ(go.requirements, std::vector<std::string>{"R-3"});
  // The guard's text: line 16, after "<edge id="e1" source="a" target="c"><y:EdgeLabel>e_Go [" (55
  // characters): column 56; "ok" follows "n &lt; 3 &amp;&amp; " (20 characters in the file).
  EXPECT_EQ(go.guard->where.line, 16u);
  EXPECT_EQ(go.guard->where.column, 56u);
  EXPECT_EQ(go.guard->column_of(go.guard->text.find("ok")), 76u);
  EXPECT_EQ(m.edges[2].name, "");
  EXPECT_EQ(m.edges[2].target, 2u);
}

// Door.graphml is door.json drawn in yEd: the same elements, walks and state space.
TEST(GraphWalkerGraphml, TheDoorInGraphmlIsTheDoorInJson) {
  const std::string gml = source_dir + "/examples/graphwalker/Door.graphml";
  const std::string json = source_dir + "/examples/graphwalker/door.json";
  const GraphWalkerImport a = load_graphwalker(read_source_text(gml), gml);
  const GraphWalkerImport b = load_graphwalker(read_source_text(json), json);
  std::vector<std::string> la, lb;
  for (auto& e : a.elements) la.push_back(e.label + (e.requirements.empty() ? "" : "/" + e.requirements[0]));
  for (auto& e : b.elements) lb.push_back(e.label + (e.requirements.empty() ? "" : "/" + e.requirements[0]));
  EXPECT_EQ(la, lb);
  EXPECT_EQ(a.number_ranges, std::vector<std::string>{"Door.opened in -8..9"});
  const ExploreResult ra = explore(*a.model, {.max_states = 1000});
  const ExploreResult rb = explore(*b.model, {.max_states = 1000});
  ASSERT_EQ(ra.status, ExploreStatus::complete);
  EXPECT_EQ(ra.graph.num_vertices(), rb.graph.num_vertices());
  EXPECT_EQ(ra.graph.num_edges(), rb.graph.num_edges());
  // The same count as door.json's own test: e_Open from v_Closed with opened = 0..8.
  std::size_t open_edges = 0;
  for (EdgeId e : ra.graph.edges())
    if (ra.graph.label(e) == "Door.e_Open") ++open_edges;
  EXPECT_EQ(open_edges, 9u);
  // load_input takes a .graphml file as a GraphWalker model.
  const LoadedInput in = load_input({.path = gml});
  EXPECT_EQ(in.format, InputFormat::graphwalker);
  ASSERT_TRUE(in.graph.has_value());
  EXPECT_EQ(in.graph->num_vertices(), rb.graph.num_vertices());
  EXPECT_TRUE(is_graphwalker_file(gml));
}

TEST(GraphWalkerGraphml, GraphmlIsRecognisedByItsContent) {
  const std::string text = graphml({node("s", "Start"), node("a", "v_A"), edge("e", "s", "a", "e_E")});
  EXPECT_TRUE(looks_like_graphml(text));
  EXPECT_TRUE(looks_like_graphml("\xEF\xBB\xBF  <graphml>"));
  EXPECT_FALSE(looks_like_graphml("<html><body/></html>"));
  EXPECT_FALSE(looks_like_graphml("{\"models\": []}"));
  const std::string path = ::testing::TempDir() + "/gw_content.xml";  // no telling extension
  std::ofstream(path) << text;
  std::optional<std::string> read;
  EXPECT_EQ(input_format({.path = path}, read), InputFormat::graphwalker);
}

struct Bad {
  std::string label_of_a;  // the label of vertex a (line 5)
  std::string label_of_e;  // the label of edge e, a -> a (line 6)
};

std::string refusal(const Bad& b) {
  const std::string text = graphml({node("s", "Start"), node("a", b.label_of_a), edge("e", "a", "a", b.label_of_e),
                                    edge("init", "s", "a", "e_Init")});
  return message_of<InputError>([&] { load_graphwalker(text, "bad.graphml"); });
}

TEST(GraphWalkerGraphml, MalformedLabelsAreLocatedWhereTheyGoWrong) {
  // Node a's label starts at column 27, edge e's at 49 (after <edge id="e" source="a" target="a"><y:EdgeLabel>).
  EXPECT_NE(refusal({"1_bad", "e_E"}).find("bad.graphml:5:27: error: '1_bad' is no name"), std::string::npos)
      << refusal({"1_bad", "e_E"});
  EXPECT_NE(refusal({"v_A", "e_E [x > 1"}).find("bad.graphml:6:53: error: a guard '[' with no matching ']'"),
            std::string::npos)
      << refusal({"v_A", "e_E [x > 1"});
  EXPECT_NE(refusal({"v_A", "e_E / x = 1"}).find("bad.graphml:6:53: error: actions with no ';'"), std::string::npos)
      << refusal({"v_A", "e_E / x = 1"});
  EXPECT_NE(refusal({"v_A", "e_E weight=1.5"}).find("bad.graphml:6:60: error: '1.5' is no weight"), std::string::npos)
      << refusal({"v_A", "e_E weight=1.5"});
  EXPECT_NE(refusal({"v_A", "e_E dependency=x"}).find("6:64: error: 'x' is no dependency"), std::string::npos)
      << refusal({"v_A", "e_E dependency=x"});
  EXPECT_NE(refusal({"v_A", "e_E e_F"}).find("6:53: error: a second name in the label"), std::string::npos)
      << refusal({"v_A", "e_E e_F"});
  EXPECT_NE(refusal({"v_A [x]", "e_E"}).find("5:31: error: a guard '[...]' on a vertex"), std::string::npos)
      << refusal({"v_A [x]", "e_E"});
  EXPECT_NE(refusal({"v_A SHARED 1", "e_E"}).find("5:38: error: 'SHARED' is followed by ':'"), std::string::npos)
      << refusal({"v_A SHARED 1", "e_E"});
  EXPECT_NE(refusal({"v_A", "e_E # x"}).find("6:53: error: unexpected '#' in the edge label"), std::string::npos)
      << refusal({"v_A", "e_E # x"});
  // JavaScript outside the subset, on the label's second line: located there, at the '%'.
  const std::string js = refusal({"v_A INIT: x = 0;", "e_E\n[x % 2 == 0]"});
  EXPECT_NE(js.find("bad.graphml:7:4: error: '%' (the remainder operator) is outside the JavaScript subset"),
            std::string::npos)
      << js;
  EXPECT_NE(js.find("//edge[@id='e']"), std::string::npos) << js;
}

TEST(GraphWalkerGraphml, DanglingEdgesAMissingStartAndBadXmlAreRefused) {
  auto graph_error = [](const std::vector<std::string>& elements) {
    return message_of<GraphError>([&] { parse_graphwalker_graphml(graphml(elements), "g.graphml"); });
  };
  const std::string dangling = graph_error({node("s", "Start"), node("a", "v_A"), edge("e", "s", "zz", "e_E")});
  EXPECT_NE(dangling.find("g.graphml:6:1: error: the edge's target 'zz' is no node of the file"), std::string::npos)
      << dangling;
  const std::string no_start = graph_error({node("a", "v_A"), edge("e", "a", "a", "e_E")});
  EXPECT_NE(no_start.find("g.graphml:3:1: error: no vertex is labelled Start"), std::string::npos) << no_start;
  EXPECT_NE(graph_error({node("s", "START"), node("a", "v_A")}).find("no edge leaves the Start vertex"),
            std::string::npos);
  EXPECT_NE(graph_error({node("s", "Start"), node("a", "v_A"), edge("e", "s", "a", ""), edge("f", "s", "a", "")})
                .find("7:1: error: a second edge from the Start vertex"),
            std::string::npos);
  EXPECT_NE(graph_error({node("s", "Start"), node("a", "v_A"), edge("e", "s", "a", ""), edge("f", "a", "s", "")})
                .find("an edge into the Start vertex"),
            std::string::npos);
  EXPECT_NE(graph_error({node("s", "Start"), node("s", "v_A")}).find("5:1: error: the node id 's' is used twice"),
            std::string::npos);
  auto parse_error = [](const std::string& text) {
    return message_of<ParseError>([&] { parse_graphwalker_graphml(text, "x.graphml"); });
  };
  EXPECT_NE(
      parse_error("<graphml>\n<graph>\n<node id=\"a\">\n</graph>").find("x.graphml:4:3: error: not well-formed XML"),
      std::string::npos)
      << parse_error("<graphml>\n<graph>\n<node id=\"a\">\n</graph>");
  EXPECT_NE(parse_error("<html/>").find("x.graphml:1:1: error: not a GraphML document: the root element is <html>"),
            std::string::npos);
  EXPECT_NE(parse_error("<!DOCTYPE g [<!ENTITY a \"b\">]><graphml/>").find("a DOCTYPE declaration"), std::string::npos);
  EXPECT_NE(parse_error("<graphml/>").find("has no <graph> element"), std::string::npos);
}

}  // namespace
}  // namespace playtest
