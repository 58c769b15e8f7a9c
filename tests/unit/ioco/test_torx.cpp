// The TorX algorithm with probabilities (seed 004 §3): Lemma 3.1's trace probability, Theorem 3.2,
// the one-run FAIL probability of the candy machine experiment, against each other and against
// seeded simulation of TorxPolicy on the test graph.
#include <gtest/gtest.h>

#include <cmath>

#include "ioco_test_support.hpp"
#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/ioco/torx_analysis.hpp"
#include "playtest/ioco/torx_policy.hpp"
#include "test_paths.hpp"

using namespace playtest;
using namespace playtest::ioco;

namespace {
Lts example(const std::string& name) { return load_lts(playtest::testing::source_dir() + "/examples/ioco/" + name); }
using S = std::vector<std::string>;
const TorxOptions old_config{.p_stop = 0.0, .p_input = 0.5, .p_observe = 0.5, .max_length = 3};
const TorxOptions new_config{.p_stop = 0.0, .p_input = 0.33, .p_observe = 0.67, .max_length = 3};

// |observed - expected| within 5 standard deviations of a binomial frequency.
void expect_frequency(std::uint64_t hits, std::uint64_t runs, double p) {
  const double sd = std::sqrt(p * (1 - p) / static_cast<double>(runs));
  EXPECT_NEAR(static_cast<double>(hits) / static_cast<double>(runs), p, 5 * sd + 1e-12);
}
}  // namespace

TEST(TorxLemma31, CandyTraceButNullLiq) {
  const Lts spec = example("candy_spec.aut"), chaos = example("candy_chaos.aut");
  // p2 * 1/n_1 (one input) * p3 * P_1 * p3 * P_2, P_k = 1/3 (the chaos IUT offers null, liq, choc).
  EXPECT_NEAR(torx_trace_probability(spec, chaos, {"but", "null", "liq"}, old_config), 0.5 * 0.5 / 3 * 0.5 / 3, 1e-15);
  EXPECT_NEAR(torx_trace_probability(spec, chaos, {"but", "delta", "liq"}, new_config), 0.33 * 0.67 / 3 * 0.67 / 3,
              1e-15);
  // Not generated: an output after a FAIL, a step past the length bound, an output the IUT lacks.
  EXPECT_EQ(torx_trace_probability(spec, chaos, {"liq", "but"}, old_config), 0.0);
  EXPECT_EQ(torx_trace_probability(spec, chaos, {"but", "but", "but", "but"}, old_config), 0.0);
  EXPECT_EQ(torx_trace_probability(spec, example("candy_correct.aut"), {"but", "choc"}, old_config), 0.0);
}

TEST(TorxLemma31, FormulaAgainstSimulation) {
  const Lts spec = example("candy_spec.aut"), chaos = example("candy_chaos.aut");
  const std::uint64_t runs = 200000;
  for (const auto& cfg : {old_config, new_config}) {
    for (const S& t : {S{"but", "null", "liq"}, S{"but", "but"}, S{"delta", "but", "choc"}}) {
      const TorxSimulation sim = simulate_torx(spec, chaos, cfg, runs, 7, t);
      expect_frequency(sim.watch_hits, runs, torx_trace_probability(spec, chaos, t, cfg));
    }
  }
}

