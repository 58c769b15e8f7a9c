#include <gtest/gtest.h>

#include <set>

#include "cover_test_support.hpp"
#include "playtest/cover/cover_policy.hpp"
#include "playtest/graph/graph_builder.hpp"

using namespace playtest;
using namespace playtest::cover_test;

namespace {

// A tiny game loop: the policy plays the active vertices, the system samples the graph's
// probabilities at passive ones. Returns the number of steps until the policy stopped.
struct Sim {
  const TestGraph& g;
  std::vector<std::uint32_t> visits;
  VertexId current;
  std::uint64_t step = 0;
  std::vector<EdgeId> trace;
  std::uint32_t resets = 0;

  explicit Sim(const TestGraph& graph) : g(graph), visits(graph.num_edges(), 0), current(graph.initial()) {}
  RunView view() const { return RunView{g, current, step, visits, {}}; }

  void take(Policy& p, EdgeId e) {
    ASSERT_EQ(g.source(e), current);
    ++visits[e.index()];
    ++step;
    current = g.target(e);
    trace.push_back(e);
    p.observe(e, view());
  }

  // Runs until the policy stops or `max_steps`; false if it chose an illegal move.
  void run(Policy& p, Rng& rng, std::uint64_t max_steps) {
    p.begin_run(view(), rng);
    while (step < max_steps) {
      if (g.is_passive(current)) {
        double u = rng.uniform01();
        EdgeId pick = *(g.out_edges(current).end() - 1);
        for (EdgeId e : g.out_edges(current))
          if ((u -= g.probability(e)) < 0) {
            pick = e;
            break;
          }
        take(p, pick);
        continue;
      }
      Decision d = p.choose(view(), rng);
      if (d.kind == Decision::Kind::stop) return;
      if (d.kind == Decision::Kind::reset) {
        ++resets;
        ++step;
        current = g.initial();
        p.begin_run(view(), rng);
        continue;
      }
      take(p, d.edge);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }

  bool all_covered() const {
    for (std::uint32_t v : visits)
      if (v == 0) return false;
    return true;
  }
};

std::vector<std::string> edge_names(const TestGraph& g, const std::vector<EdgeId>& es) {
  std::vector<std::string> out;
  for (EdgeId e : es) out.emplace_back(g.name(e));
  return out;
}

}  // namespace

TEST(CoverPolicy, Figure1CoversAllEdges) {
  TestGraph g = figure1();
  for (SegmentChoice choice : {SegmentChoice::prefer_uncovered, SegmentChoice::random}) {
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
      CoverPolicy p(g, {.choice = choice});
      Sim sim(g);
      Rng rng(seed);
      sim.run(p, rng, 10'000);
      ASSERT_FALSE(::testing::Test::HasFatalFailure());
      EXPECT_TRUE(sim.all_covered()) << "seed " << seed;
      EXPECT_EQ(p.covered_edges(), 9u);
      EXPECT_EQ(p.needed_edges(), 9u);
      // From s1 the tester first follows [e1,e5,e7] or [e3,e6,e7] to cp (the paper's example).
      auto first = edge_names(g, {sim.trace.begin(), sim.trace.begin() + 3});
      EXPECT_TRUE((first == std::vector<std::string>{"e1", "e5", "e7"}) || (first == std::vector<std::string>{"e3", "e6", "e7"}));
      // After the system's e8 the tester follows the segment [e8,e2,e1,e5,e7]; after e9 [e9,e4,e3,e6,e7].
      for (std::size_t i = 0; i + 4 < sim.trace.size(); ++i) {
        auto seg = edge_names(g, {sim.trace.begin() + static_cast<std::ptrdiff_t>(i), sim.trace.begin() + static_cast<std::ptrdiff_t>(i) + 5});
        if (seg[0] == "e8") {
          EXPECT_EQ(seg, (std::vector<std::string>{"e8", "e2", "e1", "e5", "e7"}));
        }
        if (seg[0] == "e9") {
          EXPECT_EQ(seg, (std::vector<std::string>{"e9", "e4", "e3", "e6", "e7"}));
        }
      }
    }
  }
}

TEST(CoverPolicy, PreferUncoveredPicksTheNewSegmentAtTheStart) {
  // From s1 both [e1,e5,e7] and [e3,e6,e7] are new; once e1, e5, e7 are covered and the system takes
  // e8 back to s1 ... the preference shows at s1 after e8,e2: [e1,e5,e7] is old, but it is the only
  // continuation of segment e8. At the start with e3 covered, the policy must pick e1.
  TestGraph g = figure1();
  CoverPolicy p(g);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  visits[g.find_edge("e3")->index()] = 1;
  visits[g.find_edge("e6")->index()] = 1;
  RunView view{g, g.initial(), 0, visits, {}};
  Rng rng(3);
  for (int i = 0; i < 20; ++i) {
    CoverPolicy q(g);
    q.begin_run(view, rng);
    Decision d = q.choose(view, rng);
    ASSERT_EQ(d.kind, Decision::Kind::take);
    EXPECT_EQ(g.name(d.edge), "e1");
  }
  // The random choice takes both.
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    CoverPolicy q(g, {.choice = SegmentChoice::random});
    q.begin_run(view, rng);
    seen.insert(std::string(g.name(q.choose(view, rng).edge)));
  }
  EXPECT_EQ(seen, (std::set<std::string>{"e1", "e3"}));
}

