// A proved interval around Rmax (property_paths.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "solve/core/choice_model.hpp"
#include "solve/core/policy_iteration.hpp"
#include "solve/core/qualitative.hpp"
#include "solve/exact/property_paths.hpp"

namespace playtest::detail {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
double up(double x) { return std::nextafter(x, inf); }
double down(double x) { return std::max(0.0, std::nextafter(x, -inf)); }

// The Bellman value at v of `x` (the best edge at an active vertex, or the strategy's when
// `strategy` is given; the average at a passive one), every operation rounded up (`round_up`) or
// down.
double bellman(const TestGraph& g, VertexId v, const std::vector<double>& x, const std::vector<EdgeId>* strategy,
               bool round_up) {
  auto r = [&](double a) { return round_up ? up(a) : down(a); };
  if (g.is_passive(v)) {
    double s = 0;
    for (EdgeId e : g.out_edges(v)) s = r(s + r(g.probability(e) * r(g.cost(e) + x[g.target(e).index()])));
    return s;
  }
  if (strategy != nullptr) {
    const EdgeId e = (*strategy)[v.index()];
    return r(g.cost(e) + x[g.target(e).index()]);
  }
  double best = 0;
  for (EdgeId e : g.out_edges(v)) best = std::max(best, r(g.cost(e) + x[g.target(e).index()]));
  return best;
}

// One Gauss-Seidel update of Rmax's Bellman equations at v, rounded to nearest: the expectation at a
// passive vertex, the best edge (the last of equals, into `choice` when given) at an active one,
// with the edges' costs or (unit) one per move.
double max_update(const TestGraph& g, VertexId v, const std::vector<double>& x, bool unit, EdgeId* choice) {
  double best = 0;
  if (g.is_passive(v)) {
    for (EdgeId e : g.out_edges(v)) best += g.probability(e) * ((unit ? 0.0 : g.cost(e)) + x[g.target(e).index()]);
  } else {
    for (EdgeId e : g.out_edges(v)) {
      const double y = (unit ? 0.0 : g.cost(e)) + x[g.target(e).index()];
      if (y >= best) {
        best = y;
        if (choice != nullptr) *choice = e;
      }
    }
  }
  return unit ? best + 1 : best;
}

// The vertices that are not infinite, targets first, then breadth-first backwards from them
// (closest to a target first: the order Gauss-Seidel sweeps in, as every scheduler leaves it).
std::vector<std::uint32_t> closest_first(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                         const std::vector<std::uint8_t>& infinite) {
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint32_t> order, roff(n + 1, 0), pred;
  std::vector<std::uint8_t> seen(n, 0);
  for (std::uint32_t v = 0; v < n; ++v)
    if (is_target[v]) {
      seen[v] = 1;
      order.push_back(v);
    }
  for (EdgeId e : g.edges()) ++roff[g.target(e).index() + 1];
  for (std::uint32_t v = 0; v < n; ++v) roff[v + 1] += roff[v];
  pred.resize(roff[n]);
  {
    std::vector<std::uint32_t> at(roff.begin(), roff.end() - 1);
    for (EdgeId e : g.edges()) pred[at[g.target(e).index()]++] = g.source(e).index();
  }
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::uint32_t j = roff[order[i]]; j < roff[order[i] + 1]; ++j) {
      const std::uint32_t u = pred[j];
      if (!seen[u] && !infinite[u]) {
        seen[u] = 1;
        order.push_back(u);
      }
    }
  return order;
}

