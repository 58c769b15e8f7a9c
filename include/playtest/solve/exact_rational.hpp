// Exact rational numbers for `solve --exact` and for exact checks of floating-point answers (issue
// 23): GMP's mpq_class (Debian's libgmp-dev, docs/dependencies.md), and the conversions between
// the numbers a model file holds and rationals.
//
// A model's numbers reach playtest as doubles (TestGraph keeps no text). A decimal literal of at
// most 15 significant digits is recovered exactly from its double: the shortest decimal that reads
// back to the same double is that literal (15 digits is DBL_DIG, the precision below which distinct
// decimals have distinct doubles). So "0.1" is 1/10 and "1e-9" is 1/1000000000, not the binary
// fractions the doubles are (docs/formats.md, "Exact numbers").
#pragma once

#include <gmpxx.h>

#include <optional>
#include <string>
#include <string_view>

namespace playtest::exact {

using Rational = mpq_class;

// The rational a decimal literal denotes: an optional sign, digits with an optional '.', an
// optional exponent ("0.25", "-3", "1e-9", "2.5E+3"). nullopt for anything else (no "inf",
// "nan", hexadecimal or fractions "1/3"; see parse_number for those).
std::optional<Rational> parse_decimal(std::string_view text);

// A decimal literal or a fraction "num/den" (den != 0), as `value_exact` is written.
std::optional<Rational> parse_number(std::string_view text);

// The exact value of the shortest decimal that reads back as x (std::to_chars): the literal a
// person wrote, when it had at most 15 significant digits. x must be finite.
Rational from_double(double x);

// "num/den" in lowest terms with a positive denominator (also for integers: "3/1"), as the JSON
// output's "value_exact" writes it.
std::string fraction_string(const Rational& q);
// Lowest terms, "num" alone when the denominator is 1: the text rendering.
std::string short_string(const Rational& q);

// The double nearest to q (correctly rounded, unlike mpq_get_d, which truncates); +-infinity
// beyond the range of double.
double to_double(const Rational& q);

// q in scientific notation with `digits` significant digits ("1.772e+602"), also beyond the range
// of double.
std::string scientific_string(const Rational& q, int digits = 10);

}  // namespace playtest::exact
