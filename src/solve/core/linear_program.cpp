// Seed 001 §2.2's linear program on the choice model: maximize sum x_i subject to x >= 0 and, for
// every choice c of state i, x_i <= cost(c) + sum p x_t (an active state's choice is an edge, a
// passive state's one choice its expectation; folded choices are both at once). The goal slot is
// the constant 0, so no variable stands for it. On the almost-sure region the optimum is unique
// and equals the least expected cost of a proper strategy, zero-cost cycles included (any feasible
// x is below every proper strategy's cost, Theorem 1's inequality (9)).
#include "solve/core/linear_program.hpp"

#include <algorithm>
#include <coin/ClpSimplex.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <string>
#include <utility>
#include <vector>

namespace playtest::detail {

LinearProgramOutcome solve_linear_program(const ChoiceModel& m, std::vector<double>& x) {
  const std::uint32_t n = m.n;
  x.assign(std::size_t{n} + 1, 0.0);
  LinearProgramOutcome out;
  if (n == 0) {
    out.optimal = true;
    return out;
  }
  std::vector<int> rows, cols;
  std::vector<double> elems, rowlb, rowub;
  const double big = COIN_DBL_MAX;
  int row = 0;
  std::vector<std::pair<std::uint32_t, double>> coef;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1]; ++a) {
      // x_i - sum p x_t <= cost, with the coefficients of one column added up.
      coef.clear();
      coef.emplace_back(i, 1.0);
      for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k)
        if (m.column[k] != n) coef.emplace_back(m.column[k], -m.prob[k]);
      std::sort(coef.begin(), coef.end());
      std::size_t w = 0;
      for (std::size_t r = 0; r < coef.size(); ++r) {
        if (w > 0 && coef[w - 1].first == coef[r].first)
          coef[w - 1].second += coef[r].second;
        else
          coef[w++] = coef[r];
      }
      coef.resize(w);
      bool any = false;
      for (const auto& [c, v] : coef) any = any || v != 0;
      if (!any) continue;  // x_i <= cost + x_i always holds
      for (const auto& [c, v] : coef) {
        if (v == 0) continue;
        rows.push_back(row);
        cols.push_back(static_cast<int>(c));
        elems.push_back(v);
      }
      rowlb.push_back(-big);
      rowub.push_back(m.cost[a]);
      ++row;
    }
  }
  CoinPackedMatrix matrix(true, rows.data(), cols.data(), elems.data(), static_cast<CoinBigIndex>(elems.size()));
  // A row set may not mention every column; make the matrix have them all.
  if (matrix.getNumCols() < static_cast<int>(n)) matrix.setDimensions(matrix.getNumRows(), static_cast<int>(n));
  if (matrix.getNumRows() < row) matrix.setDimensions(row, matrix.getNumCols());
  std::vector<double> collb(n, 0.0), colub(n, big), obj(n, 1.0);
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(matrix, collb.data(), colub.data(), obj.data(), rowlb.data(), rowub.data());
  model.setOptimizationDirection(-1);  // maximize
  model.setPrimalTolerance(1e-9);
  model.setDualTolerance(1e-9);
  model.dual();
  if (!model.isProvenOptimal()) model.primal();
  out.status = model.status();
  out.optimal = model.isProvenOptimal();
  if (!out.optimal) return out;
  const double* sol = model.primalColumnSolution();
  for (std::uint32_t i = 0; i < n; ++i) x[i] = sol[i];
  return out;
}

}  // namespace playtest::detail
