#include "playtest/solve/expected_cost.hpp"

#include <Eigen/Dense>
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/Sparse>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "playtest/error.hpp"
#include "solve/detail/backward_choose.hpp"
#include "solve/detail/expected_cost_mdp.hpp"
#include "solve/detail/expected_cost_model.hpp"
#include "solve/detail/scc_csr.hpp"

namespace playtest {

namespace detail {

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t none32 = std::numeric_limits<std::uint32_t>::max();
}  // namespace

CompactModel build_compact(const TestGraph& g, std::span<const std::uint8_t> is_goal,
                           std::span<const std::uint8_t> in_work, std::span<const VertexId> order) {
  CompactModel c;
  const std::uint32_t n = static_cast<std::uint32_t>(order.size());
  c.n = n;
  c.vertex.assign(order.begin(), order.end());
  c.index.assign(g.num_vertices(), none32);
  for (std::uint32_t i = 0; i < n; ++i) c.index[order[i].index()] = i;
  for (VertexId v : g.vertices())
    if (is_goal[v.index()]) c.index[v.index()] = n;
  c.passive.resize(n);
  c.base.assign(n, 0.0);
  c.off.resize(n + 1);
  c.off[0] = 0;
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  std::size_t m = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const VertexId v = order[i];
    for (std::uint32_t e = off[v.index()]; e < off[v.index() + 1]; ++e) {
      const std::uint32_t t = tg[e].index();
      if (is_goal[t] || in_work[t]) ++m;
    }
  }
  c.tgt.reserve(m);
  c.w.reserve(m);
  c.edge.reserve(m);
  for (std::uint32_t i = 0; i < n; ++i) {
    const VertexId v = order[i];
    const bool passive = g.is_passive(v);
    c.passive[i] = passive ? 1 : 0;
    double base = 0;
    for (std::uint32_t e = off[v.index()]; e < off[v.index() + 1]; ++e) {
      const std::uint32_t t = tg[e].index();
      if (!(is_goal[t] || in_work[t])) {
        if (passive) throw InternalError("build_compact: a passive vertex leaves the work set");
        continue;
      }
      c.tgt.push_back(c.index[t]);
      c.edge.push_back(EdgeId{e});
      if (passive) {
        c.w.push_back(prob[e]);
        base += prob[e] * cost[e];
      } else {
        c.w.push_back(cost[e]);
      }
    }
    c.base[i] = base;
    c.off[i + 1] = static_cast<std::uint32_t>(c.tgt.size());
  }
  // Reverse adjacency (including the goal slot n), for backward searches.
  c.src.resize(c.tgt.size());
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) c.src[k] = i;
  c.rev_off.assign(n + 2, 0);
  for (std::uint32_t t : c.tgt) ++c.rev_off[t + 1];
  for (std::uint32_t i = 0; i <= n; ++i) c.rev_off[i + 1] += c.rev_off[i];
  c.rev_edge.resize(c.tgt.size());
  {
    std::vector<std::uint32_t> next(c.rev_off.begin(), c.rev_off.end() - 1);
    for (std::uint32_t k = 0; k < c.tgt.size(); ++k) c.rev_edge[next[c.tgt[k]]++] = k;
  }
  return c;
}

BackwardView backward_view(const CompactModel& c) { return {c.n, c.passive, c.rev_off, c.rev_edge, c.src}; }

bool is_proper(const CompactModel& c, std::span<const std::uint32_t> choice, std::vector<std::uint8_t>& reached) {
  return reaches_goal_under(backward_view(c), choice, reached);
}

