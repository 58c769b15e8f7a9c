// GraphWalker/AltWalker models (io/graphwalker.hpp, lang/graphwalker_model.hpp): the reader's
// located errors, and walks checked by hand against GraphWalker's semantics: guards are read
// before the step, actions change the variables after it, the model's actions run before the first
// step, shared states let the walk jump between models, global. variables are shared.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "diagnostic_message.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/input/load.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/lang/graphwalker_generator.hpp"
#include "playtest/lang/graphwalker_model.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

const std::string source_dir = playtest::testing::source_dir();

// Collects a state's successors.
struct Collect : SuccessorSink {
  const Model& m;
  std::vector<std::pair<std::string, std::vector<std::byte>>> out;
  explicit Collect(const Model& model) : m(model) {}
  void add(const Transition& t, std::span<const std::byte> next) override {
    out.emplace_back(m.label_text(t.label), std::vector<std::byte>(next.begin(), next.end()));
  }
};

// Walks `m` along `steps`; before each step, the enabled labels must be `enabled[i]`.
class Walker {
 public:
  explicit Walker(const Model& m) : m_(m), state_(m.state_size()) { m.initial_state(state_); }
  std::set<std::string> enabled() const {
    Collect c(m_);
    m_.successors(state_, c);
    std::set<std::string> s;
    for (auto& [l, n] : c.out) s.insert(l);
    return s;
  }
  void take(const std::string& label) {
    Collect c(m_);
    m_.successors(state_, c);
    for (auto& [l, n] : c.out)
      if (l == label) {
        state_ = n;
        return;
      }
    ADD_FAILURE() << label << " is not enabled in " << m_.state_text(state_);
  }
  std::string state() const { return m_.state_text(state_); }

 private:
  const Model& m_;
  std::vector<std::byte> state_;
};

GraphWalkerImport door() {
  const std::string path = source_dir + "/examples/graphwalker/door.json";
  return load_graphwalker(read_source_text(path), path);
}

TEST(GraphWalkerModel, GuardsAndActionsGiveTheWalksGraphWalkerWould) {
  const GraphWalkerImport imp = door();
  Walker w(*imp.model);
  using S = std::set<std::string>;
  EXPECT_EQ(w.enabled(), S{"Door.e_Init"});  // the start element (an edge without a source)
  w.take("Door.e_Init");
  EXPECT_EQ(w.enabled(), S{"Door.v_Closed"});  // an edge is followed by its target
  w.take("Door.v_Closed");
  // opened == 0: e_Lock's guard "!locked && opened >= 1" is false.
  EXPECT_EQ(w.enabled(), S{"Door.e_Open"});
  w.take("Door.e_Open");  // opened++
  w.take("Door.v_Open");
  EXPECT_EQ(w.enabled(), S{"Door.e_Close"});
  w.take("Door.e_Close");
  w.take("Door.v_Closed");
  EXPECT_EQ(w.enabled(), (S{"Door.e_Open", "Door.e_Lock"}));
  w.take("Door.e_Lock");  // locked = true
  w.take("Door.v_Locked");
  EXPECT_EQ(w.enabled(), S{"Door.e_Unlock"});
  w.take("Door.e_Unlock");
  w.take("Door.v_Closed");
  // opened is still 1, locked false again: both.
  EXPECT_EQ(w.enabled(), (S{"Door.e_Open", "Door.e_Lock"}));
  EXPECT_NE(w.state().find("Door.opened=1"), std::string::npos) << w.state();
  EXPECT_NE(w.state().find("Door.locked=false"), std::string::npos) << w.state();
}

