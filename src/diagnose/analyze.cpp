#include "playtest/diagnose/analyze.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "playtest/base/error.hpp"
#include "playtest/cover/cover_convergence.hpp"
#include "playtest/cover/tour_segments.hpp"
#include "playtest/graph/analysis.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/exact/exact_solve.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/solve/sure_winning.hpp"

namespace playtest {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// `g` with the edges in `redirect` leading to one new goal vertex instead: taking any of them is
// reaching that goal. Returns the graph and the new vertex.
std::pair<TestGraph, VertexId> with_edge_goal(const TestGraph& g, std::span<const EdgeId> redirect) {
  std::vector<std::uint8_t> is_redirected(g.num_edges(), 0);
  for (EdgeId e : redirect) is_redirected[e.index()] = 1;
  std::string name = "(purpose)";
  for (int i = 2; g.find_vertex(name); ++i) name = fmt::format("(purpose {})", i);
  GraphBuilder b;
  b.reserve(g.num_vertices() + 1, g.num_edges());
  for (VertexId v : g.vertices()) b.add_vertex(g.name(v), g.kind(v), false);
  const VertexId goal = b.add_vertex(name, VertexKind::active, true);
  b.set_initial(g.initial());
  b.set_reset_cost(g.reset_cost());
  for (EdgeId e : g.edges()) {
    EdgeSpec s{.from = g.source(e),
               .to = is_redirected[e.index()] ? goal : g.target(e),
               .label = g.label(e),
               .cost = g.cost(e),
               .name = g.name(e),
               .timeout = g.is_timeout(e),
               .observe = g.is_observe(e)};
    if (g.is_passive(g.source(e))) s.prob = g.probability(e);
    b.add_edge(s);
  }
  return {b.build(), goal};
}

void solve_purpose(const TestGraph& g, std::span<const VertexId> goals, VertexId start, const AnalyzeOptions& o,
                   PurposeAnalysis& p, bool& certified) {
  const SureWinResult win = solve_sure_winning(g, goals);
  p.sure_win = win.winnable[start.index()] != 0;
  p.worst_case_cost = p.sure_win ? win.cost[start.index()] : inf;
  const BoundedReachResult reach = solve_bounded_reachability(g, goals, {.bound = p.bound, .record = {start}});
  p.probability = reach.prob(start);
  p.cost_at_bound = reach.cost(start);
  p.probability_error_bound = reach.prob_error_bound();
  if (!(p.probability_error_bound <= 1e-6)) certified = false;
  for (double level : o.levels) {
    PurposeAnalysis::Level l{level, std::nullopt};
    for (std::uint32_t k = 0; k <= p.bound; ++k)
      if (reach.prob(start, k) >= level - 1e-12) {
        l.moves = k;
        break;
      }
    p.levels.push_back(l);
  }
  const ExpectedCostResult ec = solve_expected_cost(g, goals);
  p.expected_cost = ec.value[start.index()];
  p.almost_sure = std::isfinite(p.expected_cost);
  p.expected_certified = ec.certified;
  p.expected_error_bound = ec.error_bound;
  p.expected_not_certified = ec.not_certified;
  // Not proved in floating point (an ill-conditioned model): the exact optimum where it is
  // affordable, as `solve` does, so that the number printed is proved or marked as not.
  if (!ec.certified && o.exact_fallback_vertices != 0 && g.num_vertices() <= o.exact_fallback_vertices) {
    try {
      const exact::ExactOptimum x = exact::solve_expected_cost_exact(g, goals, o.exact_fallback_seconds);
      const auto& v = x.value[start.index()];
      p.expected_cost = v ? exact::to_double(*v) : inf;
      p.almost_sure = v.has_value();
      p.expected_certified = true;
      p.expected_exact = true;
      p.expected_error_bound = 0;
      p.expected_not_certified.clear();
    } catch (const UsageError&) {
      // over its budget: the floating-point estimate stays, not certified
    }
  }
  if (p.almost_sure && !p.expected_certified) certified = false;
}

CoverageAnalysis analyze_coverage(const TestGraph& g, double target) {
  CoverageAnalysis c;
  c.target = target;
  const PostmanTour tour = postman_tour(g, {.on_uncoverable = UncoverablePolicy::skip});
  c.tour_cost = tour.cost;
  c.lower_bound = tour.lower_bound;
  c.tour_steps = static_cast<std::uint32_t>(tour.steps.size());
  c.resets = tour.num_resets;
  c.exact_costs = tour.exact_costs;
  c.uncoverable = tour.uncoverable;
  const TourSegments segs = cut_tour(g, tour);
  c.segments = segs.count();
  c.cyclic = segs.cyclic;
  const CoverBound b = cover_bound(g, segs);
  c.bound_computed = b.computed;
  c.p = b.p;
  if (b.computed && b.p > 0) {
    std::uint64_t m = 1;
    if (b.p < 1) {
      const double est = std::log((1 - target) / b.num_segments) / std::log(1 - b.p);
      m = static_cast<std::uint64_t>(std::max(1.0, std::ceil(est)));
      while (m > 1 && b.bound(m - 1) >= target) --m;  // correct rounding either way
      while (b.bound(m) < target) ++m;
    }
    c.rounds = m;
    c.iterations = m * b.num_segments;
  }
  return c;
}

std::string edge_text(const TestGraph& g, EdgeId e) {
  return fmt::format("'{}' ({} -> {})", g.name(e), g.name(g.source(e)), g.name(g.target(e)));
}

template <class T, class F>
std::string list_some(const std::vector<T>& items, F text, std::size_t limit = 10) {
  std::string s;
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) s += (i ? ", " : "") + text(items[i]);
  if (items.size() > limit) s += fmt::format(" and {} more", items.size() - limit);
  return s;
}

}  // namespace

