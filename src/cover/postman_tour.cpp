#include "playtest/cover/postman_tour.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>

#include "cover/detail/min_cost_flow.hpp"
#include "playtest/base/error.hpp"

namespace playtest {

namespace {

// Scaled costs must keep LEMON's potentials (bounded by NetworkSimplex's artificial cost 2^62 plus
// path costs) far from overflow: any simple path of scaled costs stays below 2^50.
constexpr double scaled_path_limit = 0x1.0p50;

void check_vertex(const TestGraph& g, VertexId v, const char* what) {
  if (v.is_none() || v.index() >= g.num_vertices())
    throw InternalError(fmt::format("postman_tour: {} vertex {} is out of range", what, v.value));
}

// Forward (from `start`) and backward (to `start`) reachability over the graph's edges plus the
// reset arcs.
struct Reach {
  std::vector<std::uint8_t> fwd, bwd;
};

Reach reach(const TestGraph& g, VertexId start, const ResetArcs& r) {
  const std::uint32_t n = g.num_vertices();
  Reach out{std::vector<std::uint8_t>(n, 0), std::vector<std::uint8_t>(n, 0)};
  std::vector<VertexId> stack;
  auto visit = [&](std::vector<std::uint8_t>& mark, VertexId v) {
    if (!mark[v.index()]) {
      mark[v.index()] = 1;
      stack.push_back(v);
    }
  };
  visit(out.fwd, start);
  while (!stack.empty()) {
    VertexId v = stack.back();
    stack.pop_back();
    for (EdgeId e : g.out_edges(v)) visit(out.fwd, g.target(e));
    if (r.enabled && r.can_reset[v.index()]) visit(out.fwd, r.to);
  }
  visit(out.bwd, start);
  while (!stack.empty()) {
    VertexId v = stack.back();
    stack.pop_back();
    for (EdgeId e : g.in_edges(v)) visit(out.bwd, g.source(e));
    if (r.enabled && v == r.to)
      for (VertexId u : r.from) visit(out.bwd, u);
  }
  return out;
}

detail::MinCostFlowOptions flow_options(PostmanFlowSolver s) {
  using A = detail::MinCostFlowAlgorithm;
  switch (s) {
    case PostmanFlowSolver::network_simplex:
      return {.algorithm = A::network_simplex_altering};
    case PostmanFlowSolver::network_simplex_block_search:
      return {.algorithm = A::network_simplex_block, .shift_costs = false};
    case PostmanFlowSolver::cost_scaling:
      return {.algorithm = A::cost_scaling_partial_augment, .shift_costs = false};
    case PostmanFlowSolver::capacity_scaling:
      return {.algorithm = A::capacity_scaling, .shift_costs = false};
  }
  throw InternalError("postman_tour: unknown flow solver");
}

// The edges that lie on a closed walk through the start vertex (1 each), and how many; the others
// are listed in t.uncoverable.
struct Coverable {
  std::vector<std::uint8_t> edge;  // per EdgeId
  std::uint32_t count = 0;
};

Coverable coverable_edges(const TestGraph& g, const Reach& r, PostmanTour& t) {
  Coverable c{std::vector<std::uint8_t>(g.num_edges(), 0), 0};
  for (EdgeId e : g.edges()) {
    UncoverableEdge u{e, !r.fwd[g.source(e).index()], !r.bwd[g.target(e).index()]};
    if (u.unreachable || u.cannot_return) {
      t.uncoverable.push_back(u);
    } else {
      c.edge[e.index()] = 1;
      ++c.count;
    }
  }
  return c;
}

// Throws GraphError naming the uncoverable edges when the options refuse them or no edge is left.
void refuse_uncoverable(const TestGraph& g, const PostmanTour& t, std::uint32_t num_coverable,
                        const PostmanOptions& options) {
  if (t.uncoverable.empty() || (options.on_uncoverable != UncoverablePolicy::fail && num_coverable != 0)) return;
  Diagnostic d;
  d.message = num_coverable == 0
                  ? fmt::format("no edge lies on a closed walk through the start vertex '{}'", g.name(t.start))
                  : fmt::format(
                        "{} of {} edges cannot be on a closed walk through the start vertex '{}' (the graph "
                        "is not strongly connected)",
                        t.uncoverable.size(), g.num_edges(), g.name(t.start));
  const std::size_t shown = std::min<std::size_t>(t.uncoverable.size(), 10);
  for (std::size_t i = 0; i < shown; ++i) d.notes.push_back(describe_uncoverable(g, t.start, t.uncoverable[i]));
  if (shown < t.uncoverable.size()) d.notes.push_back(fmt::format("... and {} more", t.uncoverable.size() - shown));
  if (!t.resets.enabled)
    d.notes.push_back(
        "a reset cost adds reset edges back to the initial vertex, so that every edge reachable "
        "from it can be toured");
  throw GraphError(std::move(d));
}

// The factor that makes the flow's costs integers: 1 when they are integers and small enough, else
// the power of two that brings the largest cost just under the path limit (1 when all are 0).
double integer_cost_scale(const TestGraph& g, const Coverable& c, const std::vector<VertexId>& usable_resets,
                          const ResetArcs& rs) {
  double max_cost = 0;
  for (EdgeId e : g.edges())
    if (c.edge[e.index()]) max_cost = std::max(max_cost, g.cost(e));
  if (!usable_resets.empty()) max_cost = std::max(max_cost, rs.cost);
  const double limit = scaled_path_limit / (static_cast<double>(g.num_vertices()) + 1);
  bool all_integer = max_cost <= limit;
  for (EdgeId e : g.edges())
    if (all_integer && c.edge[e.index()] && g.cost(e) != std::floor(g.cost(e))) all_integer = false;
  if (all_integer && !usable_resets.empty() && rs.cost != std::floor(rs.cost)) all_integer = false;
  double scale = 1;
  if (!all_integer && max_cost > 0) {
    int exp = 0;
    std::frexp(limit / max_cost, &exp);  // limit / max_cost in [2^(exp-1), 2^exp)
    scale = std::ldexp(1.0, exp - 1);
  }
  return scale;
}

// Balances the coverable edges by a minimum-cost flow over them and the usable resets (arcs in
// edge order, then the resets): adds the flow to t.multiplicity and reset_flow, and sets the cost
// scale, its exactness, the flow's potentials and the optimality gap bound.
void balance(const TestGraph& g, const PostmanOptions& options, const Reach& r, const Coverable& c,
             const std::vector<VertexId>& usable_resets, const std::vector<std::int64_t>& supply, PostmanTour& t,
             std::vector<std::uint32_t>& reset_flow) {
  const std::uint32_t n = g.num_vertices(), m = g.num_edges();
  const ResetArcs& rs = t.resets;
  // Integer costs for the flow: exact when the costs are integers (or dyadic after scaling).
  const double scale = integer_cost_scale(g, c, usable_resets, rs);
  t.cost_scale = scale;
  t.exact_costs = true;
  auto scaled = [&](double cost) {
    const double x = cost * scale;
    const double rx = std::nearbyint(x);
    if (rx != x) t.exact_costs = false;
    return static_cast<std::int64_t>(rx);
  };

  // The balancing problem: only the coverable edges and the usable resets, arcs in edge order.
  detail::FlowNetwork net;
  net.num_nodes = n;
  net.supply = supply;
  const std::size_t num_arcs = c.count + usable_resets.size();
  net.source.reserve(num_arcs);
  net.target.reserve(num_arcs);
  net.cost.reserve(num_arcs);
  std::vector<std::uint32_t> arc_of;  // arc -> EdgeId value, or m + index into usable_resets
  arc_of.reserve(num_arcs);
  for (EdgeId e : g.edges()) {
    if (!c.edge[e.index()]) continue;
    net.source.push_back(g.source(e).value);
    net.target.push_back(g.target(e).value);
    net.cost.push_back(scaled(g.cost(e)));
    arc_of.push_back(e.value);
  }
  for (std::size_t k = 0; k < usable_resets.size(); ++k) {
    net.source.push_back(usable_resets[k].value);
    net.target.push_back(rs.to.value);
    net.cost.push_back(scaled(rs.cost));
    arc_of.push_back(static_cast<std::uint32_t>(m + k));
  }
  const detail::MinCostFlowResult flow = detail::solve_min_cost_flow(net, flow_options(options.flow_solver));
  // The component is strongly connected and costs are >= 0: always feasible and bounded.
  if (flow.status != detail::MinCostFlowStatus::optimal)
    throw InternalError(fmt::format("postman_tour: the balancing flow problem is {}",
                                    flow.status == detail::MinCostFlowStatus::infeasible ? "infeasible" : "unbounded"));
  // Only the start vertex's component carries arcs; there the potentials differ by at most a
  // path's cost, so they are kept relative to the start vertex (LEMON's own are offset by up to
  // its artificial cost, 2^62 in 64-bit arithmetic).
  for (VertexId v : g.vertices())
    if (r.fwd[v.index()] && r.bwd[v.index()])
      t.flow_potential[v.index()] = flow.potential[v.index()] - flow.potential[t.start.index()];
  std::int64_t total_flow = 0, total_supply = 0;
  for (std::size_t a = 0; a < arc_of.size(); ++a) {
    const std::int64_t f = flow.flow[a];
    if (f == 0) continue;
    total_flow += f;
    const std::uint32_t id = arc_of[a];
    if (id < m)
      t.multiplicity[id] += static_cast<std::uint32_t>(f);
    else
      reset_flow[usable_resets[id - m].index()] += static_cast<std::uint32_t>(f);
  }
  for (std::int64_t s : supply)
    if (s > 0) total_supply += s;
  if (!t.exact_costs) {
    // Rounding moves each arc cost by at most 0.5/scale; an optimal flow needs at most
    // total_supply * (n - 1) arc units (simple paths).
    t.optimality_gap_bound =
        (static_cast<double>(total_flow) + static_cast<double>(total_supply) * (n - 1)) * 0.5 / scale;
  }
}

// The closed walk into t.steps: an Euler circuit of the balanced multigraph (each edge its
// multiplicity times, each reset its flow, which is used up), rotated to begin at the start vertex.
void euler_circuit(const TestGraph& g, const Reach& r, std::vector<std::uint32_t>& reset_flow, PostmanTour& t) {
  const ResetArcs& rs = t.resets;
  // Hierholzer from a canonical vertex of the tour (the first passive one, else the start), so
  // that the cyclic order, and with it the cover segments, does not depend on the start vertex.
  VertexId origin = t.start;
  for (VertexId v : g.vertices())
    if (g.is_passive(v) && r.fwd[v.index()] && r.bwd[v.index()]) {
      origin = v;
      break;
    }
  std::vector<std::uint32_t> remaining(t.multiplicity);
  std::vector<std::uint32_t> next(g.out_offsets().begin(), g.out_offsets().end() - 1);
  const auto offsets = g.out_offsets();
  std::uint64_t total_steps = 0;
  for (std::uint32_t c : t.multiplicity) total_steps += c;
  for (std::uint32_t c : reset_flow) total_steps += c;
  std::vector<TourStep> stack, circuit;
  stack.reserve(static_cast<std::size_t>(total_steps));
  circuit.reserve(static_cast<std::size_t>(total_steps));
  VertexId v = origin;
  for (;;) {
    std::uint32_t& k = next[v.index()];
    const std::uint32_t end = offsets[v.index() + 1];
    while (k < end && remaining[k] == 0) ++k;
    if (k < end) {
      --remaining[k];
      const EdgeId e{k};
      stack.push_back({e, v, g.target(e)});
      v = g.target(e);
    } else if (reset_flow[v.index()] > 0) {
      --reset_flow[v.index()];
      stack.push_back({EdgeId::none(), v, rs.to});
      v = rs.to;
    } else if (stack.empty()) {
      break;
    } else {
      circuit.push_back(stack.back());
      v = stack.back().from;
      stack.pop_back();
    }
  }
  std::reverse(circuit.begin(), circuit.end());
  assert(circuit.size() == total_steps);

  // Rotate to the first occurrence of the start vertex.
  std::size_t first = 0;
  while (first < circuit.size() && circuit[first].from != t.start) ++first;
  assert(first < circuit.size());
  std::rotate(circuit.begin(), circuit.begin() + static_cast<std::ptrdiff_t>(first), circuit.end());
  t.steps = std::move(circuit);
}

}  // namespace

ResetArcs resolve_resets(const TestGraph& g, const PostmanOptions& o) {
  ResetArcs r;
  std::optional<double> cost = o.reset_cost;
  if (!cost && !o.ignore_graph_reset) cost = g.reset_cost();
  r.can_reset.assign(g.num_vertices(), 0);
  if (!cost) {
    if (!o.reset_from.empty())
      throw UsageError("reset_from", "needs a reset cost (the graph has no reset cost of its own, or it is ignored)");
    return r;
  }
  if (!std::isfinite(*cost) || *cost < 0)
    throw UsageError("reset_cost", fmt::format("must be finite and >= 0, got {}", *cost));
  r.enabled = true;
  r.cost = *cost;
  r.to = g.initial();
  if (o.reset_from.empty()) {
    for (VertexId v : g.vertices())
      if (g.is_active(v) && v != r.to) r.can_reset[v.index()] = 1;
  } else {
    for (VertexId v : o.reset_from) {
      check_vertex(g, v, "reset");
      if (g.is_passive(v))
        throw UsageError("reset_from", fmt::format("vertex '{}' is passive; a reset is the tester's move, so only "
                                                   "active vertices can reset",
                                                   g.name(v)));
      if (v != r.to) r.can_reset[v.index()] = 1;
    }
  }
  for (VertexId v : g.vertices())
    if (r.can_reset[v.index()]) r.from.push_back(v);
  return r;
}

std::vector<UncoverableEdge> find_uncoverable_edges(const TestGraph& g, VertexId start, const ResetArcs& resets) {
  check_vertex(g, start, "start");
  Reach r = reach(g, start, resets);
  std::vector<UncoverableEdge> out;
  for (EdgeId e : g.edges()) {
    UncoverableEdge u{e, !r.fwd[g.source(e).index()], !r.bwd[g.target(e).index()]};
    if (u.unreachable || u.cannot_return) out.push_back(u);
  }
  return out;
}

std::string describe_uncoverable(const TestGraph& g, VertexId start, const UncoverableEdge& u) {
  std::string s =
      fmt::format("edge '{}' ({} -> {}): ", g.name(u.edge), g.name(g.source(u.edge)), g.name(g.target(u.edge)));
  if (u.unreachable)
    s += fmt::format("its source '{}' is unreachable from the start vertex '{}'", g.name(g.source(u.edge)),
                     g.name(start));
  if (u.unreachable && u.cannot_return) s += "; ";
  if (u.cannot_return)
    s += fmt::format("the start vertex '{}' cannot be reached again from its target '{}'", g.name(start),
                     g.name(g.target(u.edge)));
  return s;
}

PostmanTour postman_tour(const TestGraph& g, const PostmanOptions& options) {
  const std::uint32_t n = g.num_vertices(), m = g.num_edges();
  PostmanTour t;
  t.start = options.start.is_none() ? g.initial() : options.start;
  check_vertex(g, t.start, "start");
  if (m == 0) throw GraphError("the graph has no edges; there is nothing to cover");
  t.resets = resolve_resets(g, options);
  const ResetArcs& rs = t.resets;

  Reach r = reach(g, t.start, rs);
  const Coverable coverable = coverable_edges(g, r, t);
  refuse_uncoverable(g, t, coverable.count, options);

  // A reset arc is usable when both ends lie in the start vertex's strongly connected component.
  std::vector<std::uint32_t> reset_flow(n, 0);
  std::vector<VertexId> usable_resets;
  if (rs.enabled && r.fwd[rs.to.index()] && r.bwd[rs.to.index()])
    for (VertexId v : rs.from)
      if (r.fwd[v.index()] && r.bwd[v.index()]) usable_resets.push_back(v);

  // Imbalance of the coverable edges: supply = in - out (surplus in-degree sends flow).
  std::vector<std::int64_t> supply(n, 0);
  for (EdgeId e : g.edges()) {
    if (!coverable.edge[e.index()]) continue;
    --supply[g.source(e).index()];
    ++supply[g.target(e).index()];
  }
  t.flow_resets = usable_resets;
  t.flow_potential.assign(n, 0);
  t.multiplicity.assign(m, 0);
  for (EdgeId e : g.edges()) t.multiplicity[e.index()] = coverable.edge[e.index()];

  const bool balanced = std::all_of(supply.begin(), supply.end(), [](std::int64_t s) { return s == 0; });
  if (!balanced) balance(g, options, r, coverable, usable_resets, supply, t, reset_flow);

  euler_circuit(g, r, reset_flow, t);

  for (const TourStep& s : t.steps) {
    if (s.is_reset()) {
      t.cost += rs.cost;
      ++t.num_resets;
    } else {
      t.cost += g.cost(s.edge);
    }
  }
  for (EdgeId e : g.edges())
    if (coverable.edge[e.index()]) t.lower_bound += g.cost(e);
  return t;
}

}  // namespace playtest
