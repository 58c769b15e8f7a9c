// Policies, mutation operators, the simulated SUT and the strategy comparison.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "playtest/base/error.hpp"
#include "playtest/campaign/mutation.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/strategy/anti_ant_policy.hpp"
#include "playtest/strategy/random_walk_policy.hpp"
#include "playtest/strategy/table_policy.hpp"

namespace playtest {
namespace {

const char* fan_graph = R"({"playtest": "graph/1", "initial": "s", "reset": {"cost": 1},
  "vertices": [{"id": "s", "kind": "active"}, {"id": "p", "kind": "passive"}, {"id": "g", "kind": "active", "goal": true}],
  "edges": [{"id": "a", "from": "s", "to": "s", "label": "a"},
            {"id": "b", "from": "s", "to": "s", "label": "b"},
            {"id": "c", "from": "s", "to": "p", "label": "c"},
            {"id": "x", "from": "p", "to": "s", "label": "x", "prob": 0.5},
            {"id": "y", "from": "p", "to": "g", "label": "y", "prob": 0.5},
            {"id": "z", "from": "g", "to": "s", "label": "z"}]})";

TEST(Policies, AntiAntTakesTheLeastVisitedEdge) {
  TestGraph g = parse_graph(fan_graph);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  visits[g.find_edge("a")->index()] = 3;
  visits[g.find_edge("b")->index()] = 1;
  visits[g.find_edge("c")->index()] = 2;
  AntiAntPolicy p;
  Rng rng(1);
  RunView view{g, g.initial(), 0, visits, {}};
  for (int i = 0; i < 20; ++i) EXPECT_EQ(p.choose(view, rng).edge, *g.find_edge("b"));
  visits[g.find_edge("c")->index()] = 1;  // tie between b and c: both get chosen
  std::set<std::uint32_t> seen;
  for (int i = 0; i < 100; ++i) seen.insert(p.choose(view, rng).edge.value);
  EXPECT_EQ(seen, (std::set<std::uint32_t>{g.find_edge("b")->value, g.find_edge("c")->value}));
}

TEST(Policies, RandomWalkChoosesEveryOutEdgeUniformly) {
  TestGraph g = parse_graph(fan_graph);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  RandomWalkPolicy p;
  Rng rng(3);
  RunView view{g, g.initial(), 0, visits, {}};
  std::map<std::uint32_t, int> count;
  for (int i = 0; i < 3000; ++i) ++count[p.choose(view, rng).edge.value];
  ASSERT_EQ(count.size(), 3u);
  for (auto& [e, n] : count) EXPECT_NEAR(n, 1000, 150) << g.name(EdgeId{e});
}

// GraphWalker's weighted_random: a weight is its edge's probability, the edges without one share
// the rest. Chi-square with two degrees of freedom, a fixed seed: below the 99.9% quantile (13.8)
// for the weights, far above it for the uniform walk the weights would be if they were ignored.
TEST(Policies, AWeightedRandomWalkTakesEachEdgeWithItsWeight) {
  TestGraph g = parse_graph(fan_graph);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  auto weights = parse_label_weights("a\t0.5\nb\t0.2\n");  // c has none: 1 - 0.7 = 0.3
  ASSERT_NE(weights, nullptr);
  EXPECT_EQ(label_weights_text(*weights), "a\t0.5\nb\t0.2\n");
  RandomWalkPolicy p(false, weights);
  Rng rng(11);
  RunView view{g, g.initial(), 0, visits, {}};
  std::map<std::string, double> count;
  const int n = 6000;
  for (int i = 0; i < n; ++i) {
    const Decision d = p.choose(view, rng);
    ASSERT_EQ(d.kind, Decision::Kind::take);
    ++count[std::string(g.label(d.edge))];
  }
  auto chi2 = [&](const std::map<std::string, double>& probs) {
    double x = 0;
    for (const auto& [label, q] : probs) x += (count[label] - n * q) * (count[label] - n * q) / (n * q);
    return x;
  };
  EXPECT_LT(chi2({{"a", 0.5}, {"b", 0.2}, {"c", 0.3}}), 13.8) << count["a"] << " " << count["b"] << " " << count["c"];
  EXPECT_GT(chi2({{"a", 1.0 / 3}, {"b", 1.0 / 3}, {"c", 1.0 / 3}}), 100.0);
  // Weights that sum to more than 1 at a vertex end the run, saying where.
  RandomWalkPolicy over(false, parse_label_weights("a\t0.7\nb\t0.6\n"));
  EXPECT_EQ(over.choose(view, rng).kind, Decision::Kind::stop);
  EXPECT_NE(over.stop_reason().find("sum to more than 1"), std::string::npos) << over.stop_reason();
  EXPECT_EQ(parse_label_weights(""), nullptr);
}

