// What the system's choices look like from the evidence (issue 22, docs/testing.md "Adaptive
// strategies"): Bayesian estimates of its outcome probabilities with the model's declared
// probabilities as the prior (so an outcome not yet seen is never 0), per vertex or per history,
// and the places where the evidence departs from the model: outcomes the system seems to withhold
// (never seen although the declared probability would have shown them with probability 0.9) and
// frequencies a goodness-of-fit test rejects. These are suspicions that make a strategy re-plan,
// never claims about the system (strategy/claims.hpp says what the evidence proves).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/strategy/evidence.hpp"

namespace playtest {

struct LearningOptions {
  // The declared distribution counts as this many observations (the Dirichlet prior's weight).
  double prior_weight = 2.0;
  // An outcome never seen is "withheld" once its declared probability would have shown it with
  // this probability: the adaptive strategies then look for a history in which it comes.
  double withheld_confidence = 0.9;
  // The family-wise level of the goodness-of-fit tests (G-test, Bonferroni over the vertices).
  double departure_level = 1e-3;
};

// The posterior mean of outcome e at passive vertex v, given the visits in `context` (empty: every
// visit of v): (n(e) + w p(e)) / (n + w), p the declared probability, w the prior's weight.
double learned_probability(const TestGraph& g, const Evidence& evidence, VertexId v, std::span<const EdgeId> context,
                           EdgeId e, const LearningOptions& o = {});

// The visits after which an outcome of declared probability p is suspected withheld: the least n
// with (1 - p)^n <= 1 - confidence (UINT64_MAX for p <= 0).
std::uint64_t suspicion_visits(double p, double confidence);

// Whether outcome e of passive vertex v is withheld: never seen in visits(v) visits although the
// declared probability would have shown it with probability withheld_confidence.
bool is_withheld(const TestGraph& g, const Evidence& evidence, VertexId v, EdgeId e, const LearningOptions& o = {});

// The passive vertices whose frequencies a G-test rejects at departure_level / (vertices tested),
// ascending.
std::vector<VertexId> departing_vertices(const TestGraph& g, const Evidence& evidence, const LearningOptions& o = {});

}  // namespace playtest
