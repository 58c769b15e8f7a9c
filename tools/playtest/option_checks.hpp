// Validators for option values whose ranges CLI11 would print as 300-digit numbers: the message
// says the range in words ("a positive integer", "a positive finite number").
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace playtest::cli {

// An integer >= 1 (no sign, no fraction, fits in 64 bits).
inline CLI::Validator positive_integer() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        std::uint64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v == 0)
          return "must be a positive integer, got '" + s + "'";
        return {};
      },
      "POSITIVE INTEGER");
}

// An integer >= 0 that fits in 64 bits (CLI11 alone would take "-1" as 2^64 - 1: for a budget,
// "no budget").
inline CLI::Validator non_negative_integer() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        std::uint64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size())
          return "must be an integer from 0 to 18446744073709551615, got '" + s + "'";
        return {};
      },
      "");  // --help keeps the type's name (UINT)
}

// A time budget in seconds: 0 (none) or at least a millisecond, the clock's unit (a smaller value
// would round to 0, which means no budget at all).
inline CLI::Validator budget_seconds() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double v = 0;
        std::size_t used = 0;
        try {
          v = std::stod(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (s.empty() || used != s.size() || !std::isfinite(v) || v < 0 || (v > 0 && v < 0.001) || v > 3.0e8)
          return "must be 0 (no budget) or a number of seconds from 0.001 to 3e8, got '" + s + "'";
        return {};
      },
      "SECONDS");
}

// A finite number > 0 (not nan, not inf).
inline CLI::Validator positive_finite() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double v = 0;
        std::size_t used = 0;
        try {
          v = std::stod(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (s.empty() || used != s.size() || !std::isfinite(v) || !(v > 0))
          return "must be a positive finite number, got '" + s + "'";
        return {};
      },
      "POSITIVE NUMBER");
}

// A finite number >= 0.
inline CLI::Validator non_negative_finite() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double v = 0;
        std::size_t used = 0;
        try {
          v = std::stod(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (s.empty() || used != s.size() || !std::isfinite(v) || !(v >= 0))
          return "must be a finite number >= 0, got '" + s + "'";
        return {};
      },
      "NUMBER >= 0");
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