TEST(GraphWalkerModel, ACounterIsCutAtTheEndOfItsRangeAndSaysWhere) {
  const GraphWalkerImport imp = door();
  // opened is given 0 and compared with 1: it ranges over -8..9 with the default slack of 8.
  ASSERT_EQ(imp.number_ranges, std::vector<std::string>{"Door.opened in -8..9"});
  const ExploreResult r = explore(*imp.model, {.max_states = 1000});
  ASSERT_EQ(r.status, ExploreStatus::complete);
  // Positions: start, 3 vertices, 5 edges. opened 0..9 and locked true/false combine with them;
  // e_Open is not enabled at opened == 9 (it would leave the range).
  std::size_t open_edges = 0;
  for (EdgeId e : r.graph.edges())
    if (r.graph.label(e) == "Door.e_Open") ++open_edges;
  EXPECT_EQ(open_edges, 9u);  // from v_Closed with opened = 0..8, never locked there
}

TEST(GraphWalkerModel, SharedStatesJumpBetweenModelsAndGlobalsAreShared) {
  const std::string path = source_dir + "/examples/graphwalker/shop.json";
  const GraphWalkerImport imp = load_graphwalker(read_source_text(path), path);
  EXPECT_EQ(imp.start_model, "Login");
  Walker w(*imp.model);
  using S = std::set<std::string>;
  EXPECT_EQ(w.enabled(), S{"Login.e_Start"});
  w.take("Login.e_Start");
  w.take("Login.v_LoggedOut");
  w.take("Login.e_Login");
  w.take("Login.v_LoggedIn");
  // LOGGED_IN is shared with Cart.v_Browse: the walk may jump there.
  EXPECT_EQ(w.enabled(), (S{"Login.e_Logout", "Cart.v_Browse"}));
  w.take("Cart.v_Browse");
  EXPECT_EQ(w.enabled(), (S{"Cart.e_Add", "Login.v_LoggedIn"}));
  w.take("Cart.e_Add");
  w.take("Cart.v_Cart");
  // global.items == 1 and global.loggedIn: checkout is allowed.
  EXPECT_EQ(w.enabled(), (S{"Cart.e_Back", "Cart.e_Checkout"}));
  w.take("Cart.e_Back");
  w.take("Cart.v_Browse");
  w.take("Login.v_LoggedIn");
  w.take("Login.e_Logout");  // global.loggedIn = false
  w.take("Login.v_LoggedOut");
  w.take("Login.e_Login");
  w.take("Login.v_LoggedIn");
  w.take("Cart.v_Browse");
  w.take("Cart.e_Add");  // items 2
  w.take("Cart.v_Cart");
  w.take("Cart.e_Back");
  w.take("Cart.v_Browse");
  EXPECT_EQ(w.enabled(), S{"Login.v_LoggedIn"});  // global.items < 2 no longer holds
}

TEST(GraphWalkerModel, TheStartVertexVisitedAgainRunsOnlyItsOwnActions) {
  const std::string text = R"gw({"models": [{"name": "M", "startElementId": "a", "actions": ["n = 5;"],
    "vertices": [{"id": "a", "name": "v_A", "actions": ["n = n + 1;"]}, {"id": "b", "name": "v_B"}],
    "edges": [{"id": "ab", "name": "e_AB", "sourceVertexId": "a", "targetVertexId": "b"},
              {"id": "ba", "name": "e_BA", "sourceVertexId": "b", "targetVertexId": "a", "guard": "n < 7"}]}]})gw";
  const GraphWalkerImport imp = load_graphwalker(text, "t.json");
  Walker w(*imp.model);
  w.take("M.v_A");  // n = 5, then n = 6
  EXPECT_NE(w.state().find("M.n=6"), std::string::npos) << w.state();
  w.take("M.e_AB");
  w.take("M.v_B");
  w.take("M.e_BA");
  w.take("M.v_A");  // n = 7 (the model's actions do not run again)
  EXPECT_NE(w.state().find("M.n=7"), std::string::npos) << w.state();
  w.take("M.e_AB");
  w.take("M.v_B");
  EXPECT_EQ(w.enabled(), std::set<std::string>{});  // n < 7 fails: a dead end, as in GraphWalker
}

