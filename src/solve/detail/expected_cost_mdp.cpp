#include "solve/detail/expected_cost_mdp.hpp"

#include <Eigen/Sparse>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "playtest/error.hpp"
#include "solve/detail/backward_choose.hpp"
#include "solve/detail/bicgstab.hpp"
#include "solve/detail/mdp_model.hpp"
#include "solve/detail/scc_csr.hpp"
#include "solve/detail/team.hpp"

namespace playtest::detail {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t none32 = std::numeric_limits<std::uint32_t>::max();

// cost(a) + sum p x over a's transitions
inline double q_value(const MdpModel& m, std::uint32_t a, const double* x) {
  double s = m.cost[a];
  for (std::uint32_t k = m.first_trans[a]; k < m.first_trans[a + 1]; ++k) s += m.prob[k] * x[m.tgt[k]];
  return s;
}

// The value-iteration sweep's own copy of the model: costs and probabilities as float (value
// iteration only leads policy iteration to a good first strategy; everything certified is computed
// from the double model), and, when every action has at most 4 transitions and padding does not
// more than double them, every action padded to the same number of transitions (into the goal slot
// with probability 0), so that the inner loop has no data-dependent branch. The values read at
// random are prefetched a few dozen transitions ahead.
//
// The sweep is Gauss-Seidel in node order cut into the blocks of a BlockPipeline (team.hpp): a
// transition into a neighbouring block reads the value from before the sweep. Values live in one
// buffer [x | snapshot], and such a transition's target is stored as n + 1 + t, so the inner loop
// does not test anything.
struct SweepModel {
  std::uint32_t width = 0;  // transitions per action when padded; 0: not padded (first_trans)
  std::vector<float> cost, prob;
  std::vector<std::uint32_t> tgt;  // into [x | snapshot]
};

SweepModel sweep_model(const MdpModel& m, const BlockPipeline& pipe) {
  SweepModel s;
  const std::uint32_t n = m.n;
  const std::uint32_t na = m.num_actions();
  const std::size_t nt = m.tgt.size();
  s.cost.assign(m.cost.begin(), m.cost.end());
  auto encode = [&](std::uint32_t a, std::uint32_t t) {
    return t != n && pipe.stale(m.action_node[a], t) ? n + 1 + t : t;
  };
  const std::uint32_t w = std::max<std::uint32_t>(1, m.max_trans);
  if (w <= 4 && std::size_t{na} * w <= 2 * nt) {
    s.width = w;
    s.prob.assign(std::size_t{na} * w, 0.0f);
    s.tgt.assign(std::size_t{na} * w, n);
    for (std::uint32_t a = 0; a < na; ++a)
      for (std::uint32_t k = m.first_trans[a], j = 0; k < m.first_trans[a + 1]; ++k, ++j) {
        s.prob[std::size_t{a} * w + j] = static_cast<float>(m.prob[k]);
        s.tgt[std::size_t{a} * w + j] = encode(a, m.tgt[k]);
      }
  } else {
    s.prob.assign(m.prob.begin(), m.prob.end());
    s.tgt.resize(nt);
    for (std::uint32_t a = 0; a < na; ++a)
      for (std::uint32_t k = m.first_trans[a]; k < m.first_trans[a + 1]; ++k) s.tgt[k] = encode(a, m.tgt[k]);
  }
  return s;
}

constexpr std::uint32_t prefetch_distance = 64;  // transitions

// The sweep over nodes [lo, hi) (one block); returns the largest relative change.
template <std::uint32_t W>
double sweep_block(const MdpModel& m, const SweepModel& s, double* x, std::uint32_t lo, std::uint32_t hi) {
  const std::uint32_t* fa = m.first_action.data();
  const std::uint32_t* ft = m.first_trans.data();
  const std::uint32_t* tgt = s.tgt.data();
  const float* prob = s.prob.data();
  const float* cost = s.cost.data();
  const std::uint32_t slots = static_cast<std::uint32_t>(s.tgt.size());
  std::uint32_t pf = W != 0 ? fa[lo] * W : ft[fa[lo]];
  double delta = 0;
  for (std::uint32_t i = lo; i < hi; ++i) {
    const std::uint32_t end = W != 0 ? fa[i + 1] * W : ft[fa[i + 1]];
    for (const std::uint32_t ahead = std::min(end + prefetch_distance, slots); pf < ahead; ++pf)
      __builtin_prefetch(&x[tgt[pf]]);
    double best = std::numeric_limits<double>::infinity();
    for (std::uint32_t a = fa[i]; a < fa[i + 1]; ++a) {
      double q = cost[a];
      if constexpr (W != 0) {
        for (std::uint32_t j = 0; j < W; ++j) q += static_cast<double>(prob[a * W + j]) * x[tgt[a * W + j]];
      } else {
        for (std::uint32_t k = ft[a]; k < ft[a + 1]; ++k) q += static_cast<double>(prob[k]) * x[tgt[k]];
      }
      best = std::min(best, q);
    }
    delta = std::max(delta, std::abs(best - x[i]) / std::max(1.0, std::abs(best)));
    x[i] = best;
  }
  return delta;
}

// Value iteration from 0 (sweeps as above) until the largest relative change is <= eps.
std::uint32_t value_iteration(Team& team, const MdpModel& m, double eps, std::uint32_t max_sweeps,
                              const std::function<void(std::uint32_t)>& on_sweep, std::vector<double>& x) {
  const std::uint32_t n = m.n;
  x.assign(std::size_t{n} + 1, 0.0);
  if (max_sweeps == 0 || n == 0) return 0;
  BlockPipeline pipe(n);
  const SweepModel s = sweep_model(m, pipe);
  std::vector<double> buf(2 * (std::size_t{n} + 1), 0.0);  // [x | snapshot]
  double* xs = buf.data();
  std::vector<double> block_delta(pipe.blocks());
  auto block = [&](std::uint32_t lo, std::uint32_t hi) {
    double d;
    switch (s.width) {
      case 1:
        d = sweep_block<1>(m, s, xs, lo, hi);
        break;
      case 2:
        d = sweep_block<2>(m, s, xs, lo, hi);
        break;
      case 3:
        d = sweep_block<3>(m, s, xs, lo, hi);
        break;
      case 4:
        d = sweep_block<4>(m, s, xs, lo, hi);
        break;
      default:
        d = sweep_block<0>(m, s, xs, lo, hi);
        break;
    }
    block_delta[pipe.block_of(lo)] = d;
  };
  std::uint32_t sweeps = 0;
  while (sweeps < max_sweeps) {
    team.for_parts(n, [&](std::uint32_t lo, std::uint32_t hi) { std::copy(xs + lo, xs + hi, xs + n + 1 + lo); });
    pipe.run(team, block);
    ++sweeps;
    if (on_sweep) on_sweep(sweeps);
    if (*std::max_element(block_delta.begin(), block_delta.end()) <= eps) break;
  }
  std::copy(xs, xs + n, x.begin());
  return sweeps;
}

BackwardView backward_view(const MdpModel& m, const MdpReverse& rev) {
  return {m.n, m.passive, rev.rev_off, rev.rev_action, m.action_node};
}

bool is_proper(const MdpModel& m, const MdpReverse& rev, std::span<const std::uint32_t> choice,
               std::vector<std::uint8_t>& reached) {
  return reaches_goal_under(backward_view(m, rev), choice, reached);
}

// A proper strategy made of actions within a relative tolerance of the best one at x.
void extract_proper(Team& team, const MdpModel& m, const MdpReverse& rev, std::span<const double> x, double rel_tol,
                    std::vector<std::uint32_t>& choice) {
  std::vector<std::uint8_t> good(m.num_actions(), 0);
  team.for_parts(m.n, [&](std::uint32_t lo, std::uint32_t hi) {
    std::vector<double> q;
    for (std::uint32_t i = lo; i < hi; ++i) {
      const std::uint32_t a0 = m.first_action[i], a1 = m.first_action[i + 1];
      q.resize(a1 - a0);
      double best = inf;
      for (std::uint32_t a = a0; a < a1; ++a) best = std::min(best, q[a - a0] = q_value(m, a, x.data()));
      for (std::uint32_t a = a0; a < a1; ++a)
        good[a] = q[a - a0] <= best + rel_tol * std::max(1.0, std::abs(best)) ? 1 : 0;
    }
  });
  std::vector<std::uint8_t> reached;
  backward_choose(
      backward_view(m, rev), [&](std::uint32_t, std::uint32_t a) { return good[a] != 0; }, true, choice, reached);
}

// The strongly connected components of a strategy's chain, in topological order (successors
// first), as member lists (ascending within a component).
struct PolicyBlocks {
  std::uint32_t count = 0;
  std::vector<std::uint32_t> comp, coff, members;
};

PolicyBlocks decompose_policy(const MdpModel& m, std::span<const std::uint32_t> choice) {
  const std::uint32_t n = m.n;
  PolicyBlocks b;
  std::vector<std::uint32_t> off(std::size_t{n} + 1), adj;
  std::size_t size = 0;
  for (std::uint32_t i = 0; i < n; ++i) size += m.first_trans[choice[i] + 1] - m.first_trans[choice[i]];
  adj.reserve(size);
  off[0] = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t a = choice[i];
    for (std::uint32_t k = m.first_trans[a]; k < m.first_trans[a + 1]; ++k)
      if (m.tgt[k] != n) adj.push_back(m.tgt[k]);
    off[i + 1] = static_cast<std::uint32_t>(adj.size());
  }
  b.count = scc_csr(off, adj, b.comp);
  std::vector<std::uint32_t>().swap(adj);
  std::vector<std::uint32_t>().swap(off);
  b.coff.assign(std::size_t{b.count} + 1, 0);
  b.members.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) ++b.coff[b.comp[i] + 1];
  for (std::uint32_t k = 0; k < b.count; ++k) b.coff[k + 1] += b.coff[k];
  std::vector<std::uint32_t> next(b.coff.begin(), b.coff.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i) b.members[next[b.comp[i]]++] = i;
  return b;
}

