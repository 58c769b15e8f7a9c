// LEMON's min-cost flow solvers behind the plain interface of min_cost_flow.hpp.
//
// This translation unit is compiled as C++17 (CMakeLists.txt, next to playtest_area(cover)):
// Debian's LEMON 1.3.1 maps (lemon/bits/array_map.h) call std::allocator::construct/destroy,
// which C++20 removed, so CostScaling and CapacityScaling (whose node maps are of that kind) do
// not compile as C++20. No LEMON type crosses the interface, so the C++20 rest of the library
// never instantiates a LEMON template.
#include "cover/detail/min_cost_flow.hpp"

#include <lemon/capacity_scaling.h>
#include <lemon/cost_scaling.h>
#include <lemon/network_simplex.h>
#include <lemon/static_graph.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "playtest/base/error.hpp"

namespace playtest::detail {

namespace {

using Digraph = lemon::StaticDigraph;

// The network as LEMON sees it, with Int (int or std::int64_t) for flows and costs.
template <typename Int>
struct LemonNetwork {
  Digraph g;
  Digraph::ArcMap<Int> cost, upper;
  Digraph::NodeMap<Int> supply;
  std::vector<std::uint32_t> input_arc;  // StaticDigraph arc id -> input arc index

  explicit LemonNetwork(const FlowNetwork& net) : cost(g), upper(g), supply(g) {
    const std::size_t m = net.source.size();
    // StaticDigraph wants its arcs sorted by source; a counting sort keeps each source's arcs in
    // input order and leaves them in the order the solvers scan them.
    std::vector<std::uint32_t> first(static_cast<std::size_t>(net.num_nodes) + 1, 0);
    for (std::size_t i = 0; i < m; ++i) ++first[net.source[i] + 1];
    std::partial_sum(first.begin(), first.end(), first.begin());
    input_arc.resize(m);
    for (std::size_t i = 0; i < m; ++i) input_arc[first[net.source[i]]++] = static_cast<std::uint32_t>(i);
    std::vector<std::pair<int, int>> arcs(m);
    for (std::size_t k = 0; k < m; ++k) {
      const std::uint32_t i = input_arc[k];
      arcs[k] = {static_cast<int>(net.source[i]), static_cast<int>(net.target[i])};
    }
    g.build(static_cast<int>(net.num_nodes), arcs.begin(), arcs.end());
    std::int64_t total_supply = 0;
    for (std::uint32_t v = 0; v < net.num_nodes; ++v) {
      supply[g.nodeFromId(static_cast<int>(v))] = static_cast<Int>(net.supply[v]);
      if (net.supply[v] > 0) total_supply += net.supply[v];
    }
    // An uncapacitated problem with costs >= 0 has an optimal flow made of supply-to-demand paths
    // (cycles cost >= 0 and can be dropped), so no arc needs more than the total supply: this
    // finite bound is exact, and spares the solvers their "infinite capacity" handling.
    for (std::size_t k = 0; k < m; ++k) {
      const Digraph::Arc a = g.arcFromId(static_cast<int>(k));
      cost[a] = static_cast<Int>(net.cost[input_arc[k]]);
      upper[a] = static_cast<Int>(total_supply);
    }
  }