TEST(GraphWalkerModel, RepeatedNamesGetTheirIdsAndUnnamedElementsTheirIds) {
  const std::string text = R"gw({"models": [{"name": "M", "startElementId": "s",
    "vertices": [{"id": "s"}, {"id": "a", "name": "v_A"}],
    "edges": [{"id": "x1", "name": "e_X", "sourceVertexId": "s", "targetVertexId": "a"},
              {"id": "x2", "name": "e_X", "sourceVertexId": "a", "targetVertexId": "s"}]}]})gw";
  const GraphWalkerImport imp = load_graphwalker(text, "t.json");
  std::vector<std::string> labels;
  for (auto& e : imp.elements) labels.push_back(e.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"M.#s", "M.v_A", "M.e_X#x1", "M.e_X#x2"}));
}

TEST(GraphWalkerModel, PredefinedPathsListTheirStepsFromTheStart) {
  const std::string text = R"gw({"models": [{"name": "P", "startElementId": "n0",
    "generator": "predefined_path(predefined_path)" ,
    "vertices": [{"id": "n0", "name": "v_0"}, {"id": "n1", "name": "v_1"}],
    "edges": [{"id": "a", "name": "e_a", "sourceVertexId": "n0", "targetVertexId": "n1"},
              {"id": "b", "name": "e_b", "sourceVertexId": "n1", "targetVertexId": "n0"}],
    "predefinedPathEdgeIds": ["a", "b", "a"]}]})gw";
  const GraphWalkerImport imp = load_graphwalker(text, "t.json");
  EXPECT_EQ(imp.predefined_path,
            (std::vector<std::string>{"P.v_0", "P.e_a", "P.v_1", "P.e_b", "P.v_0", "P.e_a", "P.v_1"}));
  ASSERT_TRUE(imp.generator);
  EXPECT_EQ(imp.generator->text, "predefined_path(predefined_path)");
}

// GraphWalker's own walk of its PredefinedPathTest: A ab B ba A ab_2 B ba A ab_3 B, then nothing.
TEST(GraphWalkerModel, APredefinedPathIsTheOnlyWalkAndItsEndTheGoal) {
  const std::string text = R"gw({"models": [{"name": "P", "startElementId": "a",
    "vertices": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
    "edges": [{"id": "ab", "name": "ab", "sourceVertexId": "a", "targetVertexId": "b"},
              {"id": "ab_2", "name": "ab_2", "sourceVertexId": "a", "targetVertexId": "b"},
              {"id": "ab_3", "name": "ab_3", "sourceVertexId": "a", "targetVertexId": "b"},
              {"id": "ba", "name": "ba", "sourceVertexId": "b", "targetVertexId": "a"}],
    "predefinedPathEdgeIds": ["ab", "ba", "ab_2", "ba", "ab_3"]}]})gw";
  GraphWalkerOptions o;
  o.predefined_path = true;
  const GraphWalkerImport imp = load_graphwalker(text, "p.json", o);
  Walker w(*imp.model);
  const std::vector<std::string> walk{"P.A", "P.ab", "P.B", "P.ba",   "P.A", "P.ab_2",
                                      "P.B", "P.ba", "P.A", "P.ab_3", "P.B"};
  for (const std::string& step : walk) {
    EXPECT_EQ(w.enabled(), std::set<std::string>{step}) << w.state();  // the path's next step alone
    w.take(step);
  }
  EXPECT_EQ(w.enabled(), std::set<std::string>{});  // the end of the path
  // Explored: a line of 11 steps (12 vertices) whose last vertex is the goal; without the option,
  // the free walk: start, the 2 vertices and 4 edges as positions, 9 steps between them.
  const ExploreResult r = explore(*imp.model, {.max_states = 100});
  ASSERT_EQ(r.status, ExploreStatus::complete);
  EXPECT_EQ(r.graph.num_vertices(), 12u);
  EXPECT_EQ(r.graph.num_edges(), 11u);
  std::size_t goals = 0;
  for (VertexId v : r.graph.vertices()) goals += r.graph.is_goal(v);
  EXPECT_EQ(goals, 1u);
  const ExploreResult free = explore(*load_graphwalker(text, "p.json").model, {.max_states = 100});
  EXPECT_EQ(free.graph.num_vertices(), 7u);
  EXPECT_EQ(free.graph.num_edges(), 9u);
  // A guard that closes the path: the goal cannot be reached (the run would be INCONCLUSIVE).
  std::string blocked = text;
  const std::string ab_2 = R"("name": "ab_2",)";
  blocked.replace(blocked.find(ab_2), ab_2.size(), R"("name": "ab_2", "guard": "false",)");
  const ExploreResult rb = explore(*load_graphwalker(blocked, "p.json", o).model, {.max_states = 100});
  std::size_t blocked_goals = 0;
  for (VertexId v : rb.graph.vertices()) blocked_goals += rb.graph.is_goal(v);
  EXPECT_EQ(blocked_goals, 0u);
  EXPECT_EQ(rb.graph.num_edges(), 5u);  // A ab B ba A, then ab_2's guard is false
  // No path in the model: refused, located at the model.
  std::string none = text.substr(0, text.find(R"(,
    "predefinedPathEdgeIds")")) +
                     "}]}";
  try {
    load_graphwalker(none, "p.json", o);
    ADD_FAILURE() << "a model without predefinedPathEdgeIds was accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("p.json:1:13: error: the generator predefined_path needs the path"),
              std::string::npos)
        << e.what();
  }
}