// Solves x_i = rhs_i + sum_t p x_t under the strategy, block by block in topological order:
// single nodes directly, small blocks by sparse LU, large ones by BiCGSTAB started from `x`
// (sparse LU when it does not reach the tolerance). `unit` makes rhs the number of moves in the
// test graph (for the expected number of steps), else the action's cost.
void solve_blocks(Team& team, const MdpModel& m, std::span<const std::uint32_t> choice, const PolicyBlocks& blocks,
                  bool unit, std::vector<double>& x) {
  const std::uint32_t n = m.n;
  x.resize(std::size_t{n} + 1);
  x[n] = 0;
  const auto& comp = blocks.comp;
  auto rhs_of = [&](std::uint32_t a) { return unit ? static_cast<double>(m.moves[a]) : m.cost[a]; };
  std::vector<std::uint32_t> local;
  std::vector<Eigen::Triplet<double, int>> trip;
  for (std::uint32_t k = 0; k < blocks.count; ++k) {
    const std::uint32_t b = blocks.coff[k], e = blocks.coff[k + 1], size = e - b;
    if (size == 1) {
      const std::uint32_t i = blocks.members[b];
      const std::uint32_t a = choice[i];
      double sum = rhs_of(a), diag = 1.0;
      for (std::uint32_t t = m.first_trans[a]; t < m.first_trans[a + 1]; ++t) {
        if (m.tgt[t] == i)
          diag -= m.prob[t];
        else
          sum += m.prob[t] * x[m.tgt[t]];
      }
      if (!(diag > 0)) throw InternalError("solve_expected_cost: evaluated strategy does not reach a goal");
      x[i] = sum / diag;
      continue;
    }
    if (local.empty()) local.assign(n, none32);
    for (std::uint32_t r = 0; r < size; ++r) local[blocks.members[b + r]] = r;
    std::vector<double> rhs(size), sol(size);
    bool done = false;
    if (size > 3000) {
      BlockMatrix mat;
      const BlockPipeline pipe(size);
      mat.size = size;
      mat.off.resize(std::size_t{size} + 1);
      mat.mid.resize(size);
      mat.diag.resize(size);
      mat.off[0] = 0;
      for (std::uint32_t r = 0; r < size; ++r) {
        const std::uint32_t i = blocks.members[b + r];
        const std::uint32_t a = choice[i];
        double sum = rhs_of(a), diag = 1.0;
        // Entries to earlier rows first, then to later ones (the preconditioner uses the first).
        for (int part = 0; part < 2; ++part) {
          for (std::uint32_t t = m.first_trans[a]; t < m.first_trans[a + 1]; ++t) {
            const std::uint32_t j = m.tgt[t];
            if (j == n || comp[j] != k) {
              if (part == 0) sum += m.prob[t] * x[j];
              continue;
            }
            if (j == i) {
              if (part == 0) diag -= m.prob[t];
              continue;
            }
            if ((local[j] < r && !pipe.stale(r, local[j])) == (part == 0)) {
              mat.col.push_back(local[j]);
              mat.val.push_back(-m.prob[t]);
            }
          }
          if (part == 0) mat.mid[r] = static_cast<std::uint32_t>(mat.col.size());
        }
        mat.off[r + 1] = static_cast<std::uint32_t>(mat.col.size());
        mat.diag[r] = diag;
        rhs[r] = sum;
        sol[r] = std::isfinite(x[i]) ? x[i] : 0.0;
      }
      bicgstab(team, mat, rhs, sol, 1e-14, 5000);
      // Accept only a solution whose true residual is small.
      std::vector<double> ax(size);
      mat.multiply(sol, ax);
      double res = 0, scale = 1;
      bool finite = true;
      for (std::uint32_t r = 0; r < size; ++r) {
        finite = finite && std::isfinite(sol[r]);
        res = std::max(res, std::abs(rhs[r] - ax[r]));
        scale = std::max(scale, std::abs(sol[r]));
      }
      done = finite && res <= 1e-11 * scale;
    }
    if (!done) {
      trip.clear();
      for (std::uint32_t r = 0; r < size; ++r) {
        const std::uint32_t i = blocks.members[b + r];
        const std::uint32_t a = choice[i];
        double sum = rhs_of(a);
        trip.emplace_back(static_cast<int>(r), static_cast<int>(r), 1.0);
        for (std::uint32_t t = m.first_trans[a]; t < m.first_trans[a + 1]; ++t) {
          const std::uint32_t j = m.tgt[t];
          if (j != n && comp[j] == k)
            trip.emplace_back(static_cast<int>(r), static_cast<int>(local[j]), -m.prob[t]);
          else
            sum += m.prob[t] * x[j];
        }
        rhs[r] = sum;
      }
      using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
      SpMat a(size, size);
      a.setFromTriplets(trip.begin(), trip.end());
      a.makeCompressed();
      Eigen::SparseLU<SpMat, Eigen::COLAMDOrdering<int>> lu;
      lu.compute(a);
      if (lu.info() != Eigen::Success)
        throw InternalError("solve_expected_cost: singular strategy system (strategy does not reach a goal)");
      const Eigen::VectorXd s = lu.solve(Eigen::Map<const Eigen::VectorXd>(rhs.data(), size));
      for (std::uint32_t r = 0; r < size; ++r) sol[r] = s[r];
    }
    for (std::uint32_t r = 0; r < size; ++r) x[blocks.members[b + r]] = sol[r];
  }
}