TEST(CoverPolicy, DeterministicGraphFollowsTheTour) {
  // A cycle with a chord: no passive vertex, the tour itself is the only (cyclic) segment.
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto x = b.add_vertex("b", VertexKind::active);
  auto c = b.add_vertex("c", VertexKind::active);
  b.add_edge({.from = a, .to = x, .label = "ab"});
  b.add_edge({.from = x, .to = c, .label = "bc"});
  b.add_edge({.from = c, .to = a, .label = "ca"});
  b.add_edge({.from = x, .to = a, .label = "ba"});
  b.set_initial(a);
  TestGraph g = b.build();
  CoverPolicy p(g);
  EXPECT_TRUE(p.segments().cyclic);
  Sim sim(g);
  Rng rng(1);
  sim.run(p, rng, 1000);
  EXPECT_TRUE(sim.all_covered());
  // Stops once covered: exactly the tour.
  ASSERT_EQ(sim.trace.size(), p.tour().steps.size());
  for (std::size_t i = 0; i < sim.trace.size(); ++i) EXPECT_EQ(sim.trace[i], p.tour().steps[i].edge);
  // Without stopping it keeps going round the tour.
  CoverPolicy q(g, {.stop_when_covered = false});
  Sim sim2(g);
  sim2.run(q, rng, 3 * q.tour().steps.size());
  ASSERT_EQ(sim2.trace.size(), 3 * q.tour().steps.size());
  for (std::size_t i = 0; i < sim2.trace.size(); ++i) EXPECT_EQ(sim2.trace[i], q.tour().steps[i % q.tour().steps.size()].edge);
}

TEST(CoverPolicy, OffTourVertexFindsItsWayBack) {
  // Figure 1 plus a vertex x outside the tour: x -> y -> s2 (x unreachable from s1). A run that
  // starts at x walks back onto the tour along the cheapest path.
  GraphBuilder b;
  for (const char* s : {"s1", "s2", "s3", "s4", "s5", "s6", "x", "y"}) b.add_vertex(s, VertexKind::active);
  b.add_vertex("cp", VertexKind::passive);
  auto e = [&](const char* from, const char* to, double cost = 1, std::optional<double> prob = {}) {
    b.add_edge({.from = b.vertex_ref(from), .to = b.vertex_ref(to), .label = "l", .cost = cost, .prob = prob});
  };
  e("s1", "s3"), e("s2", "s1"), e("s1", "s6"), e("s5", "s1"), e("s3", "s4"), e("s6", "s4"), e("s4", "cp");
  e("cp", "s2", 1, 0.5), e("cp", "s5", 1, 0.5);
  e("x", "y", 1), e("y", "s2", 1), e("x", "s5", 5);
  b.set_initial("s1");
  TestGraph g = b.build();
  CoverPolicy p(g, {.tour = {.on_uncoverable = UncoverablePolicy::skip}});
  EXPECT_EQ(p.tour().uncoverable.size(), 3u);
  EXPECT_EQ(p.needed_edges(), 9u);
  Sim sim(g);
  sim.current = *g.find_vertex("x");
  Rng rng(7);
  sim.run(p, rng, 10'000);
  ASSERT_GE(sim.trace.size(), 2u);
  EXPECT_EQ(g.name(g.target(sim.trace[0])), "y");
  EXPECT_EQ(g.name(g.target(sim.trace[1])), "s2");
  EXPECT_EQ(p.covered_edges(), 9u);
}

TEST(CoverPolicy, ResetStepsAreIssuedAsResets) {
  // a -> b (passive) -> c or d, no way back; resets cost 1.
  GraphBuilder b;
  auto a = b.add_vertex("a", VertexKind::active);
  auto x = b.add_vertex("b", VertexKind::passive);
  auto c = b.add_vertex("c", VertexKind::active);
  auto d = b.add_vertex("d", VertexKind::active);
  b.add_edge({.from = a, .to = x, .label = "ab"});
  b.add_edge({.from = x, .to = c, .label = "bc", .prob = 0.5});
  b.add_edge({.from = x, .to = d, .label = "bd", .prob = 0.5});
  b.set_initial(a);
  b.set_reset_cost(1);
  TestGraph g = b.build();
  CoverPolicy p(g);
  EXPECT_EQ(p.tour().num_resets, 2u);
  // ab bc bd, reset from c (for a), reset from d plus ab again (for b): 3 + 1 + 2.
  EXPECT_DOUBLE_EQ(p.tour().cost, 6);
  Sim sim(g);
  Rng rng(11);
  sim.run(p, rng, 1000);
  EXPECT_TRUE(sim.all_covered());
  EXPECT_GE(sim.resets, 1u);
}

TEST(CoverPolicy, PurposeRestrictsWhatCountsAsCovered) {
  TestGraph g = figure1();
  CoverPolicy p(g);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  std::vector<std::uint8_t> purpose(g.num_edges(), 0);
  purpose[g.find_edge("e3")->index()] = 1;
  RunView view{g, g.initial(), 0, visits, purpose};
  Rng rng(1);
  p.begin_run(view, rng);
  EXPECT_EQ(p.needed_edges(), 1u);
  Decision d = p.choose(view, rng);
  ASSERT_EQ(d.kind, Decision::Kind::take);
  EXPECT_EQ(g.name(d.edge), "e3");
  visits[d.edge.index()] = 1;
  view.current = g.target(d.edge);
  view.step = 1;
  p.observe(d.edge, view);
  EXPECT_EQ(p.covered_edges(), 1u);
  EXPECT_EQ(p.choose(view, rng).kind, Decision::Kind::stop);
}