namespace {

// The strongly connected components of a strategy's induced graph, in topological order
// (successors first), as member lists.
struct PolicyBlocks {
  std::uint32_t count = 0;
  std::vector<std::uint32_t> comp, coff, members;
};

PolicyBlocks decompose_policy(const CompactModel& c, std::span<const std::uint32_t> choice) {
  const std::uint32_t n = c.n;
  PolicyBlocks b;
  std::vector<std::uint32_t> off(n + 1), adj;
  adj.reserve(c.tgt.size());
  off[0] = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (c.passive[i]) {
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k)
        if (c.tgt[k] != n) adj.push_back(c.tgt[k]);
    } else if (c.tgt[choice[i]] != n) {
      adj.push_back(c.tgt[choice[i]]);
    }
    off[i + 1] = static_cast<std::uint32_t>(adj.size());
  }
  b.count = scc_csr(off, adj, b.comp);
  std::vector<std::uint32_t>().swap(adj);
  std::vector<std::uint32_t>().swap(off);
  b.coff.assign(b.count + 1, 0);
  b.members.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) ++b.coff[b.comp[i] + 1];
  for (std::uint32_t k = 0; k < b.count; ++k) b.coff[k + 1] += b.coff[k];
  std::vector<std::uint32_t> next(b.coff.begin(), b.coff.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i) b.members[next[b.comp[i]]++] = i;
  return b;
}

// Solves x_i = rhs_i + sum_{policy edges (t, p)} p x_t for every work vertex, strongly connected
// component by component in topological order (successors first): single vertices directly,
// small components by sparse LU, large ones by BiCGSTAB started from `x` (LU as the fallback).
// `unit` replaces every cost by one step (the expected number of steps to a goal).
void solve_blocks(const CompactModel& c, std::span<const std::uint32_t> choice, const PolicyBlocks& blocks, bool unit,
                  std::vector<double>& x) {
  const std::uint32_t n = c.n;
  x.resize(n + 1);
  x[n] = 0;
  const auto& comp = blocks.comp;
  const auto& coff = blocks.coff;
  const auto& members = blocks.members;
  auto rhs_of = [&](std::uint32_t i) { return unit ? 1.0 : (c.passive[i] ? c.base[i] : c.w[choice[i]]); };
  // Calls f(target, probability) for each edge the strategy takes out of i.
  auto for_edges = [&](std::uint32_t i, auto&& f) {
    if (c.passive[i]) {
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) f(c.tgt[k], c.w[k]);
    } else {
      f(c.tgt[choice[i]], 1.0);
    }
  };
  std::vector<std::uint32_t> local;
  using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
  using SpMatRow = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
  std::vector<Eigen::Triplet<double, int>> trip;
  for (std::uint32_t k = 0; k < blocks.count; ++k) {
    const std::uint32_t b = coff[k], e = coff[k + 1], size = e - b;
    if (size == 1) {
      const std::uint32_t i = members[b];
      double sum = rhs_of(i), diag = 1.0;
      for_edges(i, [&](std::uint32_t t, double p) {
        if (t == i)
          diag -= p;
        else
          sum += p * x[t];
      });
      if (!(diag > 0)) throw InternalError("solve_expected_cost: evaluated strategy does not reach a goal");
      x[i] = sum / diag;
      continue;
    }
    if (local.empty()) local.assign(n, none32);
    for (std::uint32_t r = 0; r < size; ++r) local[members[b + r]] = r;
    Eigen::VectorXd rhs(size), guess(size);
    trip.clear();
    for (std::uint32_t r = 0; r < size; ++r) {
      const std::uint32_t i = members[b + r];
      double sum = rhs_of(i);
      trip.emplace_back(static_cast<int>(r), static_cast<int>(r), 1.0);
      for_edges(i, [&](std::uint32_t t, double p) {
        if (t != n && comp[t] == k)
          trip.emplace_back(static_cast<int>(r), static_cast<int>(local[t]), -p);
        else
          sum += p * x[t];
      });
      rhs[r] = sum;
      guess[r] = std::isfinite(x[i]) ? x[i] : 0.0;
    }
    Eigen::VectorXd sol;
    bool done = false;
    if (size > 3000) {
      SpMatRow a(size, size);
      a.setFromTriplets(trip.begin(), trip.end());
      Eigen::BiCGSTAB<SpMatRow, Eigen::DiagonalPreconditioner<double>> solver;
      solver.setTolerance(1e-14);
      solver.setMaxIterations(5000);
      solver.compute(a);
      sol = solver.solveWithGuess(rhs, guess);
      // Polish and check: a few Richardson steps x <- x + (b - A x) never hurt a proper chain.
      Eigen::VectorXd res = rhs - a * sol;
      const double scale = std::max(1.0, sol.cwiseAbs().maxCoeff());
      done = sol.allFinite() && res.cwiseAbs().maxCoeff() <= 1e-11 * scale;
    }
    if (!done) {
      SpMat a(size, size);
      a.setFromTriplets(trip.begin(), trip.end());
      a.makeCompressed();
      Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
      lu.compute(a);
      if (lu.info() != Eigen::Success)
        throw InternalError("solve_expected_cost: singular strategy system (strategy does not reach a goal)");
      sol = lu.solve(rhs);
    }
    for (std::uint32_t r = 0; r < size; ++r) x[members[b + r]] = sol[r];
  }
}

