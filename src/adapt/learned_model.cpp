#include "playtest/adapt/learned_model.hpp"

#include <cmath>
#include <limits>

#include "playtest/strategy/statistics.hpp"

namespace playtest {

double learned_probability(const TestGraph& g, const Evidence& evidence, VertexId v, std::span<const EdgeId> context,
                           EdgeId e, const LearningOptions& o) {
  const double n = static_cast<double>(evidence.visits(v, context));
  const double k = static_cast<double>(evidence.count(v, context, e));
  return (k + o.prior_weight * g.probability(e)) / (n + o.prior_weight);
}

std::uint64_t suspicion_visits(double p, double confidence) {
  if (!(p > 0)) return std::numeric_limits<std::uint64_t>::max();
  if (p >= 1) return 1;
  // The least n with n * ln(1 - p) <= ln(1 - confidence); log1p keeps tiny p exact.
  const double n = std::log1p(-confidence) / std::log1p(-p);
  if (!(n < 1e18)) return std::numeric_limits<std::uint64_t>::max();
  const auto k = static_cast<std::uint64_t>(std::ceil(n - 1e-9));
  return k == 0 ? 1 : k;
}

bool is_withheld(const TestGraph& g, const Evidence& evidence, VertexId v, EdgeId e, const LearningOptions& o) {
  if (evidence.count(v, e) != 0) return false;
  return evidence.visits(v) >= suspicion_visits(g.probability(e), o.withheld_confidence);
}

std::vector<VertexId> departing_vertices(const TestGraph& g, const Evidence& evidence, const LearningOptions& o) {
  std::vector<VertexId> tested;
  for (VertexId v : evidence.vertices())
    if (v.index() < g.num_vertices() && g.is_passive(v) && g.out_degree(v) > 1) tested.push_back(v);
  std::vector<VertexId> out;
  if (tested.empty()) return out;
  const double level = o.departure_level / static_cast<double>(tested.size());
  std::vector<std::uint64_t> counts;
  std::vector<double> probs;
  for (VertexId v : tested) {
    counts.clear();
    probs.clear();
    for (EdgeId e : g.out_edges(v)) {
      if (!(g.probability(e) > 0)) continue;
      counts.push_back(evidence.count(v, e));
      probs.push_back(g.probability(e));
    }
    if (counts.size() < 2) continue;
    double sum = 0;
    for (double p : probs) sum += p;
    for (double& p : probs) p /= sum;
    const FitResult fit = goodness_of_fit(counts, probs, FitMethod::g_test);
    if (fit.p_value < level) out.push_back(v);
  }
  return out;
}

}  // namespace playtest
