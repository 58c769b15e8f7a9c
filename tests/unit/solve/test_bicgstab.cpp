// The preconditioned BiCGSTAB of the folded expected-cost solver (src/solve/detail/bicgstab.hpp)
// on random chains (I - P) z = b against a dense solve.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "playtest/graph/random.hpp"
#include "solve/detail/bicgstab.hpp"

using namespace playtest;
using detail::BlockMatrix;

namespace {

// A random substochastic chain on n states: each row sends probability to 1-3 random states and
// leaks `leak` of it (towards a goal outside the block).
BlockMatrix random_block(Rng& rng, std::uint32_t n, double leak, Eigen::MatrixXd& dense) {
  BlockMatrix a;
  a.size = n;
  a.off.assign(n + 1, 0);
  a.mid.assign(n, 0);
  a.diag.assign(n, 1.0);
  dense = Eigen::MatrixXd::Identity(n, n);
  for (std::uint32_t r = 0; r < n; ++r) {
    const std::uint32_t k = 1 + static_cast<std::uint32_t>(rng.below(3));
    std::vector<std::pair<std::uint32_t, double>> row;
    double total = 0;
    for (std::uint32_t j = 0; j < k; ++j) {
      const double w = 1.0 + static_cast<double>(rng.below(9));
      row.emplace_back(static_cast<std::uint32_t>(rng.below(n)), w);
      total += w;
    }
    for (auto& [c, w] : row) {
      const double p = (1 - leak) * w / total;
      dense(r, c) -= p;
      if (c == r) a.diag[r] -= p;
    }
    for (int part = 0; part < 2; ++part) {
      for (auto& [c, w] : row) {
        if (c == r || (c < r) != (part == 0)) continue;
        a.col.push_back(c);
        a.val.push_back(-(1 - leak) * w / total);
      }
      if (part == 0) a.mid[r] = static_cast<std::uint32_t>(a.col.size());
    }
    a.off[r + 1] = static_cast<std::uint32_t>(a.col.size());
  }
  return a;
}

TEST(Bicgstab, SolvesRandomChainsToTheTolerance) {
  Rng rng(99);
  for (int round = 0; round < 40; ++round) {
    const std::uint32_t n = 20 + static_cast<std::uint32_t>(rng.below(300));
    const double leak = round % 2 ? 0.01 : 0.2;
    Eigen::MatrixXd dense;
    const BlockMatrix a = random_block(rng, n, leak, dense);
    std::vector<double> b(n), x(n, 0.0), ax(n);
    for (auto& v : b) v = static_cast<double>(1 + rng.below(20));
    const Eigen::VectorXd exact = dense.lu().solve(Eigen::Map<Eigen::VectorXd>(b.data(), n));
    // The multiplication is the dense matrix's.
    a.multiply(std::vector<double>(exact.data(), exact.data() + n), ax);
    for (std::uint32_t r = 0; r < n; ++r) ASSERT_NEAR(ax[r], b[r], 1e-9 * std::max(1.0, std::abs(b[r])));
    detail::Team team(1 + round % 2);
    const auto out = detail::bicgstab(team, a, b, x, 1e-14, 5000);
    EXPECT_GT(out.iterations, 0u);
    EXPECT_LE(out.relative_residual, 1e-14);
    for (std::uint32_t r = 0; r < n; ++r)
      ASSERT_NEAR(x[r], exact[r], 1e-10 * std::max(1.0, std::abs(exact[r]))) << "round " << round << " row " << r;
  }
}

TEST(Bicgstab, PreconditionerIsForwardSubstitution) {
  Rng rng(5);
  Eigen::MatrixXd dense;
  const BlockMatrix a = random_block(rng, 50, 0.1, dense);
  // M = D - L: the lower triangle (diagonal included) of the dense matrix.
  const Eigen::MatrixXd m = dense.triangularView<Eigen::Lower>();
  std::vector<double> b(50), z(50);
  for (auto& v : b) v = static_cast<double>(rng.below(10));
  a.precondition(b, z);
  const Eigen::VectorXd mz = m * Eigen::Map<Eigen::VectorXd>(z.data(), 50);
  for (int r = 0; r < 50; ++r) EXPECT_NEAR(mz[r], b[r], 1e-12);
}

TEST(Bicgstab, ZeroRightHandSideGivesZero) {
  Rng rng(6);
  Eigen::MatrixXd dense;
  const BlockMatrix a = random_block(rng, 30, 0.1, dense);
  std::vector<double> b(30, 0.0), x(30, 5.0);
  detail::Team team(2);
  detail::bicgstab(team, a, b, x, 1e-14, 100);
  for (double v : x) EXPECT_EQ(v, 0.0);
}

}  // namespace
