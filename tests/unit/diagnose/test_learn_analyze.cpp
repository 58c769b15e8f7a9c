// learn: counts from traces and runs, the posterior by hand, the learned model; analyze: each
// purpose's numbers on small graphs where they are known, the coverage bound, and the feasibility
// check run and simulate make up front.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "playtest/base/error.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/diagnose/analyze.hpp"
#include "playtest/diagnose/learn.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/strategy/random_walk_policy.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

// A coin flipped at "flip": heads (0.5) or tails (0.3) back to "t", or a timeout (0.2).
const char* coin = R"({"playtest": "graph/1", "initial": "t", "meta": {"author": "test"},
  "vertices": [{"id": "t", "kind": "active"}, {"id": "flip", "kind": "passive"}, {"id": "q", "kind": "passive"}],
  "edges": [{"id": "toss", "from": "t", "to": "flip", "label": "toss"},
            {"id": "h", "from": "flip", "to": "t", "label": "heads", "prob": 0.5},
            {"id": "tl", "from": "flip", "to": "t", "label": "tails", "prob": 0.3},
            {"id": "to", "from": "flip", "to": "t", "label": "", "prob": 0.2, "timeout": true},
            {"id": "never", "from": "q", "to": "t", "label": "x", "prob": 1}]})";

RecordedTrace trace_of(const std::string& text) {
  std::istringstream in(text);
  return read_trace(in, "c.jsonl");
}

std::string flips(int heads, int tails, int timeouts) {
  std::string s = "{\"event\":\"begin\",\"run\":1}\n";
  auto step = [&](const char* kind, const char* label, const char* edge) {
    s += std::string(
             "{\"event\":\"step\",\"kind\":\"stimulus\",\"vertex\":\"t\",\"label\":\"toss\",\"edge\":\"toss\","
             "\"to\":\"flip\"}\n{\"event\":\"step\",\"kind\":\"") +
         kind + "\",\"vertex\":\"flip\",\"label\":\"" + label + "\",\"edge\":\"" + edge + "\",\"to\":\"t\"}\n";
  };
  for (int i = 0; i < heads; ++i) step("observation", "heads", "h");
  for (int i = 0; i < tails; ++i) step("observation", "tails", "tl");
  for (int i = 0; i < timeouts; ++i) step("timeout", "", "to");
  return s + "{\"event\":\"end\",\"verdict\":\"PASS\"}\n";
}

TEST(Learn, PosteriorByHand) {
  const TestGraph g = parse_graph(coin);
  ObservationCounts counts(g);
  counts.add(trace_of(flips(6, 4, 0)));
  EXPECT_EQ(counts.observations(), 10u);
  const LearnResult r = learn(g, counts, {.prior_weight = 2.0}, std::vector<std::string>{"c.jsonl"});
  const VertexEstimate& flip = r.vertices[0];
  ASSERT_EQ(g.name(flip.vertex), "flip");
  EXPECT_EQ(flip.visits, 10u);
  // Dirichlet(2 * (0.5, 0.3, 0.2)) + counts (6, 4, 0): posterior means (7, 4.6, 0.4) / 12.
  EXPECT_NEAR(flip.outcomes[0].estimate, 7.0 / 12, 1e-12);
  EXPECT_NEAR(flip.outcomes[1].estimate, 4.6 / 12, 1e-12);
  EXPECT_NEAR(flip.outcomes[2].estimate, 0.4 / 12, 1e-12);
  // The interval is the Beta(7, 5) marginal's central 95%.
  EXPECT_NEAR(regularized_beta(flip.outcomes[0].low, 7, 5), 0.025, 1e-9);
  EXPECT_NEAR(regularized_beta(flip.outcomes[0].high, 7, 5), 0.975, 1e-9);
  // The timeout was never seen: the model gave that a chance of 0.8^10.
  EXPECT_EQ(flip.outcomes[2].count, 0u);
  EXPECT_NEAR(flip.outcomes[2].chance_unseen, std::pow(0.8, 10), 1e-12);
  ASSERT_TRUE(flip.fit);
  EXPECT_FALSE(flip.flagged);
  // Vertex q was never visited: its estimate is its declared probability, it is not tested.
  EXPECT_EQ(r.vertices[1].visits, 0u);
  EXPECT_FALSE(r.vertices[1].fit);
  EXPECT_EQ(r.visited, 1u);
  EXPECT_EQ(r.tested, 1u);
  // The learned model: the same graph with the estimates, the counts in meta.learned.
  const TestGraph back = parse_graph(graph_to_json(r.learned));
  EXPECT_EQ(back.num_edges(), g.num_edges());
  EXPECT_NEAR(back.probability(*back.find_edge("h")), 7.0 / 12, 1e-12);
  EXPECT_TRUE(back.is_timeout(*back.find_edge("to")));
  EXPECT_EQ(back.probability(*back.find_edge("never")), 1.0);
  const std::string meta(back.meta_json());
  EXPECT_NE(meta.find("\"author\":\"test\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"counts\":{\"flip\":{\"edges\":{\"h\":6,\"tl\":4,\"to\":0},\"visits\":10}}"), std::string::npos)
      << meta;
  EXPECT_NE(meta.find("\"sources\":[\"c.jsonl\"]"), std::string::npos) << meta;
}

