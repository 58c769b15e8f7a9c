// The one parser of numbers written in text (options, specs, file fields) below the tool: the whole
// text must be the number, nothing before or after it, no sign on an unsigned one, and a double
// must be finite. Callers say what the number is for in their own error message.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace playtest {

// A decimal unsigned integer that fits 64 bits ("0", "42"); nullopt otherwise ("", "-1", "1e3",
// "12ms", "99999999999999999999").
std::optional<std::uint64_t> parse_unsigned(std::string_view text);

// A finite number in decimal or scientific notation ("0.5", "-2", "1e-9"); nullopt otherwise ("",
// "nan", "inf", "0.5x", "1e999").
std::optional<double> parse_finite(std::string_view text);

}  // namespace playtest