void solve_policy(const CompactModel& c, std::span<const std::uint32_t> choice, bool unit, std::vector<double>& x) {
  solve_blocks(c, choice, decompose_policy(c, choice), unit, x);
}

// max_i |rhs_i + sum p x_t - x_i| under the strategy.
double policy_residual(const CompactModel& c, std::span<const std::uint32_t> choice, bool unit,
                       std::span<const double> x) {
  double res = 0;
  for (std::uint32_t i = 0; i < c.n; ++i) {
    double s;
    if (c.passive[i]) {
      s = unit ? 1.0 : c.base[i];
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) s += c.w[k] * x[c.tgt[k]];
    } else {
      const std::uint32_t k = choice[i];
      s = (unit ? 1.0 : c.w[k]) + x[c.tgt[k]];
    }
    res = std::max(res, std::abs(s - x[i]));
  }
  return res;
}

// Bellman residual of x in the original (uncollapsed) equations.
double bellman_residual(const CompactModel& c, std::span<const double> x) {
  double res = 0;
  for (std::uint32_t i = 0; i < c.n; ++i) {
    double s;
    if (c.passive[i]) {
      s = c.base[i];
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) s += c.w[k] * x[c.tgt[k]];
    } else {
      s = inf;
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) s = std::min(s, c.w[k] + x[c.tgt[k]]);
    }
    res = std::max(res, std::abs(s - x[i]));
  }
  return res;
}

// A proper strategy made of edges within a relative tolerance of the best one at x.
void extract_proper(const CompactModel& c, std::span<const double> x, double rel_tol,
                    std::vector<std::uint32_t>& choice) {
  std::vector<double> best(c.n, inf);
  for (std::uint32_t i = 0; i < c.n; ++i) {
    if (c.passive[i]) continue;
    for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) best[i] = std::min(best[i], c.w[k] + x[c.tgt[k]]);
  }
  std::vector<std::uint8_t> reached;
  backward_choose(
      backward_view(c),
      [&](std::uint32_t i, std::uint32_t k) {
        return c.w[k] + x[c.tgt[k]] <= best[i] + rel_tol * std::max(1.0, std::abs(best[i]));
      },
      true, choice, reached);
}

