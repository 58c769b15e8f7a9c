#include "playtest/cover/cover_convergence.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "playtest/base/error.hpp"

namespace playtest {

double CoverBound::bound(std::uint64_t m) const {
  if (!computed) return 0;
  const double b = 1.0 - static_cast<double>(num_segments) * std::pow(1.0 - p, static_cast<double>(m));
  return std::max(0.0, b);
}

std::optional<std::uint64_t> CoverBound::rounds_for(double target) const {
  if (!computed || p <= 0) return std::nullopt;
  if (p >= 1) return 1;
  const double m = std::ceil(std::log((1 - target) / num_segments) / std::log(1 - p));
  return static_cast<std::uint64_t>(std::max(1.0, m));
}

double CoverBound::bound_after_visits(std::uint64_t k) const {
  if (!computed || k == 0 || num_segments == 0) return 0;
  if (cyclic) return 1;
  return bound((k - 1) / num_segments);
}

CoverBound cover_bound(const TestGraph& g, const TourSegments& s, const CoverBoundOptions& options) {
  CoverBound b;
  b.num_segments = s.count();
  if (s.count() == 0) return b;
  if (s.cyclic) {
    b.computed = true;
    b.cyclic = true;
    b.p = 1;
    b.argmin_vertex = s.steps.front().from;
    return b;
  }
  const std::uint32_t n = s.count();
  // Local indices of the passive vertices where segments start (every segment also ends at one).
  std::vector<std::uint32_t> local(g.num_vertices(), 0xffffffffu);
  std::vector<VertexId> passive;
  for (std::uint32_t i = 0; i < n; ++i) {
    const VertexId v = s.first_vertex(i);
    if (local[v.index()] == 0xffffffffu) {
      local[v.index()] = static_cast<std::uint32_t>(passive.size());
      passive.push_back(v);
    }
  }
  const auto P = static_cast<std::uint32_t>(passive.size());
  // Per passive vertex, its out-edges: probability and the segments starting with the edge.
  std::vector<std::uint32_t> seg_offsets(g.num_edges() + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) ++seg_offsets[s.steps[s.begin[i]].edge.index() + 1];
  for (std::uint32_t e = 0; e < g.num_edges(); ++e) seg_offsets[e + 1] += seg_offsets[e];
  std::vector<std::uint32_t> segs(n);
  {
    std::vector<std::uint32_t> fill(seg_offsets.begin(), seg_offsets.end() - 1);
    for (std::uint32_t i = 0; i < n; ++i) segs[fill[s.steps[s.begin[i]].edge.index()]++] = i;
  }
  std::vector<std::uint32_t> end_local(n);
  for (std::uint32_t i = 0; i < n; ++i) end_local[i] = local[s.last_vertex(i).index()];

  std::uint64_t per_iteration = 0;
  for (VertexId v : passive) per_iteration += g.out_degree(v) + seg_offsets.back() / std::max<std::uint32_t>(1, P);
  per_iteration = std::max<std::uint64_t>(per_iteration, n);
  const double work = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(per_iteration);
  if (work > static_cast<double>(options.max_work)) return b;

  b.computed = true;
  b.p = 1;
  std::vector<double> q(P), next(P);
  for (std::uint32_t target = 0; target < n; ++target) {
    std::fill(q.begin(), q.end(), 0.0);
    for (std::uint32_t k = 0; k < n; ++k) {
      for (std::uint32_t a = 0; a < P; ++a) {
        double sum = 0;
        for (EdgeId e : g.out_edges(passive[a])) {
          const std::uint32_t lo = seg_offsets[e.index()], hi = seg_offsets[e.index() + 1];
          if (lo == hi) continue;  // the system leaves the tour: counted as failure
          double inner = 0;
          for (std::uint32_t j = lo; j < hi; ++j) inner += segs[j] == target ? 1.0 : q[end_local[segs[j]]];
          sum += g.probability(e) * inner / static_cast<double>(hi - lo);
        }
        next[a] = sum;
      }
      q.swap(next);
    }
    for (std::uint32_t a = 0; a < P; ++a)
      if (q[a] < b.p) {
        b.p = q[a];
        b.argmin_segment = target;
        b.argmin_vertex = passive[a];
      }
  }
  if (b.argmin_vertex.is_none()) b.argmin_vertex = passive.front();
  return b;
}

ConvergenceTable simulate_coverage(const TestGraph& g, CoverPolicy& policy, const ConvergenceOptions& o) {
  const PostmanTour& tour = policy.tour();
  const TourSegments& segs = policy.segments();
  const std::uint32_t K = o.max_visits, m = g.num_edges();
  ConvergenceTable table;
  table.runs = o.runs;
  table.rows.resize(K);
  const VertexId start = o.start.is_none() ? tour.start : o.start;
  if (start.index() >= g.num_vertices()) throw InternalError("simulate_coverage: start vertex out of range");

  std::uint64_t needed = 0;
  for (std::uint32_t c : tour.multiplicity) needed += c > 0;
  std::uint64_t longest = 0;
  for (std::uint32_t i = 0; i < segs.count(); ++i) longest = std::max<std::uint64_t>(longest, segs.segment(i).size());
  const std::uint64_t L = segs.steps.size();
  const std::uint64_t budget = (static_cast<std::uint64_t>(K) + 1) * (longest + g.num_vertices() + 1) + 16;

  Rng rng(o.seed);
  std::vector<std::uint32_t> visits(m, 0);
  std::vector<EdgeId> touched;
  for (std::uint32_t run = 0; run < o.runs; ++run) {
    for (EdgeId e : touched) visits[e.index()] = 0;
    touched.clear();
    std::uint64_t covered = 0, moves = 0;
    std::uint32_t k = 0;
    RunView view{g, start, 0, visits, {}};
    auto record = [&] {
      if (k < K && covered == needed) ++table.rows[k].covered_runs;
      ++k;
    };
    auto moved = [&](VertexId to) {
      ++moves;
      view.current = to;
      view.step = moves;
      if (segs.cyclic && moves % L == 0) record();
    };
    auto take = [&](EdgeId e) {
      if (visits[e.index()]++ == 0) {
        touched.push_back(e);
        covered += tour.multiplicity[e.index()] > 0;
      }
      moved(g.target(e));
      policy.observe(e, view);
    };
    policy.begin_run(view, rng);
    while (k < K && moves < budget) {
      const VertexId v = view.current;
      if (g.is_passive(v)) {
        if (!segs.cyclic) {
          record();
          if (k >= K) break;
        }
        double u = rng.uniform01();
        EdgeId chosen = *(g.out_edges(v).end() - 1);
        for (EdgeId e : g.out_edges(v)) {
          u -= g.probability(e);
          if (u < 0) {
            chosen = e;
            break;
          }
        }
        take(chosen);
        continue;
      }
      const Decision d = policy.choose(view, rng);
      if (d.kind == Decision::Kind::stop) break;
      if (d.kind == Decision::Kind::reset) {
        if (!tour.resets.enabled) break;
        moved(tour.resets.to);
        policy.begin_run(view, rng);
        continue;
      }
      if (d.edge.index() >= m || g.source(d.edge) != v)
        throw InternalError("simulate_coverage: the policy chose an edge that does not leave the current vertex");
      take(d.edge);
    }
    for (; k < K; ++k)
      if (covered == needed) ++table.rows[k].covered_runs;
  }
  for (std::uint32_t k = 0; k < K; ++k) {
    ConvergenceRow& r = table.rows[k];
    r.visits = k + 1;
    r.estimate = o.runs ? static_cast<double>(r.covered_runs) / o.runs : 0;
    const Interval ci = wilson_interval(r.covered_runs, o.runs, o.z);
    r.low = ci.low;
    r.high = ci.high;
  }
  return table;
}

}  // namespace playtest
