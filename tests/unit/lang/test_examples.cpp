// The example models of examples/models/ explored into test graphs, and the C++ model API giving
// the same graph as the language for the same model.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "../../../examples/cpp-api/model/chat_model.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/lang/model_program.hpp"

using namespace playtest;

namespace {

std::string example(const std::string& name) { return std::string(PLAYTEST_SOURCE_DIR) + "/examples/models/" + name; }

using EdgeTuple = std::tuple<std::string, std::string, std::string, double, double, bool>;
std::multiset<EdgeTuple> edge_set(const TestGraph& g) {
  std::multiset<EdgeTuple> out;
  for (EdgeId e : g.edges())
    out.emplace(std::string(g.name(g.source(e))), std::string(g.label(e)), std::string(g.name(g.target(e))), g.cost(e),
                g.probability(e), g.is_timeout(e));
  return out;
}

std::multiset<std::tuple<std::string, int, bool>> vertex_set(const TestGraph& g) {
  std::multiset<std::tuple<std::string, int, bool>> out;
  for (VertexId v : g.vertices()) out.emplace(std::string(g.name(v)), static_cast<int>(g.kind(v)), g.is_goal(v));
  return out;
}

}  // namespace

TEST(Examples, ChatGivesFigure1) {
  auto m = load_model(example("chat.ptm"));
  ExploreResult r = explore(*m, {.naming = VertexNaming::numbered});
  const TestGraph& g = r.graph;
  ASSERT_EQ(r.status, ExploreStatus::complete);
  EXPECT_EQ(g.num_vertices(), 7u);
  EXPECT_EQ(g.num_passive(), 4u);
  EXPECT_EQ(g.num_edges(), 10u);
  EXPECT_EQ(g.num_goals(), 1u);
  EXPECT_TRUE(g.is_goal(g.initial()));
  std::multiset<EdgeTuple> want{
      {"s1", "Post(0, \"hi\")", "s2", 1, 0, false},
      {"s1", "Post(1, \"bye\")", "s3", 1, 0, false},
      {"s2", "?Deliver((0, \"hi\"), 1)", "s1", 1, 0.5, false},
      {"s2", "?timeout", "s2'", 1, 0.5, true},
      {"s3", "?Deliver((1, \"bye\"), 0)", "s1", 1, 0.5, false},
      {"s3", "?timeout", "s3'", 1, 0.5, true},
      {"s2'", "Post(1, \"bye\")", "s4", 1, 0, false},
      {"s3'", "Post(0, \"hi\")", "s5", 1, 0, false},
      {"s4", "?Deliver((0, \"hi\"), 1)", "s3", 1, 1, false},
      {"s5", "?Deliver((1, \"bye\"), 0)", "s2", 1, 1, false},
  };
  EXPECT_EQ(edge_set(g), want);
}

TEST(Examples, ChatLanguageAndCppApiGiveTheSameGraph) {
  auto lang_model = load_model(example("chat.ptm"));
  auto cpp_model = chat_example::make_chat_model();
  for (VertexNaming naming : {VertexNaming::numbered, VertexNaming::state}) {
    ExploreResult a = explore(*lang_model, {.naming = naming});
    ExploreResult b = explore(cpp_model, {.naming = naming});
    EXPECT_EQ(vertex_set(a.graph), vertex_set(b.graph));
    EXPECT_EQ(edge_set(a.graph), edge_set(b.graph));
    EXPECT_EQ(a.graph.name(a.graph.initial()), b.graph.name(b.graph.initial()));
  }
}