using playtest::testing::message_of;

TEST(GraphWalkerReader, MalformedElementsAreLocatedWithLineColumnAndPointer) {
  const std::string text =
      "{\"models\": [{\"name\": \"M\", \"startElementId\": \"a\",\n"
      "  \"vertices\": [{\"id\": \"a\"}],\n"
      "  \"edges\": [{\"id\": \"e\", \"sourceVertexId\": \"a\", \"targetVertexId\": \"zz\"}]}]}";
  const std::string m = message_of<GraphError>([&] { parse_graphwalker(text, "bad.json"); });
  EXPECT_NE(m.find("bad.json:3:"), std::string::npos) << m;
  EXPECT_NE(m.find("/models/0/edges/0/targetVertexId"), std::string::npos) << m;
  EXPECT_NE(m.find("'zz' is no vertex of model 'M'"), std::string::npos) << m;

  const std::string weight =
      "{\"models\": [{\"name\": \"M\", \"startElementId\": \"a\", \"vertices\": [{\"id\": \"a\"}],\n"
      "  \"edges\": [{\"id\": \"e\", \"targetVertexId\": \"a\", \"weight\": 2}]}]}";
  const std::string w = message_of<ParseError>([&] { parse_graphwalker(weight, "w.json"); });
  EXPECT_NE(w.find("w.json:2:58"), std::string::npos) << w;
  EXPECT_NE(w.find("/models/0/edges/0/weight"), std::string::npos) << w;
}

TEST(GraphWalkerReader, AStartElementThatDoesNotExistAndNoStartAtAllAreRefused) {
  const std::string missing =
      R"gw({"models": [{"name": "M", "startElementId": "nope", "vertices": [{"id": "a"}], "edges": []}]})gw";
  const std::string m = message_of<GraphError>([&] { parse_graphwalker(missing, "s.json"); });
  EXPECT_NE(m.find("s.json:1:45"), std::string::npos) << m;
  EXPECT_NE(m.find("the start element 'nope' is no vertex or edge"), std::string::npos) << m;
  const std::string none = R"gw({"models": [{"name": "M", "vertices": [{"id": "a"}], "edges": []}]})gw";
  EXPECT_NE(message_of<GraphError>([&] { parse_graphwalker(none, "s.json"); }).find("no model has a start element"),
            std::string::npos);
  const std::string dup =
      R"gw({"models": [{"name": "M", "startElementId": "a", "vertices": [{"id": "a"}, {"id": "a"}], "edges": []}]})gw";
  EXPECT_NE(message_of<GraphError>([&] { parse_graphwalker(dup, "s.json"); }).find("the id 'a' is used twice"),
            std::string::npos);
  EXPECT_NE(message_of<ParseError>([&] { parse_graphwalker("{\"models\": [", "s.json"); }).find("JSON syntax error"),
            std::string::npos);
}

