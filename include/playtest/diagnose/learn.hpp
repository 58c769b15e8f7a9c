// Learn: what the system's choices really are. From the observations in recorded runs, each
// passive vertex's outcome probabilities are estimated (Bayesian, a Dirichlet prior centred on the
// model's own probabilities or uniform; equal-tailed credible intervals from the Beta marginals),
// outcomes the model allows but nobody saw are listed with how likely that silence was under the
// model, and a goodness-of-fit test (statistics.hpp) flags vertices where the counts contradict
// the declared probabilities (seed 000 §2 and seed 001 §2 take these probabilities as given; the
// strategies are only as good as they are).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "playtest/campaign/trace_reader.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/statistics.hpp"

namespace playtest {

// How often the system took each edge out of a passive vertex, over many runs.
class ObservationCounts {
 public:
  explicit ObservationCounts(const TestGraph& g);

  // Adds every observation and timeout of every run. Throws GraphError located at the trace line
  // when a step does not fit the model (an unknown vertex or edge, an edge that does not leave the
  // step's vertex, a label that is not the edge's).
  void add(const RecordedTrace& trace);
  // Adds the observations of a run just played (r.trace must be kept).
  void add(const RunResult& r);

  std::span<const std::uint64_t> edge_counts() const { return edge_; }
  std::uint32_t runs() const { return runs_; }
  std::uint64_t observations() const { return observations_; }
  struct Unexpected {
    VertexId vertex;
    std::string label;  // "" for silence without a timeout edge
    std::uint64_t count = 0;
  };
  // Failures seen: outputs the model does not allow, silences without timeout edge.
  const std::vector<Unexpected>& unexpected() const { return unexpected_; }

 private:
  void count(EdgeId e);
  void count_unexpected(VertexId v, const std::string& label);
  const TestGraph& g_;
  std::vector<std::uint64_t> edge_;
  std::vector<Unexpected> unexpected_;
  std::uint32_t runs_ = 0;
  std::uint64_t observations_ = 0;
};

enum class PriorCenter : std::uint8_t {
  model,    // the model's declared probabilities: an unvisited vertex keeps them
  uniform,  // every outcome alike
};
std::string_view to_string(PriorCenter c);              // "model", "uniform"
PriorCenter parse_prior_center(std::string_view name);  // UsageError("prior") otherwise

struct LearnOptions {
  PriorCenter prior = PriorCenter::model;
  double prior_weight = 1.0;   // the prior is worth this many visits (Dirichlet concentration)
  double confidence = 0.95;    // of the credible intervals
  double significance = 0.05;  // of the goodness-of-fit test
  FitMethod method = FitMethod::automatic;
};

struct OutcomeEstimate {
  EdgeId edge;
  std::uint64_t count = 0;
  double declared = 0;       // the model's probability
  double estimate = 0;       // posterior mean (n_e + a_e) / (N + A)
  double low = 0, high = 1;  // equal-tailed credible interval of the Beta marginal
  // For an outcome never observed: the model's probability of never seeing it in this many visits,
  // (1 - declared)^visits.
  double chance_unseen = 1;
};

struct VertexEstimate {
  VertexId vertex;
  std::uint64_t visits = 0;               // outcomes counted at this vertex
  std::vector<OutcomeEstimate> outcomes;  // one per out-edge, in edge order
  std::optional<FitResult> fit;           // when visited and with two outcomes or more
  bool flagged = false;                   // fit->p_value < significance
  std::vector<ObservationCounts::Unexpected> unexpected;
};

struct LearnResult {
  LearnOptions options;
  std::vector<VertexEstimate> vertices;  // every passive vertex, in id order
  TestGraph learned;                     // the model with the estimated probabilities
  std::uint32_t runs = 0;
  std::uint64_t observations = 0;
  std::uint32_t visited = 0, tested = 0, flagged = 0;
};

// Throws UsageError("prior_weight") for a weight <= 0 or above 1e12, UsageError("confidence") /
// UsageError("significance") for levels outside (0, 1). The learned graph keeps every vertex, edge,
// name, cost and flag of `g`; its meta is g's with a "learned" object added (prior, runs, sources,
// and the counts per passive vertex and edge).
LearnResult learn(const TestGraph& g, const ObservationCounts& counts, const LearnOptions& options = {},
                  std::span<const std::string> sources = {});

}  // namespace playtest