// The most expected moves to a target over all schedulers, from below by Gauss-Seidel sweeps in
// `order` until no value moves by more than 1/4 (then W - 1 - T W >= -1/4 everywhere, T the
// Bellman operator of unit costs with the best edge at active vertices); empty when that takes
// more than `max_sweeps` sweeps or the deadline passes. Finite on Rmax's region: every scheduler
// reaches a target from it almost surely.
std::vector<double> most_expected_moves(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                        const std::vector<std::uint32_t>& order, std::uint32_t max_sweeps,
                                        std::chrono::steady_clock::time_point deadline) {
  std::vector<double> w(g.num_vertices(), 0.0);
  for (std::uint32_t sweep = 0; sweep < max_sweeps; ++sweep) {
    double change = 0;
    for (std::uint32_t v : order) {
      if (is_target[v]) continue;
      const double x = max_update(g, VertexId{v}, w, true, nullptr);
      change = std::max(change, std::abs(x - w[v]));
      w[v] = x;
    }
    if (change <= 0.25) return w;
    if ((sweep & 15) == 15 && std::chrono::steady_clock::now() > deadline) break;
  }
  return {};
}

// Rmax's start: +infinity where some scheduler misses the targets with a positive probability
// (prob1A on the graph), 0 elsewhere, no strategy yet.
PropertyResult rmax_start(const TestGraph& g, const std::vector<std::uint8_t>& is_target) {
  const std::uint32_t n = g.num_vertices();
  const std::vector<std::uint8_t> allowed(n, 1);
  const std::vector<QualStatus> status = graph_status(g, is_target, allowed);
  const GraphGame game(g, status);
  const auto positive = positive_region(game, true, nullptr);
  const auto one = prob1_every(game, positive);
  PropertyResult r;
  r.value.assign(n, 0.0);
  r.infinite.assign(n, 0);
  r.strategy.assign(n, EdgeId::none());
  for (std::uint32_t v = 0; v < n; ++v)
    if (!is_target[v] && !one[v]) {
      r.infinite[v] = 1;
      r.value[v] = inf;
      ++r.num_infinite;
    }
  return r;
}

}  // namespace