Analysis analyze(const TestGraph& g, std::span<const std::string> goal_names, std::span<const std::string> edge_names,
                 const AnalyzeOptions& o) {
  Analysis a;
  if (g.num_vertices() == 0) throw GraphError("the graph has no vertices");
  a.start = g.initial();
  for (double level : o.levels)
    if (!(level > 0 && level <= 1))
      throw UsageError("levels", fmt::format("probability levels must lie in (0, 1], got {}", level));
  const std::uint32_t bound = o.bound ? o.bound : std::min<std::uint32_t>(1000, 2 * g.num_vertices() + 2);
  const auto reachable = reachable_from(g, std::span<const VertexId>(&a.start, 1));
  std::vector<std::string> goals(goal_names.begin(), goal_names.end());
  if (goals.empty() && edge_names.empty())
    for (VertexId v : g.goals()) goals.emplace_back(g.name(v));
  for (const std::string& name : goals) {
    PurposeAnalysis p;
    p.kind = PurposeAnalysis::Kind::goal;
    p.name = name;
    p.goals = {vertex_named(g, name, "a goal")};
    p.bound = bound;
    p.reachable = reachable[p.goals[0].index()] != 0;
    solve_purpose(g, p.goals, a.start, o, p, a.certified);
    a.purposes.push_back(std::move(p));
  }
  // An edge id, or a label: every edge with that label, each its own purpose (as run's --edge LABEL
  // asks to cover every edge with it).
  std::vector<std::string> edge_purposes;
  for (const std::string& name : edge_names) {
    if (g.find_edge(name)) {
      edge_purposes.push_back(name);
      continue;
    }
    const std::vector<EdgeId> labelled = edges_named(g, name, "an edge to take");
    if (labelled.size() == 1)
      edge_purposes.push_back(name);
    else
      for (EdgeId e : labelled) edge_purposes.emplace_back(g.name(e));
  }
  for (const std::string& name : edge_purposes) {
    PurposeAnalysis p;
    p.kind = PurposeAnalysis::Kind::edges;
    p.name = name;
    p.edges = edges_named(g, name, "an edge to take");
    p.bound = bound;
    for (EdgeId e : p.edges) p.reachable = p.reachable || reachable[g.source(e).index()] != 0;
    auto [h, goal] = with_edge_goal(g, p.edges);
    solve_purpose(h, std::span<const VertexId>(&goal, 1), a.start, o, p, a.certified);
    a.purposes.push_back(std::move(p));
  }
  if (o.coverage) {
    if (!(o.coverage_target > 0 && o.coverage_target < 1))
      throw UsageError("coverage_target", fmt::format("must lie strictly between 0 and 1, got {}", o.coverage_target));
    try {
      a.coverage = analyze_coverage(g, o.coverage_target);
    } catch (const GraphError& e) {
      a.coverage = CoverageAnalysis{.target = o.coverage_target, .impossible = e.diagnostic().message};
    }
  }
  return a;
}