TEST(Learn, FlagsANeverTakenBranch) {
  const TestGraph g = parse_graph(coin);
  ObservationCounts counts(g);
  counts.add(trace_of(flips(0, 40, 8)));  // heads "never" happens, the model says half the time
  const LearnResult r = learn(g, counts, {.prior = PriorCenter::uniform});
  const VertexEstimate& flip = r.vertices[0];
  EXPECT_TRUE(flip.flagged);
  EXPECT_LT(flip.fit->p_value, 1e-10);
  EXPECT_EQ(flip.fit->method, FitMethod::exact);
  EXPECT_NEAR(flip.outcomes[0].chance_unseen, std::pow(0.5, 48), 1e-25);
  EXPECT_NEAR(flip.outcomes[0].estimate, (1.0 / 3) / 49, 1e-12);  // uniform prior worth one visit
  EXPECT_EQ(r.flagged, 1u);
}

TEST(Learn, TraceLinesThatDoNotFitTheModel) {
  const TestGraph g = parse_graph(coin);
  auto error_of = [&](const std::string& step) {
    ObservationCounts counts(g);
    try {
      counts.add(trace_of("{\"event\":\"begin\"}\n" + step + "\n"));
    } catch (const GraphError& e) {
      return e.diagnostic().message + " @" + std::to_string(e.diagnostic().where.line);
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(R"({"event":"step","kind":"observation","vertex":"nowhere","label":"heads","to":"t"})"),
            "the trace's vertex 'nowhere' is not a vertex of the model @2");
  EXPECT_EQ(error_of(R"({"event":"step","kind":"observation","vertex":"flip","label":"heads","edge":"zz","to":"t"})"),
            "the trace's edge 'zz' is not an edge of the model @2");
  EXPECT_EQ(error_of(R"({"event":"step","kind":"observation","vertex":"q","label":"heads","edge":"h","to":"t"})"),
            "the trace's edge 'h' leaves vertex 'flip' in the model, not 'q' @2");
  EXPECT_EQ(error_of(R"({"event":"step","kind":"observation","vertex":"flip","label":"edge","edge":"h","to":"t"})"),
            "the trace's edge 'h' is labelled 'heads' in the model, not 'edge' @2");
  EXPECT_EQ(error_of(R"({"event":"step","kind":"observation","vertex":"flip","label":"coin","to":"t"})"),
            "the model has no output 'coin' at passive vertex 'flip' @2");
  // Failures are listed, not counted.
  ObservationCounts counts(g);
  counts.add(
      trace_of("{\"event\":\"begin\"}\n"
               R"({"event":"step","kind":"unexpected","vertex":"flip","label":"edge"})"));
  EXPECT_EQ(counts.observations(), 0u);
  ASSERT_EQ(counts.unexpected().size(), 1u);
  EXPECT_EQ(counts.unexpected()[0].label, "edge");
}

TEST(Learn, BadOptions) {
  const TestGraph g = parse_graph(coin);
  ObservationCounts counts(g);
  EXPECT_THROW(learn(g, counts, {.prior_weight = 0}), UsageError);
  EXPECT_THROW(learn(g, counts, {.confidence = 1}), UsageError);
  EXPECT_THROW(learn(g, counts, {.significance = 0}), UsageError);
  EXPECT_THROW(parse_prior_center("jeffreys"), UsageError);
}

// s --a--> p (passive: 1/2 to goal g, 1/2 back to s); s --b--> g directly at cost 10; u unreachable.
const char* game = R"({"playtest": "graph/1", "initial": "s",
  "vertices": [{"id": "s", "kind": "active"}, {"id": "p", "kind": "passive"},
               {"id": "g", "kind": "active", "goal": true}, {"id": "u", "kind": "active"},
               {"id": "w", "kind": "passive"}],
  "edges": [{"id": "a", "from": "s", "to": "p", "label": "try"},
            {"id": "win", "from": "p", "to": "g", "label": "yes", "prob": 0.5},
            {"id": "lose", "from": "p", "to": "s", "label": "no", "prob": 0.5},
            {"id": "b", "from": "s", "to": "g", "label": "pay", "cost": 10},
            {"id": "uu", "from": "u", "to": "w", "label": "try"},
            {"id": "ww", "from": "w", "to": "u", "label": "no", "prob": 1}]})";

