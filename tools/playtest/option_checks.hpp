// Validators for option values whose ranges CLI11 would print as 300-digit numbers: the message
// says the range in words ("a positive integer", "a positive finite number").
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "playtest/base/numbers.hpp"

namespace playtest::cli {

// An integer written whole in decimal digits (no sign, no fraction) that fits in 64 bits and is
// `ok` by the option's rule (CLI11 alone would take "-1" as 2^64 - 1: for a budget, "no budget").
// The message is "must be <what>, got '...'"; --help shows `name` ("": the type's, UINT).
template <class Ok>
CLI::Validator integer_check(Ok ok, std::string what, std::string name) {
  return CLI::Validator(
      [ok, what](std::string& s) -> std::string {
        const auto v = read_integer<std::uint64_t>(s);
        if (!v.ok() || !ok(v.value)) return "must be " + what + ", got '" + s + "'";
        return {};
      },
      std::move(name));
}

// An integer >= 1.
inline CLI::Validator positive_integer() {
  return integer_check([](std::uint64_t v) { return v != 0; }, "a positive integer", "POSITIVE INTEGER");
}

// An integer >= 0.
inline CLI::Validator non_negative_integer() {
  return integer_check([](std::uint64_t) { return true; }, "an integer from 0 to 18446744073709551615", "");
}

// A number written whole (read_finite reads all of it), finite, and `ok` by the option's rule; the
// message is "must be <what>, got '...'", and --help shows `name`.
template <class Ok>
CLI::Validator number_check(Ok ok, std::string what, std::string name) {
  return CLI::Validator(
      [ok, what](std::string& s) -> std::string {
        const auto v = read_finite(s);
        if (!v.ok() || !ok(v.value)) return "must be " + what + ", got '" + s + "'";
        return {};
      },
      std::move(name));
}

// A finite number > 0 (not nan, not inf).
inline CLI::Validator positive_finite() {
  return number_check([](double v) { return v > 0; }, "a positive finite number", "POSITIVE NUMBER");
}

// A finite number >= 0.
inline CLI::Validator non_negative_finite() {
  return number_check([](double v) { return v >= 0; }, "a finite number >= 0", "NUMBER >= 0");
}

// A time budget in seconds: 0 (none) or at least a millisecond, the clock's unit (a smaller value
// would round to 0, which means no budget at all).
inline CLI::Validator budget_seconds() {
  return number_check([](double v) { return v == 0 || (v >= 0.001 && v <= 3.0e8); },
                      "0 (no budget) or a number of seconds from 0.001 to 3e8", "SECONDS");
}

}  // namespace playtest::cli

namespace playtest::cli {

// A renamed option: `old_name` still works, hidden from --help, and warns on stderr once that
// `new_name` is the spelling to use. `target` receives the value as the new option would.
template <class T>
void add_deprecated_alias(CLI::App* sub, const std::string& old_name, const std::string& new_name, T& target) {
  sub->add_option_function<std::string>(
         old_name,
         [&target, old_name, new_name, sub](const std::string& value) {
           std::fprintf(stderr, "playtest %s: warning: %s is deprecated; use %s\n", sub->get_name().c_str(),
                        old_name.c_str(), new_name.c_str());
           if constexpr (std::is_same_v<T, std::vector<std::string>>)
             target.push_back(value);
           else
             target = value;
         },
         "deprecated spelling of " + new_name)
      ->group("")  // hidden
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->expected(1);
}

}  // namespace playtest::cli