TEST(Policies, TableAndBoundedPolicies) {
  TestGraph g = parse_graph(fan_graph);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  Rng rng(0);
  std::vector<EdgeId> strategy(g.num_vertices());
  strategy[0] = *g.find_edge("c");
  TablePolicy t("t", strategy);
  EXPECT_EQ(t.choose(RunView{g, g.initial(), 0, visits, {}}, rng).edge, *g.find_edge("c"));
  // No edge at the goal: reset (the graph is resettable and g is not initial).
  EXPECT_EQ(t.choose(RunView{g, *g.find_vertex("g"), 0, visits, {}}, rng).kind, Decision::Kind::reset);

  BoundedPolicy b("b", [&](VertexId, std::uint32_t k) { return k >= 2 ? *g.find_edge("c") : *g.find_edge("a"); }, 3);
  b.begin_run(RunView{g, g.initial(), 10, visits, {}}, rng);
  EXPECT_EQ(b.choose(RunView{g, g.initial(), 10, visits, {}}, rng).edge, *g.find_edge("c"));  // k = 3
  EXPECT_EQ(b.choose(RunView{g, g.initial(), 12, visits, {}}, rng).edge, *g.find_edge("a"));  // k = 1
  // Spent: a fresh game of the full bound from here.
  EXPECT_EQ(b.choose(RunView{g, g.initial(), 13, visits, {}}, rng).edge, *g.find_edge("c"));  // k = 3 again
  EXPECT_EQ(b.choose(RunView{g, g.initial(), 15, visits, {}}, rng).edge, *g.find_edge("a"));  // k = 1
  BoundedPolicy never("n", [&](VertexId, std::uint32_t) { return EdgeId::none(); }, 3);
  never.begin_run(RunView{g, g.initial(), 0, visits, {}}, rng);
  EXPECT_EQ(never.choose(RunView{g, g.initial(), 0, visits, {}}, rng).kind, Decision::Kind::stop);
  EXPECT_EQ(never.choose(RunView{g, *g.find_vertex("g"), 2, visits, {}}, rng).kind, Decision::Kind::reset);
}

TEST(Policies, TheTableKnowsEveryName) {
  TestGraph g = parse_graph(fan_graph);
  std::vector<std::string> names;
  for (const StrategyRow* row : strategy_table()) {
    auto p = make_policy(row->name, g);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->name(), row->name);
    EXPECT_EQ(&strategy_named(row->name), row);
    names.emplace_back(row->name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"random", "anti-ant", "reach", "win", "expected", "cover", "planner",
                                             "pessimistic", "torx"}));
  EXPECT_THROW(make_policy("nope", g), UsageError);
  try {
    (void)strategy_named("cvoer");
    ADD_FAILURE() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "strategy");
    EXPECT_NE(e.diagnostic().message.find("did you mean 'cover'?"), std::string::npos) << e.diagnostic().message;
  }
  TestGraph no_goals = generate_random_graph({.vertices = 5, .goals = 0, .seed = 1});
  for (auto n : {"reach", "win", "expected"}) EXPECT_THROW(make_policy(n, no_goals), UsageError) << n;
}

TEST(Policies, GoalStrategiesReachTheGoalInTheSimulation) {
  TestGraph g = parse_graph(fan_graph);
  SimulationOptions so;
  so.run.purpose.kind = TestPurpose::Kind::reach;
  so.run.max_steps = 200;
  so.runs = 400;
  for (auto n : {"reach", "expected"}) {
    auto p = make_policy(n, g, {}, {.args = {{"bound", "20"}}});
    SimulationStats s = simulate(g, *p, so);
    EXPECT_EQ(s.passed, 400u) << n;
    EXPECT_EQ(s.success_rate, 1.0);
    // c, then y with probability 1/2 each round: 2 steps per round, a geometric number of rounds.
    EXPECT_NEAR(s.mean_steps, 4.0, 0.5) << n;
    EXPECT_GT(s.sd_steps, 0.5);
  }
  // No sure win here (p may always answer x): the sure-winning strategy has no move and stops.
  auto win = make_policy("win", g);
  SimulationStats s = simulate(g, *win, so);
  EXPECT_EQ(s.inconclusive, 400u);
  // With x leading to the goal too, the win is sure: always exactly 2 steps.
  std::string text = fan_graph;
  text.replace(text.find(R"("to": "s", "label": "x")"), 9, R"("to": "g")");
  TestGraph sure = parse_graph(text);
  auto win2 = make_policy("win", sure);
  SimulationStats s2 = simulate(sure, *win2, so);
  EXPECT_EQ(s2.passed, 400u);
  EXPECT_EQ(s2.mean_steps, 2.0);
  EXPECT_EQ(s2.sd_steps, 0.0);
}

TEST(Simulation, AntiAntCoversFasterThanRandomOnAChain) {
  // seed 002 Table 4 in spirit: anti-ant needs fewer steps than a random walk to cover every edge.
  TestGraph g = generate_random_graph({.vertices = 40, .passive_fraction = 0.3, .out_degree = 3, .goals = 1,
                                       .strongly_connected = true, .seed = 11});
  SimulationOptions so;
  so.run.purpose.kind = TestPurpose::Kind::cover;
  so.run.max_steps = 200000;
  so.runs = 30;
  so.seed = 4;
  RandomWalkPolicy r;
  AntiAntPolicy a;
  SimulationStats sr = simulate(g, r, so), sa = simulate(g, a, so);
  EXPECT_EQ(sr.success_rate, 1.0);
  EXPECT_EQ(sa.success_rate, 1.0);
  EXPECT_LT(sa.mean_steps, sr.mean_steps);
  // Same seeds, same results.
  SimulationStats sa2 = simulate(g, a, so);
  EXPECT_EQ(sa2.mean_steps, sa.mean_steps);
}

