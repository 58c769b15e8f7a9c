// The special functions against closed forms and published critical values, and the goodness-of-fit
// tests against sums done by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/strategy/statistics.hpp"

namespace playtest {
namespace {

double rel(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

TEST(IncompleteGamma, ClosedForms) {
  for (double x : {0.01, 0.3, 1.0, 2.5, 7.0, 30.0}) {
    EXPECT_LT(rel(regularized_gamma_q(0.5, x), std::erfc(std::sqrt(x))), 1e-12) << x;
    EXPECT_LT(rel(regularized_gamma_p(1.0, x), -std::expm1(-x)), 1e-12) << x;
    EXPECT_LT(rel(regularized_gamma_q(1.0, x), std::exp(-x)), 1e-12) << x;
  }
  // Integer a: Q(n, x) is the Poisson(x) probability of fewer than n events.
  for (auto [n, x] : {std::pair{5, 3.0}, {10, 15.0}, {50, 40.0}, {3, 0.2}, {20, 20.0}}) {
    double sum = 0, term = std::exp(-x);
    for (int k = 0; k < n; ++k) {
      sum += term;
      term *= x / (k + 1);
    }
    EXPECT_LT(rel(regularized_gamma_q(n, x), sum), 1e-11) << n << " " << x;
    EXPECT_NEAR(regularized_gamma_p(n, x) + regularized_gamma_q(n, x), 1.0, 1e-14);
  }
  EXPECT_EQ(regularized_gamma_p(2.0, 0.0), 0.0);
  EXPECT_EQ(regularized_gamma_q(2.0, 0.0), 1.0);
  EXPECT_THROW(regularized_gamma_p(0.0, 1.0), UsageError);
  EXPECT_THROW(regularized_gamma_q(1.0, -1.0), UsageError);
}

TEST(ChiSquare, CriticalValuesFromTables) {
  // Upper quantiles of the chi-square distribution (standard tables, to the digits given).
  EXPECT_NEAR(chi_square_sf(3.841458820694124, 1), 0.05, 1e-12);
  EXPECT_NEAR(chi_square_sf(6.634896601021214, 1), 0.01, 1e-12);
  EXPECT_NEAR(chi_square_sf(5.991464547107979, 2), 0.05, 1e-12);
  EXPECT_NEAR(chi_square_sf(7.814727903251178, 3), 0.05, 1e-12);
  EXPECT_NEAR(chi_square_sf(18.30703805327515, 10), 0.05, 1e-12);
  EXPECT_NEAR(chi_square_sf(23.20925115895436, 10), 0.01, 1e-12);
  // Off the table by 1.4e-9: the tail moves by 4.7261e-12 (mpmath, 30 digits).
  EXPECT_LT(rel(chi_square_sf(23.20925115758332, 10), 0.0100000000047261581), 1e-13);
  EXPECT_NEAR(chi_square_sf(124.3421134, 100), 0.05, 1e-9);
  // Two degrees of freedom: the survival function is exp(-x / 2), also far in the tail.
  EXPECT_LT(rel(chi_square_sf(100.0, 2), std::exp(-50.0)), 1e-12);
  EXPECT_LT(rel(chi_square_sf(1400.0, 2), std::exp(-700.0)), 1e-10);
  EXPECT_EQ(chi_square_sf(0.0, 3), 1.0);
  EXPECT_THROW(chi_square_sf(1.0, 0), UsageError);
}

TEST(IncompleteBeta, ClosedFormsAndTheBinomial) {
  for (double x : {0.001, 0.1, 0.37, 0.5, 0.9, 0.999}) {
    EXPECT_LT(rel(regularized_beta(x, 1.0, 3.5), 1 - std::pow(1 - x, 3.5)), 1e-12) << x;
    EXPECT_LT(rel(regularized_beta(x, 2.5, 1.0), std::pow(x, 2.5)), 1e-12) << x;
    EXPECT_NEAR(regularized_beta(x, 4.2, 1.7) + regularized_beta(1 - x, 1.7, 4.2), 1.0, 1e-13);
  }
  EXPECT_NEAR(regularized_beta(0.5, 7.0, 7.0), 0.5, 1e-14);
  // P[Bin(n, p) <= k] = I_{1-p}(n - k, k + 1).
  const int n = 20;
  const double p = 0.3;
  for (int k : {0, 3, 5, 12, 19}) {
    double cdf = 0;
    for (int i = 0; i <= k; ++i)
      cdf += std::exp(std::lgamma(n + 1) - std::lgamma(i + 1) - std::lgamma(n - i + 1) + i * std::log(p) +
                      (n - i) * std::log(1 - p));
    EXPECT_LT(rel(regularized_beta(1 - p, n - k, k + 1), cdf), 1e-11) << k;
  }
  for (double q : {0.025, 0.5, 0.975}) {
    const double x = beta_quantile(q, 3.5, 12.0);
    EXPECT_NEAR(regularized_beta(x, 3.5, 12.0), q, 1e-10);
  }
  EXPECT_THROW(regularized_beta(1.5, 1, 1), UsageError);
}

TEST(NormalQuantile, KnownValues) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-11);
  EXPECT_NEAR(normal_quantile(0.5), 0.0, 1e-12);
  EXPECT_NEAR(normal_quantile(0.001), -3.090232306167813, 1e-11);
  EXPECT_NEAR(z_for_confidence(0.99), 2.575829303548901, 1e-11);
  EXPECT_THROW(normal_quantile(1.0), UsageError);
  EXPECT_THROW(z_for_confidence(0.0), UsageError);
}

TEST(Rate, WilsonInterval) {
  RateEstimate r = estimate_rate(10, 10, 0.95);
  EXPECT_EQ(r.rate, 1.0);
  EXPECT_EQ(r.high, 1.0);
  const double z = 1.959963984540054;
  EXPECT_NEAR(r.low, 10 / (10 + z * z), 1e-12);  // the Wilson interval's end for 10 of 10
  r = estimate_rate(0, 5, 0.95);
  EXPECT_EQ(r.low, 0.0);
  EXPECT_NEAR(r.high, z * z / (5 + z * z), 1e-12);
}

TEST(GoodnessOfFit, ExactBinomialByHand) {
  // 3 of 10 with p = 1/2: the outcomes at most as likely are 0..3 and 7..10.
  std::vector<std::uint64_t> c{3, 7};
  std::vector<double> p{0.5, 0.5};
  FitResult f = goodness_of_fit(c, p, FitMethod::exact);
  EXPECT_EQ(f.method, FitMethod::exact);
  EXPECT_NEAR(f.p_value, 352.0 / 1024.0, 1e-12);
  EXPECT_EQ(goodness_of_fit(c, p).method, FitMethod::exact);  // automatic: few outcomes
  // The observed outcome itself is always counted: 5 of 10 at 1/2 gives p = 1.
  EXPECT_NEAR(goodness_of_fit(std::vector<std::uint64_t>{5, 5}, p, FitMethod::exact).p_value, 1.0, 1e-12);
}

TEST(GoodnessOfFit, ExactMultinomialAgainstEnumeration) {
  const std::vector<double> p{0.2, 0.5, 0.3};
  const std::vector<std::uint64_t> obs{6, 5, 1};
  const int n = 12;
  auto prob = [&](int a, int b, int c) {
    return std::exp(std::lgamma(n + 1) - std::lgamma(a + 1) - std::lgamma(b + 1) - std::lgamma(c + 1) +
                    a * std::log(p[0]) + b * std::log(p[1]) + c * std::log(p[2]));
  };
  const double p_obs = prob(6, 5, 1);
  double sum = 0;
  for (int a = 0; a <= n; ++a)
    for (int b = 0; a + b <= n; ++b)
      if (prob(a, b, n - a - b) <= p_obs * (1 + 1e-9)) sum += prob(a, b, n - a - b);
  EXPECT_NEAR(goodness_of_fit(obs, p, FitMethod::exact).p_value, sum, 1e-12);
}

TEST(GoodnessOfFit, PearsonAndG) {
  const std::vector<std::uint64_t> c{30, 70};
  const std::vector<double> p{0.5, 0.5};
  FitResult x = goodness_of_fit(c, p, FitMethod::chi_square);
  EXPECT_NEAR(x.statistic, 16.0, 1e-12);
  EXPECT_EQ(x.df, 1.0);
  EXPECT_NEAR(x.p_value, std::erfc(std::sqrt(8.0)), 1e-15);  // chi-square(1) tail at 16
  FitResult g = goodness_of_fit(c, p, FitMethod::g_test);
  const double gstat = 2 * (30 * std::log(30.0 / 50) + 70 * std::log(70.0 / 50));
  EXPECT_NEAR(g.statistic, gstat, 1e-12);
  EXPECT_NEAR(g.p_value, std::erfc(std::sqrt(gstat / 2)), 1e-15);
  // Many draws: automatic falls back to chi-square.
  EXPECT_EQ(goodness_of_fit(std::vector<std::uint64_t>{3000, 3000, 3000, 3000}, std::vector<double>(4, 0.25)).method,
            FitMethod::chi_square);
}

TEST(GoodnessOfFit, DegenerateAndBadInput) {
  EXPECT_EQ(goodness_of_fit(std::vector<std::uint64_t>{9}, std::vector<double>{1.0}).p_value, 1.0);
  EXPECT_EQ(goodness_of_fit(std::vector<std::uint64_t>{0, 0}, std::vector<double>{0.5, 0.5}).p_value, 1.0);
  EXPECT_THROW(goodness_of_fit(std::vector<std::uint64_t>{1, 2}, std::vector<double>{0.5, 0.4}), UsageError);
  EXPECT_THROW(goodness_of_fit(std::vector<std::uint64_t>{1, 2}, std::vector<double>{1.0}), UsageError);
  EXPECT_THROW(parse_fit_method("bogus"), UsageError);
  EXPECT_EQ(parse_fit_method("g-test"), FitMethod::g_test);
}

}  // namespace
}  // namespace playtest