// max_i |rhs_i + sum p x_t - x_i| under the strategy (rhs as in solve_blocks).
double policy_residual(const MdpModel& m, std::span<const std::uint32_t> choice, bool unit, std::span<const double> x) {
  double res = 0;
  for (std::uint32_t i = 0; i < m.n; ++i) {
    const std::uint32_t a = choice[i];
    double s = unit ? static_cast<double>(m.moves[a]) : m.cost[a];
    for (std::uint32_t k = m.first_trans[a]; k < m.first_trans[a + 1]; ++k) s += m.prob[k] * x[m.tgt[k]];
    res = std::max(res, std::abs(s - x[i]));
  }
  return res;
}

// Policy iteration from a proper strategy, as on the test graph (expected_cost.cpp).
bool policy_iteration(Team& team, const MdpModel& m, const MdpReverse& rev, const ExpectedCostOptions& o,
                      std::vector<std::uint32_t>& choice, std::vector<double>& x, ExpectedCostResult& result,
                      PolicyBlocks& blocks) {
  const std::uint32_t n = m.n;
  std::vector<std::uint8_t> reached;
  std::vector<std::uint32_t> old;
  for (std::uint32_t round = 0;; ++round) {
    blocks = decompose_policy(m, choice);
    solve_blocks(team, m, choice, blocks, false, x);
    ++result.evaluations;
    if (round >= o.max_iterations) return false;
    old = choice;
    std::vector<std::uint8_t> changed(team.size(), 0);
    team.run([&](unsigned part) {
      const auto lo = static_cast<std::uint32_t>(std::uint64_t{n} * part / team.size());
      const auto hi = static_cast<std::uint32_t>(std::uint64_t{n} * (part + 1) / team.size());
      for (std::uint32_t i = lo; i < hi; ++i) {
        if (m.passive[i]) continue;
        const std::uint32_t cur = choice[i];
        const double qcur = q_value(m, cur, x.data());
        double best = qcur;
        std::uint32_t bk = cur;
        for (std::uint32_t a = m.first_action[i]; a < m.first_action[i + 1]; ++a) {
          const double q = q_value(m, a, x.data());
          if (q < best) {
            best = q;
            bk = a;
          }
        }
        if (bk != cur && best < qcur - o.improvement_tolerance * std::max(1.0, std::abs(x[i]))) {
          choice[i] = bk;
          changed[part] = 1;
        }
      }
    });
    if (std::find(changed.begin(), changed.end(), 1) == changed.end()) return true;
    while (!is_proper(m, rev, choice, reached)) {
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

// Values of every vertex from the node values: 0 at goals, +inf outside the work set, and a folded
// passive vertex's expectation over its edges.
void vertex_values(Team& team, const TestGraph& g, const MdpModel& m, std::span<const double> x,
                   std::vector<double>& value) {
  const std::uint32_t nv = g.num_vertices();
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  value.resize(nv);
  team.for_parts(nv, [&](std::uint32_t lo, std::uint32_t hi) {
    for (std::uint32_t v = lo; v < hi; ++v) {
      const std::uint32_t i = m.index[v];
      if (i == mdp_outside) {
        value[v] = inf;
      } else if (i != mdp_folded) {
        value[v] = x[i];
      } else {
        double base = 0;
        for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) base += prob[e] * cost[e];
        double s = base;
        for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) s += prob[e] * x[m.index[tg[e].index()]];
        value[v] = s;
      }
    }
  });
}

// Residuals of the vertex values in the test graph's own equations over the work set: the
// strategy's (active vertices follow `strategy`) and Bellman's (active vertices take the minimum
// over their edges into the work set or a goal). Also the least one-move cost of the strategy.
struct VertexResiduals {
  double policy = 0, bellman = 0, cmin = inf;
};

VertexResiduals vertex_residuals(const TestGraph& g, const MdpModel& m, std::span<const double> value,
                                 std::span<const EdgeId> strategy, std::uint32_t lo, std::uint32_t hi);

VertexResiduals vertex_residuals(Team& team, const TestGraph& g, const MdpModel& m, std::span<const double> value,
                                 std::span<const EdgeId> strategy) {
  std::vector<VertexResiduals> parts(team.size());
  team.run([&](unsigned part) {
    const auto lo = static_cast<std::uint32_t>(std::uint64_t{g.num_vertices()} * part / team.size());
    const auto hi = static_cast<std::uint32_t>(std::uint64_t{g.num_vertices()} * (part + 1) / team.size());
    parts[part] = vertex_residuals(g, m, value, strategy, lo, hi);
  });
  VertexResiduals out;
  for (const auto& p : parts) {
    out.policy = std::max(out.policy, p.policy);
    out.bellman = std::max(out.bellman, p.bellman);
    out.cmin = std::min(out.cmin, p.cmin);
  }
  return out;
}

VertexResiduals vertex_residuals(const TestGraph& g, const MdpModel& m, std::span<const double> value,
                                 std::span<const EdgeId> strategy, std::uint32_t lo, std::uint32_t hi) {
  VertexResiduals out;
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  for (std::uint32_t v = lo; v < hi; ++v) {
    const std::uint32_t i = m.index[v];
    if (i == mdp_outside || i == m.n) continue;
    if (g.is_passive(VertexId{v})) {
      double base = 0;
      for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) base += prob[e] * cost[e];
      double s = base;
      for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) s += prob[e] * value[tg[e].index()];
      const double r = std::abs(s - value[v]);
      out.policy = std::max(out.policy, r);
      out.bellman = std::max(out.bellman, r);
      out.cmin = std::min(out.cmin, base);
      continue;
    }
    double best = inf;
    for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) {
      const std::uint32_t t = tg[e].index();
      if (m.index[t] == mdp_outside) continue;
      best = std::min(best, cost[e] + value[t]);
    }
    out.bellman = std::max(out.bellman, std::abs(best - value[v]));
    const EdgeId e = strategy[v];
    out.policy = std::max(out.policy, std::abs(cost[e.index()] + value[tg[e.index()].index()] - value[v]));
    out.cmin = std::min(out.cmin, cost[e.index()]);
  }
  return out;
}