  // The solution in input arc order, with LEMON's status mapped (every LEMON solver spells its
  // ProblemType the same way).
  template <typename Solver>
  MinCostFlowResult result(const Solver& s, typename Solver::ProblemType status) const {
    MinCostFlowResult r;
    switch (status) {
      case Solver::OPTIMAL:
        r.status = MinCostFlowStatus::optimal;
        break;
      case Solver::INFEASIBLE:
        r.status = MinCostFlowStatus::infeasible;
        return r;
      case Solver::UNBOUNDED:
        r.status = MinCostFlowStatus::unbounded;
        return r;
    }
    r.flow.assign(input_arc.size(), 0);
    for (std::size_t k = 0; k < input_arc.size(); ++k) r.flow[input_arc[k]] = s.flow(g.arcFromId(static_cast<int>(k)));
    const int n = g.nodeNum();
    r.potential.resize(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) r.potential[static_cast<std::size_t>(v)] = s.potential(g.nodeFromId(v));
    r.total_cost = s.template totalCost<std::int64_t>();
    return r;
  }
};

// d(v) = distance from the nearest supply node; nodes no supply reaches get the largest distance,
// which keeps every reduced cost >= 0.
std::vector<std::int64_t> distances_from_supply(const FlowNetwork& net) {
  const std::uint32_t n = net.num_nodes;
  std::vector<std::uint32_t> first(static_cast<std::size_t>(n) + 1, 0), arcs(net.source.size());
  for (std::uint32_t s : net.source) ++first[s + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  {
    std::vector<std::uint32_t> pos(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < net.source.size(); ++i) arcs[pos[net.source[i]]++] = static_cast<std::uint32_t>(i);
  }
  constexpr std::int64_t unreached = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> d(n, unreached);
  using Item = std::pair<std::int64_t, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (std::uint32_t v = 0; v < n; ++v)
    if (net.supply[v] > 0) {
      d[v] = 0;
      queue.push({0, v});
    }
  std::int64_t max_d = 0;
  while (!queue.empty()) {
    const auto [dv, v] = queue.top();
    queue.pop();
    if (dv != d[v]) continue;
    max_d = dv;
    for (std::uint32_t k = first[v]; k < first[v + 1]; ++k) {
      const std::uint32_t a = arcs[k], w = net.target[a];
      if (dv + net.cost[a] < d[w]) {
        d[w] = dv + net.cost[a];
        queue.push({d[w], w});
      }
    }
  }
  for (std::int64_t& x : d)
    if (x == unreached) x = max_d;
  return d;
}

// LEMON's potentials certify its flow for the bounded problem it was given: an arc carrying the
// whole supply (the bound) may keep a negative reduced cost. The certificate promised here is the
// uncapacitated one: every reduced cost >= 0, and 0 where flow > 0. The flow is optimal for the
// uncapacitated problem too (the bound never cuts off an optimum), so the residual network (each
// arc forward, and backward where it carries flow) has no negative cycle, and shortest distances
// from a virtual source (Bellman-Ford with a queue, started from the current potentials) repair
// the potentials. Rarely needed: only CostScaling's potentials have been seen to need it (on
// small networks where one arc carries the whole supply).
void make_uncapacitated_certificate(const FlowNetwork& net, MinCostFlowResult& r) {
  const std::size_t m = net.source.size();
  auto reduced = [&](std::size_t a) { return net.cost[a] + r.potential[net.source[a]] - r.potential[net.target[a]]; };
  bool certified = true;
  for (std::size_t a = 0; a < m && certified; ++a) certified = reduced(a) >= 0 && (r.flow[a] == 0 || reduced(a) == 0);
  if (certified) return;
  const std::uint32_t n = net.num_nodes;
  struct Residual {
    std::uint32_t to;
    std::int64_t cost;  // reduced cost under the current potentials
  };
  std::vector<std::uint32_t> first(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t a = 0; a < m; ++a) {
    ++first[net.source[a] + 1];
    if (r.flow[a] > 0) ++first[net.target[a] + 1];
  }
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<Residual> arcs(first[n]);
  {
    std::vector<std::uint32_t> pos(first.begin(), first.end() - 1);
    for (std::size_t a = 0; a < m; ++a) {
      arcs[pos[net.source[a]]++] = {net.target[a], reduced(a)};
      if (r.flow[a] > 0) arcs[pos[net.target[a]]++] = {net.source[a], -reduced(a)};
    }
  }
  std::vector<std::int64_t> dist(n, 0);
  std::vector<std::uint8_t> queued(n, 1);
  std::vector<std::uint32_t> queue(n);
  std::iota(queue.begin(), queue.end(), 0u);
  std::size_t head = 0;
  // Without a negative cycle no node is improved more than n times.
  std::uint64_t budget = (static_cast<std::uint64_t>(n) + 1) * (static_cast<std::uint64_t>(arcs.size()) + 1);
  while (head < queue.size()) {
    const std::uint32_t v = queue[head++];
    queued[v] = 0;
    for (std::uint32_t k = first[v]; k < first[v + 1]; ++k) {
      const Residual& e = arcs[k];
      if (dist[v] + e.cost < dist[e.to]) {
        if (budget-- == 0) throw InternalError("solve_min_cost_flow: the flow has a negative residual cycle");
        dist[e.to] = dist[v] + e.cost;
        if (!queued[e.to]) {
          queued[e.to] = 1;
          queue.push_back(e.to);
        }
      }
    }
    if (head > n && head * 2 > queue.size()) {  // keep the queue from growing without bound
      queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(head));
      head = 0;
    }
  }
  for (std::uint32_t v = 0; v < n; ++v) r.potential[v] += dist[v];
}

template <typename Int>
MinCostFlowResult solve(const FlowNetwork& net, const MinCostFlowOptions& o) {
  const LemonNetwork<Int> n(net);
  using A = MinCostFlowAlgorithm;
  switch (o.algorithm) {
    case A::network_simplex_block:
    case A::network_simplex_altering: {
      using NS = lemon::NetworkSimplex<Digraph, Int, Int>;
      NS s(n.g);
      s.costMap(n.cost).upperMap(n.upper).supplyMap(n.supply);
      const auto rule = o.algorithm == A::network_simplex_block ? NS::BLOCK_SEARCH : NS::ALTERING_LIST;
      return n.result(s, s.run(rule));
    }
    case A::cost_scaling_partial_augment:
    case A::cost_scaling_push:
    case A::cost_scaling_augment: {
      using CS = lemon::CostScaling<Digraph, Int, Int>;
      CS s(n.g);
      s.costMap(n.cost).upperMap(n.upper).supplyMap(n.supply);
      const auto method = o.algorithm == A::cost_scaling_partial_augment ? CS::PARTIAL_AUGMENT
                          : o.algorithm == A::cost_scaling_push          ? CS::PUSH
                                                                         : CS::AUGMENT;
      return n.result(s, s.run(method, o.factor > 0 ? o.factor : 16));
    }
    case A::capacity_scaling: {
      using CS = lemon::CapacityScaling<Digraph, Int, Int>;
      CS s(n.g);
      s.costMap(n.cost).upperMap(n.upper).supplyMap(n.supply);
      return n.result(s, s.run(o.factor > 0 ? o.factor : 4));
    }
  }
  throw InternalError("solve_min_cost_flow: unknown algorithm");
}

}  // namespace

MinCostFlowResult solve_min_cost_flow(const FlowNetwork& net, const MinCostFlowOptions& o) {
  const std::size_t m = net.source.size();
  if (net.target.size() != m || net.cost.size() != m || net.supply.size() != net.num_nodes)
    throw InternalError("solve_min_cost_flow: the network's arrays disagree in size");
  if (net.num_nodes >= static_cast<std::uint32_t>(std::numeric_limits<int>::max()) ||
      m >= static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw GraphError("the graph is too large for the min-cost flow solver (LEMON numbers nodes and arcs with int)");
  std::int64_t max_cost = 0, total_supply = 0, sum = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (net.source[i] >= net.num_nodes || net.target[i] >= net.num_nodes || net.cost[i] < 0)
      throw InternalError("solve_min_cost_flow: arc " + std::to_string(i) +
                          " has an endpoint out of range or a negative cost");
    max_cost = std::max(max_cost, net.cost[i]);
  }
  for (std::int64_t s : net.supply) {
    sum += s;
    if (s > 0) total_supply += s;
  }
  if (sum != 0) throw InternalError("solve_min_cost_flow: the supplies do not sum to 0");
  const FlowNetwork* problem = &net;
  FlowNetwork shifted;
  std::vector<std::int64_t> shift;
  if (o.shift_costs) {
    shift = distances_from_supply(net);
    shifted = FlowNetwork{net.num_nodes, net.source, net.target, net.cost, net.supply};
    max_cost = 0;
    for (std::size_t i = 0; i < m; ++i) {
      shifted.cost[i] += shift[net.source[i]] - shift[net.target[i]];
      max_cost = std::max(max_cost, shifted.cost[i]);
    }
    problem = &shifted;
  }
  // 32-bit arithmetic is faster (smaller arrays) and exact while no potential, path cost or flow
  // can come near 2^31: LEMON's potentials stay within the artificial cost (2^30 for int; the
  // cost-scaling solvers multiply costs by alpha * (n + 1)) plus a simple path's cost.
  const double n1 = static_cast<double>(net.num_nodes) + 2;
  const double alpha = o.factor > 16 ? o.factor : 16;
  const bool cost_scaling = o.algorithm == MinCostFlowAlgorithm::cost_scaling_partial_augment ||
                            o.algorithm == MinCostFlowAlgorithm::cost_scaling_push ||
                            o.algorithm == MinCostFlowAlgorithm::cost_scaling_augment;
  // CostScaling works on costs times alpha * (n + 1) in long long, with potentials up to about n
  // times that.
  if (cost_scaling && static_cast<double>(max_cost) * n1 * n1 * alpha >= 0x1.0p62)
    throw UsageError("flow_solver", "the costs are too large for cost scaling; use the network simplex");
  const bool fits_int = static_cast<double>(max_cost) * n1 * alpha < 0x1.0p28 && total_supply < (std::int64_t{1} << 28);
  MinCostFlowResult r = fits_int ? solve<int>(*problem, o) : solve<std::int64_t>(*problem, o);
  if (r.status == MinCostFlowStatus::optimal) make_uncapacitated_certificate(*problem, r);
  if (r.status == MinCostFlowStatus::optimal && o.shift_costs) {
    // Shifted costs c + d(u) - d(v) with potentials p: reduced cost c + (d + p)(u) - (d + p)(v).
    r.total_cost = 0;
    for (std::size_t i = 0; i < m; ++i) r.total_cost += r.flow[i] * net.cost[i];
    for (std::uint32_t v = 0; v < net.num_nodes; ++v) r.potential[v] += shift[v];
  }
  return r;
}

}  // namespace playtest::detail