// Zero-cost end components of the work set: sets the tester can keep the play in forever at cost
// 0 (only zero-cost edges of active members, passive members whose edges all cost 0 and stay in).
// Returns mec[i] (component number or none) and the count.
std::uint32_t zero_cost_mecs(const CompactModel& c, std::vector<std::uint32_t>& mec) {
  const std::uint32_t n = c.n;
  // Every end component in the region holds an active vertex with a zero-cost edge inside it (a
  // set of passive vertices alone would be a trap, which the region excludes).
  bool any_zero = false;
  for (std::uint32_t i = 0; i < n && !any_zero; ++i)
    if (!c.passive[i])
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1] && !any_zero; ++k) any_zero = c.w[k] == 0 && c.tgt[k] != n;
  if (!any_zero) {
    mec.assign(n, none32);
    return 0;
  }
  std::vector<std::uint8_t> cand(n, 1);
  for (std::uint32_t i = 0; i < n; ++i)
    if (c.passive[i] && c.base[i] != 0) cand[i] = 0;
  std::vector<std::uint32_t> off(n + 1), adj, comp;
  auto zero_edge = [&](std::uint32_t i, std::uint32_t k) {
    const std::uint32_t t = c.tgt[k];
    return t != n && cand[t] && (c.passive[i] || c.w[k] == 0);
  };
  for (;;) {
    bool changed = false;
    // Passive candidates must keep all their edges inside the candidates.
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!cand[i] || !c.passive[i]) continue;
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k)
        if (c.tgt[k] == n || !cand[c.tgt[k]]) {
          cand[i] = 0;
          changed = true;
          break;
        }
    }
    adj.clear();
    off[0] = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (cand[i])
        for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k)
          if (zero_edge(i, k)) adj.push_back(c.tgt[k]);
      off[i + 1] = static_cast<std::uint32_t>(adj.size());
    }
    scc_csr(off, adj, comp);
    std::vector<std::uint8_t> keep(n, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!cand[i]) continue;
      bool ok;
      if (c.passive[i]) {
        ok = true;
        for (std::uint32_t k = c.off[i]; k < c.off[i + 1] && ok; ++k) ok = comp[c.tgt[k]] == comp[i];
      } else {
        ok = false;
        for (std::uint32_t k = c.off[i]; k < c.off[i + 1] && !ok; ++k)
          ok = zero_edge(i, k) && comp[c.tgt[k]] == comp[i];
      }
      keep[i] = ok ? 1 : 0;
    }
    for (std::uint32_t i = 0; i < n; ++i)
      if (cand[i] && !keep[i]) {
        cand[i] = 0;
        changed = true;
      }
    if (!changed) break;
  }
  // Number the remaining components densely.
  mec.assign(n, none32);
  std::vector<std::uint32_t> renum;
  std::uint32_t count = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!cand[i]) continue;
    const std::uint32_t k = comp[i];
    if (k >= renum.size()) renum.resize(k + 1, none32);
    if (renum[k] == none32) renum[k] = count++;
    mec[i] = renum[k];
  }
  return count;
}

}  // namespace

}  // namespace detail

using detail::CompactModel;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t none32 = std::numeric_limits<std::uint32_t>::max();

std::vector<std::uint8_t> goal_flags(const TestGraph& g, std::span<const VertexId> goals, const char* fn) {
  std::vector<std::uint8_t> is_goal(g.num_vertices(), 0);
  for (VertexId v : goals) {
    if (v.is_none() || v.index() >= g.num_vertices())
      throw UsageError("goals", std::string(fn) + ": goal vertex id out of range");
    is_goal[v.index()] = 1;
  }
  return is_goal;
}

// The region (greatest fixpoint) and, in `order`, its non-goal vertices in the order the last
// backward search reached them (closest to a goal first); attractor edges in `att`.
std::vector<std::uint8_t> region_with_order(const TestGraph& g, std::span<const std::uint8_t> is_goal,
                                            std::vector<VertexId>& order, std::vector<EdgeId>* att) {
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> in_u(n, 1), in_r(n), passive_ok(n);
  std::vector<VertexId> queue;
  queue.reserve(n);
  if (att) att->assign(n, EdgeId::none());
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto src = g.sources();
  for (;;) {
    for (std::uint32_t v = 0; v < n; ++v) {
      passive_ok[v] = 0;
      if (!in_u[v] || !g.is_passive(VertexId{v})) continue;
      bool ok = true;
      for (std::uint32_t e = off[v]; e < off[v + 1] && ok; ++e) ok = in_u[tg[e].index()] != 0;
      passive_ok[v] = ok ? 1 : 0;
    }
    std::fill(in_r.begin(), in_r.end(), 0);
    queue.clear();
    for (std::uint32_t v = 0; v < n; ++v)
      if (is_goal[v]) {
        in_r[v] = 1;
        queue.push_back(VertexId{v});
      }
    const std::size_t num_goal = queue.size();
    for (std::size_t h = 0; h < queue.size(); ++h) {
      for (EdgeId e : g.in_edges(queue[h])) {
        const std::uint32_t u = src[e.index()].index();
        if (in_r[u] || !in_u[u]) continue;
        if (g.is_passive(VertexId{u})) {
          if (!passive_ok[u]) continue;
        } else if (att) {
          (*att)[u] = e;
        }
        in_r[u] = 1;
        queue.push_back(VertexId{u});
      }
    }
    if (in_r == in_u) {
      order.assign(queue.begin() + static_cast<std::ptrdiff_t>(num_goal), queue.end());
      return in_u;
    }
    in_u.swap(in_r);
  }
}

