// Random tests of the balancing flow's optimality certificate (complementary slackness, as LEMON's
// own tests check it), for every flow algorithm:
// - small random transshipment networks, feasible or not: the status is `infeasible` exactly when
//   Gale's condition fails (some arc-closed node set holds more supply than demand), and an
//   `optimal` answer comes with potentials that certify it; the solvers agree on the cost. Not
//   CostScaling: on such networks LEMON 1.3.1's CostScaling::priceRefinement writes past its
//   rank buckets (cost_scaling.h:1076; AddressSanitizer: heap-buffer-overflow, all three methods,
//   e.g. iteration 797 below with PUSH). The medium graphs of tests/unit/cover and the graphs of
//   the second test run it with the certificate checked.
// - random graphs (with resets, fractional costs, uncoverable edges skipped): every postman solver
//   gives a valid tour whose certificate holds, at the same cost.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../../unit/cover/cover_test_support.hpp"
#include "../../unit/cover/min_cost_flow_check.hpp"
#include "cover/detail/min_cost_flow.hpp"
#include "playtest/base/error.hpp"
#include "playtest/cover/postman_tour.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"

using namespace playtest;
using namespace playtest::cover_test;
using detail::FlowNetwork;
using detail::MinCostFlowAlgorithm;
using detail::MinCostFlowStatus;

namespace {

// The solvers that run safely on every network (see above for CostScaling).
constexpr MinCostFlowAlgorithm safe_algorithms[] = {MinCostFlowAlgorithm::network_simplex_altering,
                                                    MinCostFlowAlgorithm::network_simplex_block,
                                                    MinCostFlowAlgorithm::capacity_scaling};

constexpr PostmanFlowSolver all_solvers[] = {PostmanFlowSolver::network_simplex,
                                             PostmanFlowSolver::network_simplex_block_search,
                                             PostmanFlowSolver::cost_scaling, PostmanFlowSolver::capacity_scaling};

// n <= 7 nodes, up to 12 arcs (parallel arcs and loops included), supplies in [-3, 3] summing to 0.
FlowNetwork random_network(Rng& rng) {
  FlowNetwork net;
  net.num_nodes = static_cast<std::uint32_t>(2 + rng.below(6));
  const auto m = rng.below(13);
  for (std::uint64_t i = 0; i < m; ++i) {
    net.source.push_back(static_cast<std::uint32_t>(rng.below(net.num_nodes)));
    net.target.push_back(static_cast<std::uint32_t>(rng.below(net.num_nodes)));
    net.cost.push_back(static_cast<std::int64_t>(rng.below(10)));
  }
  net.supply.assign(net.num_nodes, 0);
  for (int k = 0; k < 3; ++k) {
    const auto amount = static_cast<std::int64_t>(rng.below(3));
    net.supply[rng.below(net.num_nodes)] += amount;
    net.supply[rng.below(net.num_nodes)] -= amount;
  }
  return net;
}

// Gale's condition for an uncapacitated network: feasible iff no node set that no arc leaves
// holds a positive total supply (it could not get rid of it).
bool feasible_by_gale(const FlowNetwork& net) {
  for (std::uint32_t set = 1; set < (1u << net.num_nodes); ++set) {
    bool closed = true;
    for (std::size_t a = 0; a < net.source.size() && closed; ++a)
      closed = !((set >> net.source[a]) & 1u) || ((set >> net.target[a]) & 1u);
    if (!closed) continue;
    std::int64_t supply = 0;
    for (std::uint32_t v = 0; v < net.num_nodes; ++v)
      if ((set >> v) & 1u) supply += net.supply[v];
    if (supply > 0) return false;
  }
  return true;
}

}  // namespace