TEST(Analyze, GoalsAndEdges) {
  const TestGraph g = parse_graph(game);
  const std::vector<std::string> goals{"g", "u"}, edges{"win", "try"};
  const Analysis a = analyze(g, goals, edges, {.bound = 6, .coverage = false});
  ASSERT_EQ(a.purposes.size(), 5u);  // the label "try" is two purposes, one per edge (as run --edge)
  const PurposeAnalysis& goal = a.purposes[0];
  EXPECT_TRUE(goal.reachable);
  EXPECT_TRUE(goal.sure_win);
  EXPECT_EQ(goal.worst_case_cost, 10.0);  // pay
  EXPECT_EQ(goal.probability, 1.0);
  EXPECT_EQ(goal.levels[0].moves, 1u);
  EXPECT_NEAR(goal.expected_cost, 4.0, 1e-9);  // try until yes: 2 moves per attempt, 2 attempts
  EXPECT_TRUE(goal.expected_certified);
  EXPECT_FALSE(a.purposes[1].reachable);  // u
  EXPECT_FALSE(a.purposes[1].sure_win);
  EXPECT_EQ(a.purposes[1].probability, 0.0);
  EXPECT_FALSE(a.purposes[1].almost_sure);
  const PurposeAnalysis& win = a.purposes[2];  // taking edge "win": only the system can
  EXPECT_TRUE(win.reachable);
  EXPECT_FALSE(win.sure_win);
  EXPECT_NEAR(win.probability, 1 - std::pow(0.5, 3), 1e-12);  // three tries in six moves
  EXPECT_EQ(win.levels[0].moves, 2u);                         // 50%: one try
  EXPECT_FALSE(win.levels[1].moves);                          // 90% needs four tries, eight moves: beyond the bound
  EXPECT_NEAR(win.expected_cost, 4.0, 1e-9);
  const PurposeAnalysis& try_a = a.purposes[3];  // label "try": edge a, then edge uu
  EXPECT_EQ(try_a.name, "a");
  EXPECT_EQ(try_a.edges.size(), 1u);
  EXPECT_TRUE(try_a.sure_win);
  EXPECT_EQ(try_a.worst_case_cost, 1.0);
  const PurposeAnalysis& try_uu = a.purposes[4];
  EXPECT_EQ(try_uu.name, "uu");
  EXPECT_FALSE(try_uu.reachable);  // u cannot be reached from s
  EXPECT_THROW(analyze(g, std::vector<std::string>{"nowhere"}, {}, {}), GraphError);
}