bool certify_rmax(const TestGraph& g, const std::vector<std::uint8_t>& is_target, PropertyResult& r,
                  std::chrono::steady_clock::time_point deadline, const std::vector<double>* moves) {
  const std::uint32_t n = g.num_vertices();
  // The region: finite, not a target. Every scheduler reaches a target from it almost surely (a
  // scheduler that could miss makes Rmax infinite), so Bellman's operator T has one fixed point
  // there, Rmax, and T^k x tends to it from any x; the same for the strategy's operator T_s and its
  // expected cost M_s <= Rmax. Hence U >= T U proves U >= Rmax, and L <= T_s L proves
  // L <= M_s <= Rmax.
  std::vector<VertexId> region;
  for (VertexId v : g.vertices()) {
    const std::uint32_t i = v.index();
    if (is_target[i] || r.infinite[i]) continue;
    if (g.out_degree(v) == 0) return false;  // a dead end off the targets is infinite
    if (g.is_active(v) && r.strategy[i].is_none()) return false;
    for (EdgeId e : g.out_edges(v))
      if (r.infinite[g.target(e).index()]) return false;  // then v would be infinite
    region.push_back(v);
  }
  std::vector<double> x(n, 0.0);
  for (VertexId v : region) x[v.index()] = r.value[v.index()];
  // First try: the values widened by s W' with W' = 2 W + 1 from the most expected moves W. In
  // exact arithmetic W' >= 1/2 + (unit-cost T) W' (from W >= 1 - 1/4 + T W, T's sums having
  // probabilities that sum to 1), so U = x + s W' satisfies U - T U >= s / 2 - (x's Bellman residual)
  // and L = x - s W' satisfies T_s L - L >= s / 2 - (its residual under the strategy, which the
  // best edge bounds too): with s twice the residual plus the rounding of the checks, every
  // inequality holds at once, where a widening by a multiple of x has no slack across zero-cost
  // moves (the wireless LAN's Rmax{time}: most moves take no time) and the repair creeps.
  std::vector<double> wide;
  double s_w = 0;
  {
    const std::vector<double> w =
        moves != nullptr ? *moves
                         : most_expected_moves(g, is_target, closest_first(g, is_target, r.infinite), 100000, deadline);
    if (!w.empty()) {
      double res = 0, xmax = 0, wmax = 0;
      std::uint32_t dmax = 1;
      for (VertexId v : region) {
        const std::uint32_t i = v.index();
        res = std::max(res, std::abs(bellman(g, v, x, nullptr, true) - x[i]));
        res = std::max(res, std::abs(bellman(g, v, x, &r.strategy, false) - x[i]));
        xmax = std::max(xmax, x[i]);
        wmax = std::max(wmax, 2 * w[i] + 1);
        dmax = std::max(dmax, g.out_degree(v));
      }
      // The checks round every operation outwards: a few ulps of the largest value per edge.
      s_w = 4 * (res + 8.0 * dmax * std::numeric_limits<double>::epsilon() * (xmax + 1));
      wide.assign(n, 0.0);
      for (VertexId v : region) wide[v.index()] = 2 * w[v.index()] + 1;
    }
  }
  for (double scale : {-1.0, 1e-12, 1e-10, 1e-8, 1e-6}) {
    if (scale < 0 && wide.empty()) continue;
    std::vector<double> lo = x, hi = x;
    for (VertexId v : region) {
      const double a = x[v.index()];
      if (scale < 0) {
        hi[v.index()] = up(a + up(s_w * wide[v.index()]));
        lo[v.index()] = down(a - up(s_w * wide[v.index()]));
      } else {
        hi[v.index()] = up(up(a * (1 + scale)) + scale);
        lo[v.index()] = down(down(a * (1 - scale)) - scale);
      }
    }
    // A few repair sweeps (each keeps what it proves: U <- max(U, T U), L <- min(L, T_s L)), then
    // the checks.
    bool upper = false, lower = false;
    for (int round = 0; round < 4 && !(upper && lower); ++round) {
      upper = lower = true;
      for (VertexId v : region) {
        const double tu = bellman(g, v, hi, nullptr, true);
        if (tu > hi[v.index()]) {
          hi[v.index()] = tu;
          upper = false;
        }
        const double tl = bellman(g, v, lo, &r.strategy, false);
        if (tl < lo[v.index()]) {
          lo[v.index()] = tl;
          lower = false;
        }
      }
    }
    if (!upper || !lower) continue;
    double bound = 0;
    for (VertexId v : region) {
      const std::uint32_t i = v.index();
      bound = std::max({bound, hi[i] - x[i], x[i] - lo[i]});
    }
    if (!(bound <= 1e-6 * std::max(1.0, *std::max_element(x.begin(), x.end())))) continue;
    r.lower.assign(n, 0.0);
    r.upper.assign(n, 0.0);
    for (std::uint32_t i = 0; i < n; ++i) {
      r.lower[i] = r.infinite[i] ? inf : lo[i];
      r.upper[i] = r.infinite[i] ? inf : hi[i];
    }
    r.error_bound = up(bound);
    r.certified = true;
    r.not_certified.clear();
    return true;
  }
  return false;
}

PropertyResult rmax_by_value_iteration(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                       const PropertyOptions& o) {
  PropertyResult r = rmax_start(g, is_target);
  // Finite where every scheduler reaches a target almost surely; the region is swept closest to
  // the targets first (Gauss-Seidel), which every scheduler leaves.
  const std::vector<std::uint32_t> order = closest_first(g, is_target, r.infinite);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(std::max(0.0, o.check_seconds)));
  std::uint32_t sweeps = 0;
  double tolerance = 1e-9;
  for (;; ++sweeps) {
    double change = 0;
    for (std::uint32_t v : order) {
      if (is_target[v]) continue;
      const double x = max_update(g, VertexId{v}, r.value, false, &r.strategy[v]);
      change = std::max(change, std::abs(x - r.value[v]) / std::max(1.0, x));
      r.value[v] = x;
    }
    // At each tolerance the answer is offered to the certificate; one that does not close goes on
    // to the next (the error can be the change times the expected number of moves).
    if (change <= tolerance) {
      if (certify_rmax(g, is_target, r, deadline) || tolerance <= 1e-15) break;
      tolerance /= 1000;
    }
    if ((sweeps & 15) == 15 && std::chrono::steady_clock::now() > deadline) {
      r.not_certified =
          fmt::format("value iteration for Rmax did not settle within {} s ({} sweeps)", o.check_seconds, sweeps + 1);
      return r;
    }
  }
  r.evaluations = sweeps + 1;
  if (!r.certified)
    r.not_certified = "the proved bounds of the value iteration's answer did not close (a numerically hard model)";
  return r;
}

