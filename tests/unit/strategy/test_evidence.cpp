// The evidence of what the system under test showed (strategy/evidence.hpp) and the claims made from
// it (strategy/claims.hpp), checked against counts and bounds worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/strategy/claims.hpp"
#include "playtest/strategy/evidence.hpp"

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

TEST(Evidence, PathsAreCutAtResetsAndMergedInOrder) {
  Evidence run1(1);
  run1.extend(E(1));
  run1.extend(E(2));
  run1.cut();
  run1.cut();  // an empty segment is no segment
  run1.extend(E(3));
  Evidence run2(1);
  run2.extend(E(4));
  Evidence campaign(1);
  campaign.merge_own(run1);
  campaign.merge_own(run2);
  std::vector<std::vector<EdgeId>> segments;
  campaign.for_each_segment([&](std::span<const EdgeId> s) { segments.emplace_back(s.begin(), s.end()); });
  EXPECT_EQ(segments, (std::vector<std::vector<EdgeId>>{{E(1), E(2)}, {E(3)}, {E(4)}}));
  EXPECT_EQ(campaign.path_length(), 4u);
  // A run on a base sees the base's segments first.
  Evidence run3(1, &campaign);
  run3.extend(E(5));
  segments.clear();
  run3.for_each_segment([&](std::span<const EdgeId> s) { segments.emplace_back(s.begin(), s.end()); });
  ASSERT_EQ(segments.size(), 4u);
  EXPECT_EQ(segments.back(), std::vector<EdgeId>{E(5)});
}