// GraphWalker's BLOCKED in JSON ("properties": {"blocked": true}, as graphWithBlockedElements.json):
// left out as GraphWalker's default (--blocked true) leaves it out, a blocked vertex with its edges.
TEST(GraphWalkerReader, BlockedPropertiesLeaveTheElementOutWithABlockedVertexsEdges) {
  const std::string text = R"gw({"models": [{"name": "M", "startElementId": "e0",
  "vertices": [{"id": "a", "name": "v_A"}, {"id": "b", "name": "v_B", "properties": {"blocked": true}},
               {"id": "c", "name": "v_C", "properties": {"blocked": false, "x": 1}}],
  "edges": [{"id": "e0", "name": "e_Start", "targetVertexId": "a"},
            {"id": "e1", "name": "e_AB", "sourceVertexId": "a", "targetVertexId": "b"},
            {"id": "e2", "name": "e_BA", "sourceVertexId": "b", "targetVertexId": "a"},
            {"id": "e3", "name": "e_AC", "sourceVertexId": "a", "targetVertexId": "c", "properties": {"blocked": true}},
            {"id": "e4", "name": "e_AC2", "sourceVertexId": "a", "targetVertexId": "c"},
            {"id": "e5", "name": "e_CA", "sourceVertexId": "c", "targetVertexId": "a"}]}]})gw";
  const GwDocument doc = parse_graphwalker(text, "b.json");
  const GwModel& m = doc.models[0];
  std::vector<std::string> vertices, edges;
  for (const GwVertex& v : m.vertices) vertices.push_back(v.name);
  for (const GwEdge& e : m.edges) edges.push_back(e.name);
  EXPECT_EQ(vertices, (std::vector<std::string>{"v_A", "v_C"}));
  EXPECT_EQ(edges, (std::vector<std::string>{"e_Start", "e_AC2", "e_CA"}));
  ASSERT_EQ(m.edges.size(), 3u);
  EXPECT_EQ(m.edges[1].target, 1u);  // c, the second vertex kept
  // Explored: start, e_Start, v_A, e_AC2, v_C, e_CA: nothing blocked is ever taken.
  const ExploreResult r = explore(*compile_graphwalker(doc).model, {.max_states = 100});
  EXPECT_EQ(r.graph.num_vertices(), 6u);
  for (EdgeId e : r.graph.edges()) EXPECT_EQ(r.graph.label(e).find("B"), std::string::npos) << r.graph.label(e);

  // The start element blocked; a path through a blocked edge; "blocked" that is no boolean.
  std::string start = text;
  start.replace(start.find(R"("startElementId": "e0")"), 22, R"("startElementId": "b")");
  const std::string s = message_of<GraphError>([&] { parse_graphwalker(start, "b.json"); });
  EXPECT_NE(s.find("b.json:1:45: error: the start element 'b' is blocked"), std::string::npos) << s;
  std::string path = text;
  path.replace(path.find(R"("name": "M",)"), 12, R"("name": "M", "predefinedPathEdgeIds": ["e0", "e3"],)");
  const std::string p = message_of<GraphError>([&] { parse_graphwalker(path, "b.json"); });
  EXPECT_NE(p.find("the predefined path names 'e3', a blocked edge of model 'M'"), std::string::npos) << p;
  std::string typed = text;
  typed.replace(typed.find(R"("blocked": true}})"), 17, R"("blocked": "yes"}})");
  const std::string t = message_of<ParseError>([&] { parse_graphwalker(typed, "b.json"); });
  EXPECT_NE(t.find("b.json:2:97: error: expected true or false"), std::string::npos) << t;
  EXPECT_NE(t.find("/models/0/vertices/1/properties/blocked"), std::string::npos) << t;
}

