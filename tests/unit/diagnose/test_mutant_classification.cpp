// Mutants classified (issue 23, item 4): the product game of model and mutant proves a lost output
// equivalent, finds a shortest witness for a distinguishable mutant with its kill probability, and
// agrees with simulation: an equivalent mutant never FAILs a run, and on random small models every
// mutant that some run kills is distinguishable.
#include <gtest/gtest.h>

#include <cmath>

#include "playtest/campaign/mutation.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/diagnose/mutant_analysis.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/io/graph_json.hpp"

namespace playtest {
namespace {

// s -c-> p; p outputs x (back to s, 1/2) or y (to g, 1/2); g -z-> s.
const char* fan = R"({"playtest": "graph/1", "initial": "s",
  "vertices": [{"id": "s", "kind": "active"}, {"id": "p", "kind": "passive"}, {"id": "g", "kind": "active"}],
  "edges": [{"id": "c", "from": "s", "to": "p", "label": "c"},
            {"id": "x", "from": "p", "to": "s", "label": "x", "prob": 0.5},
            {"id": "y", "from": "p", "to": "g", "label": "y", "prob": 0.5},
            {"id": "z", "from": "g", "to": "s", "label": "z"}]})";

TestGraph with_edges(const TestGraph& g, const std::string& json_edges) {
  std::string text = R"({"playtest": "graph/1", "initial": "s",
  "vertices": [{"id": "s", "kind": "active"}, {"id": "p", "kind": "passive"}, {"id": "g", "kind": "active"}],
  "edges": )" + json_edges +
                     "}";
  (void)g;
  return parse_graph(text);
}

TEST(MutantClassification, LostOutputIsEquivalent) {
  const TestGraph g = parse_graph(fan);
  // p lost "x": it always answers y, which the model allows.
  const TestGraph m = with_edges(g, R"([{"id": "c", "from": "s", "to": "p", "label": "c"},
            {"id": "y", "from": "p", "to": "g", "label": "y", "prob": 1},
            {"id": "z", "from": "g", "to": "s", "label": "z"}])");
  const MutantAnalysis a = analyze_mutant(g, m);
  EXPECT_TRUE(a.complete);
  EXPECT_FALSE(a.distinguishable);
  EXPECT_FALSE(a.witness.has_value());
  EXPECT_EQ(classify_mutant(a, {}).cls, MutantClass::equivalent);
  // The model against itself: equivalent too.
  EXPECT_FALSE(analyze_mutant(g, g).distinguishable);
}

TEST(MutantClassification, WrongOutputHasAShortestWitness) {
  const TestGraph g = parse_graph(fan);
  // p also answers "w" (not allowed) with probability 1/4.
  const TestGraph m = with_edges(g, R"([{"id": "c", "from": "s", "to": "p", "label": "c"},
            {"id": "x", "from": "p", "to": "s", "label": "x", "weight": 2},
            {"id": "y", "from": "p", "to": "g", "label": "y", "weight": 1},
            {"id": "w", "from": "p", "to": "g", "label": "w", "weight": 1},
            {"id": "z", "from": "g", "to": "s", "label": "z"}])");
  const MutantAnalysis a = analyze_mutant(g, m);
  ASSERT_TRUE(a.distinguishable);
  ASSERT_TRUE(a.witness.has_value());
  EXPECT_EQ(a.witness->stimuli, std::vector<std::string>{"c"});
  EXPECT_EQ(a.witness->steps, std::vector<std::string>{"send 'c'"});
  EXPECT_NE(a.witness->failure.find("'w'"), std::string::npos) << a.witness->failure;
  EXPECT_DOUBLE_EQ(a.witness->path_probability, 0.25);
  // Sending c again and again kills it surely.
  EXPECT_NEAR(a.witness->kill_probability, 1.0, 1e-9);
  const MutantVerdict missed = classify_mutant(a, {});
  EXPECT_EQ(missed.cls, MutantClass::missed);
  const MutantVerdict killed = classify_mutant(a, {{"random", 3}});
  EXPECT_EQ(killed.cls, MutantClass::killed);
  EXPECT_DOUBLE_EQ(mutation_score({missed, killed, classify_mutant(analyze_mutant(g, g), {})}), 0.5);
}

TEST(MutantClassification, SilenceWithoutTimeoutIsAFailure) {
  const TestGraph g = parse_graph(fan);
  // c leads the mutant to g (active: it says nothing) while the model waits at p for an output.
  const TestGraph m = with_edges(g, R"([{"id": "c", "from": "s", "to": "g", "label": "c"},
            {"id": "x", "from": "p", "to": "s", "label": "x", "prob": 0.5},
            {"id": "y", "from": "p", "to": "g", "label": "y", "prob": 0.5},
            {"id": "z", "from": "g", "to": "s", "label": "z"}])");
  const MutantAnalysis a = analyze_mutant(g, m);
  ASSERT_TRUE(a.distinguishable);
  EXPECT_NE(a.witness->failure.find("silent"), std::string::npos) << a.witness->failure;
  EXPECT_DOUBLE_EQ(a.witness->path_probability, 1.0);
}

// Equivalent mutants never fail a simulated run; every killed mutant is distinguishable. On random
// small models (with the real mutation operators), for random and cover.
TEST(MutantClassification, AgreesWithSimulationOnRandomModels) {
  std::uint32_t equivalent = 0, distinguishable = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const TestGraph g = generate_random_graph({.vertices = 6 + static_cast<std::uint32_t>(seed % 5),
                                               .passive_fraction = 0.4,
                                               .out_degree = 2,
                                               .goals = 1,
                                               .strongly_connected = true,
                                               .seed = seed});
    const std::vector<Mutant> mutants = make_mutants(g, 8, seed);
    SimulationOptions so{.runs = 1, .mutant_runs = 30, .seed = seed};
    so.run.max_steps = 60;
    const SimulationStats s = simulate(g, policy_maker("random", g), so, mutants);
    for (std::size_t i = 0; i < mutants.size(); ++i) {
      const MutantAnalysis a = analyze_mutant(g, mutants[i].graph);
      ASSERT_TRUE(a.complete);
      if (s.mutant_detected[i]) {
        EXPECT_TRUE(a.distinguishable) << "seed " << seed << ": " << mutants[i].description;
      }
      if (a.distinguishable) {
        ++distinguishable;
        ASSERT_TRUE(a.witness.has_value());
        EXPECT_GT(a.witness->path_probability, 0);
        EXPECT_GE(a.witness->kill_probability, a.witness->path_probability - 1e-12);
      } else {
        ++equivalent;
      }
      if (mutants[i].kind == MutationKind::drop_output) {
        EXPECT_FALSE(a.distinguishable) << "a lost output is allowed: " << mutants[i].description;
      }
    }
  }
  // Both classes occur (the test would prove nothing otherwise).
  EXPECT_GT(equivalent, 10u);
  EXPECT_GT(distinguishable, 10u);
}

}  // namespace
}  // namespace playtest
