// The one parser of numbers written in text (options, specs, file fields, model parameters) for
// the library and the tool: the whole text must be the number, nothing before or after it (no
// space, no '+'), no sign on an unsigned one, and a double must be finite. A failure says what is
// wrong (NumberProblem) and where (the offset in the text), so that a caller's error can point at
// it; callers say what the number is for in their own message. (Lexers that read a number out of
// a longer text, e.g. the PRISM and JSON readers, call std::from_chars themselves.)
#pragma once

#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace playtest {

enum class NumberProblem : unsigned char {
  none,
  empty,          // ""
  not_a_number,   // "abc", "+1", " 1", "0x10"; "-1" for an unsigned number
  trailing_text,  // "12ms", "1.5.2": a number, then more
  out_of_range,   // "99999999999999999999" for 64 bits, "300" for 8 bits, "1e999"
  not_finite,     // "nan", "inf"
};

template <class T>
struct NumberRead {
  T value{};
  NumberProblem problem = NumberProblem::none;
  std::size_t at = 0;  // 0-based offset of the problem in the text (trailing text: where it starts)

  bool ok() const noexcept { return problem == NumberProblem::none; }
};

// An integer of type T written in decimal ("0", "42"; "-7" when T is signed).
template <std::integral T>
NumberRead<T> read_integer(std::string_view text) {
  NumberRead<T> r;
  if (text.empty()) {
    r.problem = NumberProblem::empty;
    return r;
  }
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, r.value);
  if (ec == std::errc::invalid_argument) {
    r.problem = NumberProblem::not_a_number;
  } else if (ec == std::errc::result_out_of_range) {
    r.problem = NumberProblem::out_of_range;
  } else if (p != end) {
    r.problem = NumberProblem::trailing_text;
    r.at = static_cast<std::size_t>(p - text.data());
  }
  if (!r.ok()) r.value = T{};
  return r;
}

// A finite number in decimal or scientific notation ("0.5", "-2", "1e-9").
NumberRead<double> read_finite(std::string_view text);

// What is wrong with `text`, in a few words for after the quoted text: "empty", "not a number"
// ("abc"; "-1" for an unsigned number), "text after the number: 'ms' at character 3" ("12ms"),
// "out of range", "not finite". "" when nothing is wrong.
std::string describe_number_problem(NumberProblem problem, std::size_t at, std::string_view text);
template <class T>
std::string describe(const NumberRead<T>& r, std::string_view text) {
  return describe_number_problem(r.problem, r.at, text);
}
// For after a message that already says "is not a number": " (text after the number: 'ms' at
// character 3)", or "" when there is nothing to add (plain "not a number", or no problem).
template <class T>
std::string why_not(const NumberRead<T>& r, std::string_view text) {
  if (r.ok() || r.problem == NumberProblem::not_a_number) return {};
  return " (" + describe(r, text) + ")";
}

// The short forms: the value, or nullopt when the text is not one.
// A decimal unsigned integer that fits 64 bits ("0", "42"); nullopt otherwise ("", "-1", "1e3",
// "12ms", "99999999999999999999").
std::optional<std::uint64_t> parse_unsigned(std::string_view text);

// A finite number ("0.5", "-2", "1e-9"); nullopt otherwise ("", "nan", "inf", "0.5x", "1e999").
std::optional<double> parse_finite(std::string_view text);

}  // namespace playtest
