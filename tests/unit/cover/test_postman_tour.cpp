#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cover_test_support.hpp"
#include "playtest/base/error.hpp"
#include "playtest/cover/postman_tour.hpp"
#include "playtest/cover/tour_segments.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/io/graph_json.hpp"
#include "test_paths.hpp"

using namespace playtest;
using namespace playtest::cover_test;

namespace {

bool is_rotation(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t s = 0; s < a.size(); ++s) {
    bool same = true;
    for (std::size_t i = 0; i < a.size() && same; ++i) same = a[i] == b[(i + s) % b.size()];
    if (same) return true;
  }
  return false;
}

std::vector<std::vector<std::string>> segment_names(const TestGraph& g, const TourSegments& s) {
  std::vector<std::vector<std::string>> out;
  for (std::uint32_t i = 0; i < s.count(); ++i) out.push_back(names(g, s.segment(i)));
  std::sort(out.begin(), out.end());
  return out;
}

void check_figure1(const TestGraph& g) {
  PostmanTour t = postman_tour(g);
  expect_valid_tour(g, t);
  EXPECT_EQ(g.name(t.start), "s1");
  EXPECT_DOUBLE_EQ(t.cost, 10);
  EXPECT_DOUBLE_EQ(t.lower_bound, 9);
  EXPECT_TRUE(t.exact_costs);
  EXPECT_TRUE(t.uncoverable.empty());
  EXPECT_EQ(t.multiplicity[g.find_edge("e7")->index()], 2u);
  // The paper's tour [e8,e2,e1,e5,e7,e9,e4,e3,e6,e7], up to rotation (ours starts at s1).
  EXPECT_TRUE(is_rotation(names(g, t.steps), {"e8", "e2", "e1", "e5", "e7", "e9", "e4", "e3", "e6", "e7"}))
      << ::testing::PrintToString(names(g, t.steps));
  TourSegments s = cut_tour(g, t);
  expect_valid_segments(g, t, s);
  EXPECT_FALSE(s.cyclic);
  std::vector<std::vector<std::string>> expected = {{"e8", "e2", "e1", "e5", "e7"}, {"e9", "e4", "e3", "e6", "e7"}};
  EXPECT_EQ(segment_names(g, s), expected);
}

}  // namespace

TEST(PostmanTour, Figure1FromBuilder) { check_figure1(figure1()); }

TEST(PostmanTour, Figure1FromExampleFile) {
  check_figure1(load_graph(playtest::testing::source_dir() + "/examples/graphs/seed000-figure1.json"));
}

TEST(PostmanTour, SegmentsDoNotDependOnTheStartVertex) {
  TestGraph g = figure1();
  auto base = segment_names(g, cut_tour(g, postman_tour(g)));
  for (VertexId v : g.vertices()) {
    PostmanTour t = postman_tour(g, {.start = v});
    expect_valid_tour(g, t);
    EXPECT_EQ(t.start, v);
    EXPECT_DOUBLE_EQ(t.cost, 10);
    EXPECT_EQ(segment_names(g, cut_tour(g, t)), base) << g.name(v);
  }
}

TEST(PostmanTour, BalancedGraphNeedsNoDuplicates) {
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto c = b.add_vertex("b", VertexKind::active);
  b.add_edge({.from = a, .to = c, .label = "x", .cost = 2});
  b.add_edge({.from = c, .to = a, .label = "y", .cost = 3});
  b.set_initial(a);
  TestGraph g = b.build();
  PostmanTour t = postman_tour(g);
  expect_valid_tour(g, t);
  EXPECT_DOUBLE_EQ(t.cost, 5);
  EXPECT_EQ(t.steps.size(), 2u);
  TourSegments s = cut_tour(g, t);
  expect_valid_segments(g, t, s);
  EXPECT_TRUE(s.cyclic);
}