struct ViOutcome {
  std::uint32_t iterations = 0;
  bool converged = false;
};

// Value iteration (§3, equation (10)) from M^0 = 0 on the work set, with zero-cost end components
// collapsed (each takes the best exit of its members) so that it converges to the least expected
// cost of a proper strategy rather than to 0 on a free loop.
ViOutcome value_iteration(const TestGraph& g, const CompactModel& c, const ExpectedCostOptions& o, double epsilon,
                          std::uint32_t max_iter, std::vector<double>& x, ExpectedCostResult& result) {
  const std::uint32_t n = c.n;
  std::vector<std::uint32_t> mec;
  const std::uint32_t num_mec = detail::zero_cost_mecs(c, mec);
  result.num_zero_cost_components = num_mec;
  // Units in sweep order: a vertex, or a whole zero-cost component at its first member's place.
  std::vector<std::uint32_t> unit_off, unit_member;
  std::vector<std::uint8_t> unit_is_mec;
  if (num_mec > 0) {
    std::vector<std::uint32_t> moff(num_mec + 1, 0), mmem(n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (mec[i] != none32) ++moff[mec[i] + 1];
    for (std::uint32_t k = 0; k < num_mec; ++k) moff[k + 1] += moff[k];
    {
      std::vector<std::uint32_t> next(moff.begin(), moff.end() - 1);
      for (std::uint32_t i = 0; i < n; ++i)
        if (mec[i] != none32) mmem[next[mec[i]]++] = i;
    }
    std::vector<std::uint8_t> seen(num_mec, 0);
    unit_off.push_back(0);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (mec[i] == none32) {
        unit_member.push_back(i);
        unit_is_mec.push_back(0);
      } else if (!seen[mec[i]]) {
        seen[mec[i]] = 1;
        for (std::uint32_t j = moff[mec[i]]; j < moff[mec[i] + 1]; ++j) unit_member.push_back(mmem[j]);
        unit_is_mec.push_back(1);
      } else {
        continue;
      }
      unit_off.push_back(static_cast<std::uint32_t>(unit_member.size()));
    }
  }
  const bool jacobi = o.update == ValueIterationUpdate::jacobi;
  x.assign(n + 1, 0.0);
  std::vector<double> y;  // Jacobi: the new iterate
  if (jacobi) y.assign(n + 1, 0.0);
  std::vector<double> full;
  std::vector<std::uint32_t> trace_idx;
  for (VertexId v : o.trace_vertices) {
    if (v.is_none() || v.index() >= g.num_vertices())
      throw UsageError("trace", "solve_expected_cost: trace vertex id out of range");
    trace_idx.push_back(c.index[v.index()]);
  }
  const std::uint32_t* tgt = c.tgt.data();
  const double* w = c.w.data();
  ViOutcome out;
  auto vertex_update = [&](std::uint32_t i, const double* src) {
    double s;
    if (c.passive[i]) {
      s = c.base[i];
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) s += w[k] * src[tgt[k]];
    } else {
      s = inf;
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) s = std::min(s, w[k] + src[tgt[k]]);
    }
    return s;
  };
  while (out.iterations < max_iter) {
    const double* src = x.data();
    double* dst = jacobi ? y.data() : x.data();
    double delta = 0;
    if (num_mec == 0) {
      for (std::uint32_t i = 0; i < n; ++i) {
        const double s = vertex_update(i, src);
        delta = std::max(delta, std::abs(s - x[i]) / std::max(1.0, std::abs(s)));
        dst[i] = s;
      }
    } else {
      const std::uint32_t units = static_cast<std::uint32_t>(unit_is_mec.size());
      for (std::uint32_t u = 0; u < units; ++u) {
        const std::uint32_t b = unit_off[u], e = unit_off[u + 1];
        double s;
        if (!unit_is_mec[u]) {
          s = vertex_update(unit_member[b], src);
        } else {
          const std::uint32_t id = mec[unit_member[b]];
          s = inf;
          for (std::uint32_t j = b; j < e; ++j) {
            const std::uint32_t i = unit_member[j];
            if (c.passive[i]) continue;
            for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) {
              const std::uint32_t t = tgt[k];
              if (w[k] == 0 && t != n && mec[t] == id) continue;  // free move inside
              s = std::min(s, w[k] + src[t]);
            }
          }
        }
        for (std::uint32_t j = b; j < e; ++j) {
          const std::uint32_t i = unit_member[j];
          delta = std::max(delta, std::abs(s - x[i]) / std::max(1.0, std::abs(s)));
          dst[i] = s;
        }
      }
    }
    if (jacobi) x.swap(y);
    ++out.iterations;
    if (!trace_idx.empty() && result.trace.size() < o.max_trace) {
      std::vector<double> row;
      row.reserve(trace_idx.size());
      for (std::uint32_t i : trace_idx) row.push_back(i == none32 ? inf : x[i]);
      result.trace.push_back(std::move(row));
    }
    if (o.on_iteration) {
      full.assign(g.num_vertices(), inf);
      for (std::uint32_t v = 0; v < g.num_vertices(); ++v)
        if (c.index[v] != none32) full[v] = x[c.index[v]];
      o.on_iteration(out.iterations, full);
    }
    if (o.on_sweep) o.on_sweep(out.iterations);
    if (delta <= epsilon) {
      out.converged = true;
      break;
    }
  }
  return out;
}