PropertyResult rmax_by_policy_iteration(const TestGraph& g, const std::vector<std::uint8_t>& is_target,
                                        const PropertyOptions& o) {
  const std::uint32_t n = g.num_vertices();
  PropertyResult r = rmax_start(g, is_target);
  // The region is closed (an edge out of it would make its source infinite) and every strategy
  // reaches a target from it almost surely: minimizing the negated costs is maximizing, and the
  // core's policy iteration needs no properness repair.
  std::vector<VertexId> work;
  for (std::uint32_t v : closest_first(g, is_target, r.infinite))
    if (!is_target[v]) work.emplace_back(v);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(std::max(0.0, o.check_seconds)));
  std::vector<double> moves;
  if (!work.empty()) {
    Team team(work.size() >= 65536 ? resolve_threads(o.threads) : 1);
    // Large MDPs of the PRISM importer's shape on the folded model (one state per PRISM state, the
    // choice vertices folded into their edges), as the expected-cost solver does.
    ChoiceModel m = work.size() >= 65536 ? build_folded_model(team, g, is_target, work, ModelCosts::expected)
                                         : build_vertex_model(team, g, is_target, work, ModelCosts::expected);
    for (double& c : m.cost) c = -c;
    // A folded vertex's value from its successors' (states or targets): its edges' expectation.
    const auto fill_folded = [&](std::vector<double>& val, bool unit) {
      for (VertexId v : work) {
        if (m.vertex_index[v.index()] != model_folded) continue;
        double sum = 0;
        for (EdgeId e : g.out_edges(v)) sum += g.probability(e) * ((unit ? 1.0 : g.cost(e)) + val[g.target(e).index()]);
        val[v.index()] = std::max(0.0, sum);
      }
    };
    const ModelReverse rev = reverse_model(m);
    std::vector<std::uint32_t> choice;
    std::vector<double> x(std::size_t{m.n} + 1, 0.0);
    attractor_strategy(m, rev, choice);
    PolicyIterationStats stats;
    PolicyBlocks blocks;
    const PolicyIterationEnd end = policy_iteration(team, m, rev, 10000, 1e-12, choice, x, stats, blocks);
    r.evaluations = stats.evaluations;
    r.improvements = stats.improvements;
    if (end != PolicyIterationEnd::stable || x.empty()) {
      r.not_certified = "policy iteration for Rmax did not settle in floating point";
      return r;
    }
    for (std::uint32_t i = 0; i < m.n; ++i) {
      const std::uint32_t v = m.state_vertex[i].index();
      r.value[v] = std::max(0.0, -x[i]);
      if (!m.passive[i]) r.strategy[v] = m.choice_edge[choice[i]];
    }
    fill_folded(r.value, false);
    // The most expected moves, for the certificate's widening: the same policy iteration with a
    // choice's moves as its cost, from the reward's strategy (usually a few evaluations where Gauss-Seidel
    // sweeps would crawl over thousands of expected moves).
    for (std::uint32_t c = 0; c < m.num_choices(); ++c) m.cost[c] = -static_cast<double>(m.moves(c));
    PolicyIterationStats mstats;
    if (policy_iteration(team, m, rev, 10000, 1e-9, choice, x, mstats, blocks) == PolicyIterationEnd::stable &&
        !x.empty()) {
      moves.assign(n, 0.0);
      for (std::uint32_t i = 0; i < m.n; ++i) moves[m.state_vertex[i].index()] = -x[i];
      fill_folded(moves, true);
    }
  }
  if (!certify_rmax(g, is_target, r, deadline, moves.empty() ? nullptr : &moves))
    r.not_certified = "the proved bounds of policy iteration's answer did not close (a numerically hard model)";
  return r;
}

}  // namespace playtest::detail