TEST(PostmanTour, ParallelEdgesAndSelfLoops) {
  // a -> b twice (cost 1), b -> a (cost 5), a self-loop at a (cost 2), a self-loop at b (cost 0).
  // Imbalance: a has one more out-edge than in-edges, b one more in-edge: b -> a is repeated.
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto c = b.add_vertex("b", VertexKind::active);
  b.add_edge({.from = a, .to = c, .label = "p1", .cost = 1});
  b.add_edge({.from = a, .to = c, .label = "p2", .cost = 1});
  b.add_edge({.from = c, .to = a, .label = "back", .cost = 5});
  b.add_edge({.from = a, .to = a, .label = "la", .cost = 2});
  b.add_edge({.from = c, .to = c, .label = "lb", .cost = 0});
  b.set_initial(a);
  TestGraph g = b.build();
  PostmanTour t = postman_tour(g);
  expect_valid_tour(g, t);
  EXPECT_DOUBLE_EQ(t.cost, 1 + 1 + 5 + 5 + 2 + 0);
  EXPECT_EQ(t.multiplicity[g.find_edge("e2")->index()], 2u);  // b -> a
  for (VertexId v : g.vertices()) expect_valid_tour(g, postman_tour(g, {.start = v}));
}

TEST(PostmanTour, CheaperDetourWins) {
  // a -> b directly; returning b -> a costs 10 directly or 1 + 1 through c.
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto bb = b.add_vertex("b", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::active);
  b.add_edge({.from = a, .to = bb, .label = "ab", .cost = 1, .name = "ab"});
  b.add_edge({.from = a, .to = bb, .label = "ab2", .cost = 1, .name = "ab2"});
  b.add_edge({.from = bb, .to = a, .label = "ba", .cost = 10, .name = "ba"});
  b.add_edge({.from = bb, .to = c, .label = "bc", .cost = 1, .name = "bc"});
  b.add_edge({.from = c, .to = a, .label = "ca", .cost = 1, .name = "ca"});
  b.set_initial(a);
  TestGraph g = b.build();
  PostmanTour t = postman_tour(g);
  expect_valid_tour(g, t);
  // in(a)=2, out(a)=2; in(b)=2, out(b)=2; balanced except ... a->b twice, b->a once, b->c once, c->a:
  // a: out 2, in 2; b: out 2, in 2; c: out 1, in 1 -> balanced, cost = 14.
  EXPECT_DOUBLE_EQ(t.cost, 14);
  GraphBuilder b2;
  auto a2 = b2.add_vertex("a", VertexKind::active);
  auto x2 = b2.add_vertex("b", VertexKind::active);
  auto c2 = b2.add_vertex("c", VertexKind::active);
  b2.add_edge({.from = a2, .to = x2, .label = "ab", .cost = 1, .name = "ab"});
  b2.add_edge({.from = a2, .to = x2, .label = "ab2", .cost = 1, .name = "ab2"});
  b2.add_edge({.from = x2, .to = a2, .label = "ba", .cost = 10, .name = "ba"});
  b2.add_edge({.from = x2, .to = c2, .label = "bc", .cost = 1, .name = "bc"});
  b2.add_edge({.from = c2, .to = a2, .label = "ca", .cost = 1, .name = "ca"});
  b2.add_edge({.from = a2, .to = x2, .label = "ab3", .cost = 1, .name = "ab3"});
  b2.set_initial(a2);
  TestGraph g2 = b2.build();
  PostmanTour t2 = postman_tour(g2);
  expect_valid_tour(g2, t2);
  // Now b has one in-edge too many: the cheapest return is b -> c -> a (2), not b -> a (10).
  EXPECT_DOUBLE_EQ(t2.cost, 15 + 2);
  EXPECT_EQ(t2.multiplicity[g2.find_edge("bc")->index()], 2u);
  EXPECT_EQ(t2.multiplicity[g2.find_edge("ba")->index()], 1u);
}

TEST(PostmanTour, FractionalCostsAreScaled) {
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto c = b.add_vertex("b", VertexKind::active);
  auto d = b.add_vertex("c", VertexKind::active);
  b.add_edge({.from = a, .to = c, .label = "x", .cost = 0.1});
  b.add_edge({.from = a, .to = c, .label = "y", .cost = 0.2});
  b.add_edge({.from = c, .to = a, .label = "z", .cost = 0.7});
  b.add_edge({.from = c, .to = d, .label = "u", .cost = 0.3});
  b.add_edge({.from = d, .to = a, .label = "w", .cost = 0.3});
  b.add_edge({.from = a, .to = c, .label = "v", .cost = 0.25});
  b.set_initial(a);
  TestGraph g = b.build();
  PostmanTour t = postman_tour(g);
  expect_valid_tour(g, t);
  // b has one in-edge too many; back to a via c (0.6) beats the direct 0.7.
  EXPECT_NEAR(t.cost, 1.85 + 0.6, 1e-12);
  EXPECT_GT(t.cost_scale, 1);
}