TEST(FlowCertificateProperty, StatusAndPotentialsOnSmallNetworks) {
  Rng rng(14);
  int optimal = 0, infeasible = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    const FlowNetwork net = random_network(rng);
    const bool feasible = feasible_by_gale(net);
    std::int64_t reference = -1;
    for (MinCostFlowAlgorithm a : safe_algorithms)
      for (bool shift : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << "iter " << iter << " algorithm " << static_cast<int>(a) << " shift " << shift);
        const auto r = detail::solve_min_cost_flow(net, {.algorithm = a, .shift_costs = shift});
        if (!feasible) {
          EXPECT_EQ(r.status, MinCostFlowStatus::infeasible);
          continue;
        }
        ASSERT_EQ(r.status, MinCostFlowStatus::optimal);
        std::vector<std::int64_t> balance(net.num_nodes, 0);
        std::int64_t cost = 0;
        for (std::size_t i = 0; i < net.source.size(); ++i) {
          EXPECT_GE(r.flow[i], 0);
          balance[net.source[i]] += r.flow[i];
          balance[net.target[i]] -= r.flow[i];
          cost += r.flow[i] * net.cost[i];
        }
        EXPECT_EQ(balance, net.supply);
        EXPECT_EQ(cost, r.total_cost);
        EXPECT_EQ(certificate_violation(net, r.flow, r.potential), "");
        if (reference < 0) reference = r.total_cost;
        EXPECT_EQ(r.total_cost, reference);
      }
    ++(feasible ? optimal : infeasible);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(optimal, 200);
  EXPECT_GT(infeasible, 200);
}

TEST(FlowCertificateProperty, EveryPostmanSolverCertifiesItsTourOnRandomGraphs) {
  Rng rng(99);
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const bool connected = seed % 2 == 0;
    const TestGraph plain = generate_random_graph({.vertices = static_cast<std::uint32_t>(5 + rng.below(120)),
                                                   .out_degree = static_cast<std::uint32_t>(1 + rng.below(4)),
                                                   .goals = 0,
                                                   .max_cost = static_cast<std::uint32_t>(1 + rng.below(1000)),
                                                   .min_cost = static_cast<std::uint32_t>(rng.below(2)),
                                                   .strongly_connected = connected,
                                                   .seed = seed});
    // Every third graph gets fractional costs (scaled to large integers for the flow).
    GraphBuilder b;
    for (VertexId v : plain.vertices()) b.add_vertex(std::string(plain.name(v)), plain.kind(v));
    for (EdgeId e : plain.edges()) {
      double cost = plain.cost(e);
      if (seed % 3 == 0) cost = cost / 7.0 + static_cast<double>(rng.below(4)) / 3.0;
      b.add_edge(
          {.from = b.vertex_ref(std::string(plain.name(plain.source(e)))),
           .to = b.vertex_ref(std::string(plain.name(plain.target(e)))),
           .label = std::string(plain.label(e)),
           .cost = cost,
           .prob = plain.is_passive(plain.source(e)) ? std::optional<double>(plain.probability(e)) : std::nullopt});
    }
    b.set_initial(std::string(plain.name(plain.initial())));
    const TestGraph g = b.build();
    PostmanOptions o{.on_uncoverable = UncoverablePolicy::skip};
    if (seed % 4 != 1) o.reset_cost = static_cast<double>(rng.below(20)) / (seed % 3 == 0 ? 4.0 : 1.0);
    double reference = -1;
    for (PostmanFlowSolver s : all_solvers) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << " solver " << static_cast<int>(s));
      o.flow_solver = s;
      PostmanTour t;
      try {
        t = postman_tour(g, o);
      } catch (const UsageError& e) {
        // CostScaling refuses costs whose scaled products could overflow (fractional costs).
        EXPECT_EQ(s, PostmanFlowSolver::cost_scaling) << e.what();
        continue;
      } catch (const GraphError&) {
        // No edge lies on a closed walk through the start vertex: nothing to certify.
        break;
      }
      expect_valid_tour(g, t);  // the closed walk and the flow's certificate
      if (reference < 0) reference = t.cost;
      if (t.exact_costs) {
        EXPECT_EQ(t.cost, reference);
      } else {
        EXPECT_NEAR(t.cost, reference, t.optimality_gap_bound);
      }
    }
    if (::testing::Test::HasFailure()) return;
  }
}
