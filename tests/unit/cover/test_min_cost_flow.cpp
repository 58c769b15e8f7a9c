// The balancing min-cost flow behind postman_tour: every LEMON solver, with and without the cost
// shift, on random medium graphs, must reach the same optimal cost as the NetworkSimplex with
// block search on the plain costs (the solver postman_tour used before), return potentials that
// certify it (complementary slackness, as LEMON's own tests check), and give a valid tour.
#include <gtest/gtest.h>

#include <random>

#include "cover/detail/min_cost_flow.hpp"
#include "cover_test_support.hpp"
#include "min_cost_flow_check.hpp"
#include "playtest/cover/postman_tour.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/graph/graph_builder.hpp"

using namespace playtest;
using namespace playtest::cover_test;
using detail::FlowNetwork;
using detail::MinCostFlowAlgorithm;
using detail::MinCostFlowStatus;

namespace {

constexpr PostmanFlowSolver all_solvers[] = {PostmanFlowSolver::network_simplex,
                                             PostmanFlowSolver::network_simplex_block_search,
                                             PostmanFlowSolver::cost_scaling, PostmanFlowSolver::capacity_scaling};

constexpr MinCostFlowAlgorithm all_algorithms[] = {
    MinCostFlowAlgorithm::network_simplex_altering,     MinCostFlowAlgorithm::network_simplex_block,
    MinCostFlowAlgorithm::cost_scaling_partial_augment, MinCostFlowAlgorithm::cost_scaling_push,
    MinCostFlowAlgorithm::cost_scaling_augment,         MinCostFlowAlgorithm::capacity_scaling};

// The balancing problem of a strongly connected graph: supply = in-degree - out-degree.
FlowNetwork balancing_network(const TestGraph& g) {
  FlowNetwork net;
  net.num_nodes = g.num_vertices();
  net.supply.assign(g.num_vertices(), 0);
  for (EdgeId e : g.edges()) {
    net.source.push_back(g.source(e).value);
    net.target.push_back(g.target(e).value);
    net.cost.push_back(static_cast<std::int64_t>(g.cost(e)));
    --net.supply[g.source(e).index()];
    ++net.supply[g.target(e).index()];
  }
  return net;
}

// Flow conservation: out - in == supply at every node, flows >= 0, the claimed total cost, and the
// potentials' certificate.
void expect_feasible(const FlowNetwork& net, const detail::MinCostFlowResult& r) {
  ASSERT_EQ(r.status, MinCostFlowStatus::optimal);
  ASSERT_EQ(r.flow.size(), net.source.size());
  std::vector<std::int64_t> balance(net.num_nodes, 0);
  std::int64_t cost = 0;
  for (std::size_t a = 0; a < r.flow.size(); ++a) {
    ASSERT_GE(r.flow[a], 0);
    balance[net.source[a]] += r.flow[a];
    balance[net.target[a]] -= r.flow[a];
    cost += r.flow[a] * net.cost[a];
  }
  EXPECT_EQ(balance, net.supply);
  EXPECT_EQ(cost, r.total_cost);
  EXPECT_EQ(certificate_violation(net, r.flow, r.potential), "");
}

}  // namespace

TEST(MinCostFlow, CertificateCheckRejectsANonOptimalFlowOrWrongPotentials) {
  // 0 -> 1 directly (cost 5) or through 2 (1 + 1); one unit from 0 to 1.
  const FlowNetwork net{
      .num_nodes = 3, .source = {0, 0, 2}, .target = {1, 2, 1}, .cost = {5, 1, 1}, .supply = {1, -1, 0}};
  for (MinCostFlowAlgorithm a : all_algorithms) {
    SCOPED_TRACE(static_cast<int>(a));
    const auto r = detail::solve_min_cost_flow(net, {.algorithm = a});
    expect_feasible(net, r);
    EXPECT_EQ(r.flow, (std::vector<std::int64_t>{0, 1, 1}));
    EXPECT_EQ(r.total_cost, 2);
    // The dual objective equals the primal one (strong duality).
    EXPECT_EQ(-(r.potential[0] * net.supply[0] + r.potential[1] * net.supply[1]), r.total_cost);
  }
  const auto r = detail::solve_min_cost_flow(net);
  // The feasible but dearer flow on the direct arc violates slackness under any potentials that
  // certify the cheap route, and under the potentials of the optimum in particular.
  EXPECT_NE(certificate_violation(net, {1, 0, 0}, r.potential), "");
  std::vector<std::int64_t> wrong = r.potential;
  wrong[2] += 1;  // 0 -> 2 now has reduced cost 2 while it carries flow
  EXPECT_NE(certificate_violation(net, r.flow, wrong), "");
}

TEST(MinCostFlow, ReportsInfeasibleWhenADemandIsUnreachable) {
  // Node 0 must send to node 1, but the only arc runs 1 -> 0.
  const FlowNetwork net{.num_nodes = 2, .source = {1}, .target = {0}, .cost = {1}, .supply = {1, -1}};
  for (MinCostFlowAlgorithm a : all_algorithms)
    for (bool shift : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "algorithm " << static_cast<int>(a) << " shift " << shift);
      const auto r = detail::solve_min_cost_flow(net, {.algorithm = a, .shift_costs = shift});
      EXPECT_EQ(r.status, MinCostFlowStatus::infeasible);
      EXPECT_TRUE(r.flow.empty());
      EXPECT_TRUE(r.potential.empty());
    }
}

