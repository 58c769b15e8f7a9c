// Exact solution of sparse linear systems A x = b over the rationals (issue 23): Gaussian
// elimination with the diagonal as pivots, in a minimum-degree order (the variable whose
// elimination creates the least fill-in goes first; for the chains and trees of test graphs that
// is state elimination from the leaves), then back substitution. Every number is an exact GMP
// rational, so the answer is the exact solution, or the system is reported singular.
//
// Meant for the systems of a fixed strategy, (I - P) x = c with P the strategy's substochastic
// transition matrix on the transient vertices: a nonsingular M-matrix, for which diagonal pivots
// never vanish in any order (every Schur complement is again a nonsingular M-matrix). Other
// systems work when no diagonal pivot becomes zero; otherwise `solve` says singular.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "playtest/solve/exact_rational.hpp"

namespace playtest::exact {

// A square sparse system, row by row. Entries of one row may come in any order; two entries of
// one row in one column are added.
class SparseSystem {
 public:
  explicit SparseSystem(std::uint32_t n) : rows_(n), rhs_(n) {}
  std::uint32_t size() const { return static_cast<std::uint32_t>(rows_.size()); }
  // A[row][col] += value.
  void add(std::uint32_t row, std::uint32_t col, const Rational& value);
  // b[row] += value.
  void add_rhs(std::uint32_t row, const Rational& value) { rhs_[row] += value; }
  const std::vector<std::pair<std::uint32_t, Rational>>& row(std::uint32_t r) const { return rows_[r]; }
  const Rational& rhs(std::uint32_t r) const { return rhs_[r]; }

 private:
  friend struct Eliminator;
  std::vector<std::vector<std::pair<std::uint32_t, Rational>>> rows_;
  std::vector<Rational> rhs_;
};

struct LinearSolveStats {
  std::uint64_t fill_in = 0;       // entries created by elimination
  std::uint64_t max_row_size = 0;  // the longest pivot row
  std::uint64_t max_bits = 0;      // the largest numerator or denominator met, in bits
};

struct LinearSolution {
  enum class Status : std::uint8_t {
    solved,     // x holds the exact solution
    singular,   // a diagonal pivot was zero (A singular, or not of the kind above)
    cancelled,  // `cancelled` returned true
  } status = Status::solved;
  std::vector<Rational> x;
  LinearSolveStats stats;
};

// x with A x = b exactly. The system is consumed. `cancelled` (may be empty) is asked every 64
// pivots whether to give up (a time budget).
LinearSolution solve(SparseSystem system, const std::function<bool()>& cancelled = {});

}  // namespace playtest::exact