PurposeFeasibility purpose_feasibility(const TestGraph& g, const TestPurpose& purpose) {
  PurposeFeasibility f;
  if (g.num_vertices() == 0) return f;
  const VertexId start = g.initial();
  const auto reachable = reachable_from(g, std::span<const VertexId>(&start, 1));
  if (purpose.kind == TestPurpose::Kind::reach) {
    const std::vector<VertexId> goals = purpose.goals.empty() ? g.goals() : purpose.goals;
    if (goals.empty()) return f;  // the runner refuses a reach purpose without goals itself
    for (VertexId v : goals)
      if (reachable[v.index()]) return f;
    f.feasible = false;
    f.unreachable_goals = goals;
    f.reason = fmt::format("no goal is reachable from the initial vertex '{}': {} {} unreachable", g.name(start),
                           list_some(goals, [&](VertexId v) { return fmt::format("'{}'", g.name(v)); }),
                           goals.size() == 1 ? "is" : "are");
    return f;
  }
  if (purpose.kind != TestPurpose::Kind::cover) return f;
  std::vector<EdgeId> edges = purpose.edges;
  if (edges.empty())
    for (EdgeId e : g.edges()) edges.push_back(e);
  for (EdgeId e : edges)
    if (!reachable[g.source(e).index()]) f.unreachable_edges.push_back(e);
  if (!f.unreachable_edges.empty()) {
    f.feasible = false;
    f.reason = fmt::format(
        "{} of the {} edges to cover can never be taken, their source being unreachable from the "
        "initial vertex '{}': {}",
        f.unreachable_edges.size(), edges.size(), g.name(start),
        list_some(f.unreachable_edges, [&](EdgeId e) { return edge_text(g, e); }));
    return f;
  }
  if (g.is_resettable()) return f;
  // Without resets one run is one walk: through the condensation (a DAG) it visits a chain of
  // components, taking each edge between two components at most once. best[C]: the most purpose
  // edges a walk from the initial vertex can take up to and inside component C.
  const SccResult scc = strongly_connected_components(g);
  std::vector<std::uint8_t> wanted(g.num_edges(), 0);
  for (EdgeId e : edges) wanted[e.index()] = 1;
  std::vector<std::int64_t> inside(scc.count, 0), incoming(scc.count, -1), best(scc.count, -1);
  std::vector<EdgeId> via(scc.count, EdgeId::none());
  std::uint64_t total = 0;
  for (EdgeId e : g.edges())
    if (wanted[e.index()]) {
      ++total;
      if (scc.component[g.source(e).index()] == scc.component[g.target(e).index()])
        ++inside[scc.component[g.source(e).index()]];
    }
  std::vector<std::uint32_t> first(scc.count + 1, 0), order(g.num_vertices());
  for (VertexId v : g.vertices()) ++first[scc.component[v.index()] + 1];
  for (std::uint32_t c = 0; c < scc.count; ++c) first[c + 1] += first[c];
  {
    std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
    for (VertexId v : g.vertices()) order[fill[scc.component[v.index()]]++] = v.value;
  }
  const std::uint32_t start_c = scc.component[start.index()];
  incoming[start_c] = 0;
  std::int64_t most = 0;
  std::uint32_t most_c = start_c;
  for (std::uint32_t c = scc.count; c-- > 0;) {  // sources first: successors have smaller numbers
    if (incoming[c] < 0) continue;
    best[c] = incoming[c] + inside[c];
    if (best[c] > most) most = best[c], most_c = c;
    for (std::uint32_t i = first[c]; i < first[c + 1]; ++i)
      for (EdgeId e : g.out_edges(VertexId{order[i]})) {
        const std::uint32_t d = scc.component[g.target(e).index()];
        if (d == c) continue;
        const std::int64_t via_e = best[c] + wanted[e.index()];
        if (via_e > incoming[d]) incoming[d] = via_e, via[d] = e;
      }
  }
  if (static_cast<std::uint64_t>(most) == total) return f;
  // The purpose edges a best walk misses: every edge not inside a component of its chain and not
  // one of its crossing edges.
  std::vector<std::uint8_t> on_chain(scc.count, 0), taken(g.num_edges(), 0);
  for (std::uint32_t c = most_c;;) {
    on_chain[c] = 1;
    if (c == start_c || via[c].is_none()) break;
    taken[via[c].index()] = 1;
    c = scc.component[g.source(via[c]).index()];
  }
  for (EdgeId e : edges) {
    const std::uint32_t cs = scc.component[g.source(e).index()], ct = scc.component[g.target(e).index()];
    if (!(cs == ct ? on_chain[cs] != 0 : taken[e.index()] != 0)) f.unreachable_edges.push_back(e);
  }
  f.feasible = false;
  f.reason = fmt::format(
      "the graph has no reset, and no single run can take all {} edges to cover: at most {} of "
      "them lie on one run (a best run misses {})",
      total, most,
      list_some(
          f.unreachable_edges, [&](EdgeId e) { return edge_text(g, e); }, 5));
  return f;
}