// The error bound of evaluation_error_bound (expected_cost.cpp) for the vertex values: r times a
// bound on the expected number of moves T. When every move of the strategy costs >= cmin > 0,
// T <= x / (cmin - r) as there. Otherwise, when every action of the folded MDP that does not go
// straight to a goal costs >= cmin_m > 0: the number of steps T_m in the folded chain is at most
// 1 + J / cmin_m, a step is at most mm moves (mm = 2 through a folded vertex; T <= mm T_m) and
// J <= x + r T, so T_m <= (cmin_m + x) / (cmin_m - mm r); a step straight to a goal is T = its
// moves, and a folded vertex adds its own move to its successors'. Otherwise T is solved for.
double error_bound(Team& team, const TestGraph& g, const MdpModel& m, std::span<const std::uint32_t> choice,
                   const PolicyBlocks& blocks, std::span<const double> x, std::span<const double> value,
                   const VertexResiduals& res) {
  const double r = res.policy;
  const std::uint32_t nv = g.num_vertices();
  double bound = 0;
  auto each_work_vertex = [&](auto&& f) {
    for (std::uint32_t v = 0; v < nv; ++v) {
      const std::uint32_t i = m.index[v];
      if (i != mdp_outside && i != m.n) f(v, i);
    }
  };
  if (res.cmin > 0 && r < 0.5 * res.cmin) {
    each_work_vertex([&](std::uint32_t v, std::uint32_t) {
      bound = std::max(bound, r * value[v] / (res.cmin - r) / std::max(1.0, std::abs(value[v])));
    });
    return bound;
  }
  // The least cost of a step that does not end at a goal, and the most moves of a step.
  double cmin_m = inf;
  double mm = 1;
  std::vector<std::uint8_t> to_goal(m.n, 1);
  for (std::uint32_t i = 0; i < m.n; ++i) {
    const std::uint32_t a = choice[i];
    for (std::uint32_t k = m.first_trans[a]; k < m.first_trans[a + 1]; ++k)
      if (m.tgt[k] != m.n) to_goal[i] = 0;
    if (!to_goal[i]) cmin_m = std::min(cmin_m, m.cost[a]);
    mm = std::max(mm, static_cast<double>(m.moves[a]));
  }
  if (cmin_m > 0 && mm * r < 0.5 * cmin_m) {
    auto node_moves = [&](std::uint32_t i) {
      if (i == m.n) return 0.0;
      if (to_goal[i]) return static_cast<double>(m.moves[choice[i]]);
      return mm * (cmin_m + x[i]) / (cmin_m - mm * r);
    };
    const auto off = g.out_offsets();
    const auto tg = g.targets();
    const auto prob = g.probabilities();
    each_work_vertex([&](std::uint32_t v, std::uint32_t i) {
      double moves;
      if (i == mdp_folded) {
        moves = 1;
        for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) moves += prob[e] * node_moves(m.index[tg[e].index()]);
      } else {
        moves = node_moves(i);
      }
      bound = std::max(bound, r * moves / std::max(1.0, std::abs(value[v])));
    });
    return bound;
  }
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto prob = g.probabilities();
  std::vector<double> steps(std::size_t{m.n} + 1, 0.0);
  solve_blocks(team, m, choice, blocks, true, steps);
  const double s = policy_residual(m, choice, true, steps);
  if (!(s < 1)) return inf;
  double tmax = 0;
  for (std::uint32_t i = 0; i < m.n; ++i) tmax = std::max(tmax, steps[i]);
  tmax /= (1 - s);
  each_work_vertex([&](std::uint32_t v, std::uint32_t i) {
    double t;
    if (i != mdp_folded) {
      t = steps[i] + s * tmax;
    } else {
      t = 1;
      for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) t += prob[e] * (steps[m.index[tg[e].index()]] + s * tmax);
    }
    bound = std::max(bound, r * t / std::max(1.0, std::abs(value[v])));
  });
  return bound;
}

}  // namespace