TEST(GraphWalkerReader, CommentsAndADependencyInAStringAreReadAsGraphWalkerReadsThem) {
  // A licence comment with a quote in it does not shift the positions of what follows.
  const std::string text =
      "/* licence \"quoted\" */\n"
      "{\"models\": [{\"name\": \"M\", \"startElementId\": \"a\", // the start\n"
      "  \"vertices\": [{\"id\": \"a\"}],\n"
      "  \"edges\": [{\"id\": \"e\", \"targetVertexId\": \"a\", \"dependency\": \"80\"},\n"
      "             {\"id\": \"f\", \"targetVertexId\": \"zz\"}]}]}";
  EXPECT_TRUE(looks_like_graphwalker_json(text));
  const std::string m = message_of<GraphError>([&] { parse_graphwalker(text, "c.json"); });
  EXPECT_NE(m.find("c.json:5:44: error: the edge's target 'zz'"), std::string::npos) << m;
  const GwDocument doc = parse_graphwalker(text.substr(0, text.find(",\n             {")) + "]}]}", "c.json");
  ASSERT_EQ(doc.models[0].edges.size(), 1u);
  EXPECT_EQ(doc.models[0].edges[0].dependency, 80);
}

std::string model_with_guard(const std::string& guard) {
  return R"gw({"models": [{"name": "M", "startElementId": "a", "actions": ["x = 0; ok = true;"],
    "vertices": [{"id": "a", "name": "v_A"}],
    "edges": [{"id": "e", "name": "e_E", "sourceVertexId": "a", "targetVertexId": "a", "guard": ")gw" +
         guard + R"gw("}]}]})gw";
}

TEST(GraphWalkerModel, ConstructsOutsideTheSubsetAreRefusedWhereTheyStandAndNamed) {
  auto refusal = [](const std::string& guard) {
    return message_of<InputError>([&] { load_graphwalker(model_with_guard(guard), "g.json"); });
  };
  // The guard string starts at line 3, column 97 (its quote); "x / 2 > 0": '/' is the 3rd character.
  const std::string div = refusal("x / 2 > 0");
  EXPECT_NE(div.find("g.json:3:100"), std::string::npos) << div;
  EXPECT_NE(div.find("'/' (division) is outside the JavaScript subset"), std::string::npos) << div;
  EXPECT_NE(div.find("/models/0/edges/0/guard"), std::string::npos) << div;
  EXPECT_NE(refusal("f(x)").find("a function call ('f(...)')"), std::string::npos);
  EXPECT_NE(refusal("a.b > 1").find("a property access ('a.')"), std::string::npos);
  EXPECT_NE(refusal("x == 1.5").find("a fractional number"), std::string::npos);
  EXPECT_NE(refusal("typeof x").find("'typeof' is outside"), std::string::npos);
  EXPECT_NE(refusal("y > 0").find("'M.y' is read but never assigned"), std::string::npos);
  EXPECT_NE(refusal("x").find("a number"), std::string::npos);  // a number used as a condition
  EXPECT_NE(refusal("ok + 1 > 0").find("a boolean"), std::string::npos);
  // Within the subset: no refusal.
  EXPECT_EQ(refusal("x <= 3 && (ok || !ok) ? x != 2 : x === 1"), "");
}

