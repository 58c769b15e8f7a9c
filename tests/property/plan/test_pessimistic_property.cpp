// The pessimistic tester (seed 003) on thousands of small random test graphs, against brute force:
// (1) it stops exactly when the system can avoid every further coverage (a sure-winning attractor
// computed naively on the test graph), (2) when it goes on, new coverage comes within rank(current)
// hypergraph moves whatever the system does, (3) the decrementally maintained ranks equal a
// from-scratch recomputation after every move (exact below the pending level, lower bounds above,
// and everywhere after settle_all).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/plan/pessimistic.hpp"

namespace playtest {
namespace {

// Brute force: vertices from which the tester can force taking an edge with goal[e] && !covered[e].
std::vector<std::uint8_t> forcing_region(const TestGraph& g, const std::vector<std::uint8_t>& open, bool resets) {
  std::vector<std::uint8_t> win(g.num_vertices(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (VertexId v : g.vertices()) {
      if (win[v.index()]) continue;
      bool w;
      if (g.is_active(v)) {
        w = false;
        for (EdgeId e : g.out_edges(v)) w = w || open[e.index()] || win[g.target(e).index()];
        if (resets && g.is_resettable() && v != g.initial() && win[g.initial().index()]) w = true;
      } else {
        w = g.out_degree(v) > 0;
        for (EdgeId e : g.out_edges(v)) w = w && (open[e.index()] || win[g.target(e).index()]);
      }
      if (w) win[v.index()] = changed = true;
    }
  }
  return win;
}

void check_ranks(RankGame game) {  // by value: settle_all on a copy keeps the original lazy
  const std::vector<std::uint32_t> ref = game.ranks_from_scratch();
  const std::uint32_t level = game.pending_level();
  for (std::uint32_t v = 0; v < game.num_vertices(); ++v) {
    if (ref[v] != RankGame::unreachable) {
      ASSERT_LE(game.stored_rank(v), ref[v]) << "a stored rank is a lower bound";
    }
    if (game.stored_rank(v) < level) {
      ASSERT_EQ(game.stored_rank(v), ref[v]) << "exact below the pending level";
    }
  }
  game.settle_all();
  for (std::uint32_t v = 0; v < game.num_vertices(); ++v) ASSERT_EQ(game.stored_rank(v), ref[v]) << "vertex " << v;
  for (std::uint32_t h = 0; h < game.num_edges(); ++h) {
    std::uint32_t er = 0;
    for (std::uint32_t t : game.tail(h)) er = std::max(er, ref[t]);
    ASSERT_EQ(game.stored_edge_rank(h), er) << "edge " << h;
  }
}

TEST(PessimisticProperty, StopsExactlyWhenCoverageCannotBeForcedAndRanksMatchScratch) {
  Rng rng(2024);
  int cases = 0, stops = 0, forced = 0, moves = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    GraphBuilder b;
    const std::uint32_t n = 2 + static_cast<std::uint32_t>(rng.below(6));
    std::vector<VertexId> vs;
    std::vector<bool> is_passive;
    for (std::uint32_t i = 0; i < n; ++i) {
      is_passive.push_back(i > 0 && rng.below(100) < 40);
      vs.push_back(b.add_vertex(fmt::format("v{}", i), is_passive.back() ? VertexKind::passive : VertexKind::active));
    }
    static const char* labels[] = {"l0", "l1", "l2", "l3"};
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t deg = static_cast<std::uint32_t>(rng.below(4));
      if (is_passive[i] && deg == 0) deg = 1;  // the builder requires a move of the system
      for (std::uint32_t k = 0; k < deg; ++k) {
        EdgeSpec e{.from = vs[i], .to = vs[rng.below(n)], .label = labels[k]};
        if (is_passive[i]) e.weight = 1.0;
        b.add_edge(e);
      }
    }
    b.set_initial(vs[0]);
    const bool resettable = rng.below(3) == 0;
    if (resettable) b.set_reset_cost(1.0);
    TestGraph g = b.build();
    ++cases;
    const auto coverage = rng.below(2) ? CoverageKind::edges : CoverageKind::states;
    std::vector<std::uint8_t> goal(g.num_edges(), 0);
    for (EdgeId e : g.edges()) goal[e.index()] = rng.below(3) != 0;
    PessimisticOptions o{.coverage = coverage, .break_failure_loops = false};
    TestGraphSpace space(g, o, goal);
    PessimisticTester t(space);
    std::vector<std::uint8_t> covered_e(g.num_edges(), 0), covered_v(g.num_vertices(), 0);
    covered_v[g.initial().index()] = 1;
    VertexId cur = g.initial();
    std::uint32_t budget_hyper = 0;  // hypergraph moves left before a new mark must come
    std::uint32_t marks = t.goals_marked();
    for (int step = 0; step < 60; ++step) {
      check_ranks(t.game());
      // Open goals as edges the tester must force: edge coverage: uncovered trap edges; state
      // coverage: edges into unvisited vertices.
      std::vector<std::uint8_t> open(g.num_edges(), 0);
      for (EdgeId e : g.edges())
        open[e.index()] = coverage == CoverageKind::edges ? goal[e.index()] && !covered_e[e.index()]
                                                          : !covered_v[g.target(e).index()];
      auto win = forcing_region(g, open, true);
      if (t.goals_marked() != marks) {
        marks = t.goals_marked();
        budget_hyper = 0;
      }
      if (g.is_active(cur)) {
        auto choice = t.choose(cur.value);
        ASSERT_EQ(choice.has_value(), win[cur.index()] != 0) << "iteration " << iter << " step " << step;
        if (!choice) {
          ++stops;
          break;
        }
        ++forced;
        if (budget_hyper == 0) budget_hyper = t.rank(cur.value);
        std::uint64_t tag = (*choice)[rng.below(choice->size())];
        if (tag == TestGraphSpace::reset_tag) {
          ASSERT_GE(budget_hyper, 2u);
          cur = g.initial();
          budget_hyper -= 1;
          t.visit(cur.value);
          continue;
        }
        EdgeId e{static_cast<std::uint32_t>(tag)};
        ASSERT_EQ(g.source(e), cur);
        t.visit(space.edge_state(e));
        covered_e[e.index()] = 1;
        cur = g.target(e);
        covered_v[cur.index()] = 1;
        t.visit(cur.value);
        ++moves;
        if (t.goals_marked() == marks) {
          ASSERT_GE(budget_hyper, 3u) << "the forced mark is late (iteration " << iter << ")";
          budget_hyper -= 2;
        }
      } else {
        if (g.out_degree(cur) == 0) break;
        EdgeId e = g.out_edges(cur)[rng.below(g.out_degree(cur))];
        t.visit(space.edge_state(e));
        covered_e[e.index()] = 1;
        cur = g.target(e);
        covered_v[cur.index()] = 1;
        t.visit(cur.value);
        ++moves;
        if (budget_hyper != 0 && t.goals_marked() == marks) {
          ASSERT_GE(budget_hyper, 3u) << "the forced mark is late (iteration " << iter << ")";
          budget_hyper -= 2;
        }
      }
    }
  }
  EXPECT_GT(cases, 1000);
  EXPECT_GT(stops, 200);
  EXPECT_GT(forced, 2000);
  EXPECT_GT(moves, 5000);
}

}  // namespace
}  // namespace playtest