TEST(TorxCandy, OneRunFailProbabilityExactly) {
  const Lts spec = example("candy_spec.aut"), chaos = example("candy_chaos.aut");
  for (const auto& cfg : {old_config, new_config}) {
    const TorxOutcome ex = torx_exact(spec, chaos, cfg);
    const auto fails = fail_traces(spec, chaos, 3, cfg);
    double sum = 0;
    for (const auto& f : fails) sum += f.probability;
    EXPECT_NEAR(ex.fail, sum, 1e-14);  // Markov chain == sum of Lemma 3.1 over the Fail traces
    EXPECT_NEAR(ex.fail + ex.pass_stop + ex.pass_refused, 1.0, 1e-14);
    EXPECT_EQ(fails.size(), 13u);  // 9 with an input or of length 1, 4 made of null only
  }
  // Closed forms (docs/experiments.md): with q = p3/3,
  // P(FAIL) = 2q + 2q^2 + 2q^3 + p2(q + 5q^2... ) written out per trace:
  auto closed = [](double p2, double p3) {
    const double q = p3 / 3;
    return 2 * q + 2 * q * q + 2 * q * q * q  // liq, choc, null liq|choc, null null liq|choc
           + q * p2 * q                       // null but choc
           + p2 * q                           // but choc
           + 4 * p2 * q * q                   // but null liq|choc, but liq liq|choc
           + p2 * p2 * q;                     // but but null
  };
  EXPECT_NEAR(torx_exact(spec, chaos, old_config).fail, closed(0.5, 0.5), 1e-14);
  EXPECT_NEAR(torx_exact(spec, chaos, new_config).fail, closed(0.33, 0.67), 1e-14);
  EXPECT_NEAR(closed(0.5, 0.5), 16.0 / 27.0, 1e-14);
}

TEST(TorxCandy, SimulationMatchesExact) {
  const Lts spec = example("candy_spec.aut"), chaos = example("candy_chaos.aut");
  const std::uint64_t runs = 100000;
  for (const auto& cfg : {old_config, new_config}) {
    const TorxSimulation sim = simulate_torx(spec, chaos, cfg, runs, 11);
    EXPECT_EQ(sim.runs, runs);
    expect_frequency(sim.fails, runs, torx_exact(spec, chaos, cfg).fail);
    // Every observed FAIL trace is a Fail trace with the right frequency.
    const auto fails = fail_traces(spec, chaos, 3, cfg);
    for (const auto& [trace, count] : sim.fail_trace_counts) {
      const LabelledTrace* match = nullptr;
      for (const auto& f : fails) {
        std::string t;
        for (const auto& l : f.trace) t += (t.empty() ? "" : " ") + l;
        if (t == trace) match = &f;
      }
      ASSERT_NE(match, nullptr) << trace;
      expect_frequency(count, runs, match->probability);
    }
  }
  // A correct implementation never fails.
  EXPECT_EQ(simulate_torx(spec, example("candy_correct.aut"), old_config, 20000, 3).fails, 0u);
  EXPECT_EQ(torx_exact(spec, example("candy_correct.aut"), old_config).fail, 0.0);
}

TEST(TorxTheorem32, RatioGivesTheMaximizingProbabilities) {
  const TorxOptions o = torx_options_from_ratio(1, 2);
  EXPECT_NEAR(o.p_input, 1.0 / 3, 1e-15);
  EXPECT_NEAR(o.p_observe, 2.0 / 3, 1e-15);
  const TorxOptions o2 = torx_options_from_ratio(3, 1, 0.2);
  EXPECT_NEAR(o2.p_input, 0.6, 1e-15);
  EXPECT_NEAR(o2.p_observe, 0.2, 1e-15);
  // The probability of 'but null liq' (n = 1, m = 2) over a grid of p2 peaks at p2 = 1/3.
  const Lts spec = example("candy_spec.aut"), chaos = example("candy_chaos.aut");
  double best = -1, best_p2 = 0;
  for (int k = 1; k < 300; ++k) {
    const double p2 = k / 300.0;
    const double p = torx_trace_probability(spec, chaos, {"but", "null", "liq"},
                                            {.p_stop = 0, .p_input = p2, .p_observe = 1 - p2, .max_length = 3});
    if (p > best) best = p, best_p2 = p2;
  }
  EXPECT_NEAR(best_p2, 1.0 / 3, 1.0 / 300);
  EXPECT_THROW(torx_options_from_ratio(0, 0), UsageError);
}