TEST(PostmanTour, NoEdgesIsAnError) {
  GraphBuilder b;
  b.add_vertex("a", VertexKind::active);
  b.set_initial("a");
  TestGraph g = b.build();
  try {
    postman_tour(g);
    FAIL() << "expected GraphError";
  } catch (const GraphError& e) {
    EXPECT_EQ(e.diagnostic().message, "the graph has no edges; there is nothing to cover");
  }
}

TEST(PostmanTour, NotStronglyConnectedNamesTheEdgesAndWhy) {
  // a -> b -> c, c -> b: from a, edge a->b cannot be followed back to a; b <-> c neither.
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto x = b.add_vertex("b", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::active);
  auto d = b.add_vertex("d", VertexKind::active);
  b.add_edge({.from = a, .to = x, .label = "ab", .name = "ab"});
  b.add_edge({.from = x, .to = c, .label = "bc", .name = "bc"});
  b.add_edge({.from = c, .to = x, .label = "cb", .name = "cb"});
  b.add_edge({.from = d, .to = a, .label = "da", .name = "da"});
  b.add_edge({.from = a, .to = a, .label = "aa", .name = "aa"});
  b.set_initial(a);
  TestGraph g = b.build();
  try {
    postman_tour(g);
    FAIL() << "expected GraphError";
  } catch (const GraphError& e) {
    const Diagnostic& d = e.diagnostic();
    EXPECT_EQ(
        d.message,
        "4 of 5 edges cannot be on a closed walk through the start vertex 'a' (the graph is not strongly connected)");
    ASSERT_GE(d.notes.size(), 4u);
    EXPECT_EQ(d.notes[0], "edge 'ab' (a -> b): the start vertex 'a' cannot be reached again from its target 'b'");
    EXPECT_EQ(d.notes[3], "edge 'da' (d -> a): its source 'd' is unreachable from the start vertex 'a'");
  }
  auto u = find_uncoverable_edges(g, a, ResetArcs{});
  ASSERT_EQ(u.size(), 4u);
  EXPECT_FALSE(u[0].unreachable);
  EXPECT_TRUE(u[0].cannot_return);
  EXPECT_TRUE(u[3].unreachable);
  EXPECT_FALSE(u[3].cannot_return);
  // With nothing coverable at all (start at d: d -> a never returns) the message says so.
  try {
    postman_tour(g, {.start = d});
    FAIL() << "expected GraphError";
  } catch (const GraphError& e) {
    EXPECT_EQ(e.diagnostic().message, "no edge lies on a closed walk through the start vertex 'd'");
  }
}

TEST(PostmanTour, ResetMakesReachableEdgesTourable) {
  // a -> b -> c -> b: not strongly connected, but with a reset every edge reachable from a is toured.
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto x = b.add_vertex("b", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::active);
  auto d = b.add_vertex("d", VertexKind::active);
  b.add_edge({.from = a, .to = x, .label = "ab", .cost = 1, .name = "ab"});
  b.add_edge({.from = x, .to = c, .label = "bc", .cost = 1, .name = "bc"});
  b.add_edge({.from = c, .to = x, .label = "cb", .cost = 1, .name = "cb"});
  b.add_edge({.from = d, .to = a, .label = "da", .cost = 1, .name = "da"});
  b.set_initial(a);
  TestGraph g = b.build();
  // d -> a stays unreachable even with resets.
  EXPECT_THROW(postman_tour(g, {.reset_cost = 3}), GraphError);
  PostmanTour t = postman_tour(g, {.reset_cost = 3, .on_uncoverable = UncoverablePolicy::skip});
  expect_valid_tour(g, t);
  ASSERT_EQ(t.uncoverable.size(), 1u);
  EXPECT_EQ(g.name(t.uncoverable[0].edge), "da");
  EXPECT_TRUE(t.uncoverable[0].unreachable);
  // ab, bc, cb, then one reset (from b or c... the cheapest: from b after cb).
  EXPECT_EQ(t.num_resets, 1u);
  EXPECT_DOUBLE_EQ(t.cost, 3 + 3);
  // Only c may reset: a b c b c reset -> ab bc cb bc reset = 4 + 3.
  PostmanTour t2 = postman_tour(g, {.reset_cost = 3, .reset_from = {c}, .on_uncoverable = UncoverablePolicy::skip});
  expect_valid_tour(g, t2);
  EXPECT_DOUBLE_EQ(t2.cost, 4 + 3);
  EXPECT_EQ(t2.steps.back().from, c);
  EXPECT_TRUE(t2.steps.back().is_reset());
}

