// The statistics behind the diagnosis commands: the regularized incomplete gamma and beta
// functions (chi-square p-values, Beta posterior quantiles), the normal quantile, reproduction
// rates with Wilson score intervals, and goodness-of-fit tests of observed outcome counts against
// declared probabilities (exact multinomial, Pearson chi-square, G-test).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace playtest {

// P(a, x) = gamma(a, x) / Gamma(a), the regularized lower incomplete gamma function, for a > 0 and
// x >= 0 (series for x < a + 1, continued fraction otherwise; relative accuracy about 1e-14).
// Throws UsageError("a" / "x") outside the domain.
double regularized_gamma_p(double a, double x);
// Q(a, x) = 1 - P(a, x), computed directly (no cancellation in the upper tail).
double regularized_gamma_q(double a, double x);

// The chi-square distribution's survival function P[X >= x] for `df` > 0 degrees of freedom:
// Q(df / 2, x / 2).
double chi_square_sf(double x, double df);

// I_x(a, b), the regularized incomplete beta function (the Beta(a, b) distribution function), for
// a, b > 0 and 0 <= x <= 1 (continued fraction, with the symmetry I_x(a,b) = 1 - I_{1-x}(b,a)).
double regularized_beta(double x, double a, double b);
// The q-quantile of Beta(a, b): the x with I_x(a, b) = q, 0 <= q <= 1 (bisection to 1e-13).
double beta_quantile(double q, double a, double b);

// The standard normal quantile: z with Phi(z) = p, 0 < p < 1 (from erfc, to 1e-12).
double normal_quantile(double p);
// The two-sided z for a confidence level c in (0, 1): normal_quantile((1 + c) / 2).
double z_for_confidence(double confidence);

// Wilson score interval for `successes` out of `trials` at normal quantile z.
struct Interval {
  double low = 0, high = 0;
};
Interval wilson_interval(std::uint32_t successes, std::uint32_t trials, double z);

// A rate (successes out of trials) with its Wilson score interval at `confidence`.
struct RateEstimate {
  std::uint32_t successes = 0, trials = 0;
  double rate = 0, low = 0, high = 1;
  double confidence = 0.95;
};
RateEstimate estimate_rate(std::uint32_t successes, std::uint32_t trials, double confidence);

enum class FitMethod : std::uint8_t {
  automatic,   // exact when the outcomes of `visits` draws can be enumerated cheaply, else chi_square
  exact,       // exact multinomial test: P[an outcome at most as likely as the observed one]
  chi_square,  // Pearson's X^2 = sum (O - E)^2 / E, chi-square with k - 1 degrees of freedom
  g_test,      // G = 2 sum O ln(O / E), chi-square with k - 1 degrees of freedom
};
std::string_view to_string(FitMethod m);  // "auto", "exact", "chi-square", "g-test"
// "auto", "exact", "chi-square", "g-test"; throws UsageError("method") otherwise.
FitMethod parse_fit_method(std::string_view name);

struct FitResult {
  FitMethod method = FitMethod::exact;  // the method used (never automatic)
  double statistic = 0;                 // X^2 or G (for exact: Pearson's X^2, for information)
  double df = 0;                        // k - 1
  double p_value = 1;
  double min_expected = 0;  // the smallest expected count (chi-square is approximate below 5)
};

// Tests H0 "the counts are `visits` independent draws with probabilities `probs`" (probs > 0,
// summing to 1; counts and probs of the same size >= 1). The automatic method is exact when at
// most `exact_limit` count vectors are possible. Throws UsageError("probs") for bad input.
FitResult goodness_of_fit(std::span<const std::uint64_t> counts, std::span<const double> probs,
                          FitMethod method = FitMethod::automatic, double exact_limit = 2e5);

}  // namespace playtest