bool solve_certified_mdp(const TestGraph& g, std::span<const std::uint8_t> is_goal, std::span<const VertexId> order,
                         const ExpectedCostOptions& o, ExpectedCostResult& result) {
  Team team(resolve_threads(o.threads));
  MdpModel m = build_mdp(team, g, is_goal, order);
  const std::uint32_t n = m.n;
  // A zero-cost action that can stay in the work set may close a zero-cost end component.
  for (std::uint32_t a = 0; a < m.num_actions(); ++a) {
    if (m.cost[a] != 0 || m.passive[m.action_node[a]]) continue;
    for (std::uint32_t k = m.first_trans[a]; k < m.first_trans[a + 1]; ++k)
      if (m.tgt[k] != n) return false;
  }
  const MdpReverse rev = reverse_mdp(m);

  ExpectedCostResult r;
  std::vector<double> x;
  r.iterations = value_iteration(team, m, std::max(o.epsilon, o.certified_vi_epsilon),
                                 std::min(o.max_iterations, o.certified_vi_sweeps), o.on_sweep, x);
  std::vector<std::uint32_t> choice(n, none32);
  for (std::uint32_t i = 0; i < n; ++i)
    if (m.passive[i]) choice[i] = m.first_action[i];
  extract_proper(team, m, rev, x, 1e-9, choice);
  PolicyBlocks blocks;
  const bool converged = policy_iteration(team, m, rev, o, choice, x, r, blocks);

  const std::uint32_t nv = g.num_vertices();
  vertex_values(team, g, m, x, r.value);
  r.strategy.assign(nv, EdgeId::none());
  for (std::uint32_t i = 0; i < n; ++i)
    if (!m.passive[i]) r.strategy[m.node_vertex[i].index()] = m.action_edge[choice[i]];
  const VertexResiduals res = vertex_residuals(team, g, m, r.value, r.strategy);
  r.residual = res.bellman;
  r.error_bound = error_bound(team, g, m, choice, blocks, x, r.value, res);
  r.certified = converged && r.error_bound >= 0 && r.error_bound <= 1e-6;
  for (std::uint32_t v = 0; v < nv; ++v) {
    if (m.index[v] == mdp_outside)
      ++r.num_infinite;
    else
      ++r.num_region;
  }
  result = std::move(r);
  return true;
}

}  // namespace playtest::detail
