// The PRISM/Storm property engine (issue 23, item 3) against brute force: on a thousand random small
// MDPs (dead ends, self-loops, zero costs, unreachable targets, tiny probabilities), every memoryless
// strategy is evaluated in exact rational arithmetic and the per-vertex best is the optimum (memoryless
// deterministic strategies suffice for Pmax, Pmin, Rmin over the strategies that reach the target
// almost surely, and Rmax, which is infinite as soon as one strategy misses). solve_property must
// return exactly that, in rational arithmetic, and its certified double answers must be it rounded.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/solve/exact/exact_solve.hpp"
#include "playtest/solve/exact/property.hpp"

using namespace playtest;
using exact::Rational;

namespace {

struct Case {
  TestGraph g;
  std::vector<VertexId> targets;
};

Case random_case(Rng& rng) {
  GraphBuilder b;
  const std::uint32_t n = 2 + static_cast<std::uint32_t>(rng.below(6));
  std::vector<VertexId> vs;
  std::vector<bool> passive(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    passive[i] = rng.below(2) == 0;
    vs.push_back(b.add_vertex("v" + std::to_string(i), passive[i] ? VertexKind::passive : VertexKind::active));
  }
  b.set_initial(vs[0]);
  static const double probs[] = {1e-9, 0.1, 0.25, 0.5, 1.0 / 3, 0.7};
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t deg =
        passive[i] ? 1 + static_cast<std::uint32_t>(rng.below(3)) : static_cast<std::uint32_t>(rng.below(3));
    for (std::uint32_t k = 0; k < deg; ++k) {
      const VertexId t = rng.below(5) == 0 ? vs[i] : vs[rng.below(n)];
      EdgeSpec e{.from = vs[i], .to = t, .label = "x", .cost = static_cast<double>(rng.below(3))};
      if (passive[i]) e.weight = probs[rng.below(6)];
      b.add_edge(e);
    }
  }
  Case c;
  c.g = b.build();
  for (VertexId v : c.g.vertices())
    if (rng.below(4) == 0) c.targets.push_back(v);
  if (c.targets.empty()) c.targets.push_back(VertexId{n - 1});
  return c;
}

// Calls f(strategy) for every memoryless strategy (one edge per active vertex with edges).
template <class F>
void for_each_strategy(const TestGraph& g, F f) {
  std::vector<VertexId> choosers;
  for (VertexId v : g.vertices())
    if (g.is_active(v) && g.out_degree(v) > 0) choosers.push_back(v);
  std::vector<EdgeId> s(g.num_vertices(), EdgeId::none());
  std::vector<std::uint32_t> pick(choosers.size(), 0);
  for (;;) {
    for (std::size_t i = 0; i < choosers.size(); ++i) s[choosers[i].index()] = g.out_edges(choosers[i])[pick[i]];
    f(s);
    std::size_t i = 0;
    while (i < choosers.size() && ++pick[i] == g.out_degree(choosers[i])) pick[i++] = 0;
    if (i == choosers.size()) return;
  }
}

TEST(PropertyBruteForce, ExactOptimaOfEveryKind) {
  Rng rng(2026);
  int cases = 0, with_choice = 0;
  for (int round = 0; round < 1000; ++round) {
    Case c = random_case(rng);
    const TestGraph& g = c.g;
    const std::uint32_t n = g.num_vertices();
    std::vector<std::uint8_t> is_target(n, 0);
    for (VertexId t : c.targets) is_target[t.index()] = 1;
    const auto x = exact::exact_numbers(g);
    // Brute force. Targets absorb: a strategy's values are computed with the targets as goals.
    std::vector<std::optional<Rational>> pmax(n), pmin(n);
    std::vector<std::optional<Rational>> rmin(n), rmax(n);
    std::vector<std::uint8_t> rmax_inf(n, 0), rmin_any(n, 0);
    int strategies = 0;
    for_each_strategy(g, [&](const std::vector<EdgeId>& s) {
      ++strategies;
      const auto p = exact::strategy_reach_probability(g, x, c.targets, s);
      const auto r = exact::strategy_cost(g, x, c.targets, s);
      for (std::uint32_t v = 0; v < n; ++v) {
        if (!pmax[v] || p[v] > *pmax[v]) pmax[v] = p[v];
        if (!pmin[v] || p[v] < *pmin[v]) pmin[v] = p[v];
        if (r[v]) {
          if (!rmin[v] || *r[v] < *rmin[v]) rmin[v] = r[v];
          if (!rmax[v] || *r[v] > *rmax[v]) rmax[v] = r[v];
          rmin_any[v] = 1;
        } else {
          rmax_inf[v] = 1;
        }
      }
    });
    with_choice += strategies > 1;
    ++cases;
    auto solve = [&](PropertyKind k, PropertyDirection d, bool exact) {
      return solve_property(g, {.kind = k, .direction = d, .targets = c.targets}, {.exact = exact});
    };
    for (bool max : {true, false}) {
      const auto d = max ? PropertyDirection::max : PropertyDirection::min;
      const PropertyResult pe = solve(PropertyKind::probability, d, true);
      const PropertyResult re = solve(PropertyKind::reward, d, true);
      const PropertyResult pd = solve(PropertyKind::probability, d, false);
      const PropertyResult rd = solve(PropertyKind::reward, d, false);
      for (std::uint32_t v = 0; v < n; ++v) {
        SCOPED_TRACE("round " + std::to_string(round) + " vertex " + std::to_string(v) + (max ? " max" : " min"));
        const Rational& want_p = max ? *pmax[v] : *pmin[v];
        EXPECT_EQ(pe.exact[v], want_p);
        ASSERT_TRUE(pd.certified) << pd.not_certified;
        EXPECT_EQ(pd.value[v], exact::to_double(want_p));
        const bool inf = max ? rmax_inf[v] != 0 : rmin_any[v] == 0;
        EXPECT_EQ(re.infinite[v] != 0, inf);
        if (!inf) {
          EXPECT_EQ(re.exact[v], max ? *rmax[v] : *rmin[v]);
          EXPECT_EQ(rd.value[v], exact::to_double(re.exact[v]));
        }
        // The returned strategy achieves the optimum (where it has a choice to make).
        if (g.is_active(VertexId{v}) && !is_target[v] && !pe.strategy[v].is_none() && g.out_degree(VertexId{v}) > 1) {
          const auto p = exact::strategy_reach_probability(g, x, c.targets, pe.strategy);
          EXPECT_EQ(p[v], want_p);
        }
      }
    }
  }
  EXPECT_EQ(cases, 1000);
  EXPECT_GT(with_choice, 500);
}

}  // namespace