// Policy iteration from a proper strategy: exact evaluation, then a switch wherever an edge is
// strictly better (by more than the tolerance). A strict switch never makes a proper strategy
// improper (a closed class avoiding the goals would need a negative average cost), so the
// strategy stays proper; the properness check below only guards against rounding.
// Returns true when it stopped because no switch was left (rather than at max_iterations).
bool policy_iteration(const CompactModel& c, const ExpectedCostOptions& o, std::vector<std::uint32_t>& choice,
                      std::vector<double>& x, ExpectedCostResult& result, detail::PolicyBlocks& blocks) {
  const std::uint32_t n = c.n;
  std::vector<std::uint8_t> reached;
  std::vector<std::uint32_t> old;
  for (std::uint32_t round = 0;; ++round) {
    blocks = detail::decompose_policy(c, choice);
    detail::solve_blocks(c, choice, blocks, false, x);
    ++result.evaluations;
    if (round >= o.max_iterations) return false;
    old = choice;
    bool changed = false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (c.passive[i]) continue;
      const std::uint32_t cur = choice[i];
      const double qcur = c.w[cur] + x[c.tgt[cur]];
      double best = qcur;
      std::uint32_t bk = cur;
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) {
        const double q = c.w[k] + x[c.tgt[k]];
        if (q < best) {
          best = q;
          bk = k;
        }
      }
      if (bk != cur && best < qcur - o.improvement_tolerance * std::max(1.0, std::abs(x[i]))) {
        choice[i] = bk;
        changed = true;
      }
    }
    if (!changed) return true;
    while (!detail::is_proper(c, choice, reached)) {
      bool reverted = false;
      for (std::uint32_t i = 0; i < n; ++i)
        if (!reached[i] && choice[i] != old[i]) {
          choice[i] = old[i];
          reverted = true;
        }
      if (!reverted) throw InternalError("solve_expected_cost: policy iteration lost properness");
    }
    if (choice == old) return true;
    ++result.improvements;
  }
}