TEST(SimulatedSut, PlaysTheModelsProbabilities) {
  TestGraph g = parse_graph(fan_graph);
  SimulatedSut sut(g, 9);
  sut.start();
  int y = 0, n = 4000;
  for (int i = 0; i < n; ++i) {
    sut.reset();
    sut.stimulate("c");
    EXPECT_EQ(sut.state(), *g.find_vertex("p"));
    AdapterEvent e = sut.next_event(Clock::now());
    ASSERT_EQ(e.kind, AdapterEvent::Kind::output);
    y += e.label == "y";
  }
  EXPECT_NEAR(double(y) / n, 0.5, 0.04);
  sut.reset();
  sut.stimulate("nope");  // not accepted: stays
  EXPECT_EQ(sut.state(), g.initial());
  EXPECT_EQ(sut.next_event(Clock::now()).kind, AdapterEvent::Kind::quiet);  // active: quiescent
}

// The multiset of (source, target, label) triples of a graph, by names.
std::multiset<std::tuple<std::string, std::string, std::string>> triples(const TestGraph& g) {
  std::multiset<std::tuple<std::string, std::string, std::string>> out;
  for (EdgeId e : g.edges())
    out.emplace(std::string(g.name(g.source(e))), std::string(g.name(g.target(e))), std::string(g.label(e)));
  return out;
}

TEST(Mutation, EachOperatorChangesWhatItSays) {
  TestGraph g = parse_graph(fan_graph);
  auto orig = triples(g);
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    Rng rng(seed);
    auto redirect = mutate(g, MutationKind::redirect_edge, rng);
    ASSERT_TRUE(redirect);
    EXPECT_EQ(redirect->graph.num_edges(), g.num_edges());
    std::size_t same_target = 0;
    for (EdgeId e : g.edges()) same_target += g.target(e) == redirect->graph.target(e);
    EXPECT_EQ(same_target, g.num_edges() - 1) << redirect->description;

    auto added = mutate(g, MutationKind::add_output, rng);
    ASSERT_TRUE(added);
    EXPECT_EQ(added->graph.num_edges(), g.num_edges() + 1);
    EXPECT_NE(added->description.find("gained output"), std::string::npos);
    double sum = 0;
    for (EdgeId e : added->graph.out_edges(*added->graph.find_vertex("p"))) sum += added->graph.probability(e);
    EXPECT_NEAR(sum, 1.0, 1e-9);

    auto dropped = mutate(g, MutationKind::drop_output, rng);
    ASSERT_TRUE(dropped);
    EXPECT_EQ(dropped->graph.num_edges(), g.num_edges() - 1);
    EXPECT_EQ(dropped->graph.out_degree(*dropped->graph.find_vertex("p")), 1u);
    EXPECT_DOUBLE_EQ(dropped->graph.probability(*dropped->graph.out_edges(*dropped->graph.find_vertex("p")).begin()), 1.0);

    auto swapped = mutate(g, MutationKind::swap_labels, rng);
    ASSERT_TRUE(swapped);
    EXPECT_NE(triples(swapped->graph), orig);
    std::multiset<std::string> l1, l2;
    for (EdgeId e : g.edges()) l1.emplace(g.label(e));
    for (EdgeId e : swapped->graph.edges()) l2.emplace(swapped->graph.label(e));
    EXPECT_EQ(l1, l2);  // same labels, exchanged
  }
}

TEST(Mutation, MutantsAreDetectedAndTheOriginalNeverIs) {
  TestGraph g = generate_random_graph({.vertices = 30, .passive_fraction = 0.4, .out_degree = 3, .goals = 1,
                                       .strongly_connected = true, .seed = 3});
  auto mutants = make_mutants(g, 24, 5);
  ASSERT_EQ(mutants.size(), 24u);
  std::set<MutationKind> kinds;
  for (auto& m : mutants) kinds.insert(m.kind);
  EXPECT_EQ(kinds.size(), 4u);
  SimulationOptions so;
  so.run.purpose.kind = TestPurpose::Kind::none;
  so.run.max_steps = 2000;
  so.runs = 20;
  so.mutant_runs = 3;
  AntiAntPolicy a;
  SimulationStats s = simulate(g, a, so, mutants);
  EXPECT_EQ(s.failed, 0u);  // the model conforms to itself
  EXPECT_EQ(s.mutants, 24u);
  EXPECT_GE(s.mutants_detected, 12u);  // most mutants are visible within 2000 steps
  EXPECT_GT(s.mean_steps_to_detect, 0.0);
}

}  // namespace
}  // namespace playtest