TEST(Analyze, CoverageBoundAsProposition2) {
  const TestGraph g = load_graph(playtest::testing::source_dir() + "/examples/graphs/seed000-figure1.json");
  const Analysis a = analyze(g, {}, {}, {.coverage_target = 0.99});
  ASSERT_TRUE(a.coverage);
  const CoverageAnalysis& c = *a.coverage;
  EXPECT_EQ(c.tour_cost, 10.0);  // docs/cover.md: the tour of cost 10, n = 2, p = 0.75
  EXPECT_EQ(c.segments, 2u);
  EXPECT_NEAR(c.p, 0.75, 1e-12);
  // 1 - 2 * 0.25^m >= 0.99 first at m = 4 (0.9961), not at m = 3 (0.96875).
  EXPECT_EQ(c.rounds, 4u);
  EXPECT_EQ(c.iterations, 8u);
}

TEST(PurposeFeasibility, ReachAndCover) {
  const TestGraph g = parse_graph(game);
  TestPurpose reach{.kind = TestPurpose::Kind::reach, .goals = {*g.find_vertex("u")}};
  PurposeFeasibility f = purpose_feasibility(g, reach);
  EXPECT_FALSE(f.feasible);
  EXPECT_EQ(f.reason, "no goal is reachable from the initial vertex 's': 'u' is unreachable");
  reach.goals.push_back(*g.find_vertex("g"));
  EXPECT_TRUE(purpose_feasibility(g, reach).feasible);
  TestPurpose cover{.kind = TestPurpose::Kind::cover};
  f = purpose_feasibility(g, cover);
  EXPECT_FALSE(f.feasible);
  EXPECT_EQ(f.reason,
            "2 of the 6 edges to cover can never be taken, their source being unreachable from the initial vertex "
            "'s': 'uu' (u -> w), 'ww' (w -> u)");
  cover.edges = {*g.find_edge("a"), *g.find_edge("b")};
  EXPECT_TRUE(purpose_feasibility(g, cover).feasible);  // try (and fail) first, then pay
  cover.edges = {*g.find_edge("b"), *g.find_edge("win")};
  f = purpose_feasibility(g, cover);  // both end the run in the goal g, and there is no reset
  EXPECT_FALSE(f.feasible);
  EXPECT_EQ(f.unreachable_edges.size(), 1u);
  cover.edges = {*g.find_edge("a"), *g.find_edge("win")};
  EXPECT_TRUE(purpose_feasibility(g, cover).feasible);
}

TEST(PurposeFeasibility, BranchesWithoutResetButWithOne) {
  // s -> x or s -> y, each a dead end: one run takes one of them.
  const std::string text = R"({"playtest": "graph/1", "initial": "s"RESET,
    "vertices": [{"id": "s", "kind": "active"}, {"id": "x", "kind": "active"}, {"id": "y", "kind": "active"}],
    "edges": [{"id": "sx", "from": "s", "to": "x", "label": "x"}, {"id": "sy", "from": "s", "to": "y", "label": "y"}]})";
  auto with = [&](const std::string& reset) {
    std::string t = text;
    t.replace(t.find("RESET"), 5, reset);
    return parse_graph(t);
  };
  const TestGraph no_reset = with("");
  PurposeFeasibility f = purpose_feasibility(no_reset, {.kind = TestPurpose::Kind::cover});
  EXPECT_FALSE(f.feasible);
  EXPECT_EQ(f.reason,
            "the graph has no reset, and no single run can take all 2 edges to cover: at most 1 of them lie on one "
            "run (a best run misses 'sx' (s -> x))");
  EXPECT_TRUE(purpose_feasibility(with(R"(, "reset": {"cost": 1})"), {.kind = TestPurpose::Kind::cover}).feasible);
  EXPECT_TRUE(purpose_feasibility(no_reset, {.kind = TestPurpose::Kind::none}).feasible);
}

}  // namespace
}  // namespace playtest
