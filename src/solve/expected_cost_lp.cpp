// §2.2's linear program: maximize sum M[u] subject to M >= 0, M[u] <= c(u,v) + M[v] for every edge
// of an active vertex, M[u] <= sum p(u,v) (c(u,v) + M[v]) at passive vertices. Goals are the
// constant 0 (the model's goal slot), so no variable stands for them. On the almost-sure region
// the optimum is unique and equals the least expected cost of a proper strategy, zero-cost cycles
// included (any feasible M is below every proper strategy's cost, Theorem 1's inequality (9)).
#include <coin/ClpSimplex.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <limits>
#include <stdexcept>
#include <vector>

#include "playtest/error.hpp"
#include "solve/detail/expected_cost_model.hpp"

namespace playtest::detail {

void solve_lp(const CompactModel& c, std::vector<double>& x) {
  const std::uint32_t n = c.n;
  x.assign(n + 1, 0.0);
  if (n == 0) return;
  std::vector<int> rows, cols;
  std::vector<double> elems, rowlb, rowub;
  rows.reserve(c.tgt.size() * 2);
  cols.reserve(c.tgt.size() * 2);
  elems.reserve(c.tgt.size() * 2);
  const double big = COIN_DBL_MAX;
  int row = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (c.passive[i]) {
      rows.push_back(row);
      cols.push_back(static_cast<int>(i));
      elems.push_back(1.0);
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) {
        if (c.tgt[k] == n) continue;
        rows.push_back(row);
        cols.push_back(static_cast<int>(c.tgt[k]));
        elems.push_back(-c.w[k]);
      }
      rowlb.push_back(-big);
      rowub.push_back(c.base[i]);
      ++row;
    } else {
      for (std::uint32_t k = c.off[i]; k < c.off[i + 1]; ++k) {
        const std::uint32_t t = c.tgt[k];
        if (t == i) continue;  // M[u] <= c + M[u] always holds
        rows.push_back(row);
        cols.push_back(static_cast<int>(i));
        elems.push_back(1.0);
        if (t != n) {
          rows.push_back(row);
          cols.push_back(static_cast<int>(t));
          elems.push_back(-1.0);
        }
        rowlb.push_back(-big);
        rowub.push_back(c.w[k]);
        ++row;
      }
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
  if (!model.isProvenOptimal()) {
    model.primal();
    if (!model.isProvenOptimal())
      throw InternalError("solve_expected_cost: Clp did not find the optimum of the linear program (status " +
                          std::to_string(model.status()) + ")");
  }
  const double* sol = model.primalColumnSolution();
  for (std::uint32_t i = 0; i < n; ++i) x[i] = sol[i];
}

}  // namespace playtest::detail
