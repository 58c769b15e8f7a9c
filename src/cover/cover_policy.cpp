#include "playtest/cover/cover_policy.hpp"

#include <limits>
#include <queue>
#include <string>
#include <utility>

#include "playtest/cover/cover_strategy.hpp"

namespace playtest {

CoverPolicy::CoverPolicy(const TestGraph& g, const CoverOptions& options)
    : CoverPolicy(g, postman_tour(g, options.tour), options) {}

CoverPolicy::CoverPolicy(const TestGraph& g, PostmanTour tour, const CoverOptions& options)
    : g_(&g), options_(options), tour_(std::move(tour)) {
  init_();
}

std::string_view CoverPolicy::name() const {
  static const std::string random_name = std::string(cover_strategy().name) + "-random";
  return options_.choice == SegmentChoice::random ? std::string_view(random_name) : cover_strategy().name;
}

std::uint32_t CoverPolicy::current_segment() const { return pos_ == no_pos ? segments_.count() : segment_of_[pos_]; }

void CoverPolicy::init_() {
  const TestGraph& g = *g_;
  const std::uint32_t n = g.num_vertices(), m = g.num_edges();
  segments_ = cut_tour(g, tour_);
  needed_ = 0;
  for (std::uint32_t c : tour_.multiplicity) needed_ += c > 0;
  const auto& steps = segments_.steps;
  const auto L = static_cast<std::uint32_t>(steps.size());

  segment_of_.resize(L);
  for (std::uint32_t i = 0; i < segments_.count(); ++i)
    for (std::uint32_t p = segments_.begin[i]; p < segments_.begin[i + 1]; ++p) segment_of_[p] = i;

  // Positions an active vertex can join the tour at: every step leaving it (never a segment start,
  // since segments start at passive vertices, except in the cyclic case).
  auto joinable = [&](std::uint32_t p) { return segments_.cyclic || g.is_active(steps[p].from); };
  occ_offsets_.assign(n + 1, 0);
  for (std::uint32_t p = 0; p < L; ++p)
    if (joinable(p)) ++occ_offsets_[steps[p].from.index() + 1];
  for (std::uint32_t v = 0; v < n; ++v) occ_offsets_[v + 1] += occ_offsets_[v];
  occ_pos_.resize(occ_offsets_[n]);
  {
    std::vector<std::uint32_t> fill(occ_offsets_.begin(), occ_offsets_.end() - 1);
    for (std::uint32_t p = 0; p < L; ++p)
      if (joinable(p)) occ_pos_[fill[steps[p].from.index()]++] = p;
  }

  first_offsets_.assign(m + 1, 0);
  if (!segments_.cyclic) {
    for (std::uint32_t i = 0; i < segments_.count(); ++i) ++first_offsets_[steps[segments_.begin[i]].edge.index() + 1];
    for (std::uint32_t e = 0; e < m; ++e) first_offsets_[e + 1] += first_offsets_[e];
    first_seg_.resize(first_offsets_[m]);
    std::vector<std::uint32_t> fill(first_offsets_.begin(), first_offsets_.end() - 1);
    for (std::uint32_t i = 0; i < segments_.count(); ++i)
      first_seg_[fill[steps[segments_.begin[i]].edge.index()]++] = i;
  }

  // Cheapest way back onto the tour: Dijkstra on the reversed graph from every tour vertex.
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  back_edge_.assign(n, EdgeId::none());
  back_reset_.assign(n, 0);
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (const TourStep& s : steps)
    if (dist[s.from.index()] != 0) {
      dist[s.from.index()] = 0;
      queue.push({0.0, s.from.value});
    }
  const ResetArcs& rs = tour_.resets;
  while (!queue.empty()) {
    auto [d, w] = queue.top();
    queue.pop();
    if (d > dist[w]) continue;
    for (EdgeId e : g.in_edges(VertexId{w})) {
      const std::uint32_t u = g.source(e).value;
      if (d + g.cost(e) < dist[u]) {
        dist[u] = d + g.cost(e);
        back_edge_[u] = e;
        back_reset_[u] = 0;
        queue.push({dist[u], u});
      }
    }
    if (rs.enabled && VertexId{w} == rs.to)
      for (VertexId u : rs.from)
        if (d + rs.cost < dist[u.index()]) {
          dist[u.index()] = d + rs.cost;
          back_edge_[u.index()] = EdgeId::none();
          back_reset_[u.index()] = 1;
          queue.push({dist[u.index()], u.value});
        }
  }
}

bool CoverPolicy::counts_(EdgeId e, const RunView& view) const {
  if (tour_.multiplicity[e.index()] == 0) return false;
  return view.purpose_edges.empty() || view.purpose_edges[e.index()] != 0;
}

void CoverPolicy::recount_(const RunView& view) {
  covered_ = needed_ = 0;
  const bool have_visits = view.edge_visits.size() == g_->num_edges();
  for (EdgeId e : g_->edges()) {
    if (!counts_(e, view)) continue;
    ++needed_;
    if (have_visits && view.edge_visits[e.index()] > 0) ++covered_;
  }
}

void CoverPolicy::begin_run(const RunView& view, Rng& rng) {
  (void)rng;
  pending_ = EdgeId::none();
  if (view.step == 0) {
    pos_ = no_pos;
    recount_(view);
    return;
  }
  // After a reset: continue the segment if the reset was its next step.
  if (pos_ != no_pos && segments_.steps[pos_].is_reset() && view.current == segments_.steps[pos_].to)
    advance_();
  else
    pos_ = no_pos;
}

void CoverPolicy::advance_() {
  ++pos_;
  const std::uint32_t end = segments_.begin[segment_of_[pos_ - 1] + 1];
  if (pos_ == end) pos_ = segments_.cyclic ? 0 : no_pos;
}

void CoverPolicy::observe(EdgeId taken, const RunView& view) {
  if (taken.index() < view.edge_visits.size() && view.edge_visits[taken.index()] == 1 && counts_(taken, view))
    ++covered_;
  if (pos_ != no_pos && segments_.steps[pos_].edge == taken && !segments_.steps[pos_].is_reset()) {
    advance_();
    return;
  }
  pos_ = no_pos;
  pending_ = g_->is_passive(g_->source(taken)) ? taken : EdgeId::none();
}

std::uint64_t CoverPolicy::uncovered_ahead_(std::uint32_t pos, const RunView& view) const {
  const auto& steps = segments_.steps;
  auto uncovered = [&](const TourStep& s) {
    return !s.is_reset() && counts_(s.edge, view) &&
           (s.edge.index() >= view.edge_visits.size() || view.edge_visits[s.edge.index()] == 0);
  };
  if (segments_.cyclic) {
    // The whole tour lies ahead; prefer the nearest uncovered edge.
    const auto L = static_cast<std::uint32_t>(steps.size());
    for (std::uint32_t k = 0; k < L; ++k)
      if (uncovered(steps[(pos + k) % L])) return L - k;
    return 0;
  }
  std::uint64_t count = 0;
  const std::uint32_t end = segments_.begin[segment_of_[pos] + 1];
  for (std::uint32_t p = pos; p < end; ++p) count += uncovered(steps[p]);
  return count;
}

Decision CoverPolicy::follow_(std::uint32_t pos) {
  pos_ = pos;
  const TourStep& s = segments_.steps[pos];
  return s.is_reset() ? Decision::reset() : Decision::take(s.edge);
}

Decision CoverPolicy::choose(const RunView& view, Rng& rng) {
  if (options_.stop_when_covered && covered_ >= needed_) return Decision::stop();
  const VertexId v = view.current;
  const auto& steps = segments_.steps;
  candidates_.clear();
  if (!pending_.is_none()) {
    const EdgeId e = pending_;
    pending_ = EdgeId::none();
    if (g_->target(e) == v)
      for (std::uint32_t k = first_offsets_[e.index()]; k < first_offsets_[e.index() + 1]; ++k) {
        const std::uint32_t s = first_seg_[k];
        if (segments_.begin[s] + 1 < segments_.begin[s + 1]) candidates_.push_back(segments_.begin[s] + 1);
      }
  }
  if (candidates_.empty()) {
    if (pos_ != no_pos && steps[pos_].from == v) return follow_(pos_);
    for (std::uint32_t k = occ_offsets_[v.index()]; k < occ_offsets_[v.index() + 1]; ++k)
      candidates_.push_back(occ_pos_[k]);
  }
  if (!candidates_.empty()) {
    std::uint32_t best = candidates_[0];
    if (options_.choice == SegmentChoice::random) {
      best = candidates_[rng.below(candidates_.size())];
    } else {
      std::uint64_t best_score = 0, ties = 0;
      for (std::uint32_t p : candidates_) {
        const std::uint64_t score = uncovered_ahead_(p, view);
        if (ties == 0 || score > best_score) {
          best = p;
          best_score = score;
          ties = 1;
        } else if (score == best_score && rng.below(++ties) == 0) {
          best = p;
        }
      }
    }
    return follow_(best);
  }
  // Off the tour: head back along a cheapest path.
  pos_ = no_pos;
  if (back_reset_[v.index()]) return Decision::reset();
  if (!back_edge_[v.index()].is_none()) return Decision::take(back_edge_[v.index()]);
  return Decision::stop();
}

}  // namespace playtest
