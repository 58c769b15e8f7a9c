// learn on simulated systems with known probabilities, over many seeds: the credible intervals
// hold the true probabilities at about their stated rate; the goodness-of-fit test flags a system
// whose frequencies are 20 points off the model after a few hundred visits, and flags a faithful
// one no more often than its significance (plus sampling noise).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/diagnose/learn.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/strategy/random_walk_policy.hpp"

namespace playtest {
namespace {

// One active vertex "t"; "toss" leads to a two-outcome choice, "roll" to a three-outcome one.
std::string fmt_model(double ph, double p1, double p2) {
  char buf[2048];
  std::snprintf(buf, sizeof buf, R"({"playtest": "graph/1", "initial": "t",
    "vertices": [{"id": "t", "kind": "active"}, {"id": "coin", "kind": "passive"}, {"id": "die", "kind": "passive"}],
    "edges": [{"from": "t", "to": "coin", "label": "toss"}, {"from": "t", "to": "die", "label": "roll"},
              {"from": "coin", "to": "t", "label": "heads", "prob": %.17g},
              {"from": "coin", "to": "t", "label": "tails", "prob": %.17g},
              {"from": "die", "to": "t", "label": "one", "prob": %.17g},
              {"from": "die", "to": "t", "label": "two", "prob": %.17g},
              {"from": "die", "to": "t", "label": "three", "prob": %.17g}]})",
                ph, 1 - ph, p1, p2, 1 - p1 - p2);
  return buf;
}

// The counts of `steps` steps of a random tester against a system playing `truth`, read against `model`.
ObservationCounts simulate_counts(const TestGraph& model, const TestGraph& truth, std::uint64_t steps,
                                  std::uint64_t seed) {
  RunOptions ro;
  ro.max_steps = steps;
  Runner runner(truth, ro);
  RandomWalkPolicy random;
  SimulatedSut sut(truth, seed * 7919 + 1);
  const RunResult r = runner.run(random, sut, nullptr, seed);
  ObservationCounts counts(model);
  counts.add(r);  // the same vertex and edge ids in both graphs
  return counts;
}

TEST(LearnProperty, IntervalsHoldTheTruthAtTheirRate) {
  const TestGraph truth = parse_graph(fmt_model(0.3, 0.2, 0.5));
  const TestGraph model = parse_graph(fmt_model(0.5, 1.0 / 3, 1.0 / 3));  // a model that guessed uniform
  const int seeds = 400;
  for (double confidence : {0.9, 0.95}) {
    int inside = 0, total = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
      const ObservationCounts c = simulate_counts(model, truth, 400, seed);  // ~100 visits per vertex
      const LearnResult r = learn(model, c, {.confidence = confidence});
      for (const VertexEstimate& v : r.vertices)
        for (const OutcomeEstimate& o : v.outcomes) {
          const double p = truth.probability(o.edge);
          inside += o.low <= p && p <= o.high;
          ++total;
        }
    }
    const double rate = double(inside) / total;
    std::printf("coverage of %.0f%% intervals: %d of %d = %.4f\n", confidence * 100, inside, total, rate);
    // The outcomes of one vertex are dependent, so the noise is larger than binomial over `total`;
    // 0.025 is more than three standard deviations at 400 seeds.
    EXPECT_GT(rate, confidence - 0.025) << "coverage at " << confidence;
    EXPECT_LT(rate, confidence + 0.04) << "coverage at " << confidence;  // not vacuously wide either
  }
}

TEST(LearnProperty, GoodnessOfFitHasPowerAndSize) {
  const TestGraph model = parse_graph(fmt_model(0.5, 0.2, 0.5));
  const TestGraph faithful = parse_graph(fmt_model(0.5, 0.2, 0.5));
  const TestGraph off = parse_graph(fmt_model(0.7, 0.4, 0.3));  // 20 points off at both vertices
  const double alpha = 0.05;
  for (FitMethod method : {FitMethod::automatic, FitMethod::chi_square, FitMethod::g_test}) {
    int flagged_off = 0, tested_off = 0, flagged_ok = 0, tested_ok = 0;
    const int seeds = 300;
    for (int seed = 1; seed <= seeds; ++seed) {
      const LearnOptions o{.significance = alpha, .method = method};
      // About 300 visits per vertex.
      const LearnResult bad = learn(model, simulate_counts(model, off, 1200, seed), o);
      for (const VertexEstimate& v : bad.vertices) {
        ASSERT_GE(v.visits, 200u);
        flagged_off += v.flagged;
        ++tested_off;
      }
      const LearnResult good = learn(model, simulate_counts(model, faithful, 1200, seed + 100000), o);
      for (const VertexEstimate& v : good.vertices) {
        flagged_ok += v.flagged;
        ++tested_ok;
      }
    }
    std::printf("%s: flagged %d of %d vertices 20 points off, %d of %d faithful ones\n",
                std::string(to_string(method)).c_str(), flagged_off, tested_off, flagged_ok, tested_ok);
    EXPECT_GE(flagged_off, tested_off * 0.99) << to_string(method) << ": missed a system 20 points off";
    // Size: at most alpha plus three binomial standard deviations.
    const double limit = alpha + 3 * std::sqrt(alpha * (1 - alpha) / tested_ok);
    EXPECT_LE(double(flagged_ok) / tested_ok, limit) << to_string(method) << ": flags a faithful system too often";
    EXPECT_GT(flagged_ok, 0) << to_string(method) << ": never flags at all (a test that cannot fail?)";
  }
}

}  // namespace
}  // namespace playtest
