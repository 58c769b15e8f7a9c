// The evidence of what the system under test showed (strategy/evidence.hpp) and the starvation rule
// (strategy/starvation.hpp), checked against counts worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "playtest/error.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/strategy/evidence.hpp"
#include "playtest/strategy/starvation.hpp"

namespace playtest {
namespace {

EdgeId E(std::uint32_t i) { return EdgeId{i}; }
VertexId V(std::uint32_t i) { return VertexId{i}; }

TEST(Evidence, CountsPerVertexAndPerHistory) {
  Evidence ev(2);
  const std::vector<EdgeId> h1{E(1), E(2), E(3)}, h2{E(9), E(3)};
  ev.record(V(5), h1, E(7));
  ev.record(V(5), h1, E(7));
  ev.record(V(5), h2, E(8));
  ev.record(V(5), {}, E(8));  // at the very start: no history
  EXPECT_EQ(ev.visits(V(5)), 4u);
  EXPECT_EQ(ev.count(V(5), E(7)), 2u);
  EXPECT_EQ(ev.count(V(5), E(8)), 2u);
  // Length 1: the incoming edge (3 for all but the last).
  const std::vector<EdgeId> c1{E(3)};
  EXPECT_EQ(ev.visits(V(5), c1), 3u);
  EXPECT_EQ(ev.count(V(5), c1, E(7)), 2u);
  // Length 2: the last two edges tell h1 from h2; only the last max_context edges count.
  const std::vector<EdgeId> c2a{E(2), E(3)}, c2b{E(9), E(3)};
  EXPECT_EQ(ev.count(V(5), c2a, E(7)), 2u);
  EXPECT_EQ(ev.count(V(5), c2a, E(8)), 0u);
  EXPECT_EQ(ev.count(V(5), c2b, E(8)), 1u);
  EXPECT_EQ(ev.num_contexts(V(5), 1), 1u);
  EXPECT_EQ(ev.num_contexts(V(5), 2), 2u);
  const auto ctx = ev.contexts(V(5), 2);
  ASSERT_EQ(ctx.size(), 2u);
  EXPECT_EQ(ctx[0].edges, c2a);  // sorted by edges
  EXPECT_EQ(ctx[0].visits, 2u);
  EXPECT_EQ(ctx[1].edges, c2b);
  EXPECT_EQ(ev.total(), 4u);
  EXPECT_EQ(ev.vertices(), (std::vector<VertexId>{V(5)}));
  EXPECT_THROW((void)ev.visits(V(5), std::vector<EdgeId>{E(1), E(2), E(3)}), UsageError);
}

TEST(Evidence, ABaseIsReadAndOnlyOwnCountsAreMerged) {
  Evidence campaign(1);
  campaign.record(V(1), std::vector<EdgeId>{E(0)}, E(2));
  Evidence run(1, &campaign);
  run.record(V(1), std::vector<EdgeId>{E(0)}, E(3));
  EXPECT_EQ(run.visits(V(1)), 2u);
  EXPECT_EQ(run.count(V(1), E(2)), 1u);
  EXPECT_EQ(run.count(V(1), std::vector<EdgeId>{E(0)}, E(3)), 1u);
  EXPECT_EQ(run.total(), 2u);
  EXPECT_EQ(run.contexts(V(1), 1).front().visits, 2u);
  // A run's share goes into the campaign without its base counted twice.
  Evidence merged = campaign;
  merged.merge_own(run);
  EXPECT_EQ(merged.visits(V(1)), 2u);
  EXPECT_EQ(merged.count(V(1), E(3)), 1u);
  EXPECT_THROW(Evidence(2, &campaign), UsageError);
}

TEST(Starvation, VisitsFollowTheConfidence) {
  // (1 - p)^n <= 0.001: n >= ln(0.001) / ln(1 - p).
  EXPECT_EQ(starvation_visits(0.5), 10u);   // 0.5^10 = 0.00098
  EXPECT_EQ(starvation_visits(0.25), 25u);  // 0.75^24 = 0.00100226, 0.75^25 = 0.00075
  EXPECT_EQ(starvation_visits(1.0), 1u);
  EXPECT_EQ(starvation_visits(0.0), UINT64_MAX);
  EXPECT_EQ(starvation_visits(0.5, 0.99), 7u);  // 0.5^7 = 0.0078
  for (double p : {0.9, 0.5, 0.1, 0.01, 1e-4}) {
    const std::uint64_t n = starvation_visits(p);
    EXPECT_LE(std::pow(1 - p, double(n)), 0.001 * (1 + 1e-9)) << p;
    EXPECT_GT(std::pow(1 - p, double(n - 1)), 0.001) << p;
  }
}

// a -go-> p; p: x (0.5) back to a, y (0.5) to b; b -back-> a; a -stop-> c (c: dead end, active).
constexpr const char* fork_graph = R"({"playtest": "graph/1", "initial": "a",
  "vertices": [{"id": "a"}, {"id": "p", "kind": "passive"}, {"id": "b"}, {"id": "c"}],
  "edges": [{"id": "go", "from": "a", "to": "p", "label": "go"},
            {"id": "x", "from": "p", "to": "a", "label": "?x", "prob": 0.5},
            {"id": "y", "from": "p", "to": "b", "label": "?y", "prob": 0.5},
            {"id": "back", "from": "b", "to": "a", "label": "back"},
            {"id": "stop", "from": "a", "to": "c", "label": "stop"}]})";

