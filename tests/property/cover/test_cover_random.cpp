// Random differential tests: postman tours against an exhaustive search for the cheapest closed
// walk covering every edge (Dijkstra over (vertex, set of covered edges)), which knows nothing of
// balancing or flows; and p_{i,v} against enumeration of every play of Cover(v, n).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include "../../unit/cover/cover_test_support.hpp"
#include "playtest/base/error.hpp"
#include "playtest/cover/cover_convergence.hpp"
#include "playtest/cover/cover_policy.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"

using namespace playtest;
using namespace playtest::cover_test;

namespace {

struct Case {
  TestGraph g;
  std::optional<double> reset;
};

// n <= 5 vertices, m <= 8 edges (parallel edges and self-loops included), some passive vertices.
Case random_case(Rng& rng, bool fractional, bool with_passive) {
  GraphBuilder b;
  const auto n = static_cast<std::uint32_t>(1 + rng.below(5));
  std::vector<VertexId> vs;
  std::vector<bool> passive(n, false);
  for (std::uint32_t i = 0; i < n; ++i) {
    passive[i] = with_passive && i > 0 && rng.below(3) == 0;
    vs.push_back(b.add_vertex("v" + std::to_string(i), passive[i] ? VertexKind::passive : VertexKind::active));
  }
  const auto m = static_cast<std::uint32_t>(1 + rng.below(8));
  std::vector<std::uint32_t> out(n, 0);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> es;
  for (std::uint32_t i = 0; i < m; ++i) es.push_back({static_cast<std::uint32_t>(rng.below(n)), static_cast<std::uint32_t>(rng.below(n))});
  for (auto [u, v] : es) ++out[u];
  for (std::uint32_t u = 0; u < n; ++u)
    if (passive[u] && out[u] == 0) {  // a passive vertex needs a move
      es.push_back({u, static_cast<std::uint32_t>(rng.below(n))});
      ++out[u];
    }
  for (auto [u, v] : es) {
    double cost = fractional ? static_cast<double>(rng.below(1000)) / 7.0 : static_cast<double>(rng.below(5));
    std::optional<double> prob;
    if (passive[u]) prob = 1.0 / out[u];
    b.add_edge({.from = vs[u], .to = vs[v], .label = "x", .cost = cost, .prob = prob});
  }
  b.set_initial(vs[0]);
  Case c;
  if (rng.below(3) == 0) c.reset = fractional ? static_cast<double>(rng.below(100)) / 3.0 : static_cast<double>(rng.below(6));
  b.set_reset_cost(c.reset);
  c.g = b.build();
  return c;
}

// The cheapest closed walk from `start` taking every edge in `need` (bitmask), using graph edges
// and reset arcs; infinity if none.
double brute_force(const TestGraph& g, VertexId start, std::uint32_t need, const ResetArcs& r) {
  const std::uint32_t n = g.num_vertices();
  const std::uint32_t masks = 1u << g.num_edges();
  std::vector<double> dist(static_cast<std::size_t>(n) * masks, std::numeric_limits<double>::infinity());
  using Item = std::pair<double, std::uint64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
  auto idx = [&](std::uint32_t v, std::uint32_t mask) { return static_cast<std::uint64_t>(v) * masks + mask; };
  dist[idx(start.value, 0)] = 0;
  q.push({0, idx(start.value, 0)});
  while (!q.empty()) {
    auto [d, s] = q.top();
    q.pop();
    if (d > dist[s]) continue;
    const auto v = static_cast<std::uint32_t>(s / masks), mask = static_cast<std::uint32_t>(s % masks);
    if (v == start.value && (mask & need) == need) return d;
    auto relax = [&](std::uint32_t to, std::uint32_t nm, double c) {
      if (d + c < dist[idx(to, nm)]) {
        dist[idx(to, nm)] = d + c;
        q.push({d + c, idx(to, nm)});
      }
    };
    for (EdgeId e : g.out_edges(VertexId{v})) relax(g.target(e).value, mask | (1u << e.value), g.cost(e));
    if (r.enabled && r.can_reset[v]) relax(r.to.value, mask, r.cost);
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace

TEST(PostmanProperty, MatchesExhaustiveSearch) {
  Rng rng(2024);
  int toured = 0, rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const bool fractional = iter % 3 == 2;
    Case c = random_case(rng, fractional, iter % 2 == 1);
    const TestGraph& g = c.g;
    for (VertexId start : g.vertices()) {
      PostmanOptions opts{.start = start, .on_uncoverable = UncoverablePolicy::skip};
      ResetArcs r = resolve_resets(g, opts);
      auto unc = find_uncoverable_edges(g, start, r);
      std::uint32_t need = 0;
      std::vector<std::uint8_t> bad(g.num_edges(), 0);
      for (auto& u : unc) bad[u.edge.index()] = 1;
      for (EdgeId e : g.edges())
        if (!bad[e.index()]) need |= 1u << e.value;
      // Independent check of the uncoverable set: e is coverable iff a closed walk through start takes it.
      for (EdgeId e : g.edges()) {
        const double with_e = brute_force(g, start, 1u << e.value, r);
        EXPECT_EQ(std::isinf(with_e), bad[e.index()] != 0) << "iter " << iter << " edge " << e.value;
      }
      if (need == 0) {
        EXPECT_THROW(postman_tour(g, opts), GraphError);
        ++rejected;
        continue;
      }
      PostmanTour t = postman_tour(g, opts);
      expect_valid_tour(g, t);
      if (unc.empty()) {
        PostmanTour strict = postman_tour(g, {.start = start});
        EXPECT_EQ(strict.steps, t.steps);
      } else {
        EXPECT_THROW(postman_tour(g, {.start = start}), GraphError);
      }
      const double best = brute_force(g, start, need, r);
      if (fractional) {
        EXPECT_NEAR(t.cost, best, 1e-9 * (1 + best)) << "iter " << iter;
      } else {
        EXPECT_EQ(t.cost, best) << "iter " << iter;
      }
      TourSegments s = cut_tour(g, t);
      expect_valid_segments(g, t, s);
      ++toured;
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GT(toured, 3000);
  EXPECT_GT(rejected, 100);
}

namespace {

// P(Cover(v, k) follows segment `target`) by enumerating every play: the system's edge, then each
// segment starting with it (uniformly).
double enumerate(const TestGraph& g, const TourSegments& s, VertexId v, std::uint32_t target, std::uint32_t k) {
  if (k == 0) return 0;
  double sum = 0;
  for (EdgeId e : g.out_edges(v)) {
    std::vector<std::uint32_t> cands;
    for (std::uint32_t i = 0; i < s.count(); ++i)
      if (s.steps[s.begin[i]].edge == e) cands.push_back(i);
    if (cands.empty()) continue;
    double inner = 0;
    for (std::uint32_t i : cands) inner += i == target ? 1.0 : enumerate(g, s, s.last_vertex(i), target, k - 1);
    sum += g.probability(e) * inner / static_cast<double>(cands.size());
  }
  return sum;
}

}  // namespace

TEST(CoverBoundProperty, MatchesEnumeration) {
  Rng rng(77);
  int checked = 0;
  for (int iter = 0; iter < 5000 && checked < 300; ++iter) {
    Case c = random_case(rng, false, true);
    const TestGraph& g = c.g;
    PostmanTour t;
    try {
      t = postman_tour(g, {.on_uncoverable = UncoverablePolicy::skip});
    } catch (const GraphError&) {
      continue;
    }
    TourSegments s = cut_tour(g, t);
    if (s.cyclic || s.count() > 6) continue;
    CoverBound b = cover_bound(g, s);
    ASSERT_TRUE(b.computed);
    double p = 1;
    for (std::uint32_t i = 0; i < s.count(); ++i)
      for (std::uint32_t j = 0; j < s.count(); ++j) p = std::min(p, enumerate(g, s, s.first_vertex(j), i, s.count()));
    EXPECT_NEAR(b.p, p, 1e-12) << "iter " << iter;
    if (t.uncoverable.empty()) {
      EXPECT_GT(b.p, 0);
    }
    ++checked;
  }
  EXPECT_GE(checked, 200);
}

TEST(CoverPolicyProperty, AlwaysLegalAndCoversStronglyConnectedGraphs) {
  Rng rng(99);
  int checked = 0;
  for (int iter = 0; iter < 2000 && checked < 300; ++iter) {
    Case c = random_case(rng, false, true);
    const TestGraph& g = c.g;
    PostmanTour t;
    try {
      t = postman_tour(g);
    } catch (const GraphError&) {
      continue;
    }
    for (SegmentChoice choice : {SegmentChoice::prefer_uncovered, SegmentChoice::random}) {
      CoverPolicy policy(g, t, {.choice = choice});
      ConvergenceTable table = simulate_coverage(g, policy, {.runs = 20, .max_visits = 400, .seed = static_cast<std::uint64_t>(iter)});
      // 400 visits: with p >= 1/8^6 this could fail, but these graphs are tiny; every run covers.
      EXPECT_EQ(table.rows.back().covered_runs, 20u) << "iter " << iter;
      for (std::size_t k = 1; k < table.rows.size(); ++k) EXPECT_GE(table.rows[k].covered_runs, table.rows[k - 1].covered_runs);
    }
    ++checked;
  }
  EXPECT_GE(checked, 200);
}