TEST(TorxOptionsParsing, CommandLineForms) {
  const TorxOptions p = parse_torx_p("0.1:0.3:0.6", 5);
  EXPECT_DOUBLE_EQ(p.p_stop, 0.1);
  EXPECT_DOUBLE_EQ(p.p_observe, 0.6);
  EXPECT_EQ(p.max_length, 5u);
  EXPECT_NEAR(parse_torx_ratio("1:2", 0.1).p_input, 0.3, 1e-15);
  EXPECT_THROW(parse_torx_p("0.1:0.3", 0), Error);
  EXPECT_THROW(parse_torx_p("0.1:0.3:0.3", 0), Error);  // does not sum to 1
  EXPECT_THROW(parse_torx_p("a:b:c", 0), Error);
  EXPECT_THROW(parse_torx_ratio("1:x", 0.1), Error);
  EXPECT_THROW(validate({.p_stop = 0, .p_input = 0.5, .p_observe = 0.5, .max_length = 0}), UsageError);
}

TEST(TorxPolicyChoices, FrequenciesOfStopInputObserve) {
  GraphBuilder b;
  const VertexId a = b.add_vertex("a", VertexKind::active);
  const VertexId p = b.add_vertex("p", VertexKind::passive);
  b.add_edge({.from = a, .to = a, .label = "in1"});
  b.add_edge({.from = a, .to = a, .label = "in2"});
  b.add_edge({.from = a, .to = p, .label = "observe", .observe = true});
  b.add_edge({.from = p, .to = a, .label = "out", .prob = 1.0});
  b.set_initial(a);
  const TestGraph g = b.build();
  TorxPolicy pol({.p_stop = 0.2, .p_input = 0.3, .p_observe = 0.5});
  Rng rng(5);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  const RunView view{.graph = g, .current = a, .step = 0, .edge_visits = visits, .purpose_edges = {}};
  std::uint64_t stop = 0, in1 = 0, in2 = 0, obs = 0;
  const std::uint64_t n = 100000;
  for (std::uint64_t i = 0; i < n; ++i) {
    const Decision d = pol.choose(view, rng);
    if (d.kind == Decision::Kind::stop) ++stop;
    else if (g.label(d.edge) == "in1") ++in1;
    else if (g.label(d.edge) == "in2") ++in2;
    else ++obs;
  }
  expect_frequency(stop, n, 0.2);
  expect_frequency(in1, n, 0.15);
  expect_frequency(in2, n, 0.15);
  expect_frequency(obs, n, 0.5);
  // The length bound: after max_length inputs/outputs the policy stops.
  TorxPolicy bounded({.p_stop = 0, .p_input = 1, .p_observe = 0, .max_length = 2});
  bounded.begin_run(view, rng);
  EXPECT_EQ(bounded.choose(view, rng).kind, Decision::Kind::take);
  bounded.observe(EdgeId{0}, view);
  bounded.observe(EdgeId{2}, view);  // "observe" does not count
  EXPECT_EQ(bounded.trace_length(), 1u);
  bounded.observe(EdgeId{3}, view);
  EXPECT_EQ(bounded.choose(view, rng).kind, Decision::Kind::stop);
}

TEST(TorxProperty, MarkovChainEqualsSumOverFailTracesOnRandomPairs) {
  Rng rng(99);
  for (int iter = 0; iter < 400; ++iter) {
    const Lts spec = ioco_test::random_lts(rng, 1 + static_cast<std::uint32_t>(rng.below(4)), 1 + static_cast<std::uint32_t>(rng.below(8)), false);
    const Lts impl = ioco_test::random_lts(rng, 1 + static_cast<std::uint32_t>(rng.below(4)), 1 + static_cast<std::uint32_t>(rng.below(8)), true);
    const TorxOptions cfg{.p_stop = 0.1, .p_input = 0.4, .p_observe = 0.5, .max_length = 4};
    const TorxOutcome ex = torx_exact(spec, impl, cfg);
    double sum = 0;
    for (const auto& f : fail_traces(spec, impl, 4, cfg)) sum += f.probability;
    SCOPED_TRACE(write_aut(spec) + "---\n" + write_aut(impl));
    ASSERT_NEAR(ex.fail, sum, 1e-12);
    ASSERT_NEAR(ex.fail + ex.pass_stop + ex.pass_refused + ex.unresolved, 1.0, 1e-12);
  }
}