TEST(PostmanTour, GraphResetCostIsUsedUnlessIgnored) {
  TestGraph g = [] {
    GraphBuilder b;
    auto a = b.add_vertex("a", VertexKind::active);
    auto x = b.add_vertex("b", VertexKind::active);
    b.add_edge({.from = a, .to = x, .label = "ab", .cost = 2});
    b.set_initial(a);
    b.set_reset_cost(0.5);
    return b.build();
  }();
  PostmanTour t = postman_tour(g);
  expect_valid_tour(g, t);
  EXPECT_DOUBLE_EQ(t.cost, 2.5);
  EXPECT_EQ(t.num_resets, 1u);
  EXPECT_THROW(postman_tour(g, {.ignore_graph_reset = true}), GraphError);
  EXPECT_DOUBLE_EQ(postman_tour(g, {.reset_cost = 4}).cost, 6);
}

TEST(PostmanTour, PassiveResetVertexIsRejected) {
  TestGraph g = figure1(1.0);
  try {
    postman_tour(g, {.reset_from = {*g.find_vertex("cp")}});
    ADD_FAILURE() << "a passive reset vertex was accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "reset_from");
    EXPECT_NE(std::string(e.what()).find("vertex 'cp' is passive"), std::string::npos) << e.what();
  }
  EXPECT_THROW(postman_tour(g, {.start = VertexId{99}}), InternalError);
  // A list of reset vertices without any reset cost cannot be honoured.
  EXPECT_THROW(postman_tour(g, {.ignore_graph_reset = true, .reset_from = {g.initial()}}), UsageError);
}

TEST(PostmanTour, ResetCanBeCheaperThanWalkingBack) {
  // a -> b (1), b -> c (1), c -> a (100); a reset of cost 1 from c beats the long way... but every
  // edge must be covered once anyway, and a second a -> b is not needed: no reset used.
  // Make b's surplus in-degree: a -> b twice; returning b -> a costs 100 via c or 2 via reset+...
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto x = b.add_vertex("b", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::active);
  b.add_edge({.from = a, .to = x, .label = "ab", .cost = 1});
  b.add_edge({.from = a, .to = x, .label = "ab2", .cost = 1});
  b.add_edge({.from = x, .to = c, .label = "bc", .cost = 1});
  b.add_edge({.from = c, .to = a, .label = "ca", .cost = 100});
  b.set_initial(a);
  TestGraph g = b.build();
  EXPECT_DOUBLE_EQ(postman_tour(g).cost, 1 + 1 + 2 * (1 + 100));
  PostmanTour t = postman_tour(g, {.reset_cost = 2});
  expect_valid_tour(g, t);
  // a->b, b->c, c->a (must be covered), a->b, reset from b: 1+1+100+1+2.
  EXPECT_DOUBLE_EQ(t.cost, 105);
  EXPECT_EQ(t.num_resets, 1u);
}