// Error bound of the evaluated strategy: |x - J| <= ||r|| * T with T the expected number of steps.
// When every step costs at least cmin > 0, cmin T <= J <= x + ||r|| T gives T <= x / (cmin - ||r||);
// otherwise T is solved for: T <= T~ + ||s|| * max T and max T <= max T~ / (1 - ||s||) when the
// steps residual ||s|| < 1.
double evaluation_error_bound(const CompactModel& c, std::span<const std::uint32_t> choice, std::span<const double> x,
                              const detail::PolicyBlocks* blocks) {
  const double r = detail::policy_residual(c, choice, false, x);
  double cmin = inf;
  for (std::uint32_t i = 0; i < c.n; ++i) cmin = std::min(cmin, c.passive[i] ? c.base[i] : c.w[choice[i]]);
  double bound = 0;
  if (cmin > 0 && r < 0.5 * cmin) {
    for (std::uint32_t i = 0; i < c.n; ++i) {
      const double err = r * x[i] / (cmin - r);
      bound = std::max(bound, err / std::max(1.0, std::abs(x[i])));
    }
    return bound;
  }
  std::vector<double> steps(c.n + 1, 0.0);
  if (blocks)
    detail::solve_blocks(c, choice, *blocks, true, steps);
  else
    detail::solve_policy(c, choice, true, steps);
  const double s = detail::policy_residual(c, choice, true, steps);
  if (!(s < 1)) return inf;
  double tmax = 0;
  for (std::uint32_t i = 0; i < c.n; ++i) tmax = std::max(tmax, steps[i]);
  tmax /= (1 - s);
  for (std::uint32_t i = 0; i < c.n; ++i) {
    const double err = r * (steps[i] + s * tmax);
    bound = std::max(bound, err / std::max(1.0, std::abs(x[i])));
  }
  return bound;
}

}  // namespace

std::vector<std::uint8_t> almost_sure_region(const TestGraph& g, std::span<const VertexId> goals,
                                             std::vector<EdgeId>* strategy) {
  auto is_goal = goal_flags(g, goals, "almost_sure_region");
  std::vector<VertexId> order;
  return region_with_order(g, is_goal, order, strategy);
}

ExpectedCostResult solve_expected_cost(const TestGraph& g, std::span<const VertexId> goals,
                                       const ExpectedCostOptions& o) {
  if (!(o.epsilon > 0)) throw UsageError("epsilon", "solve_expected_cost: epsilon must be > 0");
  const auto is_goal = goal_flags(g, goals, "solve_expected_cost");
  const std::uint32_t nv = g.num_vertices();
  std::vector<VertexId> order;
  region_with_order(g, is_goal, order, nullptr);
  if (o.method == ExpectedCostMethod::certified && o.trace_vertices.empty() && !o.on_iteration &&
      (o.fold_choices == ChoiceFolding::always ||
       (o.fold_choices == ChoiceFolding::automatic && order.size() >= 65536))) {
    ExpectedCostResult result;
    if (detail::solve_certified_mdp(g, is_goal, order, o, result)) return result;
  }
  std::vector<std::uint8_t> work(nv, 0);
  for (VertexId v : order) work[v.index()] = 1;
  const CompactModel c = detail::build_compact(g, is_goal, work, order);
  const std::uint32_t n = c.n;

  ExpectedCostResult result;
  std::vector<double> x(n + 1, 0.0);
  std::vector<std::uint32_t> choice(n, none32);
  bool pi_converged = false;
  switch (o.method) {
    case ExpectedCostMethod::value_iteration: {
      result.iterations = value_iteration(g, c, o, o.epsilon, o.max_iterations, x, result).iterations;
      detail::extract_proper(c, x, 1e-9, choice);
      break;
    }
    case ExpectedCostMethod::policy_iteration: {
      std::vector<std::uint8_t> reached;
      detail::backward_choose(
          detail::backward_view(c), [](std::uint32_t, std::uint32_t) { return true; }, false, choice, reached);
      detail::PolicyBlocks blocks;
      pi_converged = policy_iteration(c, o, choice, x, result, blocks);
      result.error_bound = evaluation_error_bound(c, choice, x, &blocks);
      break;
    }
    case ExpectedCostMethod::linear_programming: {
      detail::solve_lp(c, x);
      detail::extract_proper(c, x, 1e-7, choice);
      break;
    }
    case ExpectedCostMethod::certified: {
      // Close in with value iteration (cheap sweeps), then finish with policy iteration from the
      // greedy proper strategy.
      result.iterations = value_iteration(g, c, o, std::max(o.epsilon, o.certified_vi_epsilon),
                                          std::min(o.max_iterations, o.certified_vi_sweeps), x, result)
                              .iterations;
      detail::extract_proper(c, x, 1e-9, choice);
      detail::PolicyBlocks blocks;
      pi_converged = policy_iteration(c, o, choice, x, result, blocks);
      result.error_bound = evaluation_error_bound(c, choice, x, &blocks);
      break;
    }
  }
  result.residual = detail::bellman_residual(c, x);
  result.certified = pi_converged && result.error_bound >= 0 && result.error_bound <= 1e-6;
  result.value.assign(nv, inf);
  result.strategy.assign(nv, EdgeId::none());
  for (std::uint32_t v = 0; v < nv; ++v) {
    const std::uint32_t i = c.index[v];
    if (i == none32) {
      ++result.num_infinite;
      continue;
    }
    ++result.num_region;
    result.value[v] = x[i];
    if (i < n && !c.passive[i]) result.strategy[v] = c.edge[choice[i]];
  }
  return result;
}