TEST(Starvation, AnOutcomeNeverSeenIsStarvedAfterItsVisits) {
  const TestGraph g = parse_graph(fork_graph);
  const VertexId p = *g.find_vertex("p");
  const EdgeId x = *g.find_edge("x"), y = *g.find_edge("y"), go = *g.find_edge("go");
  Evidence ev(1);
  for (int i = 0; i < 9; ++i) ev.record(p, std::vector<EdgeId>{go}, x);
  EXPECT_FALSE(is_starved(g, ev, p, y));  // 9 visits: 0.5^9 = 0.002 > 0.001
  ev.record(p, std::vector<EdgeId>{go}, x);
  EXPECT_TRUE(is_starved(g, ev, p, y));
  EXPECT_FALSE(is_starved(g, ev, p, x));  // seen
  const auto s = starved_outcomes(g, ev, p);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].edge, y);
  EXPECT_EQ(s[0].visits, 10u);
  EXPECT_EQ(s[0].contexts, 1u);
  EXPECT_DOUBLE_EQ(s[0].declared_prob, 0.5);
}

TEST(Starvation, OnlyStarvedLeftWhenEveryWantedEdgeLiesBehindThem) {
  const TestGraph g = parse_graph(fork_graph);
  const VertexId a = *g.find_vertex("a");
  const EdgeId y = *g.find_edge("y"), back = *g.find_edge("back"), stop = *g.find_edge("stop");
  Evidence ev(1);
  std::vector<std::uint8_t> starved(g.num_edges(), 0), wanted(g.num_edges(), 0);
  starved[y.index()] = 1;
  // Wanted: y itself and back (only reachable through y): nothing testable is left.
  wanted[y.index()] = wanted[back.index()] = 1;
  StarvationVerdict v = check_starvation(g, ev, a, starved, wanted);
  EXPECT_TRUE(v.only_starved_left);
  EXPECT_EQ(v.untestable, 2u);
  ASSERT_EQ(v.starved.size(), 1u);
  EXPECT_EQ(v.starved[0].edge, y);
  EXPECT_EQ(v.starved[0].edges_behind, 2u);  // y and back
  // With 'stop' still wanted (reachable from a without y), the run goes on.
  wanted[stop.index()] = 1;
  v = check_starvation(g, ev, a, starved, wanted);
  EXPECT_FALSE(v.only_starved_left);
  // Nothing wanted at all: not "only starved left" (the purpose is met, or there is none).
  std::vector<std::uint8_t> none(g.num_edges(), 0);
  EXPECT_FALSE(check_starvation(g, ev, a, starved, none).only_starved_left);
}

}  // namespace
}  // namespace playtest
