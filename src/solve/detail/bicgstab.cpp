#include "solve/detail/bicgstab.hpp"

#include <limits>

namespace playtest::detail {

namespace {

double dot(std::span<const double> a, std::span<const double> b) {
  // Four partial sums in a fixed order: vectorizable, and the same result on every run.
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  const std::size_t n = a.size();
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace

BicgstabOutcome bicgstab(const BlockMatrix& a, std::span<const double> b, std::span<double> x, double tolerance,
                         std::uint32_t max_iterations) {
  const std::uint32_t n = a.size;
  BicgstabOutcome out;
  std::vector<double> r(n), r0(n), p(n, 0.0), v(n, 0.0), y(n), z(n), s(n), t(n);
  a.multiply(x, r);
  for (std::uint32_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
  r0 = r;
  double r0_sqnorm = dot(r0, r0);
  const double rhs_sqnorm = dot(b, b);
  if (rhs_sqnorm == 0) {
    for (std::uint32_t i = 0; i < n; ++i) x[i] = 0;
    return out;
  }
  const double eps2 = std::numeric_limits<double>::epsilon() * std::numeric_limits<double>::epsilon();
  const double tol2 = tolerance * tolerance * rhs_sqnorm;
  double rho = 1, alpha = 1, w = 1;
  double r_sqnorm = r0_sqnorm;
  std::uint32_t i = 0, restarts = 0;
  while (r_sqnorm > tol2 && i < max_iterations) {
    const double rho_old = rho;
    rho = dot(r0, r);
    if (std::abs(rho) < eps2 * r0_sqnorm) {
      // r became too orthogonal to r0: restart with r0 = r.
      a.multiply(x, r);
      for (std::uint32_t j = 0; j < n; ++j) r[j] = b[j] - r[j];
      r0 = r;
      rho = r0_sqnorm = dot(r, r);
      if (restarts++ == 0) i = 0;
    }
    const double beta = (rho / rho_old) * (alpha / w);
    for (std::uint32_t j = 0; j < n; ++j) p[j] = r[j] + beta * (p[j] - w * v[j]);
    a.precondition(p, y);
    a.multiply(y, v);
    alpha = rho / dot(r0, v);
    for (std::uint32_t j = 0; j < n; ++j) s[j] = r[j] - alpha * v[j];
    a.precondition(s, z);
    a.multiply(z, t);
    const double tt = dot(t, t);
    w = tt > 0 ? dot(t, s) / tt : 0.0;
    for (std::uint32_t j = 0; j < n; ++j) {
      x[j] += alpha * y[j] + w * z[j];
      r[j] = s[j] - w * t[j];
    }
    r_sqnorm = dot(r, r);
    ++i;
  }
  out.iterations = i;
  out.relative_residual = std::sqrt(r_sqnorm / rhs_sqnorm);
  return out;
}

}  // namespace playtest::detail
