#include "playtest/strategy/statistics.hpp"

#include <fmt/format.h>
#include <math.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

constexpr double eps = 1e-15;
constexpr double tiny = 1e-300;

// ln Gamma(x) without a data race: std::lgamma stores the sign of Gamma(x) in the global signgam,
// which campaign workers calling it at once write together (ThreadSanitizer reports it);
// lgamma_r (glibc, POSIX.1-2024) hands the sign back instead. Every argument here is positive.
double log_gamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

void check_gamma_args(double a, double x) {
  if (!(a > 0) || !std::isfinite(a))
    throw UsageError("a", fmt::format("the shape a must be positive and finite, got {}", a));
  if (!(x >= 0)) throw UsageError("x", fmt::format("x must be >= 0, got {}", x));
}

// e^-x x^a / Gamma(a), the common factor of the series and the continued fraction.
double gamma_front(double a, double x) { return std::exp(-x + a * std::log(x) - log_gamma(a)); }

// P(a, x) by its power series sum_n x^n / (a (a+1) ... (a+n)); converges fast for x < a + 1.
double gamma_p_series(double a, double x) {
  double term = 1.0 / a, sum = term;
  for (int n = 1; n < 1000000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::abs(term) < std::abs(sum) * eps) break;
  }
  return std::min(1.0, sum * gamma_front(a, x));
}

// Q(a, x) by the continued fraction 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / ...)),
// evaluated with the modified Lentz method; converges fast for x >= a + 1.
double gamma_q_fraction(double a, double x) {
  double b = x + 1.0 - a;
  double c = 1.0 / tiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < 1000000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::abs(del - 1.0) < eps) break;
  }
  return std::min(1.0, gamma_front(a, x) * h);
}

}  // namespace

double regularized_gamma_p(double a, double x) {
  check_gamma_args(a, x);
  if (x == 0) return 0.0;
  if (std::isinf(x)) return 1.0;
  return x < a + 1.0 ? gamma_p_series(a, x) : 1.0 - gamma_q_fraction(a, x);
}

double regularized_gamma_q(double a, double x) {
  check_gamma_args(a, x);
  if (x == 0) return 1.0;
  if (std::isinf(x)) return 0.0;
  return x < a + 1.0 ? 1.0 - gamma_p_series(a, x) : gamma_q_fraction(a, x);
}

double chi_square_sf(double x, double df) {
  if (!(df > 0)) throw UsageError("df", fmt::format("degrees of freedom must be positive, got {}", df));
  if (!(x > 0)) return 1.0;
  return regularized_gamma_q(df / 2.0, x / 2.0);
}

namespace {

// The continued fraction of I_x(a, b) (without its front factor), modified Lentz; converges fast
// for x < (a + 1) / (a + b + 2).
double beta_fraction(double x, double a, double b) {
  const double qab = a + b, qap = a + 1.0, qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::abs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m < 100000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));  // the even step d_{2m}
    d = 1.0 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));  // the odd step d_{2m+1}
    d = 1.0 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::abs(del - 1.0) < eps) break;
  }
  return h;
}

}  // namespace

double regularized_beta(double x, double a, double b) {
  if (!(a > 0) || !(b > 0) || !std::isfinite(a) || !std::isfinite(b))
    throw UsageError("a", fmt::format("Beta parameters must be positive and finite, got a = {}, b = {}", a, b));
  if (!(x >= 0 && x <= 1)) throw UsageError("x", fmt::format("x must lie in [0, 1], got {}", x));
  if (x == 0) return 0.0;
  if (x == 1) return 1.0;
  const double log_front = a * std::log(x) + b * std::log1p(-x) - (log_gamma(a) + log_gamma(b) - log_gamma(a + b));
  if (x < (a + 1.0) / (a + b + 2.0)) return std::clamp(std::exp(log_front) * beta_fraction(x, a, b) / a, 0.0, 1.0);
  return std::clamp(1.0 - std::exp(log_front) * beta_fraction(1.0 - x, b, a) / b, 0.0, 1.0);
}

