#include "solve/core/policy_iteration.hpp"

#include <Eigen/Sparse>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>

#include "solve/detail/bicgstab.hpp"
#include "solve/detail/scc_csr.hpp"

namespace playtest::detail {

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t none32 = std::numeric_limits<std::uint32_t>::max();
}  // namespace

BackwardView backward_view(const ChoiceModel& m, const ModelReverse& rev) {
  return {m.n, m.passive, rev.off, rev.choice, m.choice_state};
}

bool is_proper(const ChoiceModel& m, const ModelReverse& rev, std::span<const std::uint32_t> choice,
               std::vector<std::uint8_t>& reached) {
  return reaches_goal_under(backward_view(m, rev), choice, reached);
}

void attractor_strategy(const ChoiceModel& m, const ModelReverse& rev, std::vector<std::uint32_t>& choice) {
  choice.assign(m.n, none32);
  for (std::uint32_t i = 0; i < m.n; ++i)
    if (m.passive[i]) choice[i] = m.first_choice[i];
  std::vector<std::uint8_t> reached;
  backward_choose(
      backward_view(m, rev), [](std::uint32_t, std::uint32_t) { return true; }, false, choice, reached);
}

void extract_proper(Team& team, const ChoiceModel& m, const ModelReverse& rev, std::span<const double> x,
                    double rel_tol, std::vector<std::uint32_t>& choice) {
  choice.assign(m.n, none32);
  for (std::uint32_t i = 0; i < m.n; ++i)
    if (m.passive[i]) choice[i] = m.first_choice[i];
  std::vector<std::uint8_t> good(m.first_choice[m.n], 0);
  team.for_parts(m.n, [&](std::uint32_t lo, std::uint32_t hi) {
    std::vector<double> q;
    for (std::uint32_t i = lo; i < hi; ++i) {
      const std::uint32_t a0 = m.first_choice[i], a1 = m.first_choice[i + 1];
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

PolicyBlocks decompose_policy(const ChoiceModel& m, std::span<const std::uint32_t> choice) {
  const std::uint32_t n = m.n;
  PolicyBlocks b;
  std::vector<std::uint32_t> off(std::size_t{n} + 1), adj;
  std::size_t size = 0;
  for (std::uint32_t i = 0; i < n; ++i) size += m.first_entry[choice[i] + 1] - m.first_entry[choice[i]];
  adj.reserve(size);
  off[0] = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t a = choice[i];
    for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k)
      if (m.column[k] != n) adj.push_back(m.column[k]);
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

bool solve_policy(Team& team, const ChoiceModel& m, std::span<const std::uint32_t> choice, const PolicyBlocks& blocks,
                  bool unit, std::vector<double>& x) {
  const std::uint32_t n = m.n;
  x.resize(std::size_t{n} + 1);
  x[n] = 0;
  const auto& comp = blocks.comp;
  auto rhs_of = [&](std::uint32_t a) { return unit ? static_cast<double>(m.moves(a)) : m.cost[a]; };
  std::vector<std::uint32_t> local;
  std::vector<Eigen::Triplet<double, int>> trip;
  for (std::uint32_t k = 0; k < blocks.count; ++k) {
    const std::uint32_t b = blocks.coff[k], e = blocks.coff[k + 1], size = e - b;
    if (size == 1) {
      const std::uint32_t i = blocks.members[b];
      const std::uint32_t a = choice[i];
      double sum = rhs_of(a), diag = 1.0;
      for (std::uint32_t t = m.first_entry[a]; t < m.first_entry[a + 1]; ++t) {
        if (m.column[t] == i)
          diag -= m.prob[t];
        else
          sum += m.prob[t] * x[m.column[t]];
      }
      if (!(diag > 0)) return false;
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
          for (std::uint32_t t = m.first_entry[a]; t < m.first_entry[a + 1]; ++t) {
            const std::uint32_t j = m.column[t];
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
        for (std::uint32_t t = m.first_entry[a]; t < m.first_entry[a + 1]; ++t) {
          const std::uint32_t j = m.column[t];
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
      if (lu.info() != Eigen::Success) return false;
      const Eigen::VectorXd s = lu.solve(Eigen::Map<const Eigen::VectorXd>(rhs.data(), size));
      if (lu.info() != Eigen::Success) return false;
      for (std::uint32_t r = 0; r < size; ++r) sol[r] = s[r];
    }
    for (std::uint32_t r = 0; r < size; ++r) x[blocks.members[b + r]] = sol[r];
  }
  for (std::uint32_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

double policy_residual(const ChoiceModel& m, std::span<const std::uint32_t> choice, bool unit,
                       std::span<const double> x) {
  double res = 0;
  for (std::uint32_t i = 0; i < m.n; ++i) {
    const std::uint32_t a = choice[i];
    double s = unit ? static_cast<double>(m.moves(a)) : m.cost[a];
    for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k) s += m.prob[k] * x[m.column[k]];
    res = std::max(res, std::abs(s - x[i]));
  }
  return res;
}

PolicyIterationEnd policy_iteration(Team& team, const ChoiceModel& m, const ModelReverse& rev, std::uint32_t max_rounds,
                                    double improvement_tolerance, std::vector<std::uint32_t>& choice,
                                    std::vector<double>& x, PolicyIterationStats& stats, PolicyBlocks& blocks) {
  const std::uint32_t n = m.n;
  std::vector<std::uint8_t> reached;
  std::vector<std::uint32_t> old;
  std::vector<double> old_x;
  PolicyBlocks old_blocks;
  for (std::uint32_t round = 0;; ++round) {
    blocks = decompose_policy(m, choice);
    if (!solve_policy(team, m, choice, blocks, false, x)) {
      // Back to the last strategy that was evaluated (none: x empty).
      if (round == 0) {
        x.clear();
      } else {
        choice = std::move(old);
        x = std::move(old_x);
        blocks = std::move(old_blocks);
      }
      return PolicyIterationEnd::numeric_failure;
    }
    ++stats.evaluations;
    if (round >= max_rounds) return PolicyIterationEnd::iteration_limit;
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
        for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1]; ++a) {
          const double q = q_value(m, a, x.data());
          if (q < best) {
            best = q;
            bk = a;
          }
        }
        if (bk != cur && best < qcur - improvement_tolerance * std::max(1.0, std::abs(x[i]))) {
          choice[i] = bk;
          changed[part] = 1;
        }
      }
    });
    if (std::find(changed.begin(), changed.end(), 1) == changed.end()) return PolicyIterationEnd::stable;
    while (!is_proper(m, rev, choice, reached)) {
      bool reverted = false;
      for (std::uint32_t i = 0; i < n; ++i)
        if (!reached[i] && choice[i] != old[i]) {
          choice[i] = old[i];
          reverted = true;
        }
      if (!reverted) {
        choice = old;
        return PolicyIterationEnd::numeric_failure;
      }
    }
    if (choice == old) return PolicyIterationEnd::stable;
    ++stats.improvements;
    old_x = x;
    old_blocks = blocks;
  }
}

}  // namespace playtest::detail