TEST(GraphWalkerModel, AVariableWithTheNameOfAnElementIsRefusedWhereItIsAssigned) {
  // The vertex x of model M is the element M.x; so is the variable x of M's actions.
  const std::string m = R"gw({"models": [{"name": "M", "startElementId": "a", "actions": ["x = 0;"],
    "vertices": [{"id": "a", "name": "x"}],
    "edges": [{"id": "e", "name": "e_E", "sourceVertexId": "a", "targetVertexId": "a"}]}]})gw";
  const std::string msg = message_of<ModelError>([&] { load_graphwalker(m, "g.json"); });
  EXPECT_NE(msg.find("g.json:1:63"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the variable 'M.x' has the name of an element of the model"), std::string::npos) << msg;
  EXPECT_NE(msg.find("/models/0/actions/0"), std::string::npos) << msg;
}

TEST(GraphWalkerInput, LoadInputDetectsTheFormatAndExploresIt) {
  const std::string path = source_dir + "/examples/graphwalker/door.json";
  const LoadedInput in = load_input({.path = path});
  EXPECT_EQ(in.format, InputFormat::graphwalker);
  ASSERT_TRUE(in.graph.has_value());
  ASSERT_NE(in.graphwalker, nullptr);
  EXPECT_EQ(in.graphwalker->elements.size(), 8u);
  // --goal names an element.
  LoadOptions o{.path = path};
  o.goal_conditions = {"v_Locked"};
  const LoadedInput g = load_input(o);
  std::size_t goals = 0;
  for (VertexId v : g.graph->vertices()) goals += g.graph->is_goal(v);
  EXPECT_GT(goals, 0u);
  o.goal_conditions = {"v_Nowhere"};
  EXPECT_THROW(load_input(o), ModelError);
}

TEST(GraphWalkerGenerator, GraphWalkersGrammarParses) {
  const GwGenerator g = parse_generator("random(edge_coverage(100))");
  EXPECT_EQ(g.algorithm, GwGenerator::Algorithm::random);
  ASSERT_EQ(g.stops.size(), 1u);
  EXPECT_EQ(g.stops[0].kind, GwStopCondition::Kind::edge_coverage);
  EXPECT_EQ(g.stops[0].number, 100);
  const GwGenerator q = parse_generator("quick_random(vertex_coverage(50) or length(20))");
  EXPECT_EQ(q.algorithm, GwGenerator::Algorithm::quick_random);
  EXPECT_TRUE(q.any);
  ASSERT_EQ(q.stops.size(), 2u);
  EXPECT_EQ(q.stops[1].kind, GwStopCondition::Kind::length);
  EXPECT_EQ(q.stops[1].number, 20);
  EXPECT_EQ(parse_generator("RandomPath(EdgeCoverage(100))").algorithm, GwGenerator::Algorithm::random);
  const GwGenerator r = parse_generator("a_star(reached_vertex(v_Locked))");
  EXPECT_EQ(r.stops[0].name, "v_Locked");
  auto error = [](const std::string& text) { return message_of<ParseError>([&] { parse_generator(text); }); };
  EXPECT_NE(error("random(edge_coverag(100))")
                .find("--generator:1:8: error: in the generator "
                      "'random(edge_coverag(100))': unknown stop condition"),
            std::string::npos);
  EXPECT_NE(error("random(edge_coverage(1) and length(3) or never)").find("'and' and 'or' mixed"), std::string::npos);
  EXPECT_NE(error("random(edge_coverage(150))").find("a percentage from 1 to 100"), std::string::npos);
  EXPECT_NE(error("walk(never)").find("unknown generator 'walk'"), std::string::npos);
  EXPECT_NE(error("random(never) random(never)").find("one generator only"), std::string::npos);
}

TEST(GraphWalkerGenerator, EachGeneratorMapsOntoAStrategyPurposeAndBudget) {
  const GraphWalkerImport imp = door();
  const GeneratorPlan p = plan_generator(parse_generator("random(edge_coverage(100))"), &imp);
  EXPECT_EQ(p.strategy, "random");
  EXPECT_EQ(p.purpose, "labels:100%");
  EXPECT_EQ(p.trap_labels,
            (std::vector<std::string>{"Door.e_Close", "Door.e_Init", "Door.e_Lock", "Door.e_Open", "Door.e_Unlock"}));
  EXPECT_FALSE(p.better.empty());  // cover's optimal tour
  const GeneratorPlan v = plan_generator(parse_generator("quick_random(vertex_coverage(50))"), &imp);
  EXPECT_EQ(v.strategy, "planner");
  EXPECT_EQ(v.purpose, "labels:50%");
  EXPECT_EQ(v.trap_labels, (std::vector<std::string>{"Door.v_Closed", "Door.v_Locked", "Door.v_Open"}));
  const GeneratorPlan r = plan_generator(parse_generator("a_star(reached_vertex(v_Locked))"), &imp);
  EXPECT_EQ(r.strategy, "reach");
  EXPECT_EQ(r.purpose, "reach");
  EXPECT_EQ(r.goals, std::vector<std::string>{"v_Locked"});
  const GeneratorPlan l = plan_generator(parse_generator("random(length(30))"), &imp);
  EXPECT_EQ(l.purpose, "none");
  EXPECT_EQ(l.steps, 30u);
  const GeneratorPlan rq = plan_generator(parse_generator("shortest_all_paths(requirement_coverage(100))"), &imp);
  EXPECT_EQ(rq.strategy, "cover");
  EXPECT_EQ(rq.trap_labels.size(), 3u);  // the three vertices with a requirement
  // predefined_path: reach plays the path (the model loaded with GraphWalkerOptions::predefined_path).
  const GeneratorPlan pp = plan_generator(parse_generator("predefined_path(predefined_path)"), &imp);
  EXPECT_TRUE(pp.predefined_path);
  EXPECT_EQ(pp.strategy, "reach");
  EXPECT_EQ(pp.purpose, "reach");
  EXPECT_THROW(plan_generator(parse_generator("predefined_path(edge_coverage(100))"), &imp), UsageError);
  // weighted_random: the random walk with door.json's one weight (e_Unlock 0.5).
  const GeneratorPlan w = plan_generator(parse_generator("weighted_random(edge_coverage(100))"), &imp);
  EXPECT_EQ(w.strategy, "random");
  EXPECT_TRUE(w.weighted);
  EXPECT_EQ(w.label_weights, (std::vector<std::pair<std::string, double>>{{"Door.e_Unlock", 0.5}}));
  EXPECT_THROW(plan_generator(parse_generator("random(reached_vertex(a) and edge_coverage(100))"), &imp), UsageError);
}

TEST(GraphWalkerGenerator, WeightsSummingAboveOneAtAVertexAreRefusedByWeightedRandom) {
  const std::string text = R"gw({"models": [{"name": "M", "startElementId": "a",
    "vertices": [{"id": "a", "name": "v_A"}, {"id": "b", "name": "v_B"}],
    "edges": [{"id": "x", "name": "e_X", "sourceVertexId": "a", "targetVertexId": "b", "weight": 0.7},
              {"id": "y", "name": "e_Y", "sourceVertexId": "a", "targetVertexId": "b", "weight": 0.6},
              {"id": "z", "name": "e_Z", "sourceVertexId": "b", "targetVertexId": "a", "weight": 1}]}]})gw";
  const GraphWalkerImport imp = load_graphwalker(text, "w.json");
  EXPECT_EQ(imp.weight_overflows, std::vector<std::string>{"M.v_A (1.3)"});
  try {
    plan_generator(parse_generator("weighted_random(never)"), &imp);
    ADD_FAILURE() << "weights summing to 1.3 were accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("the weights of the edges out of M.v_A (1.3) sum to more than 1"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(plan_generator(parse_generator("random(never)"), &imp));  // only weighted_random reads them
}

}  // namespace
}  // namespace playtest