TEST(MinCostFlow, EverySolverReachesTheOldOptimumOnMediumGraphs) {
  struct Case {
    std::uint32_t vertices, max_cost, min_cost;
  };
  // 10^3 to 10^4 edges; large costs take the 64-bit path, small ones the 32-bit path.
  const Case cases[] = {{250, 10, 1}, {1000, 10, 1}, {2500, 10, 1}, {1000, 1'000'000, 1}, {800, 3, 0}};
  std::uint64_t seed = 7;
  for (const Case& c : cases) {
    const TestGraph g = generate_random_graph({.vertices = c.vertices,
                                               .out_degree = 4,
                                               .goals = 0,
                                               .max_cost = c.max_cost,
                                               .min_cost = c.min_cost,
                                               .strongly_connected = true,
                                               .seed = seed++});
    const FlowNetwork net = balancing_network(g);
    const auto old = detail::solve_min_cost_flow(
        net, {.algorithm = MinCostFlowAlgorithm::network_simplex_block, .shift_costs = false});
    expect_feasible(net, old);
    for (MinCostFlowAlgorithm a : all_algorithms)
      for (bool shift : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "vertices " << c.vertices << " max cost " << c.max_cost << " algorithm "
                                          << static_cast<int>(a) << " shift " << shift);
        const auto r = detail::solve_min_cost_flow(net, {.algorithm = a, .shift_costs = shift});
        expect_feasible(net, r);
        EXPECT_EQ(r.total_cost, old.total_cost);
      }
    // The same through postman_tour: equal tour costs, each tour a valid certificate.
    const PostmanTour reference = postman_tour(g, {.flow_solver = PostmanFlowSolver::network_simplex_block_search});
    EXPECT_EQ(reference.cost - reference.lower_bound, static_cast<double>(old.total_cost));
    for (PostmanFlowSolver s : all_solvers) {
      SCOPED_TRACE(::testing::Message() << "postman solver " << static_cast<int>(s));
      const PostmanTour t = postman_tour(g, {.flow_solver = s});
      expect_valid_tour(g, t);
      EXPECT_EQ(t.cost, reference.cost);
    }
  }
}

TEST(MinCostFlow, SolversAgreeWithResetsAndUncoverableEdges) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const TestGraph g = generate_random_graph(
        {.vertices = 600, .out_degree = 3, .goals = 0, .strongly_connected = false, .seed = seed});
    const PostmanOptions base{.reset_cost = 4, .on_uncoverable = UncoverablePolicy::skip};
    PostmanOptions o = base;
    o.flow_solver = PostmanFlowSolver::network_simplex_block_search;
    const PostmanTour reference = postman_tour(g, o);
    for (PostmanFlowSolver s : all_solvers) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << " solver " << static_cast<int>(s));
      o.flow_solver = s;
      const PostmanTour t = postman_tour(g, o);
      expect_valid_tour(g, t);
      EXPECT_EQ(t.cost, reference.cost);
      EXPECT_EQ(t.uncoverable.size(), reference.uncoverable.size());
    }
  }
}

TEST(MinCostFlow, FractionalCostsAgreeAcrossNetworkSimplexRules) {
  // Dyadic costs are scaled to large integers (the 64-bit path); CostScaling may refuse them.
  std::mt19937_64 rng(3);
  GraphBuilder b;
  const std::uint32_t n = 300;
  for (std::uint32_t v = 0; v < n; ++v) b.add_vertex("v" + std::to_string(v), VertexKind::active);
  std::uniform_int_distribution<std::uint32_t> pick(0, n - 1);
  std::uniform_int_distribution<int> quarter(1, 40);
  for (std::uint32_t v = 0; v < n; ++v) {
    b.add_edge({.from = b.vertex_ref("v" + std::to_string(v)),
                .to = b.vertex_ref("v" + std::to_string((v + 1) % n)),
                .cost = quarter(rng) / 4.0});
    for (int k = 0; k < 3; ++k)
      b.add_edge({.from = b.vertex_ref("v" + std::to_string(v)),
                  .to = b.vertex_ref("v" + std::to_string(pick(rng))),
                  .cost = quarter(rng) / 4.0});
  }
  b.set_initial("v0");
  const TestGraph g = b.build();
  const PostmanTour reference = postman_tour(g, {.flow_solver = PostmanFlowSolver::network_simplex_block_search});
  for (PostmanFlowSolver s : {PostmanFlowSolver::network_simplex, PostmanFlowSolver::capacity_scaling}) {
    const PostmanTour t = postman_tour(g, {.flow_solver = s});
    expect_valid_tour(g, t);
    EXPECT_TRUE(t.exact_costs);
    EXPECT_EQ(t.cost, reference.cost);
  }
  try {
    const PostmanTour t = postman_tour(g, {.flow_solver = PostmanFlowSolver::cost_scaling});
    expect_valid_tour(g, t);
    EXPECT_EQ(t.cost, reference.cost);
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "flow_solver");
    EXPECT_NE(std::string(e.what()).find("the costs are too large for cost scaling"), std::string::npos) << e.what();
  }
}

TEST(MinCostFlow, RejectsMalformedNetworks) {
  FlowNetwork net{.num_nodes = 2, .source = {0}, .target = {1}, .cost = {1}, .supply = {1, -1}};
  EXPECT_EQ(detail::solve_min_cost_flow(net).total_cost, 1);
  FlowNetwork bad = net;
  bad.target = {2};
  EXPECT_THROW(detail::solve_min_cost_flow(bad), InternalError);
  bad = net;
  bad.cost = {-1};
  EXPECT_THROW(detail::solve_min_cost_flow(bad), InternalError);
  bad = net;
  bad.supply = {1, 0};
  EXPECT_THROW(detail::solve_min_cost_flow(bad), InternalError);
  bad = net;
  bad.cost.clear();
  EXPECT_THROW(detail::solve_min_cost_flow(bad), InternalError);
}