double beta_quantile(double q, double a, double b) {
  if (!(q >= 0 && q <= 1)) throw UsageError("q", fmt::format("a quantile's level must lie in [0, 1], got {}", q));
  if (q == 0) return 0.0;
  if (q == 1) return 1.0;
  double lo = 0, hi = 1;
  for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
    const double mid = 0.5 * (lo + hi);
    (regularized_beta(mid, a, b) < q ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) throw UsageError("p", fmt::format("a normal quantile's level must lie in (0, 1), got {}", p));
  // Phi(z) = erfc(-z / sqrt 2) / 2 is increasing; bisection on [-40, 40] to below 1e-12.
  double lo = -40, hi = 40;
  for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double z_for_confidence(double confidence) {
  if (!(confidence > 0 && confidence < 1))
    throw UsageError("confidence",
                     fmt::format("a confidence level must lie strictly between 0 and 1, got {}", confidence));
  return normal_quantile(0.5 * (1.0 + confidence));
}

Interval wilson_interval(std::uint32_t successes, std::uint32_t trials, double z) {
  if (trials == 0) return {0, 1};
  const double n = trials, ph = successes / n, z2 = z * z;
  const double denom = 1 + z2 / n;
  const double center = (ph + z2 / (2 * n)) / denom;
  const double half = z / denom * std::sqrt(ph * (1 - ph) / n + z2 / (4 * n * n));
  // Exact ends at 0 and n successes (the formula leaves rounding noise there).
  return {successes == 0 ? 0.0 : std::max(0.0, center - half),
          successes == trials ? 1.0 : std::min(1.0, center + half)};
}

RateEstimate estimate_rate(std::uint32_t successes, std::uint32_t trials, double confidence) {
  if (successes > trials) throw InternalError("estimate_rate: more successes than trials");
  const Interval ci = wilson_interval(successes, trials, z_for_confidence(confidence));
  return {.successes = successes,
          .trials = trials,
          .rate = trials ? double(successes) / trials : 0.0,
          .low = ci.low,
          .high = ci.high,
          .confidence = confidence};
}

std::string_view to_string(FitMethod m) {
  switch (m) {
    case FitMethod::automatic:
      return "auto";
    case FitMethod::exact:
      return "exact";
    case FitMethod::chi_square:
      return "chi-square";
    case FitMethod::g_test:
      return "g-test";
  }
  return "?";
}

FitMethod parse_fit_method(std::string_view name) {
  for (FitMethod m : {FitMethod::automatic, FitMethod::exact, FitMethod::chi_square, FitMethod::g_test})
    if (to_string(m) == name) return m;
  throw UsageError("method",
                   fmt::format("unknown goodness-of-fit test '{}'; expected auto, exact, chi-square or g-test", name));
}

namespace {

// The number of count vectors of k parts summing to n, C(n + k - 1, k - 1), as a double.
double compositions(std::uint64_t n, std::size_t k) {
  return std::exp(log_gamma(double(n) + double(k)) - log_gamma(double(n) + 1.0) - log_gamma(double(k)));
}

// Sum of the multinomial probabilities of every count vector at most as likely as the observed one.
class ExactMultinomial {
 public:
  ExactMultinomial(std::span<const double> probs, std::uint64_t n, double log_observed)
      : log_p_(probs.size()), n_(n), threshold_(log_observed + 1e-9 * std::max(1.0, std::abs(log_observed))) {
    for (std::size_t i = 0; i < probs.size(); ++i) log_p_[i] = std::log(probs[i]);
  }
  double p_value() {
    sum_ = 0;
    visit(0, n_, log_gamma(double(n_) + 1.0));
    return std::min(1.0, sum_);
  }

 private:
  // Parts i.. share `left` draws; `acc` = log n! - sum_{j<i} log n_j! + sum_{j<i} n_j log p_j.
  void visit(std::size_t i, std::uint64_t left, double acc) {
    if (i + 1 == log_p_.size()) {
      const double lp = acc - log_gamma(double(left) + 1.0) + double(left) * log_p_[i];
      if (lp <= threshold_) sum_ += std::exp(lp);
      return;
    }
    for (std::uint64_t c = 0; c <= left; ++c)
      visit(i + 1, left - c, acc - log_gamma(double(c) + 1.0) + double(c) * log_p_[i]);
  }
  std::vector<double> log_p_;
  std::uint64_t n_;
  double threshold_;
  double sum_ = 0;
};

}  // namespace

FitResult goodness_of_fit(std::span<const std::uint64_t> counts, std::span<const double> probs, FitMethod method,
                          double exact_limit) {
  if (counts.empty() || counts.size() != probs.size())
    throw UsageError("probs", "goodness_of_fit needs one probability per count, and at least one");
  double total_p = 0;
  for (double p : probs) {
    if (!(p > 0 && p <= 1)) throw UsageError("probs", fmt::format("probabilities must lie in (0, 1], got {}", p));
    total_p += p;
  }
  if (std::abs(total_p - 1.0) > 1e-6)
    throw UsageError("probs", fmt::format("probabilities must sum to 1, they sum to {}", total_p));
  std::uint64_t n = 0;
  for (std::uint64_t c : counts) n += c;
  const std::size_t k = counts.size();
  FitResult r;
  r.df = double(k) - 1.0;
  r.min_expected = std::numeric_limits<double>::infinity();
  double x2 = 0, g = 0, log_observed = log_gamma(double(n) + 1.0);
  for (std::size_t i = 0; i < k; ++i) {
    const double e = double(n) * probs[i], o = double(counts[i]);
    r.min_expected = std::min(r.min_expected, e);
    if (e > 0) x2 += (o - e) * (o - e) / e;
    if (o > 0) g += 2.0 * o * std::log(o / e);
    log_observed += o * std::log(probs[i]) - log_gamma(o + 1.0);
  }
  if (method == FitMethod::automatic)
    method = compositions(n, k) <= exact_limit ? FitMethod::exact : FitMethod::chi_square;
  else if (method == FitMethod::exact && compositions(n, k) > 1e8)
    throw UsageError("method", fmt::format("the exact test would enumerate about {:.3g} outcomes of {} draws among {} "
                                           "outcomes; use the chi-square or G-test",
                                           compositions(n, k), n, k));
  r.method = method;
  r.statistic = method == FitMethod::g_test ? g : x2;
  if (k == 1 || n == 0) {
    r.p_value = 1.0;  // one outcome, or nothing observed: nothing can contradict the model
    return r;
  }
  switch (method) {
    case FitMethod::exact:
      r.p_value = ExactMultinomial(probs, n, log_observed).p_value();
      break;
    case FitMethod::chi_square:
      r.p_value = chi_square_sf(x2, r.df);
      break;
    case FitMethod::g_test:
      r.p_value = chi_square_sf(g, r.df);
      break;
    case FitMethod::automatic:
      break;
  }
  return r;
}

}  // namespace playtest
