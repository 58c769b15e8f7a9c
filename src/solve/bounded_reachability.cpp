#include "playtest/solve/bounded_reachability.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "playtest/error.hpp"
#include "solve/detail/bounded_reach_folded.hpp"

namespace playtest {

template class BoundedReachSolver<LexicographicOrder>;
template class BoundedReachSolver<ProbabilityOrder>;

EdgeId BoundedReachResult::choice(VertexId v, std::uint32_t k) const {
  if (v.index() >= value_.size()) throw UsageError("v", "BoundedReachResult::choice: vertex id out of range");
  if (k > bound_)
    throw UsageError(
        "k", "BoundedReachResult::choice: k = " + std::to_string(k) + " exceeds the bound " + std::to_string(bound_));
  if (k == bound_) return choice_at_bound_[v.index()];
  EdgeId e = EdgeId::none();  // the edge of the last change point with cp.k <= k
  for_each_change(v.value, [&](std::uint32_t cp_k, EdgeId cp_edge) {
    if (cp_k > k) return false;
    e = cp_edge;
    return true;
  });
  return e;
}

EdgeId BoundedReachResult::choice(VertexId v) const {
  if (v.index() >= value_.size()) throw UsageError("v", "BoundedReachResult::choice: vertex id out of range");
  return choice_at_bound_[v.index()];
}

std::vector<ReachChangePoint> BoundedReachResult::change_points(VertexId v) const {
  if (v.index() >= value_.size()) throw UsageError("v", "BoundedReachResult::change_points: vertex id out of range");
  std::vector<ReachChangePoint> cps;
  for_each_change(v.value, [&](std::uint32_t k, EdgeId e) {
    cps.push_back({k, e});
    return true;
  });
  return cps;
}

bool BoundedReachResult::is_recorded(VertexId v) const {
  return std::binary_search(record_vertices_.begin(), record_vertices_.end(), v);
}

ReachValue BoundedReachResult::recorded(VertexId v, std::uint32_t k) const {
  auto it = std::lower_bound(record_vertices_.begin(), record_vertices_.end(), v);
  if (it == record_vertices_.end() || *it != v)
    throw UsageError("record", "BoundedReachResult::prob/cost(v, k): vertex " + std::to_string(v.value) +
                                   " was not recorded (BoundedReachOptions::record)");
  if (k > bound_)
    throw UsageError("k", "BoundedReachResult::prob/cost(v, k): k = " + std::to_string(k) + " exceeds the bound " +
                              std::to_string(bound_));
  return record_values_[static_cast<std::size_t>(k) * record_vertices_.size() +
                        static_cast<std::size_t>(it - record_vertices_.begin())];
}

BoundedReachRecorder::BoundedReachRecorder(const TestGraph& g, std::vector<VertexId> vertices, std::uint32_t bound)
    : vertices_(std::move(vertices)), bound_(bound) {
  for (VertexId v : vertices_)
    if (v.index() >= g.num_vertices())
      throw UsageError("record", "solve_bounded_reachability: recorded vertex id out of range");
  std::sort(vertices_.begin(), vertices_.end());
  vertices_.erase(std::unique(vertices_.begin(), vertices_.end()), vertices_.end());
  values_.reserve(vertices_.size() * (static_cast<std::size_t>(bound) + 1));
}

void BoundedReachRecorder::attach_to(BoundedReachResult& r) {
  if (r.bound_ != bound_ || values_.size() != vertices_.size() * (static_cast<std::size_t>(bound_) + 1))
    throw UsageError("recorder", "BoundedReachRecorder::attach_to: the recorder did not see every step");
  r.record_vertices_ = std::move(vertices_);
  r.record_values_ = std::move(values_);
}

BoundedReachResult solve_bounded_reachability(const TestGraph& g, std::span<const VertexId> goals,
                                              const BoundedReachOptions& options) {
  const bool fold =
      options.record.empty() && (options.fold_choices == ChoiceFolding::always ||
                                 (options.fold_choices == ChoiceFolding::automatic && g.num_vertices() >= 65536));
  if (fold) {
    BoundedReachResult r;
    const bool done = options.order == ReachOrder::probability
                          ? detail::BoundedReachFolded::solve(g, goals, options, ProbabilityOrder{}, r)
                          : detail::BoundedReachFolded::solve(g, goals, options, LexicographicOrder{}, r);
    if (done) return r;
  }
  switch (options.order) {
    case ReachOrder::probability:
      return solve_bounded_reachability(g, goals, options, ProbabilityOrder{});
    case ReachOrder::lexicographic:
      break;
  }
  return solve_bounded_reachability(g, goals, options, LexicographicOrder{});
}

}  // namespace playtest
