#include "solve/detail/bicgstab.hpp"

#include <array>
#include <limits>

namespace playtest::detail {

namespace {

constexpr std::uint32_t chunk = 4096;

// K sums over [0, n), each added up over fixed chunks in chunk order; f(lo, hi, sums) adds the
// chunk's terms to sums (and may write the chunk's rows of other vectors on the way).
template <std::size_t K, class F>
std::array<double, K> chunked(Team& team, std::uint32_t n, std::vector<std::array<double, K>>& part, F&& f) {
  const std::uint32_t chunks = (n + chunk - 1) / chunk;
  part.assign(chunks, std::array<double, K>{});
  team.for_parts(chunks, [&](std::uint32_t c0, std::uint32_t c1) {
    for (std::uint32_t c = c0; c < c1; ++c) f(c * chunk, std::min(n, (c + 1) * chunk), part[c]);
  });
  std::array<double, K> total{};
  for (const auto& p : part)
    for (std::size_t k = 0; k < K; ++k) total[k] += p[k];
  return total;
}

}  // namespace

BicgstabOutcome bicgstab(Team& team, const BlockMatrix& a, std::span<const double> b, std::span<double> x,
                         double tolerance, std::uint32_t max_iterations) {
  const std::uint32_t n = a.size;
  BicgstabOutcome out;
  std::vector<double> r(n), r0(n), p(n, 0.0), v(n, 0.0), y(n), z(n), s(n), t(n);
  std::vector<std::array<double, 1>> part1;
  std::vector<std::array<double, 2>> part2;
  const BlockPipeline pipe(n);
  // r = r0 = b - A x; returns (r.r, b.b)
  auto residual = [&] {
    return chunked<2>(team, n, part2, [&](std::uint32_t lo, std::uint32_t hi, std::array<double, 2>& acc) {
      for (std::uint32_t i = lo; i < hi; ++i) {
        r[i] = r0[i] = b[i] - a.row(x.data(), i);
        acc[0] += r[i] * r[i];
        acc[1] += b[i] * b[i];
      }
    });
  };
  const auto [r0_sq, rhs_sqnorm] = residual();
  double r0_sqnorm = r0_sq;
  if (rhs_sqnorm == 0) {
    for (std::uint32_t i = 0; i < n; ++i) x[i] = 0;
    return out;
  }
  const double eps2 = std::numeric_limits<double>::epsilon() * std::numeric_limits<double>::epsilon();
  const double tol2 = tolerance * tolerance * rhs_sqnorm;
  double rho = 1, alpha = 1, w = 1;
  double r_sqnorm = r0_sqnorm, r0r = r0_sqnorm;  // r.r and r0.r
  std::uint32_t i = 0, restarts = 0;
  while (r_sqnorm > tol2 && i < max_iterations) {
    const double rho_old = rho;
    rho = r0r;
    if (std::abs(rho) < eps2 * r0_sqnorm) {
      // r became too orthogonal to r0: restart with r0 = r.
      rho = r0_sqnorm = residual()[0];
      if (restarts++ == 0) i = 0;
    }
    const double beta = (rho / rho_old) * (alpha / w);
    // p = r + beta (p - w v); y = M^-1 p
    pipe.run(team, [&](std::uint32_t lo, std::uint32_t hi) {
      for (std::uint32_t j = lo; j < hi; ++j) {
        p[j] = r[j] + beta * (p[j] - w * v[j]);
        y[j] = a.forward(p[j], y.data(), j);
      }
    });
    // v = A y = p + upper(y) (M y = p); r0.v
    const double r0v = chunked<1>(team, n, part1, [&](std::uint32_t lo, std::uint32_t hi, std::array<double, 1>& acc) {
      for (std::uint32_t j = lo; j < hi; ++j) {
        v[j] = p[j] + a.upper(y.data(), j);
        acc[0] += r0[j] * v[j];
      }
    })[0];
    alpha = rho / r0v;
    // s = r - alpha v; z = M^-1 s
    pipe.run(team, [&](std::uint32_t lo, std::uint32_t hi) {
      for (std::uint32_t j = lo; j < hi; ++j) {
        s[j] = r[j] - alpha * v[j];
        z[j] = a.forward(s[j], z.data(), j);
      }
    });
    // t = A z = s + upper(z); t.t, t.s
    const auto ts = chunked<2>(team, n, part2, [&](std::uint32_t lo, std::uint32_t hi, std::array<double, 2>& acc) {
      for (std::uint32_t j = lo; j < hi; ++j) {
        t[j] = s[j] + a.upper(z.data(), j);
        acc[0] += t[j] * t[j];
        acc[1] += t[j] * s[j];
      }
    });
    w = ts[0] > 0 ? ts[1] / ts[0] : 0.0;
    // x += alpha y + w z; r = s - w t; r.r, r0.r
    const auto rr = chunked<2>(team, n, part2, [&](std::uint32_t lo, std::uint32_t hi, std::array<double, 2>& acc) {
      for (std::uint32_t j = lo; j < hi; ++j) {
        x[j] += alpha * y[j] + w * z[j];
        r[j] = s[j] - w * t[j];
        acc[0] += r[j] * r[j];
        acc[1] += r0[j] * r[j];
      }
    });
    r_sqnorm = rr[0];
    r0r = rr[1];
    ++i;
  }
  out.iterations = i;
  out.relative_residual = std::sqrt(r_sqnorm / rhs_sqnorm);
  return out;
}

}  // namespace playtest::detail