std::vector<double> evaluate_strategy(const TestGraph& g, std::span<const VertexId> goals,
                                      std::span<const EdgeId> strategy) {
  const auto is_goal = goal_flags(g, goals, "evaluate_strategy");
  const std::uint32_t nv = g.num_vertices();
  if (strategy.size() != nv) throw UsageError("strategy", "evaluate_strategy: strategy size differs from the graph");
  const auto src = g.sources();
  const auto tg = g.targets();
  // Vertices that can reach a goal under the strategy ...
  std::vector<std::uint8_t> reach(nv, 0);
  std::vector<VertexId> queue;
  auto follows = [&](VertexId u, EdgeId e) {
    return !is_goal[u.index()] && (g.is_passive(u) || strategy[u.index()] == e);
  };
  for (std::uint32_t v = 0; v < nv; ++v) {
    if (is_goal[v]) {
      reach[v] = 1;
      queue.push_back(VertexId{v});
    } else if (g.is_active(VertexId{v}) && !strategy[v].is_none()) {
      const EdgeId e = strategy[v];
      if (e.index() >= g.num_edges() || src[e.index()] != VertexId{v})
        throw UsageError("strategy", "evaluate_strategy: strategy edge does not leave its vertex");
    }
  }
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (EdgeId e : g.in_edges(queue[h])) {
      const VertexId u = src[e.index()];
      if (!reach[u.index()] && follows(u, e)) {
        reach[u.index()] = 1;
        queue.push_back(u);
      }
    }
  // ... and those that cannot reach one that cannot: they reach a goal with probability 1.
  std::vector<std::uint8_t> bad(nv, 0);
  queue.clear();
  for (std::uint32_t v = 0; v < nv; ++v)
    if (!reach[v]) {
      bad[v] = 1;
      queue.push_back(VertexId{v});
    }
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (EdgeId e : g.in_edges(queue[h])) {
      const VertexId u = src[e.index()];
      if (!bad[u.index()] && follows(u, e)) {
        bad[u.index()] = 1;
        queue.push_back(u);
      }
    }
  std::vector<VertexId> order;
  std::vector<std::uint8_t> work(nv, 0);
  for (std::uint32_t v = 0; v < nv; ++v)
    if (!bad[v] && !is_goal[v]) {
      order.push_back(VertexId{v});
      work[v] = 1;
    }
  const CompactModel c = detail::build_compact(g, is_goal, work, order);
  std::vector<std::uint32_t> choice(c.n, none32);
  for (std::uint32_t i = 0; i < c.n; ++i) {
    if (c.passive[i]) continue;
    const EdgeId e = strategy[c.vertex[i].index()];
    for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k)
      if (c.edge[k] == e) choice[i] = k;
    if (choice[i] == none32) throw InternalError("evaluate_strategy: chosen edge left the evaluated set");
  }
  (void)tg;
  std::vector<double> x(c.n + 1, 0.0);
  detail::solve_policy(c, choice, false, x);
  std::vector<double> value(nv, inf);
  for (std::uint32_t v = 0; v < nv; ++v)
    if (c.index[v] != none32) value[v] = x[c.index[v]];
  return value;
}

}  // namespace playtest
