#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "playtest/base/error.hpp"
#include "playtest/solve/exact_rational.hpp"

namespace playtest::exact {

namespace {

// Exponents beyond this are refused: no double needs them (its shortest form has at most 17
// digits and an exponent within -324..308), and "1e999999999" must not allocate a gigabyte.
constexpr long max_decimal_exponent = 5000;

mpz_class power_of_ten(unsigned long k) {
  mpz_class p;
  mpz_ui_pow_ui(p.get_mpz_t(), 10, k);
  return p;
}

}  // namespace

std::optional<Rational> parse_decimal(std::string_view s) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  std::string digits;
  long fraction_digits = 0;
  bool seen_digit = false, seen_point = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      seen_digit = true;
      if (!(digits.empty() && c == '0')) digits.push_back(c);
      if (seen_point) ++fraction_digits;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!seen_digit) return std::nullopt;
  long exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
    if (i == s.size()) return std::nullopt;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      exponent = exponent * 10 + (s[i] - '0');
      if (exponent > max_decimal_exponent) return std::nullopt;
    }
    if (exp_negative) exponent = -exponent;
  }
  if (i != s.size()) return std::nullopt;
  if (digits.empty()) return Rational(0);
  const long scale = exponent - fraction_digits;
  if (scale > max_decimal_exponent || scale < -max_decimal_exponent - 1000) return std::nullopt;
  mpz_class mantissa(digits, 10);
  if (negative) mantissa = -mantissa;
  Rational q;
  if (scale >= 0) {
    q = Rational(mantissa * power_of_ten(static_cast<unsigned long>(scale)));
  } else {
    q = Rational(mantissa, power_of_ten(static_cast<unsigned long>(-scale)));
    q.canonicalize();
  }
  return q;
}

std::optional<Rational> parse_number(std::string_view s) {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos) return parse_decimal(s);
  const std::string_view num = s.substr(0, slash), den = s.substr(slash + 1);
  auto integer = [](std::string_view t, bool allow_sign) {
    if (allow_sign && !t.empty() && t[0] == '-') t.remove_prefix(1);
    if (t.empty() || t.size() > 100000) return false;
    for (char c : t)
      if (c < '0' || c > '9') return false;
    return true;
  };
  if (!integer(num, true) || !integer(den, false)) return std::nullopt;
  mpz_class d(std::string(den), 10);
  if (d == 0) return std::nullopt;
  Rational q(mpz_class(std::string(num), 10), d);
  q.canonicalize();
  return q;
}

Rational from_double(double x) {
  if (!std::isfinite(x)) throw UsageError("x", "exact::from_double: not a finite number");
  char buf[64];
  // Scientific: the shortest round-trip digits. (The plain form prefers fixed notation for large
  // integers and then writes the double's exact digits, 72244941271135392 for 722449412711354e2.)
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  if (ec != std::errc()) throw InternalError("exact::from_double: to_chars failed");
  auto q = parse_decimal(std::string_view(buf, static_cast<std::size_t>(end - buf)));
  if (!q) throw InternalError("exact::from_double: to_chars wrote no decimal");
  return *q;
}

std::string fraction_string(const Rational& q) { return q.get_num().get_str() + "/" + q.get_den().get_str(); }

std::string short_string(const Rational& q) { return q.get_den() == 1 ? q.get_num().get_str() : fraction_string(q); }

double to_double(const Rational& q) {
  if (q == 0) return 0.0;
  const bool negative = sgn(q) < 0;
  mpz_class num = abs(q.get_num());
  const mpz_class& den = q.get_den();
  // |q| is in [2^(b-1), 2^(b+1)) with b = bits(num) - bits(den). Scale by 2^shift so that the
  // integer part has 54 bits (53 for the significand, one to round with), never finer than the
  // smallest subnormal (2^-1074).
  const long b =
      static_cast<long>(mpz_sizeinbase(num.get_mpz_t(), 2)) - static_cast<long>(mpz_sizeinbase(den.get_mpz_t(), 2));
  if (b > 1100) return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  long shift = 54 - b;
  if (shift > 1074) shift = 1074;
  mpz_class scaled_num = num, scaled_den = den;
  if (shift >= 0)
    mpz_mul_2exp(scaled_num.get_mpz_t(), num.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
  else
    mpz_mul_2exp(scaled_den.get_mpz_t(), den.get_mpz_t(), static_cast<mp_bitcnt_t>(-shift));
  mpz_class m, r;
  mpz_tdiv_qr(m.get_mpz_t(), r.get_mpz_t(), scaled_num.get_mpz_t(), scaled_den.get_mpz_t());
  // m has at most 55 bits; keep 53 significant bits (fewer for subnormals, where shift was capped),
  // rounding half to even with the remainder as the sticky part.
  long extra = static_cast<long>(mpz_sizeinbase(m.get_mpz_t(), 2)) - 53;
  if (shift == 1074 && extra < 0) extra = 0;  // subnormal: every bit above 2^-1074 is kept
  if (extra > 0) {
    mpz_class low;
    mpz_fdiv_r_2exp(low.get_mpz_t(), m.get_mpz_t(), static_cast<mp_bitcnt_t>(extra));
    mpz_fdiv_q_2exp(m.get_mpz_t(), m.get_mpz_t(), static_cast<mp_bitcnt_t>(extra));
    const mpz_class half = mpz_class(1) << static_cast<mp_bitcnt_t>(extra - 1);
    const bool sticky = r != 0;
    if (low > half || (low == half && (sticky || mpz_odd_p(m.get_mpz_t())))) ++m;
    shift -= extra;
  } else if (r * 2 > scaled_den || (r * 2 == scaled_den && mpz_odd_p(m.get_mpz_t()))) {
    ++m;
  }
  const double x = std::ldexp(m.get_d(), static_cast<int>(-shift));
  return negative ? -x : x;
}

std::string scientific_string(const Rational& q, int digits) {
  if (q == 0) return "0";
  mpf_class f(q, 256);
  mp_exp_t exp = 0;
  std::string m = f.get_str(exp, 10, static_cast<std::size_t>(digits));
  const bool negative = !m.empty() && m[0] == '-';
  if (negative) m.erase(0, 1);
  std::string out = negative ? "-" : "";
  out += m.substr(0, 1);
  if (m.size() > 1) out += "." + m.substr(1);
  out += "e" + std::string(exp - 1 >= 0 ? "+" : "") + std::to_string(static_cast<long>(exp) - 1);
  return out;
}

}  // namespace playtest::exact