TEST(PostmanTour, CertificateOfTheDetourHasTightRepeatedArcs) {
  // CheaperDetourWins' second graph: b -> c -> a is repeated, so both arcs have reduced cost 0 and
  // the direct b -> a (10) is not tight; the potentials prove that the detour (2) is cheapest.
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto x = b.add_vertex("b", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::active);
  for (const char* n : {"ab", "ab2", "ab3"}) b.add_edge({.from = a, .to = x, .label = n, .cost = 1, .name = n});
  b.add_edge({.from = x, .to = a, .label = "ba", .cost = 10, .name = "ba"});
  b.add_edge({.from = x, .to = c, .label = "bc", .cost = 1, .name = "bc"});
  b.add_edge({.from = c, .to = a, .label = "ca", .cost = 1, .name = "ca"});
  b.set_initial(a);
  const TestGraph g = b.build();
  for (PostmanFlowSolver s : {PostmanFlowSolver::network_simplex, PostmanFlowSolver::network_simplex_block_search,
                              PostmanFlowSolver::cost_scaling, PostmanFlowSolver::capacity_scaling}) {
    SCOPED_TRACE(static_cast<int>(s));
    const PostmanTour t = postman_tour(g, {.flow_solver = s});
    expect_valid_tour(g, t);  // includes expect_optimality_certificate
    ASSERT_EQ(t.flow_potential.size(), 3u);
    const std::int64_t pa = t.flow_potential[a.index()], pb = t.flow_potential[x.index()],
                       pc = t.flow_potential[c.index()];
    EXPECT_EQ(pa, 0);            // relative to the start vertex
    EXPECT_EQ(1 + pb - pc, 0);   // bc is repeated: tight
    EXPECT_EQ(1 + pc - pa, 0);   // ca is repeated: tight
    EXPECT_GT(10 + pb - pa, 0);  // ba is not
    EXPECT_TRUE(t.flow_resets.empty());
  }
}

namespace {

// The failure messages the certificate check reports for `t`, intercepted (the test itself
// does not fail on them).
std::vector<std::string> certificate_failures(const TestGraph& g, const PostmanTour& t) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    expect_optimality_certificate(g, t);
  }
  std::vector<std::string> out;
  for (int i = 0; i < results.size(); ++i) out.emplace_back(results.GetTestPartResult(i).message());
  return out;
}

bool mentions(const std::vector<std::string>& messages, const std::string& what) {
  return std::any_of(messages.begin(), messages.end(),
                     [&](const std::string& m) { return m.find(what) != std::string::npos; });
}

}  // namespace

TEST(PostmanTour, CertificateCheckCatchesWrongPotentialsAndResets) {
  {
    const TestGraph g = figure1();
    const PostmanTour t = postman_tour(g);
    EXPECT_TRUE(certificate_failures(g, t).empty());
    // The repeated e7 (s4 -> cp) must be tight; lowering cp's potential breaks it.
    ASSERT_EQ(t.multiplicity[g.find_edge("e7")->index()], 2u);
    PostmanTour wrong = t;
    --wrong.flow_potential[g.find_vertex("cp")->index()];
    EXPECT_TRUE(mentions(certificate_failures(g, wrong), "edge e7 is repeated at reduced cost 1"));
    // Raising it far makes e7 cost less than nothing.
    wrong = t;
    wrong.flow_potential[g.find_vertex("cp")->index()] += 1000;
    EXPECT_TRUE(mentions(certificate_failures(g, wrong), "edge e7"));
  }
  {
    // Hiding a usable reset arc would leave a cheaper balancing unchecked.
    const TestGraph g = figure1(1.0);
    const PostmanTour t = postman_tour(g);
    EXPECT_TRUE(certificate_failures(g, t).empty());
    ASSERT_FALSE(t.flow_resets.empty());
    PostmanTour wrong = t;
    wrong.flow_resets.pop_back();
    EXPECT_TRUE(mentions(certificate_failures(g, wrong), "flow_resets"));
  }
}

TEST(PostmanTour, CertificateWithResetsAndFractionalCosts) {
  // ResetCanBeCheaperThanWalkingBack with fractional costs: the reset from b is taken, so tight.
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto x = b.add_vertex("b", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::active);
  b.add_edge({.from = a, .to = x, .label = "ab", .cost = 0.5});
  b.add_edge({.from = a, .to = x, .label = "ab2", .cost = 0.5});
  b.add_edge({.from = x, .to = c, .label = "bc", .cost = 0.25});
  b.add_edge({.from = c, .to = a, .label = "ca", .cost = 100.75});
  b.set_initial(a);
  const TestGraph g = b.build();
  const PostmanTour t = postman_tour(g, {.reset_cost = 2.5});
  expect_valid_tour(g, t);
  EXPECT_EQ(t.num_resets, 1u);
  EXPECT_TRUE(t.exact_costs);
  EXPECT_EQ(t.flow_resets, (std::vector<VertexId>{x, c}));
  const double scale = t.cost_scale;
  EXPECT_EQ(
      std::nearbyint(2.5 * scale) + static_cast<double>(t.flow_potential[x.index()] - t.flow_potential[a.index()]), 0);
}
