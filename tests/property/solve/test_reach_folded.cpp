// Bounded reachability with the choice vertices folded (ChoiceFolding::always) against the
// vertex-level solver (ChoiceFolding::never) on random MDPs of the PRISM importer's shape: every
// value, change point, frontier size and stored byte must be the same, for odd and even bounds,
// both preorders and any number of threads; graphs of another shape fall back to the vertex level.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "playtest/graph/generate.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/solve/bounded_reachability.hpp"

using namespace playtest;

namespace {

struct Mdp {
  TestGraph g;
  std::vector<VertexId> goals;
};

// States with 0-4 choices each (some straight to a goal, some dead ends), 1-3 successors per
// choice, a goal's own choices ("loose": only the goal leads to them), costs on the choices and,
// with `passive_costs`, on the choices' edges too.
Mdp random_mdp(Rng& rng, std::uint32_t states, bool passive_costs) {
  GraphBuilder b;
  std::vector<VertexId> s(states);
  std::vector<bool> goal(states);
  Mdp m;
  for (std::uint32_t i = 0; i < states; ++i) {
    goal[i] = rng.below(7) == 0;
    s[i] = b.add_vertex("s" + std::to_string(i), VertexKind::active, goal[i]);
    if (goal[i]) m.goals.push_back(s[i]);
  }
  b.set_initial(s[0]);
  for (std::uint32_t i = 0; i < states; ++i) {
    const std::uint32_t choices = static_cast<std::uint32_t>(rng.below(5));
    for (std::uint32_t c = 0; c < choices; ++c) {
      const double cost = static_cast<double>(rng.below(6));
      std::uint32_t t = static_cast<std::uint32_t>(rng.below(states));
      if (!goal[i] && rng.below(5) == 0 && goal[t]) {  // straight to a goal
        b.add_edge({.from = s[i], .to = s[t], .label = "g", .cost = cost});
        continue;
      }
      const VertexId p = b.add_vertex("s" + std::to_string(i) + "." + std::to_string(c), VertexKind::passive);
      b.add_edge({.from = s[i], .to = p, .label = "c", .cost = cost});
      const std::uint32_t succ = 1 + static_cast<std::uint32_t>(rng.below(3));
      for (std::uint32_t k = 0; k < succ; ++k) {
        t = static_cast<std::uint32_t>(rng.below(states));
        b.add_edge({.from = p,
                    .to = s[t],
                    .label = "?",
                    .cost = passive_costs ? static_cast<double>(rng.below(3)) : 0.0,
                    .weight = 1.0 + static_cast<double>(rng.below(5))});
      }
    }
  }
  m.g = b.build();
  return m;
}

void expect_same(const TestGraph& g, std::span<const VertexId> goals, BoundedReachOptions o, const char* what,
                 bool with_statistics = true) {
  o.fold_choices = ChoiceFolding::never;
  o.frontier_statistics = true;
  const BoundedReachResult ref = solve_bounded_reachability(g, goals, o);
  ASSERT_EQ(ref.frontier_sizes().size(), o.bound) << what;
  // Folded with and without the statistics (without them the passes keep no choice values, which
  // are computed again at the end and before a sparse pass): everything else identical.
  for (const bool stats : {true, false}) {
    if (stats && !with_statistics) continue;
    o.fold_choices = ChoiceFolding::always;
    o.frontier_statistics = stats;
    const BoundedReachResult r = solve_bounded_reachability(g, goals, o);
    ASSERT_EQ(r.bound(), ref.bound()) << what;
    ASSERT_EQ(r.num_change_points(), ref.num_change_points()) << what;
    if (stats)
      ASSERT_EQ(r.frontier_sizes(), ref.frontier_sizes()) << what;
    else
      ASSERT_TRUE(r.frontier_sizes().empty()) << what;
    ASSERT_EQ(r.change_point_bytes(), ref.change_point_bytes()) << what;
    for (VertexId v : g.vertices()) {
      ASSERT_EQ(r.prob(v), ref.prob(v)) << what << " vertex " << g.name(v);
      ASSERT_EQ(r.cost(v), ref.cost(v)) << what << " vertex " << g.name(v);
      ASSERT_EQ(r.choice(v), ref.choice(v)) << what << " vertex " << g.name(v);
      const auto a = r.change_points(v), b = ref.change_points(v);
      ASSERT_EQ(a.size(), b.size()) << what << " vertex " << g.name(v);
      for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i].k, b[i].k) << what;
        ASSERT_EQ(a[i].edge, b[i].edge) << what;
      }
      for (std::uint32_t k = 0; k <= o.bound; k += 1 + o.bound / 7) ASSERT_EQ(r.choice(v, k), ref.choice(v, k)) << what;
    }
  }
}

TEST(ReachFolded, SmallMdpsEveryBoundAndOrder) {
  Rng rng(31337);
  for (int round = 0; round < 300; ++round) {
    const Mdp m = random_mdp(rng, 2 + static_cast<std::uint32_t>(rng.below(25)), round % 3 == 0);
    if (m.goals.empty()) continue;
    for (std::uint32_t n : {0u, 1u, 2u, 3u, 4u, 7u, 12u})
      for (ReachOrder order : {ReachOrder::lexicographic, ReachOrder::probability}) {
        // Every sweep, a round each: frontier passes only (the last pass sparse, so the choices'
        // values are put back together from the states it changed), dense only, automatic.
        const ReachSweep sweep = std::array{ReachSweep::automatic, ReachSweep::frontier, ReachSweep::dense}[round % 3];
        expect_same(m.g, m.goals, {.bound = n, .order = order, .sweep = sweep},
                    ("round " + std::to_string(round)).c_str(), round % 2 == 0);
      }
  }
}

TEST(ReachFolded, LargeMdpAnyThreadCount) {
  Rng rng(5);
  const Mdp m = random_mdp(rng, 40000, false);  // about 100 000 vertices: two threads' worth
  for (unsigned threads : {1u, 2u, 3u})
    for (std::uint32_t n : {30u, 31u}) expect_same(m.g, m.goals, {.bound = n, .threads = threads}, "large");
}

TEST(ReachFolded, OtherGraphsFallBackToTheVertexLevel) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const TestGraph g = generate_random_graph({.vertices = 500, .out_degree = 3, .goals = 4, .seed = seed});
    expect_same(g, g.goals(), {.bound = 20}, "random graph");
  }
}

}  // namespace