TEST(Claims, TheRateRuledOutComesFromTheVisits) {
  // No success in n trials: a rate above 1 - (1 - c)^(1/n) is ruled out at c.
  EXPECT_DOUBLE_EQ(rate_ruled_out(0, 0.999), 1.0);
  EXPECT_NEAR(rate_ruled_out(1, 0.999), 0.999, 1e-12);
  EXPECT_NEAR(rate_ruled_out(412, 0.999), 0.016626, 1e-5);  // the issue's example: 1.7%
  EXPECT_NEAR(rate_ruled_out(10, 0.999), 1 - std::pow(0.001, 0.1), 1e-12);
  // 688 visits rule out 1% at 99.9% (0.99^688 = 0.000995), 687 do not.
  EXPECT_EQ(visits_to_rule_out(0.01, 0.999), 688u);
  EXPECT_GT(rate_ruled_out(687, 0.999), 0.01);
  EXPECT_LE(rate_ruled_out(688, 0.999), 0.01);
  EXPECT_EQ(visits_to_rule_out(0.0, 0.999), UINT64_MAX);
  for (double r : {0.5, 0.1, 0.01, 1e-4})
    for (double c : {0.9, 0.999}) {
      const std::uint64_t n = visits_to_rule_out(r, c);
      EXPECT_LE(std::pow(1 - r, double(n)), (1 - c) * (1 + 1e-9)) << r << " " << c;
      EXPECT_GT(std::pow(1 - r, double(n - 1)), (1 - c) * (1 - 1e-9)) << r << " " << c;
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

TEST(Claims, NeverChosenOnlyWhenNeverObservedWithTheRateFromTheVisits) {
  const TestGraph g = parse_graph(fork_graph);
  const VertexId p = *g.find_vertex("p");
  const EdgeId x = *g.find_edge("x"), y = *g.find_edge("y"), go = *g.find_edge("go");
  Evidence ev(1);
  for (int i = 0; i < 412; ++i) ev.record(p, std::vector<EdgeId>{go}, x);
  auto slack = model_slack(g, ev, nullptr);
  ASSERT_EQ(slack.size(), 1u);
  EXPECT_EQ(slack[0].outcome, y);
  EXPECT_EQ(slack[0].kind, OutcomeClaim::Kind::never_at_vertex);
  EXPECT_EQ(slack[0].visits, 412u);
  EXPECT_EQ(slack[0].histories, 1u);
  EXPECT_EQ(describe_claim(g, slack[0]),
            "the system never chose '?y' at 'p': not seen in 412 visits over 1 history: a rate above 1.7% is ruled "
            "out at 99.9%");
  // Once seen, whatever the odds, no claim: the declared probability plays no part.
  ev.record(p, std::vector<EdgeId>{go}, y);
  EXPECT_TRUE(model_slack(g, ev, nullptr).empty());
}

TEST(Claims, FutileOnlyPastTheFloorInEveryHistoryOffered) {
  const TestGraph g = parse_graph(fork_graph);
  const VertexId p = *g.find_vertex("p");
  const EdgeId x = *g.find_edge("x"), y = *g.find_edge("y"), go = *g.find_edge("go");
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  visits[go.index()] = 1;
  Evidence ev(1);
  // A system that says ?y every 15th time is never futile: 10 visits (the old rule's count for a
  // declared 0.5) and even 600 are far from ruling out 1%.
  for (int i = 0; i < 687; ++i) ev.record(p, std::vector<EdgeId>{go}, x);
  EXPECT_FALSE(is_futile(g, ev, p, y, visits));
  ev.record(p, std::vector<EdgeId>{go}, x);
  EXPECT_TRUE(is_futile(g, ev, p, y, visits));  // 688: 1% ruled out at 99.9%
  EXPECT_FALSE(is_futile(g, ev, p, x, visits));  // seen
  EXPECT_FALSE(is_futile(g, ev, p, y, visits, {.rare_rate = 0.001}));  // a lower floor needs more visits
}

TEST(Claims, EveryHistoryTheRunCanOfferMustHaveBeenOffered) {
  // p is entered by two stimuli, from a and from b: both must have been tried enough.
  const TestGraph g = parse_graph(R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a"}, {"id": "b"}, {"id": "p", "kind": "passive"}],
    "edges": [{"id": "ga", "from": "a", "to": "p", "label": "ga"},
              {"id": "gb", "from": "b", "to": "p", "label": "gb"},
              {"id": "ab", "from": "a", "to": "b", "label": "ab"},
              {"id": "x", "from": "p", "to": "a", "label": "?x", "prob": 0.5},
              {"id": "y", "from": "p", "to": "a", "label": "?y", "prob": 0.5}]})");
  const VertexId p = *g.find_vertex("p");
  const EdgeId ga = *g.find_edge("ga"), gb = *g.find_edge("gb"), ab = *g.find_edge("ab"), x = *g.find_edge("x"),
               y = *g.find_edge("y");
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  visits[ga.index()] = visits[x.index()] = 1;
  Evidence ev(1);
  for (int i = 0; i < 2000; ++i) ev.record(p, std::vector<EdgeId>{ga}, x);
  EXPECT_TRUE(is_futile(g, ev, p, y, visits));  // b never reached: gb cannot be offered yet
  visits[ab.index()] = 1;                        // b reached: gb can be offered and never was
  EXPECT_FALSE(is_futile(g, ev, p, y, visits));
  for (int i = 0; i < 687; ++i) ev.record(p, std::vector<EdgeId>{gb}, x);
  EXPECT_FALSE(is_futile(g, ev, p, y, visits));
  ev.record(p, std::vector<EdgeId>{gb}, x);
  EXPECT_TRUE(is_futile(g, ev, p, y, visits));
}

TEST(Claims, OnlyFutileLeftWhenEveryWantedEdgeLiesBehindThem) {
  const TestGraph g = parse_graph(fork_graph);
  const VertexId a = *g.find_vertex("a");
  const EdgeId y = *g.find_edge("y"), back = *g.find_edge("back"), stop = *g.find_edge("stop");
  Evidence ev(1);
  std::vector<std::uint8_t> futile(g.num_edges(), 0), wanted(g.num_edges(), 0);
  futile[y.index()] = 1;
  // Wanted: y itself and back (only reachable through y): nothing testable is left.
  wanted[y.index()] = wanted[back.index()] = 1;
  FutilityVerdict v = check_futility(g, ev, a, futile, wanted);
  EXPECT_TRUE(v.only_futile_left);
  EXPECT_EQ(v.untestable, 2u);
  ASSERT_EQ(v.futile.size(), 1u);
  EXPECT_EQ(v.futile[0].outcome, y);
  EXPECT_EQ(v.futile[0].edges_behind, 2u);  // y and back
  EXPECT_TRUE(v.futile[0].at_stop);
  EXPECT_NE(describe_claim(g, v.futile[0]).find("known when the run stopped"), std::string::npos);
  // With 'stop' still wanted (reachable from a without y), the run goes on.
  wanted[stop.index()] = 1;
  v = check_futility(g, ev, a, futile, wanted);
  EXPECT_FALSE(v.only_futile_left);
  // Nothing wanted at all: not "only futile left" (the purpose is met, or there is none).
  std::vector<std::uint8_t> none(g.num_edges(), 0);
  EXPECT_FALSE(check_futility(g, ev, a, futile, none).only_futile_left);
}

}  // namespace
}  // namespace playtest
