#include "playtest/base/numbers.hpp"

#include <fmt/format.h>

namespace playtest {

NumberRead<double> read_finite(std::string_view text) {
  NumberRead<double> r;
  if (text.empty()) {
    r.problem = NumberProblem::empty;
    return r;
  }
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, r.value, std::chars_format::general);
  if (ec == std::errc::invalid_argument) {
    r.problem = NumberProblem::not_a_number;
  } else if (ec == std::errc::result_out_of_range) {
    r.problem = NumberProblem::out_of_range;
  } else if (!std::isfinite(r.value)) {  // "nan", "inf": from_chars reads them
    r.problem = NumberProblem::not_finite;
  } else if (p != end) {
    r.problem = NumberProblem::trailing_text;
    r.at = static_cast<std::size_t>(p - text.data());
  }
  if (!r.ok()) r.value = 0;
  return r;
}

std::string describe_number_problem(NumberProblem problem, std::size_t at, std::string_view text) {
  switch (problem) {
    case NumberProblem::none:
      return {};
    case NumberProblem::empty:
      return "empty";
    case NumberProblem::not_a_number:
      return "not a number";
    case NumberProblem::trailing_text:
      return fmt::format("text after the number: '{}' at character {}", text.substr(at), at + 1);
    case NumberProblem::out_of_range:
      return "out of range";
    case NumberProblem::not_finite:
      return "not finite";
  }
  return {};
}

std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  const auto r = read_integer<std::uint64_t>(text);
  if (!r.ok()) return std::nullopt;
  return r.value;
}

std::optional<double> parse_finite(std::string_view text) {
  const auto r = read_finite(text);
  if (!r.ok()) return std::nullopt;
  return r.value;
}

}  // namespace playtest