std::vector<std::string> model_warnings(const TestGraph& g, bool final_declared) {
  std::vector<std::string> out;
  if (g.num_vertices() == 0) return out;
  const std::vector<VertexId> goals = g.goals();
  if (goals.empty()) {
    if (final_declared)
      out.push_back(
          "no state satisfies the model's 'final' condition: it has no goal vertex, so a purpose 'reach' (and the "
          "strategies reach, win and expected) has nothing to aim at");
    return out;
  }
  const VertexId init = g.initial();
  if (g.is_goal(init))
    out.push_back(fmt::format(
        "the initial vertex '{}' is a goal (the model's goal condition, 'final' in a model program, holds in its "
        "initial state): a purpose 'reach' and the strategies reach, win and expected have nothing to do, and "
        "playtest run refuses them",
        g.name(init)));
  const std::vector<std::uint8_t> reached = reachable_from(g, std::span<const VertexId>(&init, 1));
  std::vector<std::string> unreachable;
  for (VertexId v : goals)
    if (!reached[v.index()]) unreachable.emplace_back(g.name(v));
  if (unreachable.empty()) return out;
  std::string names;
  for (std::size_t i = 0; i < unreachable.size() && i < 5; ++i) names += (i ? ", '" : "'") + unreachable[i] + "'";
  if (unreachable.size() > 5) names += fmt::format(" and {} more", unreachable.size() - 5);
  out.push_back(unreachable.size() == goals.size()
                    ? fmt::format("no goal vertex is reachable from the initial vertex '{}' ({}): a purpose 'reach' "
                                  "can never be met",
                                  g.name(init), names)
                    : fmt::format("{} of the {} goal vertices cannot be reached from the initial vertex '{}': {}",
                                  unreachable.size(), goals.size(), g.name(init), names));
  return out;
}

}  // namespace playtest
